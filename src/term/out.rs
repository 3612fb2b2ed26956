//! How actions talk: preview bullets, the exact requests, objects as YAML or JSON. Text goes
//! to stdout, except when stdout carries an object (`-o yaml|json`): then the words go to
//! stderr so the object can be piped.

use serde_json::Value;

use crate::cli::ObjectFormat;

/// Where the human-readable lines go.
#[derive(Clone, Copy, Debug)]
pub struct Out {
    pub to_stderr: bool,
}

impl Out {
    pub const STDOUT: Out = Out { to_stderr: false };

    pub fn line(&self, s: impl AsRef<str>) {
        // Lines quote annotation values and names from the cluster: control characters are
        // shown, never sent to the terminal (`report::visible`). The tool's own lines have none.
        let s = doctor::report::visible::text(s.as_ref());
        if self.to_stderr {
            eprintln!("{s}");
        } else {
            super::emit(&format!("{s}\n"));
        }
    }

    pub fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) {
        for l in lines {
            self.line(l);
        }
    }
}

/// An object as `kubectl get -o yaml|json` prints it.
pub fn object_text(v: &Value, format: ObjectFormat) -> String {
    match format {
        ObjectFormat::Json => {
            let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
            s.push('\n');
            s
        }
        ObjectFormat::Yaml => {
            serde_saphyr::to_string(v).unwrap_or_else(|e| format!("# cannot write YAML: {e}\n"))
        }
    }
}

/// A request exactly as it would be sent (`--dry-run=client`).
pub fn request_text(
    method: &str,
    path_and_query: &str,
    content_type: &str,
    body: &Value,
) -> String {
    format!(
        "{method} {path_and_query}\nContent-Type: {content_type}\n{}\n",
        serde_json::to_string_pretty(body).unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_print_as_yaml_or_json() {
        let v = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "x"}});
        let y = object_text(&v, ObjectFormat::Yaml);
        assert!(y.contains("kind: Job"), "{y}");
        assert!(y.contains("metadata:\n  name: x"), "{y}");
        assert!(object_text(&v, ObjectFormat::Json).starts_with("{\n"));
    }

    #[test]
    fn requests_show_method_path_type_and_body() {
        let t = request_text(
            "PATCH",
            "/a?b=c",
            "application/merge-patch+json",
            &json!({"a": 1}),
        );
        assert_eq!(
            t,
            "PATCH /a?b=c\nContent-Type: application/merge-patch+json\n{\n  \"a\": 1\n}\n"
        );
    }
}
