//! Without `--listen`: one line per change of a CronJob's status on stdout, as text or as
//! JSON lines (for piping into chat or paging tools): the formatting, and [`print`], which
//! writes them on a thread of its own.

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use doctor::monitor_view::{Summary, health_str};
use doctor::report::visible::one_line;
use jiff::Timestamp;
use serde_json::json;

use super::store::Key;

/// `2026-11-20T12:00:00Z ns/name error: headline` (None: the CronJob was deleted).
pub fn text(now: Timestamp, k: &Key, s: Option<&Summary>) -> String {
    let who = format!("{}/{}", k.0, k.1);
    let who = one_line(&who);
    match s {
        Some(s) => format!(
            "{now} {who} {}: {}",
            health_str(s.health),
            one_line(&s.headline)
        ),
        None => format!("{now} {who} deleted"),
    }
}

/// The same as one JSON object; `status` is `deleted` for a CronJob that is gone.
pub fn json(now: Timestamp, k: &Key, s: Option<&Summary>) -> String {
    let v = match s {
        Some(s) => json!({
            "time": now,
            "namespace": &*k.0,
            "cronJob": k.1,
            "status": health_str(s.health),
            "headline": s.headline,
            "findings": s.findings.iter().map(|(slug, _)| *slug).collect::<Vec<_>>(),
        }),
        None => json!({
            "time": now,
            "namespace": &*k.0,
            "cronJob": k.1,
            "status": "deleted",
        }),
    };
    v.to_string()
}

/// Whether a new summary is worth a line: the first one, or a different status or set of
/// findings. The headline alone is not: it counts time ("next run in 3h") and would print a
/// line on every evaluation.
pub fn changed(old: Option<&Summary>, new: &Summary) -> bool {
    old.is_none_or(|o| o.health != new.health || o.findings != new.findings)
}

/// Bytes of status lines waiting for stdout beyond which new ones are dropped (with a
/// warning on stderr): a stdout nobody reads must not grow the monitor's memory.
const QUEUE_BYTES: usize = 8 << 20;

static QUEUED: AtomicUsize = AtomicUsize::new(0);
static DROPPED: AtomicUsize = AtomicUsize::new(0);
static PRINTER: OnceLock<Sender<String>> = OnceLock::new();

/// Print `batch` (whole lines, each ending in `\n`) on stdout, from the printer thread: the
/// caller (the engine, holding the store) never waits for a full pipe, so a reader that
/// stops reading holds up neither the diagnosis nor SIGTERM.
pub fn print(batch: String) {
    let n = batch.len();
    let before = QUEUED.fetch_add(n, Ordering::SeqCst);
    if before > 0 && before + n > QUEUE_BYTES {
        QUEUED.fetch_sub(n, Ordering::SeqCst);
        let lines = batch.lines().count();
        if DROPPED.fetch_add(lines, Ordering::Relaxed) == 0 {
            eprintln!(
                "warning: stdout is not being read; status lines are dropped while {} MiB of them wait",
                QUEUE_BYTES >> 20
            );
        }
        return;
    }
    let tx = PRINTER.get_or_init(|| {
        let (tx, rx) = channel::<String>();
        let spawned = std::thread::Builder::new()
            .name("stdout".into())
            .spawn(move || write_lines(rx));
        if spawned.is_err() {
            eprintln!("warning: cannot start the thread that prints status lines");
        }
        tx
    });
    if tx.send(batch).is_err() {
        QUEUED.fetch_sub(n, Ordering::SeqCst);
    }
}

/// The printer thread: each line is one write, so on a pipe (where a write of up to
/// `PIPE_BUF`, 4 KiB, goes in whole or waits) a reader never gets part of a line, even when
/// the process ends while the pipe is full. A reader that went away (`| head`) is not the
/// monitor's problem: the lines are dropped and it goes on.
fn write_lines(rx: Receiver<String>) {
    let stdout = std::io::stdout();
    for batch in rx {
        for line in batch.split_inclusive('\n') {
            let mut out = stdout.lock();
            let _ = out.write_all(line.as_bytes()).and_then(|_| out.flush());
        }
        QUEUED.fetch_sub(batch.len(), Ordering::SeqCst);
    }
}

/// Wait (at most `within`) for the queued lines to be written, at exit.
pub fn finish(within: Duration) {
    let deadline = Instant::now() + within;
    while QUEUED.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doctor::report::Health;

    fn summary(health: Health, headline: &str) -> Summary {
        Summary {
            health,
            headline: headline.into(),
            findings: vec![("not-running", "error")],
            cause: "controller",
            missed_cause: "none",
            at_risk: Vec::new(),
            next_run: None,
            last_schedule: None,
            last_success: None,
            missed_runs: 0,
            last_run_start_delay: None,
            last_run_attempts: None,
            recheck_at: None,
        }
    }

    #[test]
    fn lines_name_the_cron_job_status_and_headline() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let k = ("ops".into(), "backup".to_string());
        let s = summary(Health::Error, "backup has not run\x1b[31m");
        assert_eq!(
            text(now, &k, Some(&s)),
            "2026-11-20T12:00:00Z ops/backup error: backup has not run\\e[31m"
        );
        assert_eq!(
            text(now, &k, None),
            "2026-11-20T12:00:00Z ops/backup deleted"
        );
        let v: serde_json::Value = serde_json::from_str(&json(now, &k, Some(&s))).unwrap();
        assert_eq!(v["status"], "error");
        assert_eq!(v["cronJob"], "backup");
        assert_eq!(v["findings"][0], "not-running");
        let v: serde_json::Value = serde_json::from_str(&json(now, &k, None)).unwrap();
        assert_eq!(v["status"], "deleted");
    }

    /// A BEL or a Unicode line/paragraph separator in a name or headline is escaped like
    /// every other control character: a text line stays one line on every viewer.
    #[test]
    fn text_lines_escape_control_bytes_and_line_separators() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let k = ("ops\u{7}".into(), "back\u{2028}up".to_string());
        let s = summary(Health::Error, "has not run\u{2029}forged line\u{7}");
        let line = text(now, &k, Some(&s));
        assert_eq!(
            line,
            "2026-11-20T12:00:00Z ops\\a/back\\u{2028}up error: has not run\\u{2029}forged line\\a"
        );
        assert_eq!(
            text(now, &k, None),
            "2026-11-20T12:00:00Z ops\\a/back\\u{2028}up deleted"
        );
    }

    #[test]
    fn only_status_or_findings_changes_make_a_line() {
        let a = summary(Health::Error, "next run in 3h");
        let b = summary(Health::Error, "next run in 2h");
        assert!(changed(None, &a));
        assert!(!changed(Some(&a), &b));
        let mut c = summary(Health::Ok, "fine");
        c.findings.clear();
        assert!(changed(Some(&a), &c));
    }
}
