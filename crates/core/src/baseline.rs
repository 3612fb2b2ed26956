//! Fingerprints of findings, and the baseline file of `lint --write-baseline` /
//! `lint --baseline`: the findings a project already lives with, so that CI fails only on new
//! ones.
//!
//! A fingerprint must survive what does not change a finding: moving the CronJob within its
//! file, reformatting the YAML, reordering keys, renaming the file. It is therefore made of
//! the rule's slug, the object's kind, namespace and name, and the finding's *subject* — the
//! field it is about, or, for a finding about no field, the schedule it judges — never a line
//! number or a message (messages carry times). A finding with neither field nor schedule has
//! no stable subject: it gets no fingerprint, is never written to a baseline, and is always
//! reported as new.
//!
//! The hash is FNV-1a (64-bit) over that text and over its reverse, 32 hex digits: stable
//! across platforms and releases (no `Hasher` whose output Rust may change), and collisions
//! are out of reach for any real number of findings. The text is versioned (`v1`), so a later
//! change of the recipe shows up as a new schema, not as silently unmatched entries.
//!
//! The file is JSON (errors carry line and column), sorted and pretty-printed one value per
//! line so that a diff shows exactly the entries that came or went.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::report::CronJobReport;
use crate::rules::Finding;

/// The baseline file's format version. A file with a greater one was written by a newer
/// release and is refused.
pub const SCHEMA_VERSION: u32 = 1;

/// The finding's stable subject: its field, else the schedule it judges.
pub fn subject(cj: &CronJobReport, f: &Finding) -> Option<String> {
    if let Some(field) = f.field {
        return Some(field.to_string());
    }
    cj.schedule.as_deref().map(|s| format!("spec.schedule={s}"))
}

fn fnv1a(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The fingerprint of a finding about the CronJob `namespace/name` (None: no stable subject).
pub fn fingerprint(cj: &CronJobReport, f: &Finding) -> Option<String> {
    let subject = subject(cj, f)?;
    Some(fingerprint_of(
        f.slug,
        "CronJob",
        &cj.namespace,
        &cj.name,
        &subject,
    ))
}

/// The fingerprint of its parts (see the module docs).
pub fn fingerprint_of(
    rule: &str,
    kind: &str,
    namespace: &str,
    name: &str,
    subject: &str,
) -> String {
    let text = format!("v1\0{rule}\0{kind}\0{namespace}\0{name}\0{subject}");
    let fwd = fnv1a(text.bytes());
    let rev = fnv1a(text.bytes().rev());
    format!("{fwd:016x}{rev:016x}")
}

/// One recorded finding (how many of it, when a CronJob has several with one subject).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    pub fingerprint: String,
    pub rule: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub subject: String,
    pub count: u32,
}

/// A baseline file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Baseline {
    pub schema_version: u32,
    pub findings: Vec<Entry>,
}

/// A problem in a baseline file (1-based line and column; 0 when it concerns the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaselineError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Baseline {
    /// The baseline of `findings` (every finding with a fingerprint), sorted.
    pub fn of<'r>(
        findings: impl IntoIterator<Item = (&'r CronJobReport, &'r Finding)>,
    ) -> Baseline {
        let mut by_fp: BTreeMap<String, Entry> = BTreeMap::new();
        for (cj, f) in findings {
            let (Some(fp), Some(subject)) = (fingerprint(cj, f), subject(cj, f)) else {
                continue;
            };
            by_fp
                .entry(fp.clone())
                .and_modify(|e| e.count = e.count.saturating_add(1))
                .or_insert(Entry {
                    fingerprint: fp,
                    rule: f.slug.to_string(),
                    kind: "CronJob".into(),
                    namespace: cj.namespace.clone(),
                    name: cj.name.clone(),
                    subject,
                    count: 1,
                });
        }
        let mut findings: Vec<Entry> = by_fp.into_values().collect();
        findings.sort_by(|a, b| {
            (&a.namespace, &a.name, &a.rule, &a.subject).cmp(&(
                &b.namespace,
                &b.name,
                &b.rule,
                &b.subject,
            ))
        });
        Baseline {
            schema_version: SCHEMA_VERSION,
            findings,
        }
    }

    /// The file's text: pretty JSON, one entry per block, a final newline.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Reads a baseline file; a newer schema, a wrong shape or an entry whose fingerprint does
    /// not belong to its own fields (edited by hand) is an error.
    pub fn parse(text: &str) -> Result<Baseline, BaselineError> {
        // The version first, so a newer file is refused as newer, not as malformed.
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Version {
            schema_version: Option<u32>,
        }
        // serde_json's data errors quote the value they met (`invalid type: string "…"`): a
        // file named by mistake may hold a secret, so only the position and the kind of
        // problem are said for them.
        let err = |e: serde_json::Error, what: &str| BaselineError {
            line: u32::try_from(e.line()).unwrap_or(u32::MAX),
            column: u32::try_from(e.column()).unwrap_or(u32::MAX),
            message: match e.classify() {
                serde_json::error::Category::Data => format!(
                    "{what}: a value or key that a baseline does not have (write it again with --write-baseline)"
                ),
                _ => format!("{what}: {e}"),
            },
        };
        let v: Version = serde_json::from_str(text)
            .map_err(|e| err(e, "not a baseline file (JSON written by --write-baseline)"))?;
        match v.schema_version {
            None => {
                return Err(BaselineError {
                    line: 1,
                    column: 1,
                    message: "not a baseline file: no schemaVersion".into(),
                });
            }
            Some(n) if n > SCHEMA_VERSION => {
                return Err(BaselineError {
                    line: 1,
                    column: 1,
                    message: format!(
                        "written by a newer release (schemaVersion {n}; this one reads {SCHEMA_VERSION}): upgrade kubectl-cronjob_doctor, or write the baseline again with this one"
                    ),
                });
            }
            Some(0) => {
                return Err(BaselineError {
                    line: 1,
                    column: 1,
                    message: "schemaVersion 0 does not exist".into(),
                });
            }
            Some(_) => {}
        }
        let b: Baseline = serde_json::from_str(text).map_err(|e| err(e, "invalid baseline"))?;
        for e in &b.findings {
            let expected = fingerprint_of(&e.rule, &e.kind, &e.namespace, &e.name, &e.subject);
            if e.fingerprint != expected || e.count == 0 {
                return Err(BaselineError {
                    line: 0,
                    column: 0,
                    message: format!(
                        "entry {} {}/{} ({}) does not match its fingerprint or has count 0: the file was edited by hand; write it again with --write-baseline",
                        e.rule, e.namespace, e.name, e.subject
                    ),
                });
            }
        }
        Ok(b)
    }
}

/// Matching today's findings against a baseline, one occurrence at a time.
pub struct Matcher<'b> {
    baseline: &'b Baseline,
    left: HashMap<&'b str, u32>,
}

impl<'b> Matcher<'b> {
    pub fn new(baseline: &'b Baseline) -> Matcher<'b> {
        let left = baseline
            .findings
            .iter()
            .map(|e| (e.fingerprint.as_str(), e.count))
            .collect();
        Matcher { baseline, left }
    }

    /// Whether this finding is in the baseline (using up one recorded occurrence).
    pub fn known(&mut self, cj: &CronJobReport, f: &Finding) -> bool {
        let Some(fp) = fingerprint(cj, f) else {
            return false;
        };
        match self.left.get_mut(fp.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    /// Recorded findings that no longer occur (as many times as recorded), in file order,
    /// with how many occurrences are gone.
    pub fn gone(&self) -> Vec<(&'b Entry, u32)> {
        self.baseline
            .findings
            .iter()
            .filter_map(|e| {
                let n = self.left.get(e.fingerprint.as_str()).copied().unwrap_or(0);
                (n > 0).then_some((e, n))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_stable_text_and_differ_per_part() {
        let a = fingerprint_of(
            "late-start",
            "CronJob",
            "ops",
            "backup",
            "spec.schedule=0 3 * * *",
        );
        // Pinned: a change of the recipe must be a new schema version, not a silent drift.
        assert_eq!(a.len(), 32);
        assert_eq!(
            a,
            fingerprint_of(
                "late-start",
                "CronJob",
                "ops",
                "backup",
                "spec.schedule=0 3 * * *"
            )
        );
        for other in [
            fingerprint_of(
                "late-start",
                "CronJob",
                "ops",
                "backups",
                "spec.schedule=0 3 * * *",
            ),
            fingerprint_of(
                "late-start",
                "CronJob",
                "op",
                "sbackup",
                "spec.schedule=0 3 * * *",
            ),
            fingerprint_of(
                "late-start",
                "CronJob",
                "ops",
                "backup",
                "spec.schedule=0 4 * * *",
            ),
        ] {
            assert_ne!(a, other);
        }
    }

    #[test]
    fn a_newer_or_edited_file_is_refused_with_a_reason() {
        let e = Baseline::parse(r#"{"schemaVersion": 2, "findings": []}"#).unwrap_err();
        assert!(e.message.contains("newer release"), "{}", e.message);
        let e = Baseline::parse("{\n  \"schemaVersion\": 1,\n  \"findings\": [}\n").unwrap_err();
        assert_eq!(e.line, 3, "{e:?}");
        let e = Baseline::parse("rules: {}\n").unwrap_err();
        assert!(
            e.message.starts_with("not a baseline file"),
            "{}",
            e.message
        );
        let forged = r#"{"schemaVersion": 1, "findings": [{"fingerprint": "00", "rule": "late-start", "kind": "CronJob", "namespace": "ops", "name": "x", "subject": "s", "count": 1}]}"#;
        assert!(
            Baseline::parse(forged)
                .unwrap_err()
                .message
                .contains("edited by hand")
        );
        let b = Baseline::parse(r#"{"schemaVersion": 1, "findings": []}"#).unwrap();
        assert_eq!(
            b,
            Baseline {
                schema_version: 1,
                findings: vec![]
            }
        );
        assert_eq!(Baseline::parse(&b.to_text()).unwrap(), b);
    }
}
