//! Reading `.cronjob-doctor.yaml` (YAML or JSON) into a [`Config`], every problem with its line
//! and column. Strict where the manifests are lenient: a setting that is misspelt would be
//! silently ignored, so unknown keys and unknown rules are errors with a "did you mean".

use super::{Config, FailOn, Level, Severities};
use crate::replay::KubeVersion;
use crate::rules;

use crate::source::split::{Chunk, split_documents};
use crate::source::tree::{N, Shape, parse_chunk};

/// One problem in a config file (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// The keys a config file may hold.
pub const KEYS: &[&str] = &[
    "rules",
    "exclude",
    "skip",
    "failOn",
    "controllerTimeZone",
    "kubeVersion",
];

/// Reads a config file's text. All problems are reported, not just the first.
pub fn parse_config(text: &str) -> Result<Config, Vec<ConfigError>> {
    let mut errors = Vec::new();
    let chunks = split_documents(text);
    let chunk = match chunks.as_slice() {
        [] => return Ok(Config::default()),
        [c] => *c,
        [_, second, ..] => {
            return Err(vec![ConfigError {
                line: second.first_line,
                column: 1,
                message: "a config file holds one YAML document".into(),
            }]);
        }
    };
    let parsed = parse_chunk(&Chunk {
        text: chunk.text,
        first_line: chunk.first_line,
        first_col: chunk.first_col,
    });
    if let Some(e) = parsed.error {
        return Err(vec![ConfigError {
            line: e.pos.line,
            column: e.pos.column,
            message: format!("invalid YAML: {}", e.message),
        }]);
    }
    let Some(doc) = parsed.docs.first() else {
        return Ok(Config::default());
    };
    for d in &doc.duplicates {
        errors.push(ConfigError {
            line: d.again.line,
            column: d.again.column,
            message: format!("{:?} is set twice (first at line {})", d.key, d.first.line),
        });
    }
    let root = doc.root();
    let mut config = Config::default();
    if root.is_null() {
        return finish(config, errors);
    }
    if !root.is_map() {
        errors.push(at(
            &root,
            format!(
                "a config file is a mapping of settings, found {}",
                root.shape().describe()
            ),
        ));
        return finish(config, errors);
    }
    for (k, v) in root.entries() {
        let Some((key, _)) = k.scalar() else { continue };
        match key {
            "rules" => config.rules = read_rules(&v, &mut errors),
            "exclude" => config.exclude = read_globs(&v, key, true, &mut errors),
            "skip" => config.skip = read_globs(&v, key, false, &mut errors),
            "failOn" => {
                if let Some(s) = string(&v, key, &mut errors) {
                    match FailOn::parse(s) {
                        Some(f) => config.fail_on = Some(f),
                        None => errors.push(at(
                            &v,
                            format!(
                                "failOn {s:?}: expected one of never, info, warning, error{}",
                                did_you_mean(s, ["never", "info", "warning", "error"])
                            ),
                        )),
                    }
                }
            }
            "controllerTimeZone" => {
                if let Some(s) = string(&v, key, &mut errors) {
                    match schedule::load_location(s) {
                        Ok(_) => config.controller_time_zone = Some(s.to_string()),
                        Err(e) => errors.push(at(&v, format!("controllerTimeZone {s:?}: {e}"))),
                    }
                }
            }
            "kubeVersion" => {
                // `1.33` written plainly is a YAML number: read its text, as kubectl would.
                match v.scalar() {
                    Some((s, _)) if !v.is_null() => match s.parse::<KubeVersion>() {
                        Ok(kv) => config.kube_version = Some(kv),
                        Err(e) => errors.push(at(&v, format!("kubeVersion: {e}"))),
                    },
                    _ => errors.push(at(
                        &v,
                        format!(
                            "kubeVersion: expected a version such as \"1.33\", found {}",
                            v.shape().describe()
                        ),
                    )),
                }
            }
            other => errors.push(at(
                &k,
                format!(
                    "unknown setting {other:?}{}; the settings are {}",
                    did_you_mean(other, KEYS.iter().copied()),
                    KEYS.join(", ")
                ),
            )),
        }
    }
    finish(config, errors)
}

fn finish(config: Config, mut errors: Vec<ConfigError>) -> Result<Config, Vec<ConfigError>> {
    if errors.is_empty() {
        Ok(config)
    } else {
        errors.sort_by_key(|e| (e.line, e.column));
        Err(errors)
    }
}

fn at(n: &N, message: String) -> ConfigError {
    let p = n.pos();
    ConfigError {
        line: p.line,
        column: p.column,
        message,
    }
}

/// `candidates`' closest to `word`, as " (did you mean \"x\"?)", or nothing.
fn did_you_mean<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    let best = candidates
        .into_iter()
        .map(|c| {
            (
                strsim::damerau_levenshtein(&word.to_lowercase(), &c.to_lowercase()),
                c,
            )
        })
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, c)) if d <= 3.max(word.chars().count() / 3) => {
            format!(" (did you mean {c:?}?)")
        }
        _ => String::new(),
    }
}

fn string<'d>(v: &N<'d, '_>, key: &str, errors: &mut Vec<ConfigError>) -> Option<&'d str> {
    match (v.shape(), v.scalar()) {
        (Shape::String, Some((s, _))) => Some(s),
        _ => {
            errors.push(at(
                v,
                format!("{key}: expected a string, found {}", v.shape().describe()),
            ));
            None
        }
    }
}

fn read_rules(v: &N, errors: &mut Vec<ConfigError>) -> Severities {
    if v.is_null() {
        return Severities::default();
    }
    if !v.is_map() {
        errors.push(at(
            v,
            format!(
                "rules: expected a mapping of rule to level (off, info, warning, error), found {}",
                v.shape().describe()
            ),
        ));
        return Severities::default();
    }
    let mut entries = Vec::new();
    for (k, val) in v.entries() {
        let Some((name, _)) = k.scalar() else {
            continue;
        };
        let Some(rule) = rules::find(name) else {
            let names = rules::RULES.iter().flat_map(|r| [r.slug, r.id]);
            errors.push(at(
                &k,
                format!(
                    "unknown rule {name:?}{} (`kubectl cronjob-doctor rules` lists them)",
                    did_you_mean(name, names)
                ),
            ));
            continue;
        };
        // `off` written plainly is a YAML 1.1 boolean to some tools: read the text.
        let level = match (val.scalar(), val.is_map() || val.shape() == Shape::Seq) {
            (Some((s, _)), false) => Level::parse(s),
            _ => None,
        };
        match level {
            Some(l) => entries.push((rule.slug, l)),
            None => errors.push(at(
                &val,
                format!(
                    "rules.{name}: expected off, info, warning or error, found {}",
                    match val.scalar() {
                        Some((s, _)) => format!("{s:?}"),
                        None => val.shape().describe().to_string(),
                    }
                ),
            )),
        }
    }
    Severities::new(entries)
}

/// A list of globs. Path globs (`exclude`) are relative to the config file: an absolute path
/// or a `..` segment would reach outside the repository, and is refused.
fn read_globs(v: &N, key: &str, paths: bool, errors: &mut Vec<ConfigError>) -> Vec<String> {
    if v.is_null() {
        return Vec::new();
    }
    if v.shape() != Shape::Seq {
        errors.push(at(
            v,
            format!(
                "{key}: expected a list of globs, found {}",
                v.shape().describe()
            ),
        ));
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in v.items() {
        let Some(s) = string(&item, key, errors) else {
            continue;
        };
        if s.is_empty() {
            errors.push(at(&item, format!("{key}: an empty glob matches nothing")));
            continue;
        }
        if paths && (s.starts_with('/') || s.split('/').any(|seg| seg == "..") || s.contains('\\'))
        {
            errors.push(at(
                &item,
                format!(
                    "{key} {s:?}: path globs are relative to the config file's directory and stay inside it (no leading /, no .., / as the separator)"
                ),
            ));
            continue;
        }
        if !paths && s.matches('/').count() != 1 {
            errors.push(at(
                &item,
                format!("{key} {s:?}: expected namespace/name, e.g. \"kube-system/*\""),
            ));
            continue;
        }
        out.push(s.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Severity;

    #[test]
    fn the_documented_example_reads() {
        let c = parse_config(
            r#"
rules:                      # by slug or id: off | info | warning | error
  backoff-limit-too-large: off
  CJD030: warning
exclude: ["charts/**", "vendor/**"]
skip: ["kube-system/*", "*/legacy-*"]
failOn: error
controllerTimeZone: Europe/Berlin
kubeVersion: "1.33"
"#,
        )
        .unwrap();
        assert_eq!(c.rules.get("backoff-limit-too-large"), Some(Level::Off));
        let cjd030 = rules::find("CJD030").unwrap().slug;
        assert_eq!(
            c.rules.get(cjd030),
            Some(Level::Severity(Severity::Warning))
        );
        assert_eq!(c.exclude, ["charts/**", "vendor/**"]);
        assert_eq!(c.fail_on, Some(FailOn::Error));
        assert_eq!(c.controller_time_zone.as_deref(), Some("Europe/Berlin"));
        assert_eq!(c.kube_version.unwrap().minor, 33);
        // A plain 1.33 (a YAML number) is the same version.
        let c = parse_config("kubeVersion: 1.33\n").unwrap();
        assert_eq!(c.kube_version.unwrap().minor, 33);
    }

    #[test]
    fn unknown_keys_and_rules_are_located_with_a_suggestion() {
        let e = parse_config("rules:\n  backof-limit-too-large: off\nfailon: error\n").unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!((e[0].line, e[0].column), (2, 3));
        assert!(
            e[0].message
                .contains(r#"did you mean "backoff-limit-too-large"?"#),
            "{}",
            e[0].message
        );
        assert_eq!((e[1].line, e[1].column), (3, 1));
        assert!(
            e[1].message.contains(r#"did you mean "failOn"?"#),
            "{}",
            e[1].message
        );
    }

    #[test]
    fn bad_values_are_errors_and_paths_stay_inside() {
        let e = parse_config(
            "rules: {late-start: loud}\nexclude: [\"../x/**\", \"/etc/*\"]\nskip: [\"nons\"]\ncontrollerTimeZone: Mars/Base\nkubeVersion: banana\n",
        )
        .unwrap_err();
        let lines: Vec<u32> = e.iter().map(|e| e.line).collect();
        assert_eq!(lines, [1, 2, 2, 3, 4, 5], "{e:?}");
        assert!(e[1].message.contains("stay inside"), "{}", e[1].message);
        assert!(parse_config("[1, 2]\n").is_err());
        assert!(
            parse_config("a: [\n").unwrap_err()[0]
                .message
                .starts_with("invalid YAML")
        );
        assert_eq!(parse_config("").unwrap(), Config::default());
        assert_eq!(parse_config("# nothing\n").unwrap(), Config::default());
    }
}
