//! The cause of a CronJob's trouble as one word from a bounded set, for the monitor's `cause`
//! label: a rule slug (docs/rules.md), [`CONTROLLER`], [`UNKNOWN`] or [`NONE`]. The same
//! choice as the headline's (`super::headline`): an outage's cause is the finding
//! `rules::not_running::cause` names; otherwise the finding that leads the headline.

use crate::rules::{Finding, Severity, not_running, run_not_started};

/// Runs are lost and nothing in the evidence explains it: the headline then names the
/// controller (not syncing, not leading, its clock), or a refused create without Events.
pub const CONTROLLER: &str = "controller";
/// Runs were missed, but too few for `not-running` and no finding names why (a single late
/// sync, a slot the controller skipped without a trace).
pub const UNKNOWN: &str = "unknown";
/// Nothing to explain: no missed run, or no warning or error.
pub const NONE: &str = "none";

/// The values a `cause` label can take besides rule slugs.
pub const NON_RULE: [&str; 3] = [CONTROLLER, UNKNOWN, NONE];

/// The cause of the CronJob's status, as its headline tells it: the outage's cause when runs
/// are lost (`not-running`), else the finding that leads the headline (a run not started,
/// else the first finding with a headline), else the worst warning or error; [`NONE`] when
/// there is none of these.
pub fn of_status(findings: &[Finding]) -> &'static str {
    if findings.iter().any(|f| f.slug == not_running::RULE.slug) {
        return not_running::cause(findings).map_or(CONTROLLER, |f| f.slug);
    }
    findings
        .iter()
        .find(|f| f.slug == run_not_started::RULE.slug)
        .or_else(|| findings.iter().find(|f| f.headline.is_some()))
        .or_else(|| findings.iter().find(|f| f.severity >= Severity::Warning))
        .map_or(NONE, |f| f.slug)
}

/// The cause of `missed` missed runs: the finding that explains lost runs
/// (`rules::not_running::cause`), else [`CONTROLLER`] when `not-running` reports an outage,
/// else [`UNKNOWN`]; [`NONE`] when nothing was missed.
pub fn of_missed(findings: &[Finding], missed: usize) -> &'static str {
    if missed == 0 {
        return NONE;
    }
    match not_running::cause(findings) {
        Some(f) => f.slug,
        None if findings.iter().any(|f| f.slug == not_running::RULE.slug) => CONTROLLER,
        None => UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RULES;

    #[test]
    fn the_non_rule_words_are_no_rule_slug() {
        for w in NON_RULE {
            assert!(RULES.iter().all(|r| r.slug != w), "{w}");
        }
    }

    #[test]
    fn nothing_is_none_and_nothing_missed_is_none() {
        assert_eq!(of_status(&[]), NONE);
        assert_eq!(of_missed(&[], 0), NONE);
        assert_eq!(of_missed(&[], 1), UNKNOWN);
    }
}
