//! Every numeric flag of every subcommand has a range that clap enforces while parsing, so
//! that no flag crashes or runs away. Two layers:
//!
//! * property tests drive the real parser (`Cli::try_parse_from`, the binary's own) with
//!   extreme and garbage values: each either fails with a message naming the flag, or yields
//!   a value inside the documented range;
//! * a handful of the values that used to panic, allocate 48 GB or spin run end to end through
//!   the binary, offline (`-f`, `--now` fixed), and must exit 2 with clap's message and no panic.

use std::time::Duration;

use assert_cmd::Command;
use clap::Parser;
use kubectl_cronjob_doctor::cli::{Cli, Command as Sub};
use kubectl_cronjob_doctor::flag_ranges::{COUNT_MAX, TIMELINE_MAX, bounded_duration};
use proptest::prelude::*;

use crate::support::scratch;

/// Where each numeric flag goes: the argv before the flag.
const TIMELINE: &[&[&str]] = &[&["explain", "-f", "x.yaml"], &["scan", "-A"]];
const COUNT: &[&[&str]] = &[&["next", "* * * * *"]];
const REQUEST_TIMEOUT: &[&[&str]] = &[
    &["explain", "cj"],
    &["scan"],
    &["trigger", "cj"],
    &["suspend", "cj"],
    &["unsuspend", "cj"],
];

/// Values every numeric flag must survive: boundaries, overflow, signs, floats, garbage.
fn extreme_text() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(vec![
        "0",
        "1",
        "8",
        "999",
        "1000",
        "1001",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "-0",
        "-1",
        "-9223372036854775808",
        "+5",
        "1e308",
        "1e309",
        "NaN",
        "inf",
        "-inf",
        "1.5",
        "0x10",
        " 7",
        "7 ",
        "",
        " ",
        "½",
        "٣",
        "0s",
        "24h",
        "24h0m1s",
        "86400",
        "86401",
        "168h",
        "168h1s",
        "604800",
        "604801",
        "18446744073709551615s",
        "9223372036854775807ms",
        "1.7976931348623157e308s",
        "99999999999999999999999999999999999999h",
        "1..2s",
        ".s",
        "-1s",
        "1m30s",
        "500ms",
        "0.0001s",
        "1d",
        "1 h",
        "\u{0}",
        "5\u{7}s",
    ])
    .prop_map(str::to_string);
    prop_oneof![
        fixed,
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| f.to_string()),
        (
            any::<u64>(),
            prop::sample::select(vec!["h", "m", "s", "ms", "us", ""])
        )
            .prop_map(|(n, u)| format!("{n}{u}")),
        (
            any::<f64>(),
            prop::sample::select(vec!["h", "m", "s", "ms"])
        )
            .prop_map(|(f, u)| format!("{f}{u}")),
        "\\PC{0,12}",
    ]
}

/// Parse `prefix --flag=value` (the `=` form, so a value starting with `-` is still a value).
fn parse(prefix: &[&str], flag: &str, value: &str) -> Result<Cli, clap::Error> {
    let mut argv = vec!["kubectl-cronjob_doctor".to_string()];
    argv.extend(prefix.iter().map(|s| s.to_string()));
    argv.push(format!("{flag}={value}"));
    Cli::try_parse_from(argv)
}

/// A rejection is a usage error (exit 2) whose message names the flag.
fn assert_rejected_clearly(e: &clap::Error, flag: &str, value: &str) {
    assert!(e.use_stderr(), "{flag}={value:?}: not an error: {e}");
    assert_eq!(e.exit_code(), 2, "{flag}={value:?}");
    let msg = e.to_string();
    assert!(
        msg.contains(flag),
        "{flag}={value:?}: message does not name the flag: {msg}"
    );
}

fn timeline_of(cli: &Cli) -> usize {
    match &cli.command {
        Sub::Explain(a) => a.timeline,
        Sub::Scan(a) => a.timeline,
        other => panic!("unexpected {other:?}"),
    }
}

fn request_timeout_of(cli: &Cli) -> &str {
    match &cli.command {
        Sub::Explain(a) => &a.kube.request_timeout,
        Sub::Scan(a) => &a.kube.request_timeout,
        // Trigger/suspend args keep their fields private to their module: checking that the
        // parse succeeded is enough there, the value went through the same parser.
        _ => "",
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn timeline_is_within_0_to_max_or_rejected(v in extreme_text()) {
        for prefix in TIMELINE {
            match parse(prefix, "--timeline", &v) {
                Ok(cli) => prop_assert!(timeline_of(&cli) <= TIMELINE_MAX),
                Err(e) => assert_rejected_clearly(&e, "--timeline", &v),
            }
        }
    }

    #[test]
    fn count_is_within_1_to_max_or_rejected(v in extreme_text()) {
        for prefix in COUNT {
            match parse(prefix, "--count", &v) {
                Ok(Cli { command: Sub::Next(a) }) => prop_assert!((1..=COUNT_MAX).contains(&a.count)),
                Ok(other) => panic!("unexpected {other:?}"),
                Err(e) => assert_rejected_clearly(&e, "--count", &v),
            }
        }
    }

    #[test]
    fn request_timeout_is_at_most_a_day_or_rejected(v in extreme_text()) {
        for prefix in REQUEST_TIMEOUT {
            match parse(prefix, "--request-timeout", &v) {
                Ok(cli) => {
                    // What the parser let through reads as a duration of at most a day (the
                    // documented bound, written out here, not taken from the parser's module)
                    // that can be added to an instant — the use that used to panic.
                    let d = bounded_duration(&v, Duration::MAX, "any");
                    prop_assert!(d.is_ok(), "{v:?} accepted by clap but unreadable: {d:?}");
                    if let Ok(Some(d)) = d {
                        prop_assert!(d <= Duration::from_secs(24 * 3600), "{v:?} → {d:?}");
                        prop_assert!(std::time::Instant::now().checked_add(d).is_some());
                    }
                    let kept = request_timeout_of(&cli);
                    prop_assert!(kept.is_empty() || kept == v);
                }
                Err(e) => assert_rejected_clearly(&e, "--request-timeout", &v),
            }
        }
    }

    #[test]
    fn wait_timeout_is_at_most_a_week_or_rejected(v in extreme_text()) {
        match parse(&["trigger", "cj", "--wait"], "--timeout", &v) {
            Ok(_) => {
                let d = bounded_duration(&v, Duration::MAX, "any");
                prop_assert!(d.is_ok(), "{v:?} accepted by clap but unreadable: {d:?}");
                if let Ok(Some(d)) = d {
                    prop_assert!(d <= Duration::from_secs(7 * 24 * 3600), "{v:?} → {d:?}");
                    prop_assert!(std::time::Instant::now().checked_add(d).is_some());
                }
            }
            Err(e) => assert_rejected_clearly(&e, "--timeout", &v),
        }
    }

    #[test]
    fn monitor_grace_is_at_most_a_day_or_rejected(v in extreme_text()) {
        match parse(&["monitor", "-A"], "--grace", &v) {
            Ok(Cli { command: Sub::Monitor(a) }) => {
                prop_assert!(a.grace <= Duration::from_secs(24 * 3600), "{v:?} → {:?}", a.grace);
            }
            Ok(other) => prop_assert!(false, "parsed into {other:?}"),
            Err(e) => assert_rejected_clearly(&e, "--grace", &v),
        }
    }

    #[test]
    fn kube_version_never_panics(v in extreme_text()) {
        for prefix in [&["lint", "-f", "x.yaml"][..], &["explain", "-f", "x.yaml"], &["scan"]] {
            if let Err(e) = parse(prefix, "--kube-version", &v) {
                assert_rejected_clearly(&e, "--kube-version", &v);
            }
        }
    }

    /// The bounded parser itself, on any text: never panics, never exceeds the bound.
    #[test]
    fn bounded_duration_never_exceeds_its_bound(s in "\\PC{0,24}", max_secs in 0u64..=1_000_000) {
        let max = Duration::from_secs(max_secs);
        if let Ok(Some(d)) = bounded_duration(&s, max, "max") {
            prop_assert!(d <= max);
        }
    }
}

#[test]
fn the_range_edges_are_exact() {
    let tl =
        |v: &str| parse(&["explain", "-f", "x.yaml"], "--timeline", v).map(|c| timeline_of(&c));
    assert_eq!(tl("0").unwrap(), 0);
    assert_eq!(tl("1000").unwrap(), 1000);
    assert!(tl("1001").is_err());
    assert!(tl("-1").is_err());
    // Without `=`, a negative number is read as the flag's value too, so the message is about
    // the range, not "unexpected argument".
    let e = Cli::try_parse_from(["k", "explain", "-f", "x.yaml", "--timeline", "-1"]).unwrap_err();
    assert!(
        e.to_string()
            .contains("invalid value '-1' for '--timeline <N>'"),
        "{e}"
    );
    let rt = |v: &str| parse(&["scan"], "--request-timeout", v).is_ok();
    assert!(rt("0") && rt("24h") && rt("86400") && rt("1m30s"));
    assert!(!rt("24h0m1s") && !rt("86401") && !rt("-1s"));
    let wt = |v: &str| parse(&["trigger", "cj"], "--timeout", v).is_ok();
    assert!(wt("0") && wt("168h") && wt("30m"));
    assert!(!wt("168h1s") && !wt("18446744073709551615s"));
    let grace = |v: &str| match parse(&["monitor", "-A"], "--grace", v) {
        Ok(Cli {
            command: Sub::Monitor(a),
        }) => Ok(a.grace),
        Ok(_) => unreachable!(),
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(grace("0"), Ok(Duration::ZERO), "0 is no grace");
    assert_eq!(grace("2m"), Ok(Duration::from_secs(120)));
    assert_eq!(grace("24h"), Ok(Duration::from_secs(86_400)));
    let too_long = grace("24h0m1s").unwrap_err();
    assert!(too_long.contains("at most 24h"), "{too_long}");
    assert!(
        !too_long.contains("no limit"),
        "0 is not 'no limit' for --grace: {too_long}"
    );
    let stale = |v: &str| match parse(&["monitor", "-A"], "--stale-after", v) {
        Ok(Cli {
            command: Sub::Monitor(a),
        }) => Ok(a.stale_after),
        Ok(_) => unreachable!(),
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(stale("1s"), Ok(Duration::from_secs(1)));
    assert_eq!(stale("3m"), Ok(Duration::from_secs(180)));
    assert_eq!(stale("1h"), Ok(Duration::from_secs(3600)));
    for bad in ["0", "1h0m1s", "-1s"] {
        let e = stale(bad).unwrap_err();
        assert!(!e.contains("no limit"), "--stale-after {bad}: {e}");
    }
}

#[test]
fn help_documents_every_range() {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let help = |cmd: &mut clap::Command, sub: &str| {
        cmd.find_subcommand_mut(sub)
            .unwrap()
            .render_long_help()
            .to_string()
    };
    for sub in ["explain", "scan"] {
        let h = help(&mut cmd, sub);
        assert!(h.contains("to 1000"), "{sub} --timeline: {h}");
        assert!(h.contains("At most 24h"), "{sub} --request-timeout: {h}");
    }
    assert!(help(&mut cmd, "next").contains("1 to 1000"));
    assert!(help(&mut cmd, "trigger").contains("at most 168h"));
    assert!(help(&mut cmd, "monitor").contains("0 to 24h"));
    assert!(
        help(&mut cmd, "monitor").contains("1s to 1h"),
        "--stale-after"
    );
    for sub in ["suspend", "unsuspend", "trigger", "monitor"] {
        assert!(help(&mut cmd, sub).contains("At most 24h"), "{sub}");
    }
}

// ---- end to end through the binary ----

const MIN_EVERY_SECOND: &str = r#"apiVersion: batch/v1
kind: CronJob
metadata: {name: tick, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  schedule: "@every 1s"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: busybox}]
"#;

fn manifest() -> std::path::PathBuf {
    let dir = scratch("flag-ranges");
    let p = dir.join("tick.yaml");
    std::fs::write(&p, MIN_EVERY_SECOND).unwrap();
    p
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .args(args)
        .env("NO_COLOR", "1")
        // A kubeconfig that does not exist: nothing here may reach a cluster anyway.
        .env("KUBECONFIG", "/nonexistent/kubeconfig")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn values_that_used_to_crash_or_run_away_exit_2_with_a_message() {
    let m = manifest();
    let f = m.to_str().unwrap();
    let now = "2026-11-20T12:00:00Z";
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "explain",
                "-f",
                f,
                "--now",
                now,
                "--timeline",
                "18446744073709551615",
            ],
            "--timeline",
        ),
        (
            &["explain", "-f", f, "--now", now, "--timeline", "2000000000"],
            "--timeline",
        ),
        (
            &[
                "explain",
                "-f",
                f,
                "--now",
                now,
                "--timeline",
                "9223372036854775807",
            ],
            "--timeline",
        ),
        (
            &[
                "scan",
                "-A",
                "-o",
                "json",
                "--timeline",
                "9223372036854775807",
            ],
            "--timeline",
        ),
        (
            &["scan", "--request-timeout", "18446744073709551615s"],
            "--request-timeout",
        ),
        (
            &["trigger", "x", "--timeout", "18446744073709551615s"],
            "--timeout",
        ),
        (
            &["explain", "x", "--request-timeout", "9223372036854775807"],
            "--request-timeout",
        ),
        (
            &["next", "* * * * *", "--from", now, "--count", "-5"],
            "--count",
        ),
    ];
    for (args, flag) in cases {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("invalid value") && stderr.contains(flag),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn the_largest_timeline_of_an_every_second_schedule_is_quick_and_bounded() {
    let m = manifest();
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = run(&[
        "explain",
        "-f",
        m.to_str().unwrap(),
        "--now",
        "2026-11-20T12:00:00Z",
        "--timeline",
        "1000",
        "-o",
        "json",
    ]);
    assert!(code == 0 || code == 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let slots = v["cronJobs"][0]["timeline"].as_array().unwrap().len();
    // 1000 past slots and the next one, at most.
    assert!((1..=TIMELINE_MAX + 1).contains(&slots), "{slots} slots");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "took {:?}",
        started.elapsed()
    );
}

// ---- the fuzz target's check, compiled and run here ----

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// `fuzz/fuzz_targets/cli_numeric_args.rs` runs exactly this function under libFuzzer.
    #[test]
    fn fuzz_target_check_holds_on_random_argv(
        slot in any::<u8>(),
        form in any::<u8>(),
        value in prop_oneof![
            extreme_text().prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 0..24),
        ],
    ) {
        let mut data = vec![slot, form];
        data.extend(value);
        if let Err(why) = kubectl_cronjob_doctor::flag_check::check_numeric_argv(&data) {
            panic!("{why}");
        }
    }
}

#[test]
fn fuzz_target_check_covers_every_slot_and_form() {
    use kubectl_cronjob_doctor::flag_check::check_numeric_argv;
    let (mut accepted, mut refused) = (0, 0);
    for slot in 0..=255u8 {
        for form in 0..3u8 {
            for v in [
                "0",
                "1000",
                "1001",
                "24h",
                "168h1s",
                "18446744073709551615s",
                "-1",
                "1.31",
            ] {
                let mut data = vec![slot, form];
                data.extend(v.bytes());
                match check_numeric_argv(&data).unwrap() {
                    true => accepted += 1,
                    false => refused += 1,
                }
            }
        }
    }
    // Both sides of the check are exercised, not only the parse errors.
    assert!(
        accepted > 500 && refused > 500,
        "{accepted} accepted, {refused} refused"
    );
    // Spot checks: slot 0 is explain --timeline, slot 2 next --count.
    assert_eq!(check_numeric_argv(b"\x00\x001000"), Ok(true));
    assert_eq!(check_numeric_argv(b"\x00\x001001"), Ok(false));
    assert_eq!(check_numeric_argv(b"\x02\x000"), Ok(false));
}
