//! Strings from a cluster or a file, made safe to print on a terminal.
//!
//! Anything the user did not write (names, annotation values, Event messages, schedules, zones,
//! parse errors quoting a file) may carry control characters: `ESC ] 0 ; … BEL` retitles the
//! terminal, `ESC [ 2 J` clears it, a bidi override reorders what the reader sees. Text output
//! shows them as visible escapes instead (`\e`, `\a`, `\u{9b}`, `\u{202e}`); JSON and SARIF
//! keep the raw value, since their encoders already escape it.
//!
//! [`for_terminal`] rewrites every string of a [`Report`] once, so the renderers need not know.

use super::{CronJobReport, Report};

use crate::escape::{fix_line, fix_opt_line, fix_text};
pub use crate::escape::{one_line, text};

/// Rewrite every input-derived string of `report` with [`one_line`] or [`text`]. Apply it once,
/// just before a text renderer; never before JSON or SARIF.
pub fn for_terminal(mut report: Report) -> Report {
    make_visible(&mut report);
    report
}

/// [`for_terminal`] in place.
pub fn make_visible(report: &mut Report) {
    fix_line(&mut report.kube_version);
    fix_line(&mut report.controller_time_zone);
    report.notes.iter_mut().for_each(fix_text);
    for e in &mut report.errors {
        fix_line(&mut e.file);
        fix_text(&mut e.message);
    }
    report.cron_jobs.iter_mut().for_each(cron_job_for_terminal);
}

/// One CronJob's report (used by `scan`, which renders each as it is diagnosed).
pub fn cron_job_for_terminal(c: &mut CronJobReport) {
    fix_line(&mut c.namespace);
    fix_line(&mut c.name);
    if let Some(s) = &mut c.source {
        fix_line(&mut s.file);
    }
    fix_opt_line(&mut c.schedule);
    fix_opt_line(&mut c.time_zone);
    fix_line(&mut c.schedule_zone);
    if let Some(d) = &mut c.description {
        fix_text(d);
    }
    fix_text(&mut c.headline);
    fix_text(&mut c.status);
    fix_opt_line(&mut c.controller.job_name);
    c.controller.events.iter_mut().for_each(fix_line);
    for f in &mut c.findings {
        fix_text(&mut f.message);
        fix_text(&mut f.remediation);
        if let Some(cmd) = &mut f.command {
            fix_text(cmd);
        }
        f.evidence.iter_mut().for_each(fix_text);
        if let Some(h) = &mut f.headline {
            fix_text(h);
        }
        for st in &mut f.remedy.steps {
            fix_text(&mut st.command);
            fix_text(&mut st.reason);
        }
        if let Some(n) = &mut f.remedy.patch_note {
            fix_text(n);
        }
    }
    for cmd in &mut c.fix.commands {
        fix_text(&mut cmd.command);
        fix_text(&mut cmd.reason);
    }
    c.fix.dropped.iter_mut().for_each(fix_text);
    for s in &mut c.timeline {
        fix_opt_line(&mut s.job);
        fix_text(&mut s.note);
    }
    c.active_jobs.iter_mut().for_each(fix_line);
    let r = &mut c.replay;
    fix_opt_line(&mut r.job_name);
    fix_opt_line(&mut r.scheduled_timestamp_annotation);
    for e in &mut r.events {
        fix_line(&mut e.type_);
        fix_line(&mut e.reason);
        fix_text(&mut e.message);
    }
    if let Some(e) = &mut r.sync_error {
        fix_text(e);
    }
    for a in &mut r.active_after {
        fix_line(&mut a.name);
        fix_line(&mut a.namespace);
        fix_line(&mut a.uid);
    }
    if let Some(p) = &mut r.controller_panic {
        fix_text(p);
    }
    fix_opt_line(&mut r.effective_schedule);
    if let Some(s) = &mut r.schedule {
        fix_line(&mut s.formatted);
    }
    r.notes.iter_mut().for_each(fix_text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::escape::is_hostile;
    use std::borrow::Cow;

    const HOSTILE: &str = "mallory\u{1b}]0;PWNED\u{07}\u{1b}[2J\u{1b}[8m";

    #[test]
    fn escapes_and_bells_become_visible() {
        assert_eq!(one_line(HOSTILE), "mallory\\e]0;PWNED\\a\\e[2J\\e[8m");
        assert_eq!(
            one_line("a\u{7f}b\u{9b}c\u{202e}d\u{2066}e\u{0}"),
            "a\\u{7f}b\\u{9b}c\\u{202e}d\\u{2066}e\\0"
        );
        assert_eq!(one_line("x\ny\tz\r"), "x\\ny\\tz\\r");
    }

    #[test]
    fn free_text_keeps_newlines_and_tabs_but_not_carriage_returns() {
        assert_eq!(text("a\nb\tc\rd\u{1b}"), "a\nb\tc\\rd\\e");
    }

    #[test]
    fn clean_strings_are_borrowed_unchanged() {
        for s in [
            "backup-db",
            "0 3 * * *",
            "Europe/Zürich",
            "→ ✓ émoji 🙂",
            "",
        ] {
            assert!(matches!(one_line(s), Cow::Borrowed(b) if b == s));
            assert!(matches!(text(s), Cow::Borrowed(b) if b == s));
        }
    }

    #[test]
    fn next_view_strings_become_visible() {
        let zone = jiff::tz::TimeZone::UTC;
        let from = "2026-11-20T12:00:00Z".parse().unwrap();
        let mut v = crate::render::next::compute("0 3 * * *\u{1b}[2J", None, from, 3, "UTC", &zone);
        assert!(v.outcome.is_err());
        crate::render::next::for_terminal(&mut v);
        assert_eq!(v.schedule, "0 3 * * *\\e[2J");
        let msg = &v.outcome.as_ref().unwrap_err().error.message;
        assert!(!msg.contains('\u{1b}'), "{msg}");
        let mut v =
            crate::render::next::compute("0 3 * * *", Some("UTC\u{7}"), from, 3, "UTC", &zone);
        crate::render::next::for_terminal(&mut v);
        assert_eq!(v.time_zone.as_deref(), Some("UTC\\a"));
    }

    fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
            serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
                out.push(k.clone());
                collect_strings(x, out)
            }),
            _ => {}
        }
    }

    #[test]
    fn every_report_string_from_the_input_is_rewritten() {
        let yaml = format!(
            "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: \"{n}\"\n  namespace: \"{n}\"\n  annotations:\n    cronjob-doctor.io/suspended-by: \"{n}\"\n    cronjob-doctor.io/suspended-reason: \"{n}\"\nspec:\n  suspend: true\n  schedule: \"{n}\"\n  timeZone: \"{n}\"\n  concurrencyPolicy: \"{n}\"\n  jobTemplate: {{spec: {{template: {{spec: {{containers: [{{name: c, image: i}}]}}}}}}}}\n",
            n = "mallory\\e]0;PWNED\\a\\e[2J"
        );
        let loaded = crate::source::parse_bytes("evil\u{1b}[2J.yaml", yaml.as_bytes());
        let (snapshot, _) = loaded.into_snapshot();
        let opts = super::super::Options::utc(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            crate::replay::KubeVersion::NEWEST,
            8,
        );
        let raw = super::super::build(&snapshot, Vec::new(), &opts);
        assert!(
            raw.cron_jobs[0].name.contains('\u{1b}'),
            "the fixture carries ESC"
        );
        let shown = for_terminal(raw);
        let mut strings = Vec::new();
        collect_strings(&serde_json::to_value(&shown).unwrap(), &mut strings);
        strings.extend(
            shown.cron_jobs[0]
                .findings
                .iter()
                .filter_map(|f| f.headline.clone()),
        );
        assert!(strings.len() > 20, "{strings:?}");
        for s in &strings {
            assert!(!s.chars().any(|c| c != '\n' && is_hostile(c)), "{s:?}");
        }
        assert!(shown.cron_jobs[0].name.contains("\\e]0;PWNED\\a"));
    }
}
