//! The fix plan's patch as edits of the YAML file it came from, so SARIF consumers (GitHub code
//! scanning) can offer the change in place: each leaf of the merge patch either replaces the
//! exact scalar it changes, or inserts a `key: value` line into the block mapping it belongs
//! to. Anything less certain (a flow mapping, a multi-line value, a removed field, text that
//! does not read back as the value the model holds) gives no edits at all: a wrong edit is
//! worse than none. JSON sources (and objects written as one flow mapping) get no edits: the
//! edits are block YAML, which would break them.

use serde_json::Value;

use super::merge_patch::{leaves, value_in_cron_job};
use crate::model::{CronJob, Origin};

/// One replacement in 1-based lines and columns (columns counted in UTF-16 code units, SARIF's
/// default); an insertion has an empty deleted region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start_line: u32,
    pub start_column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub text: String,
}

/// The edits that apply `patch` to the YAML `text` the CronJob was read from, or None when any
/// part of it cannot be placed with certainty.
pub fn edits(cj: &CronJob, origin: &Origin, text: &str, patch: &Value) -> Option<Vec<Edit>> {
    let lines: Vec<&str> = text.split('\n').collect();
    if written_as_json(origin, &lines) {
        return None;
    }
    let mut out = Vec::new();
    for (path, value) in leaves(patch) {
        let new_text = scalar_yaml(&value)?;
        let edit = match origin.fields.get(&path) {
            Some(pos) => replace_scalar(&lines, pos.line, pos.column, cj, &path, new_text)?,
            None => insert_field(&lines, origin, &path, new_text)?,
        };
        out.push(edit);
    }
    // Two insertions at one line would be ambiguous to apply: keep it simple and certain.
    let mut starts: Vec<(u32, u32)> = out.iter().map(|e| (e.start_line, e.start_column)).collect();
    starts.sort();
    starts.dedup();
    (starts.len() == out.len() && !out.is_empty()).then_some(out)
}

/// Whether the object is JSON (or flow YAML, which the loader reads the same way): a `.json`
/// file, or a `{` where the object starts (the loader records an object's opening brace as
/// its position, and the first key for block YAML).
fn written_as_json(origin: &Origin, lines: &[&str]) -> bool {
    if origin.file.to_ascii_lowercase().ends_with(".json") {
        return true;
    }
    let Some(line) = usize::try_from(origin.position.line)
        .ok()
        .and_then(|l| l.checked_sub(1))
        .and_then(|l| lines.get(l))
    else {
        return false;
    };
    let column = usize::try_from(origin.position.column).unwrap_or(usize::MAX);
    let start = line.trim_start_matches('\u{feff}');
    let at = start.chars().nth(column.saturating_sub(1));
    // A position past the text (it should not happen) is not evidence of anything: fall back
    // on the first character of the line.
    at.or_else(|| start.trim_start().chars().next()) == Some('{')
}

/// A YAML scalar for a JSON value: strings double-quoted (JSON's escapes are YAML's too).
fn scalar_yaml(v: &Value) -> Option<String> {
    match v {
        Value::String(_) | Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

fn utf16_col(line: &str, char_index: usize) -> u32 {
    let units: usize = line.chars().take(char_index).map(char::len_utf16).sum();
    u32::try_from(units + 1).unwrap_or(u32::MAX)
}

/// Replace the scalar that starts at (line, column), after checking it reads back as the
/// model's current value of `path`.
fn replace_scalar(
    lines: &[&str],
    line: u32,
    column: u32,
    cj: &CronJob,
    path: &str,
    new_text: String,
) -> Option<Edit> {
    let raw = *lines.get(usize::try_from(line).ok()?.checked_sub(1)?)?;
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let chars: Vec<char> = raw.chars().collect();
    let start = usize::try_from(column).ok()?.checked_sub(1)?;
    if start >= chars.len() {
        return None;
    }
    let current = value_in_cron_job(cj, path)?;
    let end = scalar_ends(&chars, start)
        .into_iter()
        .find(|&end| reads_as(&chars[start..end].iter().collect::<String>(), &current))?;
    Some(Edit {
        start_line: line,
        start_column: utf16_col(raw, start),
        end_line: line,
        end_column: utf16_col(raw, end),
        text: new_text,
    })
}

/// Candidate ends of a scalar starting at `start`: after the closing quote for quoted ones; for
/// plain ones the end of the line (before a comment), then each `,` `}` `]` (flow context).
fn scalar_ends(chars: &[char], start: usize) -> Vec<usize> {
    match chars[start] {
        '"' => {
            let mut i = start + 1;
            while i < chars.len() {
                match chars[i] {
                    '\\' => i += 2,
                    '"' => return vec![i + 1],
                    _ => i += 1,
                }
            }
            Vec::new()
        }
        '\'' => {
            let mut i = start + 1;
            while i < chars.len() {
                if chars[i] == '\'' {
                    if chars.get(i + 1) == Some(&'\'') {
                        i += 2;
                        continue;
                    }
                    return vec![i + 1];
                }
                i += 1;
            }
            Vec::new()
        }
        _ => {
            let mut end = chars.len();
            for i in start..chars.len() {
                if chars[i] == '#' && i > start && chars[i - 1].is_whitespace() {
                    end = i;
                    break;
                }
            }
            while end > start && chars[end - 1].is_whitespace() {
                end -= 1;
            }
            let mut ends = vec![end];
            for (i, c) in chars.iter().enumerate().take(end).skip(start) {
                if matches!(c, ',' | '}' | ']') {
                    let mut e = i;
                    while e > start && chars[e - 1].is_whitespace() {
                        e -= 1;
                    }
                    ends.push(e);
                }
            }
            ends
        }
    }
}

/// Whether the YAML scalar `token` denotes `value` (the model's reading of the field).
fn reads_as(token: &str, value: &Value) -> bool {
    let text = if let Some(inner) = token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        match serde_json::from_str::<String>(token) {
            Ok(s) => s,
            Err(_) if !inner.contains('\\') => inner.to_string(),
            Err(_) => return false,
        }
    } else if let Some(inner) = token.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        inner.replace("''", "'")
    } else {
        token.to_string()
    };
    match value {
        Value::String(s) => *s == text,
        Value::Number(n) => text.parse::<i64>().ok() == n.as_i64(),
        Value::Bool(b) => text.eq_ignore_ascii_case(if *b { "true" } else { "false" }),
        _ => false,
    }
}

/// Insert `key: value` as the first entry of the block mapping `path`'s parent, indented like
/// its existing first entry.
fn insert_field(lines: &[&str], origin: &Origin, path: &str, value: String) -> Option<Edit> {
    let (parent, key) = path.rsplit_once('.')?;
    let parent_line = origin.fields.get(parent)?.line;
    let prefix = format!("{parent}.");
    let first_child = origin
        .fields
        .iter()
        .filter(|(p, _)| {
            p.strip_prefix(&prefix)
                .is_some_and(|rest| !rest.contains('.'))
        })
        .map(|(_, pos)| pos.line)
        .min()?;
    if first_child <= parent_line {
        return None; // a flow mapping on the parent's line
    }
    let raw = *lines.get(usize::try_from(first_child).ok()?.checked_sub(1)?)?;
    let indent: String = raw.chars().take_while(|c| *c == ' ').collect();
    let rest = &raw[indent.len()..];
    // The child line must start a mapping entry at this indentation (not a list item).
    if indent.is_empty() || rest.starts_with('-') || !rest.contains(':') {
        return None;
    }
    Some(Edit {
        start_line: first_child,
        start_column: 1,
        end_line: first_child,
        end_column: 1,
        text: format!("{indent}{key}: {value}\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(yaml: &str) -> CronJob {
        let (snap, errs) = crate::source::parse_text("x.yaml", yaml).into_snapshot();
        assert!(errs.is_empty(), "{errs:?}");
        snap.cron_jobs.into_iter().next().unwrap()
    }

    /// Apply edits (line/column in UTF-16 units; ASCII here) to text, last first.
    fn apply(text: &str, mut edits: Vec<Edit>) -> String {
        edits.sort_by_key(|e| std::cmp::Reverse((e.start_line, e.start_column)));
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        for e in edits {
            let l = (e.start_line - 1) as usize;
            let line = &lines[l];
            let (a, b) = ((e.start_column - 1) as usize, (e.end_column - 1) as usize);
            lines[l] = format!("{}{}{}", &line[..a], e.text, &line[b..]);
        }
        lines.join("\n")
    }

    const YAML: &str = "apiVersion: batch/v1
kind: CronJob
metadata:
  name: backup
spec:
  schedule: \"CRON_TZ=America/New_York 0 1 * * *\"   # nightly
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: Never
          containers: [{name: b, image: b:1}]
";

    #[test]
    fn replaces_scalars_and_inserts_missing_fields() {
        let cj = load(YAML);
        let origin = cj.origin.clone().unwrap();
        let patch = json!({"spec": {"schedule": "0 1 * * *", "timeZone": "America/New_York",
            "jobTemplate": {"spec": {"activeDeadlineSeconds": 780}}}});
        let e = edits(&cj, &origin, YAML, &patch).expect("edits");
        let out = apply(YAML, e);
        let after = load(&out);
        // The edited file reads back as the patched CronJob.
        let want = super::super::merge_patch::apply_to_cron_job(&cj, &patch).unwrap();
        assert_eq!(after.spec, want.spec, "{out}");
        assert!(
            out.contains("  schedule: \"0 1 * * *\"   # nightly"),
            "{out}"
        );
    }

    #[test]
    fn plain_and_single_quoted_scalars_are_found() {
        let y = YAML.replace(
            "\"CRON_TZ=America/New_York 0 1 * * *\"   # nightly",
            "'0 30 2 * * *'",
        );
        let cj = load(&y);
        let e = edits(
            &cj,
            cj.origin.as_ref().unwrap(),
            &y,
            &json!({"spec": {"schedule": "30 3 * * *", "concurrencyPolicy": "Replace"}}),
        )
        .unwrap();
        let out = apply(&y, e);
        assert!(
            out.contains("  schedule: \"30 3 * * *\"\n  concurrencyPolicy: \"Replace\""),
            "{out}"
        );
    }

    /// The YAML example as JSON (what `kubectl get -o json` prints), in `file`.
    fn as_json(file: &str) -> (CronJob, String) {
        let json = r#"{
  "apiVersion": "batch/v1",
  "kind": "CronJob",
  "metadata": {
    "name": "backup"
  },
  "spec": {
    "schedule": "CRON_TZ=America/New_York 0 1 * * *",
    "concurrencyPolicy": "Forbid",
    "jobTemplate": {
      "spec": {
        "backoffLimit": 2,
        "template": {
          "spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "b", "image": "b:1"}]
          }
        }
      }
    }
  }
}
"#;
        let (snap, errs) = crate::source::parse_text(file, json).into_snapshot();
        assert!(errs.is_empty(), "{errs:?}");
        (snap.cron_jobs.into_iter().next().unwrap(), json.to_string())
    }

    #[test]
    fn json_sources_get_no_edits() {
        let patch = json!({"spec": {"schedule": "0 1 * * *", "timeZone": "America/New_York"}});
        // Both by the object's text (a `{`, whatever the file is called) and by the name.
        for file in ["x.json", "x.yaml", "stdin"] {
            let (cj, text) = as_json(file);
            let o = cj.origin.clone().unwrap();
            assert_eq!(edits(&cj, &o, &text, &patch), None, "{file}");
        }
        // The same object in block YAML still gets them.
        let cj = load(YAML);
        assert!(edits(&cj, cj.origin.as_ref().unwrap(), YAML, &patch).is_some());
        // A List item in JSON starts with its `{` too.
        let list = "{\"kind\": \"List\", \"items\": [\n  {\"apiVersion\": \"batch/v1\", \"kind\": \"CronJob\", \"metadata\": {\"name\": \"a\"},\n   \"spec\": {\n     \"schedule\": \"* * * * *\",\n     \"jobTemplate\": {\"spec\": {\"template\": {\"spec\": {\"restartPolicy\": \"Never\"}}}}}}]}\n";
        let (snap, errs) = crate::source::parse_text("l.txt", list).into_snapshot();
        assert!(errs.is_empty(), "{errs:?}");
        let cj = &snap.cron_jobs[0];
        let o = cj.origin.clone().unwrap();
        assert_eq!(
            edits(cj, &o, list, &json!({"spec": {"suspend": true}})),
            None
        );
    }

    #[test]
    fn uncertain_edits_give_none() {
        let cj = load(YAML);
        let o = cj.origin.clone().unwrap();
        // Removing a field, or text that does not match the model, is not guessed at.
        assert_eq!(
            edits(&cj, &o, YAML, &json!({"spec": {"schedule": null}})),
            None
        );
        let other = YAML.replace("0 1 * * *", "0 2 * * *");
        assert_eq!(
            edits(&cj, &o, &other, &json!({"spec": {"schedule": "x"}})),
            None
        );
        // A field under a flow mapping has nowhere certain to go.
        let flow = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a}\nspec: {schedule: \"* * * * *\", jobTemplate: {spec: {template: {spec: {restartPolicy: Never}}}}}\n";
        let cj = load(flow);
        let o = cj.origin.clone().unwrap();
        assert_eq!(
            edits(&cj, &o, flow, &json!({"spec": {"suspend": true}})),
            None
        );
    }
}
