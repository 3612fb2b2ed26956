//! The rows of the `scan` table, as text: one per CronJob with kubectl-style relative times,
//! the headline as STATUS and the findings that need attention; `-o wide` adds the
//! concurrency policy, every finding slug and the top finding's message. The shell lays the
//! cells out in columns and colours the STATUS cell (src/term/scan_table.rs): what a cell
//! says is decided here.

use jiff::Timestamp;

use crate::model::{ConcurrencyPolicy, CronJob};
use crate::report::{CronJobReport, Health, visible};
use crate::rules::Severity;

/// A table row, computed on the worker that diagnosed the CronJob (the report itself is not
/// kept: at cluster scale the rows are what fits in memory).
pub struct Row {
    /// The kubeconfig context the CronJob was read from (fleet scans: the CONTEXT column).
    pub context: Option<String>,
    /// That cluster's clock, when it is not the table's: relative times are the cluster's.
    now: Option<Timestamp>,
    pub namespace: String,
    pub name: String,
    schedule: Option<String>,
    time_zone: Option<String>,
    suspended: bool,
    active: usize,
    last_schedule: Option<Timestamp>,
    last_success: Option<Timestamp>,
    next: Option<Timestamp>,
    concurrency: String,
    pub health: Health,
    status: String,
    slugs: Vec<&'static str>,
    top: Option<String>,
}

impl Row {
    pub fn new(cj: &CronJob, r: &CronJobReport, wide: bool) -> Row {
        // Every cell comes from the cluster: control characters are shown, never sent
        // (`report::visible`).
        let shown = |s: &str| visible::one_line(s).into_owned();
        let problems = r
            .findings
            .iter()
            .filter(|f| f.severity >= Severity::Warning);
        Row {
            context: None,
            now: None,
            namespace: shown(&r.namespace),
            name: shown(&r.name),
            schedule: r.schedule.as_deref().map(shown),
            time_zone: r.time_zone.as_deref().map(shown),
            suspended: r.suspended,
            active: r.active_jobs.len(),
            last_schedule: r.last_schedule_time,
            last_success: r.last_successful_time,
            next: r.next_schedule_times.first().copied(),
            concurrency: match &cj.spec.concurrency_policy {
                ConcurrencyPolicy::Allow => "Allow".into(),
                ConcurrencyPolicy::Forbid => "Forbid".into(),
                ConcurrencyPolicy::Replace => "Replace".into(),
                ConcurrencyPolicy::Other(o) => shown(o),
            },
            health: r.health,
            // The headline without the name in front (the NAME column has it).
            status: shown(&r.status),
            slugs: problems.clone().map(|f| f.slug).collect(),
            top: if wide {
                problems.clone().next().map(|f| shown(&f.message))
            } else {
                None
            },
        }
    }

    /// The row of a fleet scan: read from `context`, whose API server's clock is `now`.
    pub fn in_context(mut self, context: &str, now: Timestamp) -> Row {
        self.context = Some(visible::one_line(context).into_owned());
        self.now = Some(now);
        self
    }
}

/// `3d ago`, `in 15h`, `42s ago`: the largest unit, as in kubectl's AGE column.
pub fn relative(t: Timestamp, now: Timestamp) -> String {
    let d = t.as_second() - now.as_second();
    let a = d.unsigned_abs();
    let v = match a {
        0..60 => format!("{a}s"),
        60..3600 => format!("{}m", a / 60),
        3600..86_400 => format!("{}h", a / 3600),
        _ => format!("{}d", a / 86_400),
    };
    if d <= 0 {
        format!("{v} ago")
    } else {
        format!("in {v}")
    }
}

/// A status cut to about `n` characters at a clause boundary (` (`, ` — `, `; `, `, `), with
/// `…`. The cause — everything up to the first boundary after the `: ` that introduces it —
/// is never cut, however long: a STATUS that stops mid-name misleads (issue: "Forbid is
/// blocked by job backup-29914740, a…").
pub fn shorten_status(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    const BOUNDARIES: [&str; 4] = [" (", " — ", "; ", ", "];
    let body = s.find(": ").map_or(0, |i| i + 2);
    let cuts: Vec<usize> = s
        .char_indices()
        .map(|(i, _)| i)
        .filter(|&i| i > body && BOUNDARIES.iter().any(|b| s[i..].starts_with(b)))
        .collect();
    let Some(&cause_end) = cuts.first() else {
        return s.to_string();
    };
    let best = cuts
        .iter()
        .rev()
        .copied()
        .find(|&i| s[..i].chars().count() < n)
        .unwrap_or(cause_end);
    format!("{}…", &s[..best])
}

/// At most `n` characters, with `…` when cut.
fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut out: String = s.chars().take(n.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Which columns a table has: the same for every row of it.
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    /// Fleet rows carry their context: it is the first thing to know about a row.
    pub context: bool,
    pub namespace: bool,
    /// `-o wide`: CONCURRENCY and TOP FINDING, schedules and statuses whole (or nearly).
    pub wide: bool,
}

impl Columns {
    /// The columns of a table of `rows`: CONTEXT when any row has one.
    pub fn of(rows: &[Row], namespace: bool, wide: bool) -> Columns {
        Columns {
            context: rows.iter().any(|r| r.context.is_some()),
            namespace,
            wide,
        }
    }

    pub fn header(&self) -> Vec<&'static str> {
        let mut header = vec![];
        if self.context {
            header.push("CONTEXT");
        }
        if self.namespace {
            header.push("NAMESPACE");
        }
        header.extend([
            "NAME",
            "SCHEDULE",
            "TIMEZONE",
            "SUSPEND",
            "ACTIVE",
            "LAST SCHEDULE",
            "LAST SUCCESS",
            "NEXT",
        ]);
        if self.wide {
            header.push("CONCURRENCY");
        }
        header.extend(["STATUS", "FINDINGS"]);
        if self.wide {
            header.push("TOP FINDING");
        }
        header
    }
}

/// One row's cells, in the order of [`Columns::header`].
pub struct Cells {
    pub text: Vec<String>,
    /// Which cell is the STATUS: a colour terminal shows it in the colour of the row's health.
    pub status: usize,
}

/// What each cell of `r` says, its relative times against `now` (unless the row carries its
/// own cluster's clock).
pub fn cells(r: &Row, now: Timestamp, columns: Columns) -> Cells {
    let wide = columns.wide;
    let (sched_w, tz_w, status_w) = if wide { (60, 40, 0) } else { (24, 16, 60) };
    let mut row: Vec<String> = Vec::new();
    let now = r.now.unwrap_or(now);
    if columns.context {
        row.push(r.context.as_deref().unwrap_or("-").to_string());
    }
    if columns.namespace {
        row.push(r.namespace.clone());
    }
    row.push(r.name.clone());
    row.push(
        r.schedule
            .as_deref()
            .map_or("-".into(), |s| shorten(s, sched_w)),
    );
    row.push(
        r.time_zone
            .as_deref()
            .map_or("-".into(), |z| shorten(z, tz_w)),
    );
    row.push(if r.suspended { "True" } else { "False" }.to_string());
    row.push(r.active.to_string());
    row.push(r.last_schedule.map_or("never".into(), |t| relative(t, now)));
    row.push(r.last_success.map_or("-".into(), |t| relative(t, now)));
    let next = match (r.suspended, r.next) {
        (true, _) => "suspended".to_string(),
        (false, Some(t)) => relative(t, now),
        (false, None) => "never".to_string(),
    };
    row.push(next);
    if wide {
        row.push(r.concurrency.clone());
    }
    let mark = match r.health {
        Health::Error => "✗",
        Health::Warning => "!",
        Health::Ok => "✓",
    };
    // `-o wide` shows the status whole; the table shortens details, never the cause.
    let status = if wide {
        r.status.clone()
    } else {
        shorten_status(&r.status, status_w)
    };
    let status_at = row.len();
    row.push(format!("{mark} {status}"));
    let findings = match (wide, r.slugs.as_slice()) {
        (_, []) => "-".to_string(),
        (true, s) => s.join(","),
        (false, [one]) => one.to_string(),
        (false, [first, rest @ ..]) => format!("{first} +{}", rest.len()),
    };
    row.push(findings);
    if wide {
        row.push(r.top.as_deref().map_or("-".into(), |m| shorten(m, 160)));
    }
    Cells {
        text: row,
        status: status_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_times_use_the_largest_unit() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let at = |s: &str| s.parse::<Timestamp>().unwrap();
        assert_eq!(relative(at("2026-11-17T03:00:00Z"), now), "3d ago");
        assert_eq!(relative(at("2026-11-21T03:00:00Z"), now), "in 15h");
        assert_eq!(relative(at("2026-11-20T12:00:42Z"), now), "in 42s");
        assert_eq!(relative(at("2026-11-20T11:55:00Z"), now), "5m ago");
        assert_eq!(relative(now, now), "0s ago");
        assert_eq!(relative(now, now), "0s ago");
        assert_eq!(shorten("Mars/Olympus_Mons", 5), "Mars…");
    }

    #[test]
    fn a_status_loses_details_never_its_cause() {
        let s = "no run for 3d 9h (3 lost): Forbid is blocked by job backup-29914740, active for 3d 8h (its pod: cannot pull registry.example/backup:2.0 — ImagePullBackOff)";
        assert_eq!(shorten_status(s, 500), s);
        assert_eq!(
            shorten_status(s, 90),
            "no run for 3d 9h (3 lost): Forbid is blocked by job backup-29914740, active for 3d 8h…"
        );
        // Narrower than the cause itself: the cause stays whole.
        assert_eq!(
            shorten_status(s, 20),
            "no run for 3d 9h (3 lost): Forbid is blocked by job backup-29914740…"
        );
        // A cause without any boundary is never cut.
        let t = "is not running: suspended 3d 2h ago by a-very-long-name-of-whoever-suspended-it";
        assert_eq!(shorten_status(t, 10), t);
    }

    #[test]
    fn every_row_has_a_cell_under_each_header_and_status_under_status() {
        let yaml = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: sync, namespace: ops}\nspec: {schedule: \"0 * * * *\", suspend: true}\n";
        let (snapshot, r) = super::super::report_of(yaml, 0);
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let plain = Row::new(&snapshot.cron_jobs[0], &r.cron_jobs[0], true);
        let fleet = Row::new(&snapshot.cron_jobs[0], &r.cron_jobs[0], true).in_context("prod", now);
        for rows in [vec![plain], vec![fleet]] {
            for (namespace, wide) in [(false, false), (true, false), (false, true), (true, true)] {
                let columns = Columns::of(&rows, namespace, wide);
                let header = columns.header();
                let line = cells(&rows[0], now, columns);
                assert_eq!(line.text.len(), header.len(), "{header:?} {:?}", line.text);
                assert_eq!(header[line.status], "STATUS");
                let at = |h: &str| &line.text[header.iter().position(|x| *x == h).unwrap()];
                assert_eq!(at("NAME"), "sync");
                assert_eq!(at("NEXT"), "suspended");
                assert_eq!(at("SUSPEND"), "True");
                if columns.context {
                    assert_eq!(at("CONTEXT"), "prod");
                }
            }
        }
    }
}
