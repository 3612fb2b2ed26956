//! Durations and sizes as messages say them (`1m30s`, `4 MiB`): shared by the errors and
//! the commands' notices, so a limit reads the same wherever it is named.

use std::time::Duration;

/// `1s`, `250ms`, `1m30s`.
pub fn humantime(d: Duration) -> String {
    if d.as_secs() == 0 {
        return format!("{}ms", d.as_millis());
    }
    let s = d.as_secs();
    let frac = d.subsec_millis();
    if s >= 60 {
        // A server's Retry-After may be any u64: past i64, say the largest we can.
        return doctor::text::human_duration(i64::try_from(s).unwrap_or(i64::MAX));
    }
    if frac == 0 {
        format!("{s}s")
    } else {
        format!("{s}.{:01}s", frac / 100)
    }
}

/// `4 MiB`, `512 KiB`, `300 bytes`.
pub fn bytes_words(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// `30s`, `1m30s`, `1.5s`: a timeout as the flag spells it.
pub fn human(d: Duration) -> String {
    let ms = d.as_millis();
    if !ms.is_multiple_of(1000) {
        return format!("{:.1}s", d.as_secs_f64());
    }
    let s = d.as_secs();
    match (s / 60, s % 60) {
        (0, s) => format!("{s}s"),
        (m, 0) => format!("{m}m"),
        (m, s) => format!("{m}m{s}s"),
    }
}
