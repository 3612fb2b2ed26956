//! Differential test: our engine against the real robfig/cron v3.0.1.
//!
//! The expected outputs come from the Go oracle in `tools/oracle` (real robfig/cron, Go's
//! `time` package, jiff's bundled tz database handed to Go through `ZONEINFO`), stored in
//! `tests/data/oracle-golden.jsonl` so that machines without Go can run this test.
//! `tools/oracle/run-differential.sh` regenerates the file and points this test at the fresh
//! output with `ORACLE_GOLDEN=/path/to/results.jsonl`.
//!
//! Required: 100 % agreement on accept/reject (a robfig panic must be a rejection with
//! `panics: true`) and on every one of the (up to) five `Next` results. Error texts are
//! compared too and the share of byte-identical messages is printed (target 100 %); set
//! `ORACLE_STRICT_MESSAGES=1` to make message differences fail as well.
//!
//! Environment:
//! * `ORACLE_GOLDEN=<file>`        results file to check instead of the committed golden file
//! * `ORACLE_FILTER=<substring>`   only check cases whose schedule contains the substring
//! * `ORACLE_CATEGORY=<k>`         only check cases of one generator category (`cur`, `dst`, ...)
//! * `ORACLE_MAX_PRINT=<n>`        print at most n mismatches per kind (default 1000, 0 = all)
//! * `ORACLE_REPORT=<file>`        also write every mismatch as JSONL to this file
//! * `ORACLE_CASE_TIMEOUT=<secs>`  abort if one case runs longer (default 300; a hang guard)
//! * `ORACLE_STRICT_MESSAGES=1`    fail on error-message differences too
//!
//! Run with
//! `cargo test -p cronjob-doctor-schedule --test integration differential:: -- --nocapture`
//! to see the summary on success.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Deserialize;

const MIN_CASES: usize = 20_000;
const NEXT_COUNT: usize = 5;

/// One line of the oracle output: the case plus what robfig did.
#[derive(Debug, Deserialize)]
struct Row {
    /// schedule string as given to `cron.ParseStandard`
    s: String,
    /// instant passed to the first `Next` (RFC3339, nanoseconds)
    f: String,
    /// the controller's Local zone (Go's `time.Local`)
    l: String,
    /// generator category
    #[serde(default)]
    k: String,
    /// ParseStandard returned a schedule
    ok: bool,
    /// robfig's error text, or the runtime panic text when `p`
    #[serde(default)]
    e: String,
    /// ParseStandard panicked
    #[serde(default)]
    p: bool,
    /// up to 5 chained `Next` results in UTC; `null` = Go zero time (ends the chain)
    #[serde(default)]
    n: Vec<Option<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Accepted(Vec<Option<Timestamp>>),
    Rejected {
        message: String,
        panics: bool,
    },
    /// Our engine panicked (a bug, or `unimplemented!()`); not a robfig behaviour.
    EnginePanicked(String),
}

impl Outcome {
    fn describe(&self) -> String {
        match self {
            Outcome::Accepted(times) => format!("accepted, next = {}", fmt_times(times)),
            Outcome::Rejected {
                message,
                panics: true,
            } => format!("PANIC {message:?}"),
            Outcome::Rejected {
                message,
                panics: false,
            } => format!("rejected {message:?}"),
            Outcome::EnginePanicked(msg) => format!("ENGINE PANICKED: {msg}"),
        }
    }
}

fn fmt_times(times: &[Option<Timestamp>]) -> String {
    let parts: Vec<String> = times
        .iter()
        .map(|t| t.map_or_else(|| "zero".to_string(), |t| t.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}

fn expected(row: &Row) -> Outcome {
    if row.ok {
        Outcome::Accepted(
            row.n
                .iter()
                .map(|t| {
                    t.as_ref().map(|s| {
                        s.parse::<Timestamp>()
                            .unwrap_or_else(|e| panic!("golden file: bad time {s:?}: {e}"))
                    })
                })
                .collect(),
        )
    } else {
        Outcome::Rejected {
            message: row.e.clone(),
            panics: row.p,
        }
    }
}

fn ours(row: &Row, from: Timestamp, local: &TimeZone) -> Outcome {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        match schedule::parse_standard(&row.s) {
            Err(err) => Outcome::Rejected {
                message: err.message,
                panics: err.panics,
            },
            Ok(sched) => {
                let mut times = Vec::with_capacity(NEXT_COUNT);
                let mut t = from;
                for _ in 0..NEXT_COUNT {
                    match sched.next(t, local) {
                        Some(n) => {
                            times.push(Some(n));
                            t = n;
                        }
                        None => {
                            times.push(None);
                            break;
                        }
                    }
                }
                Outcome::Accepted(times)
            }
        }
    }));
    result.unwrap_or_else(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "<non-string panic payload>".to_string());
        Outcome::EnginePanicked(msg)
    })
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn golden_path() -> PathBuf {
    match std::env::var_os("ORACLE_GOLDEN") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/oracle-golden.jsonl"),
    }
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

#[derive(Default)]
struct Tally {
    cases: usize,
    agree: usize,
    disagree: usize,
    msg_total: usize,
    msg_same: usize,
}

#[test]
fn differential_against_robfig() {
    let path = golden_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read oracle results {}: {e}\n(regenerate with tools/oracle/run-differential.sh)",
            path.display()
        )
    });
    let rows: Vec<Row> = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{}:{}: bad JSON line: {e}", path.display(), i + 1))
        })
        .collect();
    assert!(
        rows.len() >= MIN_CASES,
        "{} has only {} cases; at least {MIN_CASES} are required",
        path.display(),
        rows.len()
    );

    let filter = std::env::var("ORACLE_FILTER")
        .ok()
        .filter(|s| !s.is_empty());
    let category = std::env::var("ORACLE_CATEGORY")
        .ok()
        .filter(|s| !s.is_empty());
    let max_print = match env_usize("ORACLE_MAX_PRINT", 1000) {
        0 => usize::MAX,
        n => n,
    };
    let strict_messages = std::env::var("ORACLE_STRICT_MESSAGES").is_ok_and(|v| v == "1");
    let timeout = Duration::from_secs(env_usize("ORACLE_CASE_TIMEOUT", 300) as u64);

    // Hang guard: a schedule engine bug can loop forever; name the case and abort.
    let current = Arc::new(AtomicUsize::new(usize::MAX));
    let progress = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let case_text: Arc<Vec<String>> = Arc::new(
        rows.iter()
            .map(|r| format!("schedule {} from {} Local {}", json_str(&r.s), r.f, r.l))
            .collect(),
    );
    let watchdog = {
        let (current, progress, done, case_text) = (
            current.clone(),
            progress.clone(),
            done.clone(),
            case_text.clone(),
        );
        std::thread::spawn(move || {
            let mut last = (usize::MAX, Instant::now());
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(500));
                let p = progress.load(Ordering::Relaxed);
                if p != last.0 {
                    last = (p, Instant::now());
                } else if last.1.elapsed() > timeout {
                    let i = current.load(Ordering::Relaxed);
                    let what = case_text.get(i).map(String::as_str).unwrap_or("?");
                    eprintln!(
                        "differential: case #{i} ({what}) still running after {timeout:?}; \
                         the engine does not terminate on it (robfig does). Aborting."
                    );
                    std::process::exit(101);
                }
            }
        })
    };

    let mut zones: HashMap<String, TimeZone> = HashMap::new();
    let mut by_cat: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let mut disagreements = String::new();
    let mut message_diffs = String::new();
    let (mut n_dis_printed, mut n_msg_printed) = (0usize, 0usize);
    let mut report = std::env::var_os("ORACLE_REPORT")
        .map(|p| std::fs::File::create(&p).expect("create ORACLE_REPORT file"));
    let started = Instant::now();

    let prev_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {})); // engine panics are caught and reported per case

    for (i, row) in rows.iter().enumerate() {
        if filter.as_ref().is_some_and(|f| !row.s.contains(f.as_str()))
            || category.as_ref().is_some_and(|c| &row.k != c)
        {
            continue;
        }
        current.store(i, Ordering::Relaxed);
        progress.fetch_add(1, Ordering::Relaxed);

        let from: Timestamp = row
            .f
            .parse()
            .unwrap_or_else(|e| panic!("case #{i}: bad from {:?}: {e}", row.f));
        let local = zones
            .entry(row.l.clone())
            .or_insert_with(|| {
                // Straight from jiff's bundled database, independent of the engine's
                // load_location (the oracle loads the same TZif bytes via ZONEINFO).
                jiff::tz::db()
                    .get(&row.l)
                    .unwrap_or_else(|e| panic!("case #{i}: Local zone {:?}: {e}", row.l))
            })
            .clone();

        let want = expected(row);
        let got = ours(row, from, &local);

        let cat = by_cat.entry(row.k.clone()).or_default();
        cat.cases += 1;
        total.cases += 1;

        let agree = match (&want, &got) {
            (Outcome::Accepted(a), Outcome::Accepted(b)) => a == b,
            (Outcome::Rejected { panics: pa, .. }, Outcome::Rejected { panics: pb, .. }) => {
                pa == pb
            }
            _ => false,
        };
        if agree {
            cat.agree += 1;
            total.agree += 1;
        } else {
            cat.disagree += 1;
            total.disagree += 1;
            if n_dis_printed < max_print {
                n_dis_printed += 1;
                let _ = writeln!(
                    disagreements,
                    "  #{i} [{}] schedule {} from {} Local {}\n      ours:   {}\n      robfig: {}",
                    row.k,
                    json_str(&row.s),
                    row.f,
                    row.l,
                    got.describe(),
                    want.describe()
                );
            }
        }

        let mut message_differs = false;
        if let (Outcome::Rejected { message: mw, .. }, Outcome::Rejected { message: mg, .. }) =
            (&want, &got)
        {
            cat.msg_total += 1;
            total.msg_total += 1;
            if mw == mg {
                cat.msg_same += 1;
                total.msg_same += 1;
            } else {
                message_differs = true;
                if n_msg_printed < max_print {
                    n_msg_printed += 1;
                    let _ = writeln!(
                        message_diffs,
                        "  #{i} [{}] schedule {}\n      ours:   {}\n      robfig: {}",
                        row.k,
                        json_str(&row.s),
                        json_str(mg),
                        json_str(mw)
                    );
                }
            }
        }

        if let Some(f) = report.as_mut().filter(|_| !agree || message_differs) {
            let line = serde_json::json!({
                "i": i, "k": row.k, "s": row.s, "f": row.f, "l": row.l,
                "kind": if agree { "message" } else { "disagree" },
                "ours": got.describe(), "robfig": want.describe(),
            });
            writeln!(f, "{line}").expect("write ORACLE_REPORT");
        }
    }

    panic::set_hook(prev_hook);
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();

    let mut out = String::new();
    let _ = writeln!(
        out,
        "oracle results: {} ({} cases{}{}), checked in {:.1?}",
        path.display(),
        rows.len(),
        filter
            .as_ref()
            .map(|f| format!(", filter {f:?}"))
            .unwrap_or_default(),
        category
            .as_ref()
            .map(|c| format!(", category {c:?}"))
            .unwrap_or_default(),
        started.elapsed()
    );
    let _ = writeln!(
        out,
        "{:<8} {:>7} {:>7} {:>9}   {:>15}",
        "category", "cases", "agree", "disagree", "same messages"
    );
    for (k, t) in &by_cat {
        let _ = writeln!(
            out,
            "{:<8} {:>7} {:>7} {:>9}   {:>7}/{:<7}",
            if k.is_empty() { "-" } else { k },
            t.cases,
            t.agree,
            t.disagree,
            t.msg_same,
            t.msg_total
        );
    }
    if total.disagree > 0 {
        let _ = writeln!(
            out,
            "\nDISAGREEMENTS (accept/reject, panic flag or Next times), {} shown of {}:\n{disagreements}",
            n_dis_printed, total.disagree
        );
    }
    let n_msg_diff = total.msg_total - total.msg_same;
    if n_msg_diff > 0 {
        let _ = writeln!(
            out,
            "\nERROR MESSAGE DIFFERENCES (both reject), {} shown of {}:\n{message_diffs}",
            n_msg_printed, n_msg_diff
        );
    }
    let pct = if total.msg_total == 0 {
        100.0
    } else {
        100.0 * total.msg_same as f64 / total.msg_total as f64
    };
    let _ = writeln!(
        out,
        "differential: {} cases, {} agree, {} disagree; error messages identical: {}/{} ({pct:.2}%)",
        total.cases, total.agree, total.disagree, total.msg_same, total.msg_total
    );
    print!("{out}");
    let _ = std::io::stdout().flush();

    assert!(total.cases > 0, "no case selected");
    assert_eq!(
        total.disagree, 0,
        "{} of {} cases disagree with robfig/cron v3.0.1 (see the list above)",
        total.disagree, total.cases
    );
    if strict_messages {
        assert_eq!(
            n_msg_diff, 0,
            "{n_msg_diff} error messages differ from robfig's"
        );
    }
}
