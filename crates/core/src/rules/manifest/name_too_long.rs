//! CJD016 name-too-long: a CronJob name must be a DNS-1123 subdomain and, on create, at most
//! 52 characters. Job names are `<cronjob>-<suffix>` and end up as a label value on the Pods
//! (63 characters at most); the legacy controller's suffix was 11 characters (`-<unix
//! seconds>`), hence 63 − 11 = 52. Updates skip the length check, so an older object can keep
//! a longer name; today's 9-character suffix (`-<unix minutes>`) still fits up to 54.

use super::common::{invalid, is_live, placeholder_note};
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD016",
    slug: "name-too-long",
    severity: Severity::Error,
    summary: "The CronJob's name is longer than 52 characters or is not a valid DNS subdomain, so the API server rejects it.",
    explanation: "The controller names each Job `<cronjob name>-<scheduled time>` and the Job's \
name becomes the `job-name` label on its Pods, and label values are limited to 63 characters. \
The original controller appended 11 characters (`-` and the Unix time in seconds), so CronJob \
validation limits names to 63 − 11 = 52 characters on create (`metadata.name: Invalid value: \
\"…\": must be no more than 52 characters`). Today's controller appends 9 (`-` and the time in \
*minutes*), and updates skip the check, so an older CronJob of 53–54 characters still works; \
beyond 54 every Job name is over 63 characters and every Job creation fails. Like every object \
name, it must also be a lowercase RFC 1123 subdomain: lower-case letters, digits, `-` and `.`, \
starting and ending with a letter or digit (no `_`, no upper case).",
    remediation: "Shorten or fix the name (a CronJob cannot be renamed: create it under the new \
name, then delete the old one, which also deletes its Jobs unless you orphan them).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly-database-backup-to-object-storage-with-retention, namespace: ops}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: backup:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly-database-backup, namespace: ops}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: backup:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

const MAX_CREATE: usize = 52;
/// 63-character label value minus today's 9-character suffix.
const MAX_WORKING: usize = 63 - 9;
const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`
pub(super) fn is_subdomain(name: &str) -> bool {
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !name.is_empty()
        && name.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && alnum(b[0])
                && alnum(b[b.len() - 1])
                && b.iter().all(|&c| alnum(c) || c == b'-')
        })
}

/// A valid name close to `name`: lower case, other characters as `-`, trimmed.
fn sanitized(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    s.trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string()
}

fn check(ctx: &Context) -> Vec<Finding> {
    let name = ctx.name();
    if name.is_empty() {
        return Vec::new();
    }
    let live = is_live(ctx.cron_job);
    let mut out = Vec::new();
    if !is_subdomain(name) {
        let better = sanitized(name);
        let mut f = Finding::new(&RULE, format!("{name:?}{} is not a valid object name: `{}`.", placeholder_note(name), invalid("metadata.name", name, SUBDOMAIN)))
            .field("metadata.name")
            .fix(if is_subdomain(&better) && better.len() <= MAX_CREATE {
                format!("Rename it, e.g. to {better:?} (lower case; '-' instead of other characters).")
            } else {
                "Use lower-case letters, digits and '-' only, starting and ending with a letter or digit.".into()
            });
        if !live {
            f = f
                .headline("cannot be created: metadata.name is not a lowercase RFC 1123 subdomain");
        }
        out.push(f);
    }
    let n = name.chars().count();
    if n > MAX_CREATE {
        let job = format!("{name}-29392740");
        let api = invalid("metadata.name", name, "must be no more than 52 characters");
        let f = if !live {
            Finding::new(&RULE, format!("The name has {n} characters; CronJob names are limited to 52 on create: `{api}`."))
                .headline(format!("cannot be created: the name has {n} characters (at most 52)"))
        } else if n > MAX_WORKING {
            Finding::new(
                &RULE,
                format!("The name has {n} characters, so every Job name ({} characters, e.g. {job}) exceeds the 63-character limit of the job-name label: Job creation fails.", n + 9),
            )
            .headline(format!("never runs: its {n}-character name makes Job names longer than 63 characters"))
            .evidence(format!("each due slot: Warning FailedCreate Error creating job: … spec.template.labels: Invalid value: \"{job}\": must be no more than 63 characters"))
        } else {
            Finding::new(
                &RULE,
                format!("The name has {n} characters: this existing CronJob works (Job names have {} characters, within 63), but it could not be created again under this name (limit 52).", n + 9),
            )
            .severity(Severity::Warning)
        };
        out.push(f.field("metadata.name").fix(format!(
            "Use a name of at most 52 characters (this one is {} too long).",
            n - MAX_CREATE
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::{RULE, is_subdomain, sanitized};

    #[test]
    fn fifty_three_characters_are_rejected_on_create() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "name-too-long");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .ends_with(r#"must be no more than 52 characters`."#),
            "{}",
            f[0].message
        );
        let name52 = "a".repeat(52);
        let ok = RULE.quiet_on.replace("nightly-database-backup", &name52);
        assert!(findings(&run(&ok, RULE.example_now), "name-too-long").is_empty());
    }

    #[test]
    fn existing_long_names_work_up_to_54() {
        let live = |n: usize| {
            RULE.quiet_on.replace(
                "name: nightly-database-backup,",
                &format!(
                    "name: {}, uid: u1, creationTimestamp: \"2020-01-01T00:00:00Z\",",
                    "b".repeat(n)
                ),
            )
        };
        let f53 = run(&live(53), RULE.example_now);
        assert_eq!(
            findings(&f53, "name-too-long")[0].severity,
            crate::rules::Severity::Warning
        );
        let f55 = run(&live(55), RULE.example_now);
        let f = findings(&f55, "name-too-long");
        assert_eq!(f[0].severity, crate::rules::Severity::Error);
        assert!(f[0].message.contains("64 characters"), "{}", f[0].message);
    }

    #[test]
    fn underscores_and_upper_case_are_not_subdomains() {
        assert!(is_subdomain("a.b-c1"));
        for bad in ["nginx_cronjob", "NAME-schedule", "-a", "a-", "a..b", ""] {
            assert!(!is_subdomain(bad), "{bad}");
        }
        assert_eq!(sanitized("nginx_cronjob"), "nginx-cronjob");
        let yaml = RULE
            .quiet_on
            .replace("nightly-database-backup", "nginx_cronjob");
        let r = run(&yaml, RULE.example_now);
        let f = findings(&r, "name-too-long");
        assert!(f[0].message.contains(r#"metadata.name: Invalid value: "nginx_cronjob": a lowercase RFC 1123 subdomain must consist of"#), "{}", f[0].message);
        assert!(f[0].remediation.contains("\"nginx-cronjob\""));
    }
}
