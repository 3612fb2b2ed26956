//! Fixture loading: the YAML or JSON a test author would write or `kubectl get -o yaml`
//! would print, flattened to individual objects.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Why a fixture could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    #[error("JSON fixture: {0}")]
    Json(#[source] serde_json::Error),
    #[error("YAML fixture: {0}")]
    Yaml(#[source] serde_saphyr::Error),
    #[error("fixture object without kind/apiVersion")]
    NoKind,
    /// A document that is a scalar (shown as JSON).
    #[error("fixture document is not an object: {0}")]
    NotAnObject(Value),
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file's contents do not load.
    #[error("{}: {source}", path.display())]
    File {
        path: PathBuf,
        source: Box<FixtureError>,
    },
}

/// Parses multi-document YAML, a JSON object or a JSON array into objects. `kind: List` and
/// `…List` documents (what `kubectl get -o yaml` prints) contribute their `items`, with the
/// list's `apiVersion`-less items left as they are. Empty documents are skipped.
pub fn load_fixture_str(text: &str) -> Result<Vec<Value>, FixtureError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let docs: Vec<Value> = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        vec![serde_json::from_str(trimmed).map_err(FixtureError::Json)?]
    } else {
        serde_saphyr::from_multiple(text).map_err(FixtureError::Yaml)?
    };
    let mut out = Vec::new();
    for doc in docs {
        flatten(doc, &mut out)?;
    }
    Ok(out)
}

fn flatten(doc: Value, out: &mut Vec<Value>) -> Result<(), FixtureError> {
    match doc {
        Value::Null => Ok(()),
        Value::Array(items) => items.into_iter().try_for_each(|i| flatten(i, out)),
        Value::Object(mut m) => {
            let kind = m.get("kind").and_then(Value::as_str).unwrap_or_default();
            if kind == "List" || (kind.ends_with("List") && m.contains_key("items")) {
                // `CronJobList` items omit apiVersion/kind on the wire; restore them.
                let item_kind = kind
                    .strip_suffix("List")
                    .filter(|k| !k.is_empty())
                    .map(str::to_string);
                let api_version = m.get("apiVersion").cloned();
                let items = m.remove("items").unwrap_or(Value::Array(vec![]));
                for mut item in items.as_array().cloned().unwrap_or_default() {
                    if let (Some(k), Some(obj)) = (&item_kind, item.as_object_mut()) {
                        obj.entry("kind")
                            .or_insert_with(|| Value::String(k.clone()));
                        if let Some(av) = &api_version {
                            obj.entry("apiVersion").or_insert_with(|| av.clone());
                        }
                    }
                    flatten(item, out)?;
                }
                return Ok(());
            }
            if !m.contains_key("kind") || !m.contains_key("apiVersion") {
                return Err(FixtureError::NoKind);
            }
            out.push(Value::Object(m));
            Ok(())
        }
        other => Err(FixtureError::NotAnObject(other)),
    }
}

/// [`load_fixture_str`] on a file's contents.
pub fn load_fixture_file(path: impl AsRef<Path>) -> Result<Vec<Value>, FixtureError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| FixtureError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    load_fixture_str(&text).map_err(|e| FixtureError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_json_and_lists() {
        let yaml = "---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a}\nspec:\n  schedule: \"*/5 * * * *\"\n  suspend: false\n---\n\
                    apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n---\n";
        let objs = load_fixture_str(yaml).unwrap();
        assert_eq!(objs.len(), 2);
        assert_eq!(objs[0]["spec"]["schedule"], "*/5 * * * *");
        assert_eq!(objs[0]["spec"]["suspend"], false);
        assert_eq!(objs[1]["kind"], "Pod");
        let json =
            r#"{"apiVersion":"batch/v1","kind":"JobList","items":[{"metadata":{"name":"j"}}]}"#;
        let objs = load_fixture_str(json).unwrap();
        assert_eq!(
            (objs[0]["kind"].as_str(), objs[0]["apiVersion"].as_str()),
            (Some("Job"), Some("batch/v1"))
        );
        assert!(load_fixture_str("metadata: {name: x}\n").is_err());
    }
}
