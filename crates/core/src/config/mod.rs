//! A project's settings for `lint` (and `explain`, `scan`): the `.cronjob-doctor.yaml`
//! file, as data. Reading its text (with positions for errors) is [`file`]; finding it on
//! disk is the shell's. Everything here is pure.
//!
//! Severity overrides are applied where findings are finished (`report`), before the health
//! and the headline are worked out, so a rule turned off can never lead a headline and a
//! lowered one never fails a build.

pub mod file;

use crate::replay::KubeVersion;
use crate::rules::{self, Severity};

/// What a rule override sets: a severity, or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    Severity(Severity),
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Off => "off",
            Level::Severity(s) => s.as_str(),
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "off" => Some(Level::Off),
            "info" => Some(Level::Severity(Severity::Info)),
            "warning" => Some(Level::Severity(Severity::Warning)),
            "error" => Some(Level::Severity(Severity::Error)),
            _ => None,
        }
    }
}

/// Per-rule overrides, keyed by the rule's slug (an id in the file is resolved to its slug).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Severities {
    /// (slug, level), sorted by slug, one entry per rule.
    overrides: Vec<(&'static str, Level)>,
}

/// No overrides: every rule at its own severity.
pub const NO_OVERRIDES: &Severities = &Severities {
    overrides: Vec::new(),
};

impl Severities {
    /// Overrides for rules named by slug; a later entry for the same rule wins.
    pub fn new(entries: impl IntoIterator<Item = (&'static str, Level)>) -> Severities {
        let mut overrides: Vec<(&'static str, Level)> = Vec::new();
        for (slug, level) in entries {
            match overrides.iter_mut().find(|(s, _)| *s == slug) {
                Some(e) => e.1 = level,
                None => overrides.push((slug, level)),
            }
        }
        overrides.sort_by_key(|(s, _)| *s);
        Severities { overrides }
    }

    pub fn is_empty(&self) -> bool {
        self.overrides.is_empty()
    }

    /// The override for the rule `slug`, if any.
    pub fn get(&self, slug: &str) -> Option<Level> {
        self.overrides
            .binary_search_by(|(s, _)| (*s).cmp(slug))
            .ok()
            .map(|i| self.overrides[i].1)
    }

    /// The severity a finding of `slug` reported at `severity` ends with (None: turned off).
    pub fn apply(&self, slug: &str, severity: Severity) -> Option<Severity> {
        match self.get(slug) {
            None => Some(severity),
            Some(Level::Off) => None,
            Some(Level::Severity(s)) => Some(s),
        }
    }

    /// The rule's default severity with the override applied, for `rules`' listing.
    pub fn effective(&self, rule: &rules::Rule) -> Level {
        self.get(rule.slug)
            .unwrap_or(Level::Severity(rule.severity))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, Level)> + '_ {
        self.overrides.iter().copied()
    }
}

/// The lowest severity that fails `lint` (the `--fail-on` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Never,
    Info,
    Warning,
    Error,
}

impl FailOn {
    pub fn parse(s: &str) -> Option<FailOn> {
        match s {
            "never" => Some(FailOn::Never),
            "info" => Some(FailOn::Info),
            "warning" => Some(FailOn::Warning),
            "error" => Some(FailOn::Error),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::Never => "never",
            FailOn::Info => "info",
            FailOn::Warning => "warning",
            FailOn::Error => "error",
        }
    }
}

/// The settings of one config file. Every field is optional; flags given on the command line
/// win over the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub rules: Severities,
    /// Path globs, relative to the config file's directory (`charts/**`).
    pub exclude: Vec<String>,
    /// `namespace/name` globs of CronJobs to leave out (`kube-system/*`).
    pub skip: Vec<String>,
    pub fail_on: Option<FailOn>,
    pub controller_time_zone: Option<String>,
    pub kube_version: Option<KubeVersion>,
}

impl Config {
    /// Whether the CronJob `namespace/name` is skipped (an empty namespace is `default`).
    pub fn skips(&self, namespace: &str, name: &str) -> bool {
        let ns = if namespace.is_empty() {
            "default"
        } else {
            namespace
        };
        let key = format!("{ns}/{name}");
        self.skip.iter().any(|g| glob_match(g, &key))
    }

    /// Whether `path` (relative to the config file's directory, `/`-separated) is excluded.
    pub fn excludes(&self, path: &str) -> bool {
        self.exclude.iter().any(|g| glob_match(g, path))
    }

    /// The effective settings as YAML (`lint --print-config`): every key, set or not.
    pub fn to_yaml(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let list = |v: &[String]| {
            if v.is_empty() {
                " []\n".to_string()
            } else {
                v.iter()
                    .map(|s| format!("\n  - {}", q(s)))
                    .collect::<String>()
                    + "\n"
            }
        };
        let mut out = String::from("rules:");
        if self.rules.is_empty() {
            out.push_str(" {}\n");
        } else {
            out.push('\n');
            for (slug, level) in self.rules.iter() {
                out.push_str(&format!("  {slug}: {}\n", level.as_str()));
            }
        }
        out.push_str("exclude:");
        out.push_str(&list(&self.exclude));
        out.push_str("skip:");
        out.push_str(&list(&self.skip));
        let opt = |v: Option<String>| v.map_or("null".to_string(), |s| q(&s));
        out.push_str(&format!(
            "failOn: {}\n",
            opt(self.fail_on.map(|f| f.as_str().to_string()))
        ));
        out.push_str(&format!(
            "controllerTimeZone: {}\n",
            opt(self.controller_time_zone.clone())
        ));
        out.push_str(&format!(
            "kubeVersion: {}\n",
            opt(self.kube_version.map(|v| v.to_string()))
        ));
        out
    }
}

/// Shell-style glob over `/`-separated text: `*` and `?` stay within one segment, `**` spans
/// any number of segments (`charts/**` matches everything under `charts/`, `**/x.yaml` any
/// `x.yaml` at any depth, `**/` also matching no segment at all). Iterative, backtracking to
/// the last `*` and then to the last `**` (as gitignore matchers do): at most
/// pattern × text steps, never recursive, so a hostile pattern cannot blow the stack.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    // Where to resume after the last `*` (pattern index, text index) and after the last `**`
    // (pattern index, text index, whether it was `**/` and must resume at a segment start).
    let mut single: Option<(usize, usize)> = None;
    let mut double: Option<(usize, usize, bool)> = None;
    while ti < t.len() {
        if p.get(pi) == Some(&'*') {
            if p.get(pi + 1) == Some(&'*') {
                let slash = p.get(pi + 2) == Some(&'/');
                let next = pi + if slash { 3 } else { 2 };
                double = Some((next, ti, slash));
                single = None;
                pi = next;
            } else {
                single = Some((pi + 1, ti));
                pi += 1;
            }
            continue;
        }
        if let Some(&c) = p.get(pi)
            && (c == t[ti] || c == '?' && t[ti] != '/')
        {
            pi += 1;
            ti += 1;
            continue;
        }
        if let Some((sp, st)) = single
            && t[st] != '/'
        {
            single = Some((sp, st + 1));
            pi = sp;
            ti = st + 1;
            continue;
        }
        match double {
            Some((sp, st, slash)) => {
                // `**/` resumes only where a segment starts; `**` anywhere.
                let resume = if slash {
                    match t[st..].iter().position(|&c| c == '/') {
                        Some(i) => st + i + 1,
                        None => return false,
                    }
                } else {
                    st + 1
                };
                double = Some((sp, resume, slash));
                single = None;
                pi = sp;
                ti = resume;
            }
            None => return false,
        }
    }
    while p.get(pi) == Some(&'*') {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_a_shell_with_double_star() {
        assert!(glob_match("charts/**", "charts/a/b.yaml"));
        assert!(glob_match("charts/**", "charts/x.yaml"));
        assert!(!glob_match("charts/*", "charts/a/b.yaml"));
        assert!(glob_match("charts/*", "charts/b.yaml"));
        assert!(glob_match("**/legacy.yaml", "a/b/legacy.yaml"));
        assert!(glob_match("**/legacy.yaml", "legacy.yaml"));
        assert!(glob_match("kube-system/*", "kube-system/backup"));
        assert!(!glob_match("kube-system/*", "ops/backup"));
        assert!(glob_match("*/legacy-*", "ops/legacy-sync"));
        assert!(!glob_match("*/legacy-*", "ops/sync-legacy"));
        assert!(glob_match("a?c", "abc"));
        assert!(!glob_match("a?c", "a/c"));
        assert!(!glob_match("", "x"));
        assert!(glob_match("", ""));
        assert!(glob_match("**/x/*.yaml", "a/x/b/x/c.yaml"));
        assert!(!glob_match("**/x", "ax"));
        assert!(glob_match("**/x", "a/x"));
        assert!(glob_match("vendor/**", "vendor/a"));
        // A pathological pattern ends (no exponential backtracking).
        let long = "a".repeat(5000);
        assert!(!glob_match(&"*a".repeat(200), &(long.clone() + "b")));
    }

    #[test]
    fn overrides_apply_by_slug_and_the_last_one_wins() {
        let s = Severities::new([
            ("backoff-limit-too-large", Level::Off),
            ("late-start", Level::Severity(Severity::Info)),
            ("late-start", Level::Severity(Severity::Error)),
        ]);
        assert_eq!(s.apply("backoff-limit-too-large", Severity::Warning), None);
        assert_eq!(
            s.apply("late-start", Severity::Warning),
            Some(Severity::Error)
        );
        assert_eq!(
            s.apply("forbid-blocked", Severity::Error),
            Some(Severity::Error)
        );
        assert!(NO_OVERRIDES.is_empty());
    }

    #[test]
    fn skip_globs_name_namespace_and_name() {
        let c = Config {
            skip: vec!["kube-system/*".into(), "*/legacy-*".into()],
            ..Config::default()
        };
        assert!(c.skips("kube-system", "x"));
        assert!(c.skips("", "legacy-x"));
        assert!(!c.skips("ops", "x"));
    }
}
