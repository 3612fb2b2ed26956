//! The roles in deploy/rbac/ against the actions: with exactly the operator role every action
//! goes through; with the read-only role each one stops before changing anything and says
//! which grant is missing. The fake server enforces the roles' rules on every request.

use crate::cli_actions_common;
use crate::cli_actions_common::*;

fn live(fixture: &str, now: &str, ns: &str, role: &str) -> Live {
    let objects = fake_apiserver::load_fixture_file(cli_actions_common::fixture(fixture)).unwrap();
    let rules = access_rules_of(role);
    Live::with(objects, now, ns, move |mut b| {
        for r in rules {
            b = b.rule(r);
        }
        b
    })
}

#[test]
fn the_operator_role_is_enough_for_every_action() {
    let l = live(
        "report.yaml",
        "2026-11-20T12:05:00Z",
        "ops",
        "operator.yaml",
    );
    let out = l.run(&[
        "trigger",
        "report",
        "--job-name",
        "report-manual-r1",
        "--yes",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = l.run(&["suspend", "report", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        l.server.requests().iter().all(|r| r.status < 400),
        "{:?}",
        l.lines()
    );

    let l = live(
        "e23-resume.yaml",
        "2024-01-01T11:20:00Z",
        "default",
        "operator.yaml",
    );
    let out = l.run(&["unsuspend", "cj", "--skip-missed", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        l.server.requests().iter().all(|r| r.status < 400),
        "{:?}",
        l.lines()
    );
}

#[test]
fn the_read_only_role_changes_nothing_and_says_what_is_missing() {
    let l = live(
        "report.yaml",
        "2026-11-20T12:05:00Z",
        "ops",
        "read-only.yaml",
    );
    let out = l.run(&["trigger", "report", "--yes"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("you may not create jobs in namespace ops"),
        "{}",
        out.stderr
    );
    let out = l.run(&["suspend", "report", "--yes"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("PATCH cronjobs/report (server-side dry run) was refused")
            && out
                .stderr
                .contains("The operator role grants patch on cronjobs"),
        "{}",
        out.stderr
    );
    assert_eq!(l.server.count("jobs"), 0);
    assert_eq!(
        l.object("cronjobs", "ops", "report")["spec"].get("suspend"),
        None
    );
}
