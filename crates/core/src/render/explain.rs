//! `explain` as text: the headline first, then findings, timeline, the controller replay and
//! the fix — everything an on-call engineer needs without scrolling for the point.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::style::Style;
use super::wrap::wrap;
use crate::replay::Decision;
use crate::report::{CronJobReport, Health, Report, SlotStatus};
use crate::rules::Severity;
use crate::text::{human_duration, show_time};

/// Rendering choices: colour and terminal width.
#[derive(Clone, Copy, Debug)]
pub struct TextOptions {
    pub style: Style,
    pub width: usize,
}

/// The report for stdout. Input errors are not in it: they go to stderr (see
/// [`super::input_errors`]), where errors belong.
pub fn render(report: &Report, o: TextOptions) -> String {
    let mut out = header(report, o);
    if report.cron_jobs.is_empty() {
        out.push_str(NONE_FOUND);
    }
    for (i, cj) in report.cron_jobs.iter().enumerate() {
        out.push_str(&cron_job(report, cj, i, o));
    }
    out
}

/// What [`render`] prints when the input holds no CronJob.
pub const NONE_FOUND: &str = "No CronJob found in the input.\n";

/// The notes that open the output. With [`cron_job`] (and [`NONE_FOUND`] when there is no
/// CronJob) a caller writes the same text one CronJob at a time, without the whole report.
pub fn header(report: &Report, o: TextOptions) -> String {
    let mut out = String::new();
    for n in &report.notes {
        out.push_str(&format!("{} {n}\n", o.style.dim("note:")));
    }
    if !report.notes.is_empty() {
        out.push('\n');
    }
    out
}

/// The `index`-th CronJob's section (with the separator before every one but the first);
/// `report` gives the instant and release it was evaluated at.
pub fn cron_job(report: &Report, cj: &CronJobReport, index: usize, o: TextOptions) -> String {
    let mut out = String::new();
    if index > 0 {
        out.push_str(&o.style.dim(&"─".repeat(o.width.min(100))));
        out.push_str("\n\n");
    }
    render_one(&mut out, report, cj, o);
    out
}

fn severity_word(s: Severity, st: Style) -> String {
    let w = format!("{:<8}", s.as_str());
    match s {
        Severity::Error => st.red(&w),
        Severity::Warning => st.yellow(&w),
        Severity::Info => st.dim(&w),
    }
}

fn render_one(out: &mut String, report: &Report, cj: &CronJobReport, o: TextOptions) {
    let st = o.style;
    let (mark, head) = match cj.health {
        Health::Error => (st.red("✗"), st.bold(&cj.headline)),
        Health::Warning => (st.yellow("!"), st.bold(&cj.headline)),
        Health::Ok => (st.green("✓"), st.bold(&cj.headline)),
    };
    out.push_str(&format!(
        "{mark} {}\n",
        wrap(&head, o.width - 2, o.width, 2)
    ));
    let mut context = format!("{}/{}", cj.namespace, cj.name);
    if let Some(s) = &cj.source {
        context.push_str(&format!(" · {}:{}", s.file, s.line));
    }
    if let Some(d) = &cj.description {
        context.push_str(&format!(" · {d}"));
    }
    out.push_str(&format!(
        "  {}\n",
        st.dim(&wrap(&context, o.width - 2, o.width, 2))
    ));
    if let Some(r) = &cj.next_run_at_risk {
        // The prediction in one line: the next slot will produce no run, and why.
        let line = format!(
            "next run {} at risk — {}",
            crate::text::show_time(r.slot, &cj.zone),
            r.summary()
        );
        out.push_str(&format!(
            "  {} {}\n",
            st.yellow("⚠"),
            wrap(&line, o.width - 4, o.width, 4)
        ));
    }

    if !cj.findings.is_empty() {
        out.push_str(&format!("\n{}\n", st.bold("Findings")));
        let slug_w = cj.findings.iter().map(|f| f.slug.len()).max().unwrap_or(0);
        let indent = 2 + 9 + slug_w + 2;
        for f in &cj.findings {
            out.push_str(&format!(
                "  {} {:<slug_w$}  {}\n",
                severity_word(f.severity, st),
                f.slug,
                wrap(&f.message, o.width.saturating_sub(indent), o.width, indent)
            ));
            for e in &f.evidence {
                out.push_str(&format!(
                    "{}{}\n",
                    " ".repeat(indent),
                    st.dim(&wrap(
                        &format!("· {e}"),
                        o.width.saturating_sub(indent),
                        o.width,
                        indent + 2
                    ))
                ));
            }
        }
    }

    timeline(out, cj, o);
    replay(out, report, cj, o);

    fix(out, cj, o);
}

/// The Fix section: the one verified plan (commands in the order to run them, each under its
/// reason), then what the patch cannot fix and what was left out of it.
fn fix(out: &mut String, cj: &CronJobReport, o: TextOptions) {
    let st = o.style;
    let plan = &cj.fix;
    // Findings the plan's commands do not address, with their advice in words.
    let by_hand: Vec<_> = cj
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning && plan.remaining.contains(&f.slug))
        .filter(|f| !plan.commands.iter().any(|c| c.for_slugs.contains(&f.slug)))
        .filter(|f| !f.remediation.is_empty())
        .collect();
    if plan.commands.is_empty() && by_hand.is_empty() && plan.dropped.is_empty() {
        return;
    }
    out.push_str(&format!("\n{}\n", st.bold("Fix")));
    let comment = |out: &mut String, text: &str| {
        out.push_str(&format!(
            "  {}\n",
            st.dim(&wrap(&format!("# {text}"), o.width - 2, o.width, 4))
        ));
    };
    for c in &plan.commands {
        comment(out, &format!("{} ({})", c.reason, c.for_slugs.join(", ")));
        out.push_str(&format!("  {}\n", c.command));
    }
    for f in by_hand {
        comment(out, &format!("{} (by hand, {})", f.remediation, f.slug));
    }
    for d in &plan.dropped {
        comment(out, &format!("left out of the plan — {d}"));
    }
    let mut verdict = Vec::new();
    if plan.patch.is_some() {
        verdict.push(if plan.clears.is_empty() {
            "the patch, replayed, clears no finding by itself".to_string()
        } else {
            format!("the patch, replayed, clears {}", plan.clears.join(", "))
        });
    }
    let (kept, revealed): (Vec<&str>, Vec<&str>) = plan
        .remaining
        .iter()
        .partition(|s| cj.findings.iter().any(|f| f.slug == **s));
    if !kept.is_empty() {
        verdict.push(format!(
            "remaining until fixed as above: {}",
            kept.join(", ")
        ));
    }
    if !revealed.is_empty() {
        verdict.push(format!(
            "then reported: {} (runs already missed stay lost)",
            revealed.join(", ")
        ));
    }
    // With nothing to paste, the "by hand" lines already say it all.
    if !verdict.is_empty() && !plan.commands.is_empty() {
        out.push_str(&format!(
            "  {}\n",
            st.dim(&wrap(&verdict.join("; "), o.width - 2, o.width, 2))
        ));
    }
}

fn day_time(t: Timestamp, tz: &TimeZone) -> String {
    t.to_zoned(tz.clone()).strftime("%b %d %H:%M").to_string()
}

fn timeline(out: &mut String, cj: &CronJobReport, o: TextOptions) {
    if cj.timeline.is_empty() {
        return;
    }
    let st = o.style;
    let sched = cj.schedule.as_deref().unwrap_or("");
    out.push_str(&format!(
        "\n{} {}\n",
        st.bold(&format!(
            "Timeline (schedule {sched:?}, {})",
            cj.schedule_zone
        )),
        st.dim("✓ succeeded  ✗ failed  ▶ running  · skipped/missed  ? unknown")
    ));
    let job_w = cj
        .timeline
        .iter()
        .filter_map(|s| s.job.as_ref().map(|j| j.len()))
        .max()
        .unwrap_or(0);
    for s in &cj.timeline {
        let (sym, color): (&str, fn(Style, &str) -> String) = match s.status {
            SlotStatus::Succeeded => ("✓", Style::green),
            SlotStatus::Failed => ("✗", Style::red),
            SlotStatus::Running => ("▶", Style::yellow),
            SlotStatus::Skipped | SlotStatus::Missed => ("·", Style::yellow),
            SlotStatus::Due => ("▷", Style::yellow),
            SlotStatus::Unknown => ("?", Style::dim),
            SlotStatus::Next => (" ", Style::dim),
        };
        let when = day_time(s.time, &cj.zone);
        let mut line = format!("  {when}  {}", color(st, sym));
        if let Some(j) = &s.job {
            line.push_str(&format!(" {j:<job_w$}"));
            if let Some(d) = s.duration_seconds {
                line.push_str(&format!("  {:>7}", human_duration(d)));
            }
            if !s.note.is_empty() {
                line.push_str(&format!("  ← {}", s.note));
            }
        } else {
            line.push_str(&format!(" {}", s.note));
        }
        out.push_str(&line);
        out.push('\n');
    }
}

/// "Kubernetes v1.31 rules", or, for a release newer than the newest modelled one, which
/// rules stand in for it: never a silent "v1.39 rules".
fn rules_label(kube_version: &str) -> String {
    match kube_version.parse::<crate::replay::KubeVersion>() {
        Ok(v) if v.beyond_modelled() => {
            format!("Kubernetes v{v}, replayed with the v{} rules", v.rules())
        }
        _ => format!("Kubernetes v{kube_version} rules"),
    }
}

/// What the create step of the replayed sync does: a new Job, or what becomes of a Job that
/// already has the slot's name (adopted from 1.37; an error before).
fn create_verdict(r: &crate::replay::Replay) -> String {
    use crate::replay::CreateOutcome as O;
    let name = r.job_name.as_deref().unwrap_or("?");
    match r.create_outcome {
        Some(O::Adopted) => {
            format!("→ adopts the existing job {name} (it was missing from status.active)")
        }
        Some(O::AlreadyExistsGetFailed) => format!(
            "→ fails: job {name} already exists and this release cannot adopt it (kubernetes#136918); the sync errors and is retried with backoff, lastScheduleTime stays"
        ),
        Some(O::AlreadyExistsError | O::FailedCreate) => format!(
            "→ fails: job {name} already exists; the sync errors and is retried with backoff, lastScheduleTime stays"
        ),
        Some(O::AlreadyExistsNotOwned) => {
            format!("→ nothing: job {name} exists and is not controlled by this CronJob")
        }
        Some(O::AlreadyExistsInActive) => format!("→ nothing: job {name} is already active"),
        Some(O::Created) | None => format!("→ creates job {name}"),
    }
}

fn replay(out: &mut String, report: &Report, cj: &CronJobReport, o: TextOptions) {
    let st = o.style;
    let r = &cj.replay;
    let tz = &cj.zone;
    out.push_str(&format!(
        "\n{}\n",
        st.bold(&format!(
            "Controller replay at {} ({}, controller zone {})",
            show_time(report.now, tz),
            rules_label(&report.kube_version),
            report.controller_time_zone
        ))
    ));
    let row = |out: &mut String, k: &str, v: String| out.push_str(&format!("  {:<15}  {v}\n", k));
    row(
        out,
        "last scheduled",
        cj.last_schedule_time
            .map(|t| show_time(t, tz))
            .unwrap_or_else(|| "never".into()),
    );
    let verdict = match r.decision {
        Decision::Create => create_verdict(r),
        Decision::ForbidBlocked => format!(
            "→ not started: Forbid, {} active job(s)",
            cj.active_jobs.len()
        ),
        Decision::AlreadyProcessed => "→ already started".to_string(),
        Decision::MissedDeadline => "→ skipped silently: past startingDeadlineSeconds".to_string(),
        Decision::NothingDue if r.window_miss => {
            "→ nothing: the estimate misses the due slot".to_string()
        }
        Decision::NothingDue => "nothing due".to_string(),
        d => format!(
            "→ stops before scheduling: {}",
            serde_json::to_value(d)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        ),
    };
    let due = r
        .scheduled_time
        .or(r.due_ignoring_deadline)
        .or(r.true_most_recent);
    match (due, r.decision) {
        (_, Decision::NothingDue) if !r.window_miss => row(out, "due now", verdict),
        (Some(t), _) => row(out, "due now", format!("{} {verdict}", show_time(t, tz))),
        (None, _) => row(out, "due now", verdict),
    }
    if !r.events.is_empty() {
        row(
            out,
            "events",
            r.events
                .iter()
                .map(|e| e.reason.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    match r.requeue_after_ms {
        Some(ms) if ms <= 0 => row(out, "requeue", "immediately (hot loop)".into()),
        Some(ms) => row(out, "requeue in", human_duration(ms / 1000)),
        None => row(
            out,
            "requeue",
            "none (waits for an edit, a Job event or a resync)".into(),
        ),
    }
    if !cj.next_schedule_times.is_empty() {
        let next: Vec<String> = cj
            .next_schedule_times
            .iter()
            .take(3)
            .map(|t| show_time(*t, tz))
            .collect();
        row(out, "next runs", next.join(", "));
    }
    for n in &r.notes {
        out.push_str(&format!(
            "  {}\n",
            st.dim(&wrap(&format!("note: {n}"), o.width - 2, o.width, 4))
        ));
    }
}
