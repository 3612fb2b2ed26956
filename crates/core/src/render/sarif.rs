//! `-o sarif`: SARIF 2.1.0 for code scanning (GitHub, GitLab). One run, the full rule catalogue
//! in `tool.driver.rules`, one result per finding located at the offending field, and input
//! errors as tool execution notifications.

use serde_json::{Value, json};

use crate::baseline::{Entry, fingerprint};
use crate::report::{CronJobReport, Report, fix_edits};
use crate::rules::{Phase, RULES, Severity};

/// A file path as a SARIF `artifactLocation.uri`: relative paths stay relative references
/// (resolved against the checkout, as code scanning expects), absolute ones become `file://`
/// URIs (a relative reference may not begin with a slash); characters URIs reserve are
/// percent-encoded.
fn artifact_uri(path: &str) -> String {
    let p = normalise(&path.trim_start_matches("./").replace('\\', "/"));
    let b = p.as_bytes();
    let windows_drive = b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/';
    let mut enc = String::with_capacity(p.len());
    for (i, b) in p.bytes().enumerate() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                enc.push(b as char)
            }
            // Not in a first segment, where it would read as a scheme.
            b':' if (windows_drive && i == 1) || enc.contains('/') => enc.push(':'),
            _ => enc.push_str(&format!("%{b:02X}")),
        }
    }
    if p.starts_with('/') {
        format!("file://{enc}")
    } else if windows_drive {
        format!("file:///{enc}")
    } else {
        enc
    }
}

/// Drop `.` segments and fold `x/..` (lexically, as the path was given): validators reject
/// `..` in file URIs. Leading `..` of a relative path stay.
fn normalise(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The plan's patch as a SARIF `fix` (description and `artifactChanges`) when every part of it
/// can be placed exactly in the file; None otherwise (SARIF requires `artifactChanges`, and an
/// approximate edit is worse than none).
fn sarif_fix(cj: &CronJobReport, read: &dyn Fn(&str) -> Option<String>) -> Option<Value> {
    let plan = &cj.fix;
    let patch = plan.patch.as_ref()?;
    let target = plan.target.as_ref()?;
    let origin = target.origin.as_ref()?;
    let text = read(&origin.file)?;
    let edits = fix_edits::edits(target, origin, &text, patch)?;
    let replacements: Vec<Value> = edits
        .iter()
        .map(|e| {
            json!({
                "deletedRegion": {
                    "startLine": e.start_line,
                    "startColumn": e.start_column,
                    "endLine": e.end_line,
                    "endColumn": e.end_column,
                },
                "insertedContent": {"text": e.text},
            })
        })
        .collect();
    let reason = plan
        .commands
        .iter()
        .find(|c| c.phase == Phase::Patch)
        .map(|c| c.reason.clone())
        .unwrap_or_default();
    Some(json!({
        "description": {"text": format!("{reason} (clears {})", plan.clears.join(", "))},
        "artifactChanges": [{
            "artifactLocation": {"uri": artifact_uri(&origin.file)},
            "replacements": replacements,
        }],
    }))
}

/// `lint --baseline` as SARIF sees it: for each CronJob of the report, for each finding,
/// whether the baseline knows it (`baselineState` `unchanged`, else `new`), and the recorded
/// findings that no longer occur (results with `baselineState` `absent`, located at the
/// baseline file, since their manifest no longer shows them).
pub struct BaselineStates<'b> {
    pub known: Vec<Vec<bool>>,
    pub gone: Vec<(&'b Entry, u32)>,
    pub file: String,
}

/// The SARIF key of our fingerprint in `partialFingerprints` (versioned with the recipe).
pub const FINGERPRINT_KEY: &str = "cronjobDoctor/v1";

/// The SARIF document. `read` gives the text of a source file (path as loaded) so the fix
/// plan's patch can be placed as exact edits; the core does no IO itself, so the CLI passes a
/// file reader (None: no `fixes` for that file). Every result whose finding has a stable
/// subject carries its fingerprint in `partialFingerprints` (see `crate::baseline`), so code
/// scanning follows an alert across commits and reformatting.
pub fn render(
    report: &Report,
    tool_version: &str,
    read: &dyn Fn(&str) -> Option<String>,
    baseline: Option<&BaselineStates>,
) -> String {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "name": r.slug,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.explanation},
                "help": {"text": r.remediation, "markdown": r.remediation},
                "helpUri": format!("https://github.com/cronjob-doctor/kubectl-cronjob-doctor/blob/main/docs/rules.md#{}", r.slug),
                "defaultConfiguration": {"level": level(r.severity)},
            })
        })
        .collect();
    let mut results = Vec::new();
    for (ci, cj) in report.cron_jobs.iter().enumerate() {
        let fix = sarif_fix(cj, read);
        let plan = serde_json::to_value(&cj.fix).unwrap_or(Value::Null);
        for (fi, f) in cj.findings.iter().enumerate() {
            let rule_index = RULES.iter().position(|r| r.id == f.id).unwrap_or(0);
            let mut result = json!({
                "ruleId": f.id,
                "ruleIndex": rule_index,
                "level": level(f.severity),
                "message": {"text": format!("{}/{}: {}", cj.namespace, cj.name, f.message)},
                "properties": {"slug": f.slug, "namespace": cj.namespace, "name": cj.name, "fixPlan": plan},
            });
            if let (Some(src), Some(loc)) = (&cj.source, &f.location) {
                result["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": {"uri": artifact_uri(&src.file)},
                        "region": {"startLine": loc.line.max(1), "startColumn": loc.column.max(1)},
                    },
                    "logicalLocations": [{"name": cj.name, "fullyQualifiedName": format!("{}/{}", cj.namespace, cj.name), "kind": "object"}],
                }]);
            }
            // Only a finding the replayed patch clears gets the edit as its fix.
            if let Some(fx) = fix.as_ref().filter(|_| cj.fix.clears.contains(&f.slug)) {
                result["fixes"] = json!([fx]);
            }
            if let Some(fp) = fingerprint(cj, f) {
                result["partialFingerprints"] = json!({FINGERPRINT_KEY: fp});
            }
            if let Some(b) = baseline {
                let known = b
                    .known
                    .get(ci)
                    .and_then(|k| k.get(fi))
                    .copied()
                    .unwrap_or(false);
                result["baselineState"] = json!(if known { "unchanged" } else { "new" });
            }
            results.push(result);
        }
    }
    for (e, n) in baseline.map(|b| b.gone.as_slice()).unwrap_or_default() {
        let rule_index = RULES.iter().position(|r| r.slug == e.rule);
        let Some(rule) = rule_index.map(|i| RULES[i]) else {
            continue;
        };
        results.push(json!({
            "ruleId": rule.id,
            "ruleIndex": rule_index,
            "level": "none",
            "baselineState": "absent",
            "message": {"text": format!(
                "{}/{}: {} ({}) no longer occurs ({n} of the baseline's entries); write the baseline again to drop it",
                e.namespace, e.name, e.rule, e.subject
            )},
            "partialFingerprints": {FINGERPRINT_KEY: e.fingerprint},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(&baseline.map(|b| b.file.clone()).unwrap_or_default())},
                "region": {"startLine": 1, "startColumn": 1},
            }}],
            "properties": {"slug": e.rule, "namespace": e.namespace, "name": e.name},
        }));
    }
    let notifications: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            json!({
                "level": "error",
                "message": {"text": e.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": artifact_uri(&e.file)},
                    "region": {"startLine": e.line.max(1), "startColumn": e.column.max(1)},
                }}],
            })
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "kubectl-cronjob-doctor",
                "version": tool_version,
                "informationUri": "https://github.com/cronjob-doctor/kubectl-cronjob-doctor",
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": report.errors.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::artifact_uri;

    #[test]
    fn uris_are_valid_relative_references_or_file_uris() {
        assert_eq!(artifact_uri("./examples/a.yaml"), "examples/a.yaml");
        assert_eq!(artifact_uri("../corpus/a b.yaml"), "../corpus/a%20b.yaml");
        assert_eq!(
            artifact_uri("/work/c/x#1.yaml"),
            "file:///work/c/x%231.yaml"
        );
        assert_eq!(
            artifact_uri("/work/c/../s/./a.yaml"),
            "file:///work/s/a.yaml"
        );
        assert_eq!(artifact_uri("C:\\k8s\\cj.yaml"), "file:///C:/k8s/cj.yaml");
        // A colon in a first segment would read as a scheme: encode it.
        assert_eq!(artifact_uri("a:b.yaml"), "a%3Ab.yaml");
    }
}
