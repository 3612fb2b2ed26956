//! The range of every numeric flag, enforced by clap while it parses the command line, so an
//! out-of-range value is a usage error (exit 2, clap's `invalid value … for '--flag'`) before
//! any work starts. The ranges are also the help text's ("0–1000"), and the code that uses a
//! value can rely on it: a timeline of `u64::MAX` slots or a timeout of 584 billion years
//! never reaches an allocation, a loop or an `Instant` addition.
//!
//! Durations keep their textual form (the commands read them with `cluster::config::
//! parse_timeout`, kubectl's grammar); the parser here accepts exactly that grammar and
//! adds the bound, so everything it lets through is a finite duration of at most the maximum.

use std::time::Duration;

use clap::builder::RangedU64ValueParser;

/// Why a flag's value was refused; clap prints it after `invalid value … for '--flag'`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagError(pub String);

impl std::fmt::Display for FlagError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FlagError {}

/// `--timeline`: past slots shown per CronJob. The core clamps to the same number.
pub const TIMELINE_MAX: usize = doctor::report::timeline::MAX_SLOTS;
/// `next --count`: fire times listed.
pub const COUNT_MAX: u32 = 1000;
/// `--request-timeout`: one request, retries included. A day is far beyond any API call.
pub const REQUEST_TIMEOUT_MAX: Duration = Duration::from_secs(24 * 3600);
/// The range `--max-input-size` accepts: 1 KiB to 64 GiB.
pub const MAX_INPUT_SIZE_RANGE: (u64, u64) = (1 << 10, 64 << 30);

/// Parses `--max-input-size`: bytes, or a number with `Ki`, `Mi`, `Gi` (powers of 1024) or
/// `K`, `M`, `G` (powers of 1000), within [`MAX_INPUT_SIZE_RANGE`].
pub fn parse_size(s: &str) -> Result<u64, FlagError> {
    size(s).map_err(FlagError)
}

fn size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let factor: u64 = match unit {
        "" | "B" => 1,
        "K" | "k" | "KB" | "kB" => 1_000,
        "M" | "MB" => 1_000_000,
        "G" | "GB" => 1_000_000_000,
        "Ki" | "KiB" => 1 << 10,
        "Mi" | "MiB" => 1 << 20,
        "Gi" | "GiB" => 1 << 30,
        _ => {
            return Err(format!(
                "{s:?} is not a size (examples: 512Mi, 2Gi, 1000000)"
            ));
        }
    };
    let (lo, hi) = MAX_INPUT_SIZE_RANGE;
    let n = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(factor))
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| format!("{s:?} is out of range: give 1Ki to 64Gi"))?;
    Ok(n)
}

/// `trigger --wait --timeout`: how long to follow a Job. A week covers long batch Jobs.
pub const WAIT_TIMEOUT_MAX: Duration = Duration::from_secs(7 * 24 * 3600);

/// `--timeline N`, 0..=[`TIMELINE_MAX`].
pub fn timeline() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::<usize>::new().range(0..=TIMELINE_MAX as u64)
}

/// `next --count N`, 1..=[`COUNT_MAX`].
pub fn count() -> RangedU64ValueParser<u32> {
    RangedU64ValueParser::<u32>::new().range(1..=u64::from(COUNT_MAX))
}

/// clap value parser for `--request-timeout`: the text, once it is known to be in range.
pub fn request_timeout(s: &str) -> Result<String, FlagError> {
    bounded_duration(s, REQUEST_TIMEOUT_MAX, "24h").map(|_| s.to_string())
}

/// clap value parser for `trigger --timeout`: the text, once it is known to be in range.
pub fn wait_timeout(s: &str) -> Result<String, FlagError> {
    bounded_duration(s, WAIT_TIMEOUT_MAX, "168h (7 days)").map(|_| s.to_string())
}

/// clap value parser for `--kube-version`: checked at parse time like the numeric flags.
pub fn kube_version(s: &str) -> Result<String, FlagError> {
    s.parse::<doctor::replay::KubeVersion>()
        .map(|_| s.to_string())
        .map_err(|e| FlagError(e.to_string()))
}

/// kubectl's `--request-timeout` grammar — `0` (no limit), a whole number of seconds, or
/// parts of `<number><h|m|s|ms>` such as `1m30s` or `1.5h` — bounded by `max`. `None` is
/// "no limit". Never panics: amounts are summed as finite floats and compared with the
/// bound before a `Duration` is made.
/// `monitor --grace`: a duration from 0 to 24h (kubectl's duration grammar). A day is far past
/// any sensible grace: beyond it, a missed run would be reported after the next one is due.
/// Here 0 means "no grace" (a run counts as missed the moment it is due), not "no limit" as
/// for timeouts, so the shared grammar's words about 0 are left out of its errors.
pub fn grace(s: &str) -> Result<Duration, FlagError> {
    bounded_duration(s, GRACE_MAX, "24h")
        .map(Option::unwrap_or_default)
        .map_err(|e| {
            FlagError(
                e.0.replace(" (0 for no limit)", "")
                    .replace("expected 0 (no limit), a number", "expected a number"),
            )
        })
}

/// `--context-timeout`: one context of a fleet, from connecting to its last page. Below a
/// second nothing could be read; above an hour a dead cluster would hold the report hostage.
pub const CONTEXT_TIMEOUT_RANGE: (Duration, Duration) =
    (Duration::from_secs(1), Duration::from_secs(3600));

/// clap value parser for `--context-timeout`: kubectl's duration grammar, 1s to 1h. There is
/// no "no limit" here (0 is refused): the point of the flag is that every context has one.
pub fn context_timeout(s: &str) -> Result<Duration, FlagError> {
    let (lo, hi) = CONTEXT_TIMEOUT_RANGE;
    let out_of_range = || FlagError(format!("{s:?} is out of range: give 1s to 1h"));
    match bounded_duration(s, hi, "1h") {
        Ok(Some(d)) if d >= lo => Ok(d),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.0.starts_with("at most") => Err(out_of_range()),
        Err(e) => Err(FlagError(
            e.0.replace("expected 0 (no limit), a number", "expected a number"),
        )),
    }
}

/// clap value parser for `monitor --stale-after`: 1s to 1h, as `--context-timeout`. Below a
/// second every quiet moment would be an outage; above an hour a frozen server would be
/// ready for an hour. No "no limit": a watch that hears nothing must end readiness some time.
pub fn stale_after(s: &str) -> Result<Duration, FlagError> {
    context_timeout(s)
}

/// The longest `monitor --grace`.
pub const GRACE_MAX: Duration = Duration::from_secs(86_400);

pub fn bounded_duration(
    s: &str,
    max: Duration,
    max_text: &str,
) -> Result<Option<Duration>, FlagError> {
    duration(s, max, max_text).map_err(FlagError)
}

fn duration(s: &str, max: Duration, max_text: &str) -> Result<Option<Duration>, String> {
    let t = s.trim();
    let grammar =
        "expected 0 (no limit), a number of seconds, or a duration such as 30s, 10m or 1m30s";
    if t.starts_with('-') {
        return Err(format!(
            "must not be negative ({grammar}, at most {max_text})"
        ));
    }
    let too_long = || format!("at most {max_text} (0 for no limit)");
    if let Ok(secs) = t.parse::<u64>() {
        return match secs {
            0 => Ok(None),
            s if s > max.as_secs() => Err(too_long()),
            s => Ok(Some(Duration::from_secs(s))),
        };
    }
    if t.is_empty() {
        return Err(grammar.to_string());
    }
    let mut total = 0f64;
    let mut rest = t;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .ok_or_else(|| format!("{grammar} (a number needs a unit: h, m, s or ms)"))?;
        let n: f64 = rest[..digits].parse().map_err(|_| grammar.to_string())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 0.001,
            _ => return Err(format!("{grammar} (units: h, m, s, ms)")),
        };
        total += n * unit;
        rest = &rest[unit_len..];
    }
    // Infinity (a 400-digit amount) and anything above the bound stop here.
    if !total.is_finite() || total > max.as_secs_f64() {
        return Err(too_long());
    }
    Ok(Some(Duration::from_secs_f64(total)).filter(|d| !d.is_zero()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Duration = Duration::from_secs(86_400);

    #[test]
    fn durations_read_like_kubectl_within_the_bound() {
        let p = |s: &str| bounded_duration(s, DAY, "24h");
        assert_eq!(p("0"), Ok(None));
        assert_eq!(p("0s"), Ok(None));
        assert_eq!(p("15"), Ok(Some(Duration::from_secs(15))));
        assert_eq!(p("1m30s"), Ok(Some(Duration::from_secs(90))));
        assert_eq!(p("1.5h"), Ok(Some(Duration::from_secs(5400))));
        assert_eq!(p("500ms"), Ok(Some(Duration::from_millis(500))));
        assert_eq!(p("24h"), Ok(Some(DAY)));
        assert_eq!(p("86400"), Ok(Some(DAY)));
        assert_eq!(
            p("86401"),
            Err(FlagError("at most 24h (0 for no limit)".into()))
        );
        assert_eq!(
            p("24h1s"),
            Err(FlagError("at most 24h (0 for no limit)".into()))
        );
        assert!(p("18446744073709551615s").is_err());
        assert!(p("18446744073709551615").is_err());
        assert!(p(&format!("{}s", "9".repeat(400))).is_err());
        assert!(p("-1s").unwrap_err().0.contains("negative"));
        for bad in ["", "soon", "5x", "1..2s", ".s", "s", "1e9s", "NaN", "inf"] {
            assert!(p(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn context_timeouts_are_1s_to_1h_and_never_unlimited() {
        assert_eq!(context_timeout("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(context_timeout("1"), Ok(Duration::from_secs(1)));
        assert_eq!(context_timeout("1h"), Ok(Duration::from_secs(3600)));
        for bad in ["0", "0s", "999ms", "1h1s", "3601", "-1s", "soon", ""] {
            assert!(context_timeout(bad).is_err(), "{bad:?} accepted");
        }
        assert!(context_timeout("0").unwrap_err().0.contains("1s to 1h"));
        assert!(!context_timeout("x").unwrap_err().0.contains("no limit"));
    }

    #[test]
    fn sizes_parse_with_units_and_a_range() {
        assert_eq!(parse_size("256Mi"), Ok(256 << 20));
        assert_eq!(parse_size("2Gi"), Ok(2 << 30));
        assert_eq!(parse_size("500M"), Ok(500_000_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64Gi"), Ok(64 << 30));
        for bad in [
            "65Gi",
            "1000",
            "0",
            "",
            "x",
            "12 parsecs",
            "18446744073709551615Gi",
            "-1",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
