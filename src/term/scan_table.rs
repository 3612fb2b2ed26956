//! The `scan` table: one row per CronJob with kubectl-style relative times, the headline as
//! STATUS and the findings that need attention; `-o wide` adds the concurrency policy, every
//! finding slug and the top finding's message.

use comfy_table::{Cell, Color, ContentArrangement, Table, presets};
use doctor::model::{ConcurrencyPolicy, CronJob};
use doctor::report::{CronJobReport, Health, visible};
use doctor::rules::Severity;
use jiff::Timestamp;

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

pub fn table(rows: &[Row], now: Timestamp, all_ns: bool, wide: bool, color: bool) -> String {
    let mut t = Table::new();
    t.load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled);
    if color {
        t.enforce_styling();
    } else {
        t.force_no_tty();
    }
    // Fleet rows carry their context: it is the first thing to know about a row.
    let contexts = rows.iter().any(|r| r.context.is_some());
    let mut header = vec![];
    if contexts {
        header.push("CONTEXT");
    }
    if all_ns {
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
    if wide {
        header.push("CONCURRENCY");
    }
    header.extend(["STATUS", "FINDINGS"]);
    if wide {
        header.push("TOP FINDING");
    }
    t.set_header(header);
    let (sched_w, tz_w, status_w) = if wide { (60, 40, 0) } else { (24, 16, 60) };
    for r in rows {
        let mut row: Vec<Cell> = Vec::new();
        let now = r.now.unwrap_or(now);
        if contexts {
            row.push(Cell::new(r.context.as_deref().unwrap_or("-")));
        }
        if all_ns {
            row.push(Cell::new(&r.namespace));
        }
        row.push(Cell::new(&r.name));
        row.push(Cell::new(
            r.schedule
                .as_deref()
                .map_or("-".into(), |s| shorten(s, sched_w)),
        ));
        row.push(Cell::new(
            r.time_zone
                .as_deref()
                .map_or("-".into(), |z| shorten(z, tz_w)),
        ));
        row.push(Cell::new(if r.suspended { "True" } else { "False" }));
        row.push(Cell::new(r.active));
        row.push(Cell::new(
            r.last_schedule.map_or("never".into(), |t| relative(t, now)),
        ));
        row.push(Cell::new(
            r.last_success.map_or("-".into(), |t| relative(t, now)),
        ));
        let next = match (r.suspended, r.next) {
            (true, _) => "suspended".to_string(),
            (false, Some(t)) => relative(t, now),
            (false, None) => "never".to_string(),
        };
        row.push(Cell::new(next));
        if wide {
            row.push(Cell::new(&r.concurrency));
        }
        let (mark, fg) = match r.health {
            Health::Error => ("✗", Color::Red),
            Health::Warning => ("!", Color::Yellow),
            Health::Ok => ("✓", Color::Green),
        };
        // `-o wide` shows the status whole; the table shortens details, never the cause.
        let status = if wide {
            r.status.clone()
        } else {
            shorten_status(&r.status, status_w)
        };
        let status = Cell::new(format!("{mark} {status}"));
        row.push(if r.health == Health::Ok {
            status
        } else {
            status.fg(fg)
        });
        let findings = match (wide, r.slugs.as_slice()) {
            (_, []) => "-".to_string(),
            (true, s) => s.join(","),
            (false, [one]) => one.to_string(),
            (false, [first, rest @ ..]) => format!("{first} +{}", rest.len()),
        };
        row.push(Cell::new(findings));
        if wide {
            row.push(Cell::new(
                r.top.as_deref().map_or("-".into(), |m| shorten(m, 160)),
            ));
        }
        t.add_row(row);
    }
    for col in t.column_iter_mut() {
        col.set_padding((0, 2));
    }
    t.trim_fmt()
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
    fn cells_from_the_cluster_show_control_characters() {
        let payload = "mallory\u{1b}]0;PWNED\u{7}\u{1b}[2J";
        let yaml = format!(
            "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: {n:?}, namespace: {n:?}}}\nspec: {{schedule: {n:?}, timeZone: {n:?}, concurrencyPolicy: {n:?}}}\n",
            n = format!("x{payload}")
        )
        .replace("\\u{1b}", "\\e")
        .replace("\\u{7}", "\\a");
        let (snapshot, _) = doctor::source::parse_bytes("f.yaml", yaml.as_bytes()).into_snapshot();
        assert_eq!(snapshot.cron_jobs[0].meta.name, format!("x{payload}"));
        let zone = jiff::tz::TimeZone::UTC;
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let opts = doctor::report::Options {
            now,
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: doctor::replay::KubeVersion::NEWEST,
            timeline: 0,
            severities: doctor::config::NO_OVERRIDES,
        };
        let r = doctor::report::build(&snapshot, Vec::new(), &opts);
        let row = Row::new(&snapshot.cron_jobs[0], &r.cron_jobs[0], true);
        for color in [false, true] {
            let out = table(std::slice::from_ref(&row), now, true, true, color);
            assert!(!out.contains('\u{7}'), "{out:?}");
            assert!(!out.contains("\u{1b}]"), "{out:?}");
            assert!(!out.contains("\u{1b}[2J"), "{out:?}");
            assert!(out.contains("xmallory\\e]0;PWNED\\a\\e[2J"), "{out}");
        }
    }
}
