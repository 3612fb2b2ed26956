//! A finding: one rule's verdict on one CronJob, with everything needed to act on it.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub id: &'static str,
    pub slug: &'static str,
    pub severity: Severity,
    /// One line, specific to this object (its numbers, names, times).
    pub message: String,
    /// What to do, in words, ending with the command when there is one.
    pub remediation: String,
    /// A command to paste (`kubectl patch …`), when one fixes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Facts that support the finding (times, job names, pod reasons).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// The manifest field the finding is about (dotted path), for file:line:column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// Where the finding points in the input file (from `field`, filled in by the report).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Position>,
    /// A short cause for the headline ("suspended", "Forbid is blocked by job x …"), set by
    /// rules whose finding explains why the CronJob is not running as scheduled.
    #[serde(skip)]
    pub headline: Option<String>,
}

impl Finding {
    /// Start a finding of `rule` at its default severity.
    pub fn new(rule: &crate::rules::Rule, message: impl Into<String>) -> Self {
        Finding {
            id: rule.id,
            slug: rule.slug,
            severity: rule.severity,
            message: message.into(),
            remediation: String::new(),
            command: None,
            evidence: Vec::new(),
            field: None,
            location: None,
            headline: None,
        }
    }
    pub fn severity(mut self, s: Severity) -> Self {
        self.severity = s;
        self
    }
    pub fn field(mut self, path: &'static str) -> Self {
        self.field = Some(path);
        self
    }
    pub fn fix(mut self, remediation: impl Into<String>) -> Self {
        self.remediation = remediation.into();
        self
    }
    pub fn command(mut self, cmd: impl Into<String>) -> Self {
        self.command = Some(cmd.into());
        self
    }
    pub fn evidence(mut self, line: impl Into<String>) -> Self {
        self.evidence.push(line.into());
        self
    }
    pub fn headline(mut self, h: impl Into<String>) -> Self {
        self.headline = Some(h.into());
        self
    }
}
