//! The write loop of `suspend` and `unsuspend`: read, evaluate, preview, dry-run on the
//! server, ask, patch with the resourceVersion precondition — and on 409 Conflict read again,
//! show what changed, re-evaluate and ask again. A concurrent edit is never overwritten: every
//! patch names the version the preview was computed from, so the server refuses it if anyone
//! wrote in between.

use doctor::actions::FIELD_MANAGER;
use doctor::actions::changes::changes;
use doctor::actions::suspend::PlannedPatch;
use doctor::model::CronJob;
use serde_json::Value;

// What `suspend` and `unsuspend` make of a reading: pure, in the core.
pub use doctor::actions::suspend_preview::{Evaluation, State};

use super::session::Session;
use super::{no_terminal, write_failure};
use crate::cli::{ActionArgs, DryRun};
use crate::cluster::http::ApiError;
use crate::cluster::objects::cron_job_of;
use crate::cluster::write_requests::{self, Write, target_of};
use crate::cluster::writer::MERGE_PATCH;
use crate::error::{ClusterError, Declined, Error};
use crate::term::confirm::{self, Consent};
use crate::term::out::{Out, request_text};

/// Conflicts re-evaluated before giving up (someone keeps writing the object).
pub const MAX_CONFLICT_RETRIES: u32 = 3;

/// How the loop ended (every ending is a success: exit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// The patches were applied.
    Applied,
    /// There was nothing to change.
    NothingToDo,
    /// `--dry-run=client` or `--dry-run=server`: shown or tested, nothing changed.
    DryRun,
}

/// Run the loop; `evaluate` is called again after every conflict.
pub async fn run(
    s: &Session,
    name: &str,
    a: &ActionArgs,
    with_jobs: bool,
    mut evaluate: impl FnMut(&State) -> Evaluation,
) -> Result<Done, Error> {
    let out = Out::STDOUT;
    let mut previous: Option<CronJob> = None;
    // The first reading: the "before" of the final before/after, so writes of ours that
    // landed before a conflict are not left out of it.
    let mut original: Option<CronJob> = None;
    let mut conflicts = 0;
    loop {
        // Every round starts from dry runs only; the real patches need this round's consent.
        s.unconfirmed();
        let (_, cj) = s.cron_job(name).await?;
        let jobs = if with_jobs {
            s.jobs_of(&cj).await?
        } else {
            None
        };
        let now = crate::cluster::server_now(&s.api).0;
        if let Some(before) = &previous {
            let changed = changes(before, &cj);
            if changed.is_empty() {
                out.line("Re-read it: nothing this command looks at changed.");
            } else {
                out.line("Re-read it; what changed:");
                out.lines(changed.iter().map(|c| format!("  {c}")));
            }
        }
        let original = original.get_or_insert_with(|| cj.clone()).clone();
        let state = State { cj, jobs, now };
        let ev = evaluate(&state);
        out.lines(&ev.preview);
        if ev.patches.is_empty() {
            out.line(&ev.nothing_to_do);
            return Ok(Done::NothingToDo);
        }
        out.line(format!(
            "Will send (JSON merge patch, fieldManager {FIELD_MANAGER}; refused with 409 if anyone else writes the CronJob after resourceVersion {}):",
            state.cj.meta.resource_version
        ));
        let steps: Vec<String> = ev
            .patches
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}. PATCH {}: {}", i + 1, short_path(name, p), p.describe))
            .collect();
        out.lines(steps.iter().map(|l| format!("  {l}")));
        if a.dry_run == DryRun::Client {
            out.line("--dry-run=client: nothing was sent. The requests would be:");
            for p in &ev.patches {
                let req = request(s, name, p, false).map_err(|e| s.failure("PATCH", &e))?;
                out.line(request_text("PATCH", &target_of(&req), MERGE_PATCH, &p.body).trim_end());
            }
            return Ok(Done::DryRun);
        }
        // The server-side dry run: validation, admission and RBAC answer before anyone is
        // asked, and a stale resourceVersion shows up here already.
        let mut dry_answers = Vec::new();
        let mut conflicted = None;
        for p in &ev.patches {
            match send(s, name, p, true).await {
                Ok(v) => dry_answers.push(v),
                Err(ApiError::Status { code: 409, .. }) => {
                    conflicted = Some(format!("PATCH {} (dry run)", short_path(name, p)));
                    break;
                }
                Err(e) => {
                    return Err(write_failure(
                        s,
                        &describe_request(name, p, true),
                        &e,
                        &permission(p),
                    ));
                }
            }
        }
        if let Some(what) = conflicted {
            conflict(&out, &what, &state.cj.meta.resource_version, &mut conflicts)?;
            previous = Some(state.cj);
            continue;
        }
        if a.dry_run == DryRun::Server {
            out.line("--dry-run=server: the API server accepted it (dryRun=All); nothing was changed. It would read:");
            for v in &dry_answers {
                let after = cron_job_of(v)?;
                for c in changes(&state.cj, &after)
                    .into_iter()
                    .filter(|c| c.field != "metadata.resourceVersion")
                {
                    out.line(format!("  {c}"));
                }
            }
            return Ok(Done::DryRun);
        }
        out.line("Server-side dry run: accepted.");
        match confirm::ask(&ev.question, a.yes) {
            Consent::Given => {
                s.confirmed();
            }
            Consent::Declined => {
                return Err(Declined::NotConfirmed {
                    nothing_was: "nothing was changed",
                }
                .into());
            }
            Consent::NoTerminal => return Err(no_terminal("nothing was changed")),
        }
        let mut current = state.cj.clone();
        let mut applied: Vec<&PlannedPatch> = Vec::new();
        let mut conflicted = None;
        for p in &ev.patches {
            let p_now = p.with_resource_version(&current.meta.resource_version);
            match send(s, name, &p_now, false).await {
                Ok(v) => {
                    current = cron_job_of(&v)?;
                    applied.push(p);
                }
                Err(ApiError::Status { code: 409, .. }) => {
                    conflicted = Some(format!("PATCH {}", short_path(name, p)));
                    break;
                }
                Err(e) => {
                    let failed =
                        write_failure(s, &describe_request(name, p, false), &e, &permission(p));
                    return Err(match (applied.last(), failed) {
                        (Some(done), Error::Api(failed)) => ClusterError::PartlyApplied {
                            source: failed,
                            done: done.describe.clone(),
                        }
                        .into(),
                        (_, failed) => failed,
                    });
                }
            }
        }
        if let Some(what) = conflicted {
            if !applied.is_empty() {
                out.line(format!(
                    "Applied: {}.",
                    applied
                        .iter()
                        .map(|p| p.describe.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
            // Compared with what we last wrote, so the re-read shows others' changes only.
            conflict(&out, &what, &current.meta.resource_version, &mut conflicts)?;
            previous = Some(current);
            continue;
        }
        out.line(format!("cronjob.batch/{name} {} in {}:", ev.done, s.ns));
        out.lines(
            changes(&original, &current)
                .iter()
                .map(|c| format!("  {c}")),
        );
        return Ok(Done::Applied);
    }
}

/// Report a 409 and count it; an error once the retries are used up.
fn conflict(out: &Out, what: &str, sent_rv: &str, conflicts: &mut u32) -> Result<(), Error> {
    *conflicts += 1;
    if *conflicts > MAX_CONFLICT_RETRIES {
        return Err(ClusterError::ConflictsAgain {
            what: what.to_string(),
            times: *conflicts,
        }
        .into());
    }
    out.line(format!(
        "{what}: 409 Conflict — someone else wrote the CronJob after resourceVersion {sent_rv}; reading it again (retry {} of {MAX_CONFLICT_RETRIES}).",
        *conflicts
    ));
    Ok(())
}

/// The PATCH of `p` on CronJob `name`, built by kube's request builder.
fn request(s: &Session, name: &str, p: &PlannedPatch, dry: bool) -> Result<Write, ApiError> {
    write_requests::patch_cron_job(&s.ns, name, p.subresource, &p.body, dry)
}

fn short_path(name: &str, p: &PlannedPatch) -> String {
    match p.subresource {
        Some(sub) => format!("cronjobs/{name}/{sub}"),
        None => format!("cronjobs/{name}"),
    }
}

fn describe_request(name: &str, p: &PlannedPatch, dry: bool) -> String {
    let dry = if dry { " (server-side dry run)" } else { "" };
    format!("PATCH {}{dry}", short_path(name, p))
}

/// The RBAC grant a patch needs, for the 403 message.
fn permission(p: &PlannedPatch) -> String {
    match p.subresource {
        Some(sub) => format!("patch on cronjobs/{sub}"),
        None => "patch on cronjobs".into(),
    }
}

async fn send(s: &Session, name: &str, p: &PlannedPatch, dry: bool) -> Result<Value, ApiError> {
    s.send(request(s, name, p, dry)).await
}
