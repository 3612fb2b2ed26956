//! `-o sarif`: SARIF 2.1.0 for code scanning (GitHub, GitLab). One run, the full rule catalogue
//! in `tool.driver.rules`, one result per finding located at the offending field, and input
//! errors as tool execution notifications.

use serde_json::{Value, json};

use crate::report::Report;
use crate::rules::{RULES, Severity};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

pub fn render(report: &Report, tool_version: &str) -> String {
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
    for cj in &report.cron_jobs {
        for f in &cj.findings {
            let rule_index = RULES.iter().position(|r| r.id == f.id).unwrap_or(0);
            let mut result = json!({
                "ruleId": f.id,
                "ruleIndex": rule_index,
                "level": level(f.severity),
                "message": {"text": format!("{}/{}: {}", cj.namespace, cj.name, f.message)},
                "properties": {"slug": f.slug, "namespace": cj.namespace, "name": cj.name},
            });
            if let (Some(src), Some(loc)) = (&cj.source, &f.location) {
                result["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": {"uri": src.file.trim_start_matches("./")},
                        "region": {"startLine": loc.line.max(1), "startColumn": loc.column.max(1)},
                    },
                    "logicalLocations": [{"name": cj.name, "fullyQualifiedName": format!("{}/{}", cj.namespace, cj.name), "kind": "object"}],
                }]);
            }
            if let Some(c) = &f.command {
                result["fixes"] =
                    json!([{"description": {"text": format!("{}\n{}", f.remediation, c)}}]);
            }
            results.push(result);
        }
    }
    let notifications: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            json!({
                "level": "error",
                "message": {"text": e.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": e.file},
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
