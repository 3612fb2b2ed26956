//! Input decoding and the checks shared by the fuzz targets (see `../README.md`).
//!
//! `parse_next` input layout (short inputs are zero-padded):
//!
//! | bytes  | meaning |
//! |--------|---------|
//! | 0      | controller (Local) zone: index into [`ZONE_NAMES`] followed by [`FIXED_OFFSETS`] |
//! | 1      | instant mode, `% 4`: 0–1 = year 1900–2200, 2 = raw Unix seconds, 3 = within 10 years of jiff's MIN/MAX |
//! | 2..10  | `i64` little-endian, seconds (interpreted by the mode) |
//! | 10..14 | `u32` little-endian, nanoseconds `% 1_000_000_000` |
//! | 14     | chained `next` calls: `1 + b % 5` |
//! | 15..   | the schedule, UTF-8 (lossy) |
//!
//! `make-seeds.py` writes seeds in this layout (mode 2, exact seconds).

use std::sync::OnceLock;

use jiff::tz::{Offset, TimeZone};
use jiff::{SignedDuration, Timestamp};
use schedule::{Schedule, ScheduleKind, ScheduleZone, parse_standard};

/// Controller zones: the differential test's zones plus the DST oddities.
pub const ZONE_NAMES: &[&str] = &[
    "UTC",
    "America/New_York",
    "Europe/Berlin",
    "Europe/London",
    "Australia/Lord_Howe",
    "Asia/Tehran",
    "America/Sao_Paulo",
    "America/Havana",
    "Pacific/Chatham",
    "America/Santiago",
    "Africa/Casablanca",
    "Pacific/Apia",
    "Pacific/Kwajalein",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Asia/Tokyo",
    "America/St_Johns",
    "Europe/Amsterdam",
    "Africa/Monrovia",
    "America/Sitka",
    "Europe/Dublin",
    "Antarctica/Troll",
];

/// Fixed-offset controller zones (seconds east of UTC), after the named ones:
/// jiff's extremes and a non-whole-minute LMT-like offset.
pub const FIXED_OFFSETS: &[i32] = &[93_599, -93_599, -17_762, 19_800, 0];

fn zones() -> &'static [TimeZone] {
    static ZONES: OnceLock<Vec<TimeZone>> = OnceLock::new();
    ZONES.get_or_init(|| {
        let mut v: Vec<TimeZone> = ZONE_NAMES
            .iter()
            .map(|n| TimeZone::get(n).expect("bundled zone"))
            .collect();
        v.extend(
            FIXED_OFFSETS
                .iter()
                .map(|&s| TimeZone::fixed(Offset::from_seconds(s).expect("offset"))),
        );
        v
    })
}

/// Unix seconds of 1900-01-01T00:00:00Z and 2201-01-01T00:00:00Z.
const WINDOW_START: i64 = -2_208_988_800;
const WINDOW_END: i64 = 7_289_654_400;
const TEN_YEARS: i64 = 315_576_000;

pub struct Input {
    pub zone: TimeZone,
    pub from: Timestamp,
    pub chain: usize,
    pub schedule: String,
}

pub fn decode(data: &[u8]) -> Input {
    let mut head = [0u8; 15];
    let n = data.len().min(15);
    head[..n].copy_from_slice(&data[..n]);
    let zones = zones();
    let zone = zones[usize::from(head[0]) % zones.len()].clone();
    let raw = i64::from_le_bytes(head[2..10].try_into().unwrap());
    let nanos = u32::from_le_bytes(head[10..14].try_into().unwrap()) % 1_000_000_000;
    let (min, max) = (Timestamp::MIN.as_second(), Timestamp::MAX.as_second());
    let secs = match head[1] % 4 {
        0 | 1 => WINDOW_START + raw.rem_euclid(WINDOW_END - WINDOW_START),
        2 if (min..=max).contains(&raw) => raw,
        2 => min + raw.rem_euclid(max - min + 1),
        _ if raw >= 0 => max - raw % TEN_YEARS,
        _ => min + (raw.unsigned_abs() % TEN_YEARS as u64) as i64,
    };
    let base = Timestamp::from_second(secs).expect("in range");
    let from = base
        .checked_add(SignedDuration::from_nanos(i64::from(nanos)))
        .unwrap_or(base);
    let schedule = String::from_utf8_lossy(data.get(15..).unwrap_or(&[])).into_owned();
    Input {
        zone,
        from,
        chain: 1 + usize::from(head[14] % 5),
        schedule,
    }
}

/// Parses twice: never panics, same answer both times, errors carry a message.
pub fn check_parse(spec: &str) -> Option<Schedule> {
    let first = parse_standard(spec);
    let again = parse_standard(spec);
    match (&first, &again) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{spec:?}"),
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{spec:?}");
            assert!(!a.message.is_empty(), "{spec:?}: empty error message");
        }
        _ => panic!("{spec:?}: parse is not deterministic"),
    }
    first.ok()
}

/// True when `tz` never changes its offset (UTC, fixed offsets, `Etc/GMT+5`, ...).
pub fn is_fixed(tz: &TimeZone) -> bool {
    tz.following(Timestamp::MIN).next().is_none()
}

/// How far before `after` robfig's `Next` may answer in a zone with transitions. Real
/// robfig/cron does answer *earlier* than its input: when the first truncation
/// (`Date(y, m, d, h, 0, 0)`) happens inside a repeated wall-clock span that crosses an
/// hour boundary, Go's `Date` resolves it to the first instance and the hour loop finds a
/// match before `after` (Pacific/Chatham's 03:45 → 02:45 fall-back; 7 cases in the golden
/// file, e.g. `CRON_TZ=Pacific/Chatham 30 */3 * * *` from 2018-03-31T14:00:01Z answers
/// 13:45:00Z). The distance is bounded by the size of the shift plus an hour; a zone's
/// largest historic backward shift is about a day (Alaska 1867), hence two days.
pub const MAX_REGRESS_SECONDS: i64 = 2 * 86_400;

/// Up to `chain` chained `next` calls. Each answer is a whole second (or saturated at
/// jiff's MAX), repeatable, and strictly later than its input when the schedule is
/// `@every` or evaluated in a fixed-offset zone. In zones with transitions robfig
/// guarantees no progress at all: it can answer earlier than its input, and it has fixed
/// points (`CRON_TZ=Pacific/Chatham 59 */3 * * *`: `Next(2018-03-31T14:14:00Z)` is
/// 14:14:00Z itself, verified with the Go oracle; found by this target). There, the answer
/// must only not be more than [`MAX_REGRESS_SECONDS`] earlier.
pub fn check_next(s: &Schedule, from: Timestamp, zone: &TimeZone, chain: usize, spec: &str) {
    let eval_zone = match &s.zone {
        ScheduleZone::Local => zone,
        ScheduleZone::Fixed(loc) => &loc.tz,
    };
    let strict = matches!(s.kind, ScheduleKind::Every(_)) || is_fixed(eval_zone);
    let mut t = from;
    for i in 0..chain {
        let Some(n) = s.next(t, zone) else { return };
        if n == Timestamp::MAX {
            return; // documented saturation past year 9999
        }
        assert_eq!(n.subsec_nanosecond(), 0, "{spec:?} from {t}: {n}");
        if strict {
            assert!(
                n > t,
                "{spec:?} from {t} (call {i}) in {zone:?}: {n} is not later"
            );
        } else {
            let regress = t.as_second() - n.as_second();
            assert!(
                regress < MAX_REGRESS_SECONDS,
                "{spec:?} from {t} (call {i}) in {zone:?}: {n} is {regress} s earlier"
            );
        }
        assert_eq!(
            s.next(t, zone),
            Some(n),
            "{spec:?} from {t}: not repeatable"
        );
        t = n;
    }
}

/// The `manifest` target: load `data` as a manifest file, build the report at a fixed instant
/// and render it as text (made visible for a terminal) and JSON. Panics on a broken invariant.
pub fn check_manifest(data: &[u8]) {
    use doctor::report::{self, Options, visible};
    let loaded = doctor::source::parse_bytes("fuzz.yaml", data);
    let again = doctor::source::parse_bytes("fuzz.yaml", data);
    assert_eq!(loaded.errors, again.errors, "loading is deterministic");
    assert_eq!(loaded.cron_jobs, again.cron_jobs, "loading is deterministic");
    for e in &loaded.errors {
        assert!(e.line > 0 || e.column == 0, "a column without a line: {e}");
    }
    let (snapshot, _) = loaded.into_snapshot();
    let zone = TimeZone::UTC;
    let opts = Options {
        now: Timestamp::from_second(1_795_000_000).unwrap_or(Timestamp::UNIX_EPOCH),
        controller_zone_name: "UTC",
        controller_zone: &zone,
        version: doctor::replay::KubeVersion::NEWEST,
        timeline: 4,
    };
    let r = report::build(&snapshot, Vec::new(), &opts);
    let _ = doctor::render::json::render(&r);
    let shown = visible::for_terminal(r);
    let text = doctor::render::explain::render(
        &shown,
        doctor::render::explain::TextOptions {
            style: doctor::render::style::Style { color: false },
            width: 100,
        },
    );
    assert!(!text.contains('\u{1b}'), "a raw ESC in text output");
}
