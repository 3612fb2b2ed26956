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
    /// The commands of [`Finding::remedy`], one per line (kept in the JSON for compatibility;
    /// set by `check_all`, so it never disagrees with the fix plan).
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
    /// The remediation as data, for the per-CronJob fix plan (`report::fix`): a merge-patch
    /// fragment and other commands. `command` above is derived from it by `check_all`.
    #[serde(skip)]
    pub remedy: Remedy,
}

/// How one finding is remedied, as data the fix plan can merge with other findings'.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Remedy {
    /// An RFC 7386 JSON merge patch fragment for the CronJob (`{"spec":{…}}`).
    pub patch: Option<serde_json::Value>,
    /// Commands other than the patch, each in the phase it must run in.
    pub steps: Vec<Step>,
    /// What the patch fragment is for, when "set FIELD VALUE" is not enough (one line).
    pub patch_note: Option<String>,
}

impl Remedy {
    /// The remedy as commands to paste, one per line, in phase order (None: nothing to run).
    /// `patch_in_cluster` false: the CronJob exists in no cluster (the API server refuses the
    /// manifest), so the patch is left to the file edit and only the other steps are given.
    pub fn commands(&self, name: &str, namespace: &str, patch_in_cluster: bool) -> Option<String> {
        let mut steps: Vec<(Phase, String)> = self
            .steps
            .iter()
            .map(|s| (s.phase, s.command.clone()))
            .collect();
        if let Some(p) = self.patch.as_ref().filter(|_| patch_in_cluster) {
            steps.push((Phase::Patch, patch_command(name, namespace, p)));
        }
        steps.sort_by_key(|(phase, _)| *phase);
        let lines: Vec<String> = steps.into_iter().map(|(_, c)| c).collect();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }
}

/// `kubectl patch cronjob NAME -n NS --type merge -p '<json>'`, every word quoted for POSIX
/// shells ([`crate::text::shell_word`]): the JSON always, a name or namespace when needed.
pub fn patch_command(name: &str, namespace: &str, patch: &serde_json::Value) -> String {
    crate::text::patch_command(name, namespace, &patch.to_string())
}

/// When a command must run relative to the CronJob patch. The plan lists steps in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Look at / fix what the Pod evidence shows (image, OOMKilled, crash loop, pending)
    /// before anything else: cleaning up without it only makes the next run fail the same way.
    Cause,
    /// The one `kubectl patch cronjob … --type merge` of the plan.
    Patch,
    /// Clean-up that only makes sense once the CronJob is right (delete a hung Job, reset a
    /// status field): done earlier, the controller would start the next run on the old spec.
    Cleanup,
    /// Optional catch-up runs, last, on the corrected spec.
    CatchUp,
}

/// One command of a remedy, with the one-line reason shown above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub phase: Phase,
    pub command: String,
    pub reason: String,
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
            remedy: Remedy::default(),
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
    /// The merge-patch fragment that fixes this finding (`{"spec":{…}}`).
    pub fn patch(mut self, fragment: serde_json::Value) -> Self {
        self.remedy.patch = Some(fragment);
        self
    }
    /// A note added to the plan's patch line when this finding's fragment is part of it.
    pub fn patch_note(mut self, note: impl Into<String>) -> Self {
        self.remedy.patch_note = Some(note.into());
        self
    }
    /// A command other than the CronJob patch, with its phase and a one-line reason.
    pub fn step(
        mut self,
        phase: Phase,
        command: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        self.remedy.steps.push(Step {
            phase,
            command: command.into(),
            reason: reason.into(),
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_commands_quote_single_quotes_for_the_shell() {
        let c = patch_command(
            "c",
            "ns",
            &serde_json::json!({"spec": {"schedule": "it's"}}),
        );
        assert_eq!(
            c,
            r#"kubectl patch cronjob c -n ns --type merge -p '{"spec":{"schedule":"it'\''s"}}'"#
        );
    }
}
