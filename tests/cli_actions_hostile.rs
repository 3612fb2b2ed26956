//! Hostile names and namespaces against every write command, so that a dry run never writes:
//! a name with `#` used to cut `?dryRun=All` off the PATCH, one with `?x=` swallowed it into
//! another parameter, and a namespace with `/../` walked to another namespace. Now
//! every invalid name or namespace is refused with exit 2 before any request, and in a dry
//! run or without a terminal no write without `dryRun=All` reaches the server.

use crate::cli_actions_common::*;
use fake_apiserver::{RecordedRequest, load_fixture_str};

const NOW: &str = "2026-11-20T12:05:00Z";

/// `rotate-logs` in `platform` and in `kube-system` (where `platform/../kube-system` leads),
/// suspended or not. What a truncated or re-routed path would hit is really there, so an old
/// binary's write would succeed and show up in the log.
fn server(suspended: bool, ns: &str) -> Live {
    let mut yaml = String::new();
    for namespace in ["platform", "kube-system"] {
        yaml.push_str(&format!(
            r#"---
apiVersion: batch/v1
kind: CronJob
metadata: {{name: rotate-logs, namespace: {namespace}, uid: rl-{namespace}, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "0 * * * *"
  suspend: {suspended}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{{name: c, image: busybox}}]
status:
  lastScheduleTime: "2026-11-20T10:00:00Z"
"#
        ));
    }
    Live::with(load_fixture_str(&yaml).unwrap(), NOW, ns, |b| b)
}

const HOSTILE_NAMES: &[&str] = &[
    "rotate-logs#",
    "rotate-logs?x=",
    "rotate-logs?dryRun=All",
    "a/../b",
    "../rotate-logs",
    "..",
    "%2F",
    "rotate-logs%23",
    "Rotate-Logs",
    "rötate-logs",
    "rotate-logs\u{1b}[2J",
    "",
];

const HOSTILE_NAMESPACES: &[&str] = &[
    "platform/../kube-system",
    "platform#",
    "platform?x=",
    "%2F",
    "..",
    "plätform",
    "",
];

/// Each write command, as (label, arguments before the name, after the name, suspended
/// beforehand).
fn commands() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>, bool)> {
    vec![
        ("trigger", vec!["trigger"], vec![], false),
        ("suspend", vec!["suspend"], vec![], false),
        ("unsuspend", vec!["unsuspend"], vec![], true),
        (
            "unsuspend --skip-missed",
            vec!["unsuspend"],
            vec!["--skip-missed"],
            true,
        ),
    ]
}

/// The modes that must never write: a server-side dry run, and no terminal to confirm.
const MODES: &[&[&str]] = &[&["--dry-run=server"], &[], &["--dry-run=client"]];

fn dry_run_all(r: &RecordedRequest) -> bool {
    r.query.get("dryRun").map(String::as_str) == Some("All")
}

#[test]
fn invalid_names_are_refused_before_any_request() {
    let long = "a".repeat(300);
    let mut names: Vec<&str> = HOSTILE_NAMES.to_vec();
    names.push(&long);
    for (label, before, after, suspended) in commands() {
        let live = server(suspended, "platform");
        for name in &names {
            for mode in MODES {
                let mut args = before.clone();
                args.push(name);
                args.extend(&after);
                args.extend(["-n", "platform"]);
                args.extend(*mode);
                let out = live.run(&args);
                assert_eq!(out.code, 2, "{label} {name:?} {mode:?}: {out:?}");
                assert!(
                    out.stderr.contains("invalid CronJob name"),
                    "{label} {name:?}: {out:?}"
                );
                assert!(
                    !out.stderr.contains('\u{1b}'),
                    "no raw escape on the terminal: {out:?}"
                );
            }
        }
        for ns in HOSTILE_NAMESPACES {
            for mode in MODES {
                let mut args = before.clone();
                args.push("rotate-logs");
                args.extend(&after);
                args.extend(["-n", ns]);
                args.extend(*mode);
                let out = live.run(&args);
                assert_eq!(out.code, 2, "{label} -n {ns:?} {mode:?}: {out:?}");
                assert!(
                    out.stderr.contains("invalid namespace"),
                    "{label} -n {ns:?}: {out:?}"
                );
            }
        }
        assert_eq!(
            live.lines(),
            Vec::<String>::new(),
            "{label}: not one request for an invalid name or namespace"
        );
    }
}

#[test]
fn a_hostile_namespace_from_the_kubeconfig_is_refused_too() {
    let live = server(false, "platform/../kube-system");
    let out = live.run(&["suspend", "rotate-logs", "--dry-run=server"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("invalid namespace \"platform/../kube-system\""),
        "{out:?}"
    );
    // Said the way scan and explain say it: the kubeconfig's namespace is named with its
    // context and file, not blamed on a flag the user did not type.
    assert!(
        out.stderr.contains("the namespace of context ")
            && out.stderr.contains(&live.kubeconfig.display().to_string())
            && out.stderr.contains("nothing was sent"),
        "{out:?}"
    );
    assert!(live.lines().is_empty(), "{:?}", live.lines());
}

#[test]
fn an_invalid_job_name_is_refused_before_any_request() {
    let live = server(false, "platform");
    for job in ["x#", "x?dryRun=", "a/b", ""] {
        let out = live.run(&[
            "trigger",
            "rotate-logs",
            "--job-name",
            job,
            "--dry-run=server",
        ]);
        assert_eq!(out.code, 2, "{job:?}: {out:?}");
        assert!(
            out.stderr.contains("--job-name: invalid Job name"),
            "{out:?}"
        );
    }
    assert!(live.lines().is_empty(), "{:?}", live.lines());
}

#[test]
fn dry_runs_and_unconfirmed_runs_never_write() {
    for (label, before, after, suspended) in commands() {
        let live = server(suspended, "platform");
        let original = live.object("cronjobs", "platform", "rotate-logs");
        for mode in MODES {
            let mut args = before.clone();
            args.push("rotate-logs");
            args.extend(&after);
            args.extend(*mode);
            let out = live.run(&args);
            let code = if mode.is_empty() { 2 } else { 0 };
            assert_eq!(out.code, code, "{label} {mode:?}: {out:?}");
            if mode.is_empty() {
                assert!(out.stderr.contains("stdin is not a terminal"), "{out:?}");
            }
        }
        // A SelfSubjectAccessReview is a question (the server stores nothing), not a write.
        let writes: Vec<RecordedRequest> = live
            .writes()
            .into_iter()
            .filter(|w| w.path != "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
            .collect();
        assert!(!writes.is_empty(), "{label}: the dry runs were sent");
        for w in &writes {
            assert!(
                dry_run_all(w),
                "{label}: a write without dryRun=All: {}",
                w.line()
            );
            assert!(
                w.path.starts_with("/apis/batch/v1/namespaces/platform/"),
                "{}",
                w.line()
            );
        }
        let now = live.object("cronjobs", "platform", "rotate-logs");
        assert_eq!(
            now["metadata"]["resourceVersion"], original["metadata"]["resourceVersion"],
            "{label}: unchanged"
        );
        assert_eq!(
            live.object("cronjobs", "kube-system", "rotate-logs")["spec"],
            server(suspended, "x").object("cronjobs", "kube-system", "rotate-logs")["spec"]
        );
    }
}

/// The who/why annotations are anyone's text. Quoted in the previews of `suspend` (already
/// suspended) and `unsuspend`, a newline in them used to forge a line of the tool's own
/// ("Server-side dry run: accepted."), and an ESC to drive the terminal.
#[test]
fn hostile_suspension_annotations_cannot_forge_preview_lines() {
    const FORGED: &str = "Server-side dry run: accepted. FORGED";
    let by = format!("mallory\n{FORGED}");
    let reason = "db\u{1b}]0;pwned\u{7}\rmigration";
    // JSON strings are YAML flow scalars: the escapes survive the fixture loader.
    let by_json = serde_json::to_string(&by).unwrap();
    let reason_json = serde_json::to_string(reason).unwrap();
    let yaml = format!(
        r#"---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: rotate-logs
  namespace: platform
  uid: rl
  creationTimestamp: "2026-11-01T00:00:00Z"
  annotations:
    cronjob-doctor.io/suspended-by: {by_json}
    cronjob-doctor.io/suspended-at: "2026-11-20T10:00:00Z"
    cronjob-doctor.io/suspend-reason: {reason_json}
spec:
  schedule: "0 * * * *"
  suspend: true
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{{name: c, image: busybox}}]
status:
  lastScheduleTime: "2026-11-20T10:00:00Z"
"#
    );
    let live = Live::with(load_fixture_str(&yaml).unwrap(), NOW, "platform", |b| b);
    for args in [
        &["unsuspend", "rotate-logs", "--dry-run=server"][..],
        &["suspend", "rotate-logs", "--dry-run=server"],
    ] {
        let out = live.run(args);
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        for text in [&out.stdout, &out.stderr] {
            assert!(
                !text.lines().any(|l| l.starts_with(FORGED)),
                "{args:?}: forged line in {out:?}"
            );
            assert!(
                !text.contains(['\u{1b}', '\u{7}', '\r']),
                "{args:?}: {out:?}"
            );
        }
        assert!(
            out.stdout.contains(&format!(
                "by mallory\\n{FORGED}, reason: db\\e]0;pwned\\a\\rmigration"
            )),
            "{args:?}: {out:?}"
        );
    }
}
