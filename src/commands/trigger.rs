//! `trigger NAME`: run a CronJob now, the way `kubectl create job --from=cronjob/NAME` does,
//! but saying first what that Job is to the controller: invisible (no `controller: true`
//! ownerReference), so concurrencyPolicy does not apply to it, the history limits never
//! prune it, and its success does not move `status.lastSuccessfulTime`
//! (kubernetes/kubernetes#126384, #110430, #115335). Then: permission check, server-side dry
//! run, confirmation, create, and optionally follow it to the end.

use doctor::actions::trigger::{manual_job_name, plan_job};
use doctor::actions::trigger_preview::preview;

use crate::actions::session::{Access, Session};
use crate::actions::wait::{self, Outcome};
use crate::actions::{no_terminal, write_failure};
use crate::cli::{DryRun, ObjectFormat, TriggerArgs};
use crate::cluster::{self, write_requests};
use crate::error::exit;
use crate::error::{ClusterError, Declined, Error, UsageError};
use crate::term::confirm::{self, Consent};
use crate::term::emit;
use crate::term::out::{Out, object_text};

/// Five characters from the alphabet Kubernetes uses for generateName (no vowels, no
/// look-alikes, so a suffix never spells a word or reads ambiguously).
fn random_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    let mut n = h.finish();
    (0..5)
        .map(|_| {
            let c = ALPHABET[(n % ALPHABET.len() as u64) as usize] as char;
            n /= ALPHABET.len() as u64;
            c
        })
        .collect()
}

/// `--timeout` of `--wait`: the same grammar as `--request-timeout`, with its own limit (the
/// 168h clap accepts, not the 24h of a single request).
fn wait_timeout(text: &str) -> Result<Option<std::time::Duration>, Error> {
    crate::cli::ranges::bounded_duration(
        text,
        crate::cli::ranges::WAIT_TIMEOUT_MAX,
        "168h (7 days)",
    )
    .map_err(|e| {
        UsageError::WaitTimeout {
            value: text.to_string(),
            source: e,
        }
        .into()
    })
}

pub fn run(a: &TriggerArgs) -> Result<i32, Error> {
    if a.wait && a.action.dry_run != DryRun::None {
        return Err(UsageError::WaitDryRun {
            dry_run: a.action.dry_run.flag(),
        }
        .into());
    }
    let timeout = wait_timeout(&a.timeout)?;
    // Names are checked before any request: a name the API server could never have
    // accepted names nothing, and must not reach a request path.
    let invalid = |e: doctor::names::InvalidName| {
        Error::from(UsageError::NothingSent(Box::new(UsageError::InvalidName(
            e,
        ))))
    };
    doctor::names::cron_job_name(&a.name).map_err(invalid)?;
    let job_name = a
        .job_name
        .clone()
        .unwrap_or_else(|| manual_job_name(&a.name, &random_suffix()));
    doctor::names::job_name(&job_name).map_err(|e| match &a.job_name {
        Some(_) => UsageError::NothingSent(Box::new(UsageError::JobName(e))).into(),
        None => invalid(e),
    })?;
    let rt = cluster::runtime()?;
    rt.block_on(trigger(a, &job_name, timeout))
}

async fn trigger(
    a: &TriggerArgs,
    job_name: &str,
    timeout: Option<std::time::Duration>,
) -> Result<i32, Error> {
    let out = Out {
        to_stderr: a.output.is_some(),
    };
    let format = a.output.unwrap_or(ObjectFormat::Yaml);
    let s = Session::connect(
        &a.action.kube,
        a.action.namespace.as_deref(),
        a.action.dry_run,
    )
    .await?;
    let ns = s.ns.clone();
    let (raw, cj) = s.cron_job(&a.name).await?;
    let jobs = s.jobs_of(&cj).await?;
    let now = cluster::server_now(&s.api).0;
    let job = plan_job(&raw, job_name).map_err(ClusterError::PlanJob)?;
    out.lines(preview(&cj, jobs.as_deref(), &job, now, &ns));
    match a.action.dry_run {
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
    if a.action.dry_run == DryRun::Server {
        out.line("--dry-run=server: the API server accepted it (dryRun=All); nothing was created. Its answer:");
        emit(&object_text(&answer, format));
        return Ok(exit::OK);
    }
    out.line("Server-side dry run: accepted.");
    match confirm::ask(&format!("Create job {job_name} in {ns}?"), a.action.yes) {
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
    if a.output.is_some() {
        emit(&object_text(&created, format));
    }
    if !a.wait {
        out.line(format!(
            "Follow it with `kubectl logs -f job/{job_name} -n {ns}` (or add --wait next time)."
        ));
        return Ok(exit::OK);
    }
    Ok(match wait::follow(&s, job_name, timeout, out).await? {
        Outcome::Complete => exit::OK,
        Outcome::Failed | Outcome::TimedOut => exit::FINDINGS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_timeout_reaches_the_168h_clap_accepts() {
        let h = |n: u64| Some(std::time::Duration::from_secs(n * 3600));
        assert_eq!(wait_timeout("48h").unwrap(), h(48));
        assert_eq!(wait_timeout("168h").unwrap(), h(168));
        assert_eq!(wait_timeout("0").unwrap(), None);
        let e = wait_timeout("169h").unwrap_err().to_string();
        assert!(e.starts_with("--timeout \"169h\": at most 168h"), "{e}");
    }

    #[test]
    fn suffixes_are_five_generate_name_characters() {
        let s = random_suffix();
        assert_eq!(s.len(), 5);
        assert!(
            s.bytes()
                .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)),
            "{s}"
        );
    }
}
