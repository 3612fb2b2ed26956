//! Helpers shared by the manifest rules: the API server's field-error texts (apimachinery
//! `field.Error`), Go's `%q`, the five fields of a schedule as written, merge patches of
//! `spec.schedule`, and zone-name suggestions from the bundled tz database.

use jiff::tz::TimeZoneDatabase;

use crate::model::CronJob;
use crate::rules::Context;

pub(super) use crate::text::go_quote;

/// `field.Invalid` on a string value: `<path>: Invalid value: "<v>": <detail>`.
pub(super) fn invalid(path: &str, value: &str, detail: &str) -> String {
    format!("{path}: Invalid value: {}: {detail}", go_quote(value))
}

/// `field.NotSupported` on a string value.
pub(super) fn not_supported(path: &str, value: &str, valid: &[&str]) -> String {
    let quoted: Vec<String> = valid.iter().map(|v| go_quote(v)).collect();
    format!(
        "{path}: Unsupported value: {}: supported values: {}",
        go_quote(value),
        quoted.join(", ")
    )
}

/// A note for values that still hold a templating placeholder (`${VAR}`, `{{ .Values.x }}`).
pub(super) fn placeholder_note(s: &str) -> &'static str {
    if s.contains("${") || s.contains("{{") || s.contains("$(") {
        " (an unsubstituted template placeholder?)"
    } else {
        ""
    }
}

/// The merge-patch fragment `{"spec":{"schedule":"…"}}`.
pub(super) fn schedule_patch(schedule: &str) -> serde_json::Value {
    serde_json::json!({"spec": {"schedule": schedule}})
}

/// True for an object read from a cluster (or dumped from one): it exists, so create-time
/// validation no longer applies to it.
pub(crate) fn is_live(cj: &CronJob) -> bool {
    !cj.meta.uid.is_empty()
        || cj.meta.creation_timestamp.is_some()
        || !cj.meta.resource_version.is_empty()
}

/// A five-field schedule as written: the optional `TZ=`/`CRON_TZ=` prefix and the fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Fields<'a> {
    pub prefix: Option<&'a str>,
    pub fields: [&'a str; 5],
}

impl<'a> Fields<'a> {
    /// Split like robfig (prefix up to the first space, then whitespace-separated fields).
    /// None for descriptors and anything that is not five fields.
    pub fn split(raw: &'a str) -> Option<Fields<'a>> {
        let (prefix, rest) = if raw.starts_with("TZ=") || raw.starts_with("CRON_TZ=") {
            let sp = raw.find(' ')?;
            (Some(&raw[..sp]), &raw[sp..])
        } else {
            (None, raw)
        };
        let v: Vec<&str> = rest.split_whitespace().collect();
        let fields: [&str; 5] = v.try_into().ok()?;
        Some(Fields { prefix, fields })
    }

    /// The schedule with field `i` replaced (single spaces, prefix kept).
    pub fn with(&self, i: usize, token: &str) -> String {
        let mut f = self.fields;
        f[i] = token;
        let body = f.join(" ");
        match self.prefix {
            Some(p) => format!("{p} {body}"),
            None => body,
        }
    }
}

/// The zone name of the bundled database that `name` most likely meant: one that differs
/// only in case (or in spaces written for underscores): `europe/berlin` → `Europe/Berlin`,
/// `America/New York` → `America/New_York`; else the closest by edit distance when it is
/// close enough to be a typo (`Europe/Berln` → `Europe/Berlin`: at most 2 edits, and fewer
/// than a quarter of the name).
pub(super) fn zone_suggestion(name: &str) -> Option<String> {
    let want = name.trim().replace(' ', "_").to_ascii_lowercase();
    if want.is_empty() {
        return None;
    }
    let db = TimeZoneDatabase::bundled();
    let names: Vec<String> = db.available().map(|n| n.as_str().to_string()).collect();
    let found = match names.iter().find(|n| n.to_ascii_lowercase() == want) {
        Some(exact) => exact.clone(),
        None => {
            let limit = 2.min((want.chars().count().saturating_sub(1)) / 4);
            names
                .iter()
                .map(|n| (strsim::levenshtein(&n.to_ascii_lowercase(), &want), n))
                .filter(|(d, _)| *d <= limit)
                // Closest first; ties go to the alphabetically first name, so the
                // suggestion does not depend on the database's order.
                .min()?
                .1
                .clone()
        }
    };
    (found != name && schedule::load_location(&found).is_ok()).then_some(found)
}

/// A zone name that is safe to put in spec.timeZone for "the controller's zone".
pub(super) fn controller_zone_for_patch(ctx: &Context) -> String {
    let n = ctx.controller_zone_name;
    match schedule::load_location(n) {
        Ok(Some(loc)) if !n.is_empty() => loc.name,
        _ => "UTC".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_errors_read_like_apimachinery() {
        assert_eq!(
            invalid(
                "spec.schedule",
                "0 0 * * 7",
                "end of range (7) above maximum (6): 7"
            ),
            r#"spec.schedule: Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7"#
        );
        assert_eq!(
            not_supported(
                "spec.concurrencyPolicy",
                "forbid",
                &["Allow", "Forbid", "Replace"]
            ),
            r#"spec.concurrencyPolicy: Unsupported value: "forbid": supported values: "Allow", "Forbid", "Replace""#
        );
        assert_eq!(go_quote("a\tb\"c"), r#""a\tb\"c""#);
    }

    #[test]
    fn fields_keep_the_prefix() {
        let f = Fields::split("CRON_TZ=Asia/Tokyo  * */5 * * *").unwrap();
        assert_eq!(f.prefix, Some("CRON_TZ=Asia/Tokyo"));
        assert_eq!(f.with(0, "0"), "CRON_TZ=Asia/Tokyo 0 */5 * * *");
        assert!(Fields::split("@daily").is_none());
        assert!(Fields::split("TZ=UTC").is_none());
    }

    #[test]
    fn zone_suggestions_fix_case_and_spaces() {
        assert_eq!(
            zone_suggestion("europe/berlin").as_deref(),
            Some("Europe/Berlin")
        );
        assert_eq!(
            zone_suggestion("America/New York").as_deref(),
            Some("America/New_York")
        );
        assert_eq!(zone_suggestion("utc").as_deref(), Some("UTC"));
        assert_eq!(zone_suggestion("Europe/Berlin"), None);
        // Typos: a letter missing, two swapped, one wrong.
        assert_eq!(
            zone_suggestion("Europe/Berln").as_deref(),
            Some("Europe/Berlin")
        );
        assert_eq!(
            zone_suggestion("America/New_Yrok").as_deref(),
            Some("America/New_York")
        );
        assert_eq!(zone_suggestion("Asia/Tokio").as_deref(), Some("Asia/Tokyo"));
        // Too far from anything (or too short to guess from) stays unanswered.
        assert_eq!(zone_suggestion("Mars/Olympus"), None);
        assert_eq!(zone_suggestion("XYZ"), None);
        assert_eq!(zone_suggestion("Mars/Olympus_Mons"), None);
    }
}
