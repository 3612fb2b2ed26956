//! `trigger NAME`: run a CronJob now, the way `kubectl create job --from=cronjob/NAME` does,
//! but saying first what that Job is to the controller: invisible (no `controller: true`
//! ownerReference), so concurrencyPolicy does not apply to it, the history limits never
//! prune it, and its success does not move `status.lastSuccessfulTime`
//! (kubernetes/kubernetes#126384, #110430, #115335). Then: permission check, server-side dry
//! run, confirmation, create, and optionally follow it to the end.

use doctor::actions::trigger::plan_job;
use doctor::actions::trigger_preview::preview;

use super::plan::{self, TriggerPlan, Wait};
use crate::actions::session::{Access, Session};
use crate::actions::wait::{self, Outcome};
use crate::actions::{no_terminal, write_failure};
use crate::cli::{DryRun, TriggerArgs};
use crate::cluster::{self, write_requests};
use crate::error::exit;
use crate::error::{ClusterError, Declined, Error};
use crate::term::confirm::{self, Consent};
use crate::term::emit;
use crate::term::out::{Out, object_text};

pub fn run(a: &TriggerArgs) -> Result<i32, Error> {
    // Every flag, the names included, is checked before any request.
    let p = plan::trigger(a)?;
    let rt = cluster::runtime()?;
    rt.block_on(trigger(&p))
}

async fn trigger(p: &TriggerPlan) -> Result<i32, Error> {
    let (name, how, job_name) = (&p.action.name, &p.action.how, p.job_name.as_str());
    let out = Out {
        to_stderr: p.print_created,
    };
    let format = p.format;
    let s = Session::connect(&how.kube, how.namespace.as_deref(), how.dry_run).await?;
    let ns = s.ns.clone();
    let (raw, cj) = s.cron_job(name).await?;
    let jobs = s.jobs_of(&cj).await?;
    let (now, _) = p.instant.settle(cluster::server_now(&s.api));
    let job = plan_job(&raw, job_name).map_err(ClusterError::PlanJob)?;
    out.lines(preview(&cj, jobs.as_deref(), &job, now, &ns));
    match how.dry_run {
        DryRun::Client => {
            out.line("  • permission: not checked (--dry-run=client sends nothing)");
            out.line("--dry-run=client: nothing was sent. The Job would be:");
            emit(&object_text(&job, format));
            return Ok(exit::OK);
        }
        DryRun::Server => out.line("  • permission: checked by the server-side dry run below"),
        DryRun::None => match s.may("create", "batch", "jobs").await {
            Access::Allowed => out.line(format!(
                "  • permission: you may create jobs in {ns} (SelfSubjectAccessReview)"
            )),
            Access::Denied(why) => {
                return Err(ClusterError::CreateDenied {
                    namespace: ns.to_string(),
                    reason: why,
                }
                .into());
            }
            Access::Unknown(e) => out.line(format!(
                "  • permission: could not ask the server ({e}); the server-side dry run will tell"
            )),
        },
    }
    let answer = s
        .send(write_requests::create_job(&ns, &job, true))
        .await
        .map_err(|e| match e.code() {
            Some(409) => ClusterError::JobExists {
                job: job_name.to_string(),
                namespace: ns.to_string(),
                source: e,
            }
            .into(),
            _ => write_failure(&s, "POST jobs (server-side dry run)", &e, "create on jobs"),
        })?;
    if how.dry_run == DryRun::Server {
        out.line("--dry-run=server: the API server accepted it (dryRun=All); nothing was created. Its answer:");
        emit(&object_text(&answer, format));
        return Ok(exit::OK);
    }
    out.line("Server-side dry run: accepted.");
    match confirm::ask(&format!("Create job {job_name} in {ns}?"), how.yes) {
        Consent::Given => {
            s.confirmed();
        }
        Consent::Declined => {
            return Err(Declined::NotConfirmed {
                nothing_was: "nothing was created",
            }
            .into());
        }
        Consent::NoTerminal => return Err(no_terminal("nothing was created")),
    }
    let created = s
        .send(write_requests::create_job(&ns, &job, false))
        .await
        .map_err(|e| {
            write_failure(
                &s,
                &format!("POST jobs (create {job_name})"),
                &e,
                "create on jobs",
            )
        })?;
    out.line(format!("job.batch/{job_name} created in {ns}"));
    if p.print_created {
        emit(&object_text(&created, format));
    }
    let Wait::Follow(timeout) = p.wait else {
        out.line(format!(
            "Follow it with `kubectl logs -f job/{job_name} -n {ns}` (or add --wait next time)."
        ));
        return Ok(exit::OK);
    };
    Ok(match wait::follow(&s, job_name, timeout, out).await? {
        Outcome::Complete => exit::OK,
        Outcome::Failed | Outcome::TimedOut => exit::FINDINGS,
    })
}
