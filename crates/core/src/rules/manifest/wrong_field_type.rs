//! CJD036 wrong-field-type: a value of the wrong JSON type, which the API server rejects while
//! decoding, before any validation: a quoted `"300"` where an integer belongs, `"true"` for a
//! boolean, an unquoted `123` or `yes` where a string belongs (a name, an annotation value).
//! The loader reads such values for their evident meaning (so the rest of the diagnosis still
//! works) and records them in `Origin::wrong_types`; this rule turns each into an error.

use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD036",
    slug: "wrong-field-type",
    severity: Severity::Error,
    summary: "A field has the wrong type (a quoted number, a quoted boolean, an unquoted number where text belongs), so the API server rejects the CronJob.",
    explanation: "`kubectl` sends the manifest as JSON, and the API server decodes it into typed \
Go structs before validating anything. A string where an integer or a boolean belongs \
(`startingDeadlineSeconds: \"300\"`, `suspend: \"true\"`), or a number or boolean where a \
string belongs (an annotation `enabled: true`, `name: 2024`), fails that decoding: `json: \
cannot unmarshal string into Go struct field CronJobSpec.spec.startingDeadlineSeconds of type \
int64`. Other linters that read YAML loosely accept these; the cluster does not.",
    remediation: "Remove the quotes around numbers and booleans; quote numbers and booleans \
that are meant as text (`\"true\"`, `\"2024\"`).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata:
  name: sync
  namespace: ops
  annotations: {owner: 42}
spec:
  schedule: "*/10 * * * *"
  startingDeadlineSeconds: "300"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata:
  name: sync
  namespace: ops
  annotations: {owner: "42"}
spec:
  schedule: "*/10 * * * *"
  startingDeadlineSeconds: 300
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// Typed fields the loader reads, for `Finding::field` (which needs a static path).
const KNOWN: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.labels",
    "metadata.annotations",
    "spec.schedule",
    "spec.timeZone",
    "spec.startingDeadlineSeconds",
    "spec.concurrencyPolicy",
    "spec.suspend",
    "spec.successfulJobsHistoryLimit",
    "spec.failedJobsHistoryLimit",
    "spec.jobTemplate.metadata.labels",
    "spec.jobTemplate.metadata.annotations",
    "spec.jobTemplate.spec.parallelism",
    "spec.jobTemplate.spec.completions",
    "spec.jobTemplate.spec.activeDeadlineSeconds",
    "spec.jobTemplate.spec.backoffLimit",
    "spec.jobTemplate.spec.backoffLimitPerIndex",
    "spec.jobTemplate.spec.ttlSecondsAfterFinished",
    "spec.jobTemplate.spec.suspend",
    "spec.jobTemplate.spec.template.spec.restartPolicy",
];

/// The Go type the decoder wanted at `path`, from the field's name.
fn go_type(path: &str, found: &str) -> &'static str {
    let key = path.rsplit('.').next().unwrap_or(path);
    match key {
        "startingDeadlineSeconds" | "activeDeadlineSeconds" => "int64",
        "successfulJobsHistoryLimit"
        | "failedJobsHistoryLimit"
        | "parallelism"
        | "completions"
        | "backoffLimit"
        | "backoffLimitPerIndex"
        | "ttlSecondsAfterFinished" => "int32",
        "suspend" | "controller" => "bool",
        _ if found == "string" => "bool",
        _ => "string",
    }
}

/// The Go struct holding the field, as the decoder names it, with the path it prints.
fn go_field(path: &str) -> String {
    let parent = path.rsplit_once('.').map_or("", |(p, _)| p);
    let go_struct = match parent {
        "spec" => "CronJobSpec",
        "spec.jobTemplate.spec" => "JobSpec",
        "spec.jobTemplate.spec.template.spec" => "PodSpec",
        p if p.ends_with("metadata") => "ObjectMeta",
        // A map value (a label or an annotation): Go names the map field.
        p if p.ends_with("metadata.labels") || p.ends_with("metadata.annotations") => {
            return format!("ObjectMeta.{p}");
        }
        _ => return path.to_string(),
    };
    format!("{go_struct}.{path}")
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some(origin) = &ctx.cron_job.origin else {
        return Vec::new();
    };
    origin
        .wrong_types
        .iter()
        .map(|w| {
            let server = format!(
                "json: cannot unmarshal {} into Go struct field {} of type {}",
                w.found,
                go_field(&w.path),
                go_type(&w.path, w.found)
            );
            let field = KNOWN
                .iter()
                .copied()
                .filter(|k| w.path == *k || w.path.starts_with(&format!("{k}.")))
                .max_by_key(|k| k.len());
            let fix = if w.found == "string" {
                format!("Write {} without quotes.", w.value)
            } else {
                format!("Quote it: \"{}\".", w.value)
            };
            let mut f = Finding::new(
                &RULE,
                format!(
                    "`{}` is a {} ({}), which the API server rejects when it decodes the object: `{server}`.",
                    w.path,
                    if w.found == "bool" { "boolean" } else { w.found },
                    w.value
                ),
            )
            .headline(format!(
                "cannot be created: the API server rejects the type of {}",
                w.path
            ))
            .fix(fix);
            if let Some(k) = field {
                f = f.field(k);
            }
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn quoted_numbers_and_unquoted_text_quote_the_decoder() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "wrong-field-type");
        let msgs: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "`metadata.annotations.owner` is a number (42), which the API server rejects when it decodes the object: `json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string`.",
                "`spec.startingDeadlineSeconds` is a string (300), which the API server rejects when it decodes the object: `json: cannot unmarshal string into Go struct field CronJobSpec.spec.startingDeadlineSeconds of type int64`.",
            ]
        );
        assert_eq!(f[1].location.as_ref().unwrap().line, 10);
        assert_eq!(f[1].remediation, "Write 300 without quotes.");
    }

    #[test]
    fn a_quoted_boolean_is_a_string_where_a_bool_belongs() {
        let yaml = RULE
            .fires_on
            .replace("startingDeadlineSeconds: \"300\"", "suspend: \"true\"")
            .replace("{owner: 42}", "{owner: x}");
        let r = run(&yaml, RULE.example_now);
        let f = findings(&r, "wrong-field-type");
        assert_eq!(f.len(), 1);
        assert!(f[0].message.ends_with("`json: cannot unmarshal string into Go struct field CronJobSpec.spec.suspend of type bool`."), "{}", f[0].message);
    }
}
