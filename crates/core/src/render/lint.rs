//! `lint` as text: one grep-able line per finding (`file:line:col  severity  slug  message`),
//! then a one-line summary. Built for CI logs.

use super::style::Style;
use crate::report::{CronJobReport, InputError};
use crate::rules::Severity;

/// The lint lines, gathered one CronJob at a time so that a caller can drop each CronJob's
/// report once it is read (BENCHMARKS.md, "Big inputs: peak memory"); the columns are
/// aligned at the end.
pub struct Lines {
    show: Severity,
    rows: Vec<(String, Severity, &'static str, String)>,
    cron_jobs: usize,
}

impl Lines {
    pub fn new(show: Severity) -> Self {
        Lines {
            show,
            rows: Vec::new(),
            cron_jobs: 0,
        }
    }

    /// Takes the lines of one CronJob's findings.
    pub fn add(&mut self, cj: &CronJobReport) {
        self.cron_jobs += 1;
        for f in cj.findings.iter().filter(|f| f.severity >= self.show) {
            let place = match (&cj.source, &f.location) {
                (Some(s), Some(l)) => format!("{}:{}:{}", s.file, l.line, l.column),
                (Some(s), None) => format!("{}:{}:{}", s.file, s.line, s.column),
                _ => format!("{}/{}", cj.namespace, cj.name),
            };
            self.rows
                .push((place, f.severity, f.slug, f.message.clone()));
        }
    }

    /// The text: every line, then the summary (which counts `errors` too).
    pub fn finish(self, errors: &[InputError], st: Style) -> String {
        let Lines {
            show,
            rows,
            cron_jobs: n,
        } = self;
        let place_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
        let slug_w = rows.iter().map(|r| r.2.len()).max().unwrap_or(0);
        // Input errors go to stderr (see `super::input_errors`); the summary counts them.
        let mut out = String::new();
        for (place, sev, slug, msg) in &rows {
            let sev_text = format!("{:<7}", sev.as_str());
            let sev_text = match sev {
                Severity::Error => st.red(&sev_text),
                Severity::Warning => st.yellow(&sev_text),
                Severity::Info => st.dim(&sev_text),
            };
            out.push_str(&format!(
                "{place:<place_w$}  {sev_text}  {slug:<slug_w$}  {msg}\n"
            ));
        }
        let count = |s: Severity| rows.iter().filter(|r| r.1 == s).count();
        let (e, w, i) = (
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
        );
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let mut parts = vec![plural(e, "error"), plural(w, "warning")];
        if show <= Severity::Info {
            parts.push(plural(i, "info"));
        }
        out.push_str(&format!(
            "{} in {} ({}){}\n",
            plural(rows.len(), "problem"),
            plural(n, "CronJob"),
            parts.join(", "),
            if errors.is_empty() {
                String::new()
            } else {
                // One file with nine bad documents is nine errors in one input, not nine inputs.
                let files: std::collections::BTreeSet<&str> =
                    errors.iter().map(|e| e.file.as_str()).collect();
                format!(
                    "; {} in {} (see stderr)",
                    plural(errors.len(), "input error"),
                    plural(files.len(), "input")
                )
            }
        ));
        out
    }
}
