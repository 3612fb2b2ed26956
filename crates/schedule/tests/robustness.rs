//! The engine must never panic and never hang: not on arbitrary schedule text, not at
//! the edges of jiff's timestamp range, not in zones where upstream robfig itself would
//! loop forever.
//!
//! The first tests are fixed, deterministic sweeps. The `prop_*` tests below them are
//! property tests (proptest) over generated schedules (grammar-aware and arbitrary
//! Unicode), instants across 1900–2200 and at jiff's extremes, and controller zones with
//! odd DST rules. Case counts: `prop_any_schedule_never_panics` 30,000 (up to five chained
//! `next` each), `prop_fixed_zone_next_is_the_first_match` 10,000,
//! `prop_fixed_zone_next_is_monotone` 10,000, `prop_reevaluation_gives_the_same_answer`
//! 5,000: about 8 s for the whole file in a debug build (`cargo test`) on CI's 2 shared
//! cores, against a 30 s budget. `PROPTEST_CASES=<n>` runs every property with `n` cases
//! instead (e.g. `PROPTEST_CASES=1000000 cargo test --release -p cronjob-doctor-schedule
//! --test integration robustness::`).
//!
//! What is asserted is what *real robfig/cron v3.0.1* guarantees, which is less than
//! "the first activation after t" in zones with offset transitions (both verified with the
//! Go oracle, see `robfig_goes_backwards_*` and `robfig_is_not_monotone_*`):
//! * `Next(t)` can be *earlier* than `t` (Pacific/Chatham's fall-back), and
//! * `Next` can have fixed points, `Next(t) == t`, so `t = Next(t)` loops need a guard
//!   (`robfig_has_a_fixed_point_in_chatham_fall_back`; found by `fuzz/`'s `parse_next`);
//! * `t1 < t2` does not imply `Next(t1) <= Next(t2)` (Australia/Lord_Howe's fall-back,
//!   and any offset that is not a whole number of minutes, e.g. Africa/Monrovia before 1972).
//!
//! So "strictly later" is checked in fixed-offset zones and for `@every`, "monotone" and
//! "the first matching wall time" exactly in whole-minute fixed-offset zones (against an
//! independent brute-force search) and for `@every`;
//! in zones with transitions the checks are: no panic, bounded time, whole seconds, wall
//! second 0, at most a bounded step backwards, and the same answer when asked again (also after other
//! zones have churned the per-thread zone memo, and on another thread).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};
use proptest::prelude::*;
use proptest::test_runner::Config;
use schedule::{STAR_BIT, Schedule, ScheduleKind, ScheduleZone, SpecSchedule, parse_standard};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const PIECES: &[&str] = &[
    "*",
    "?",
    "-",
    "/",
    ",",
    " ",
    "\t",
    "\u{a0}",
    "\u{200b}",
    "0",
    "1",
    "5",
    "7",
    "59",
    "60",
    "99999999999999999999",
    "+",
    "jan",
    "FRI",
    "\u{130}",
    "@",
    "@every ",
    "@daily",
    "TZ=",
    "CRON_TZ=",
    "UTC",
    "America/New_York",
    "./",
    "..",
    "h",
    "m",
    "s",
    ".",
    "µs",
    "L",
    "#",
    "é",
    "\u{1F600}",
    "\0",
    "=",
];

#[test]
fn arbitrary_text_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let utc = TimeZone::UTC;
    let from = Timestamp::from_second(1_700_000_000).unwrap();
    let started = Instant::now();
    for _ in 0..20_000 {
        let len = rng.next() % 12;
        let spec: String = (0..len).map(|_| rng.pick(PIECES)).collect();
        if let Ok(s) = parse_standard(&spec) {
            let _ = s.next(from, &utc);
        }
    }
    assert!(started.elapsed() < Duration::from_secs(60));
}

fn zones() -> Vec<TimeZone> {
    let mut zones: Vec<TimeZone> = [
        "UTC",
        "America/New_York",
        "Australia/Lord_Howe",
        "Pacific/Apia",
        "America/Sitka",
    ]
    .iter()
    .map(|n| TimeZone::get(n).unwrap())
    .collect();
    zones.push(TimeZone::fixed(Offset::MAX));
    zones.push(TimeZone::fixed(Offset::MIN));
    zones.push(TimeZone::fixed(Offset::from_seconds(-17_762).unwrap()));
    zones
}

#[test]
fn range_edges_never_panic() {
    let specs = [
        "* * * * *",
        "0 0 29 2 *",
        "59 23 31 12 *",
        "0 0 1 1 *",
        "@every 2562047h",
        "@every 1s",
        ", * * * *",
    ];
    let instants = [
        Timestamp::MIN,
        Timestamp::MAX,
        Timestamp::new(-1, -1).unwrap(),
        Timestamp::from_second(-62_135_596_800).unwrap(), // Go's zero time
        Timestamp::new(Timestamp::MAX.as_second() - 1, 999_999_999).unwrap(),
    ];
    for spec in specs {
        let s: Schedule = parse_standard(spec).unwrap();
        for tz in zones() {
            for t in instants {
                if let Some(n) = s.next(t, &tz) {
                    // Results beyond jiff's range saturate; all others are strictly later.
                    assert!(n > t || n == Timestamp::MAX, "{spec} from {t}: {n}");
                }
            }
        }
    }
}

#[test]
fn upstream_infinite_loop_ends() {
    // Pacific/Apia skipped 2011-12-30. Go's Date maps that day onto 2011-12-29, so
    // robfig's day loop steps from the 29th to the 29th forever; we report "never".
    let s = parse_standard("TZ=Pacific/Apia 0 0 30 * *").unwrap();
    let from = Timestamp::from_second(1_323_907_200).unwrap(); // 2011-12-15T00:00:00Z
    let started = Instant::now();
    assert_eq!(s.next(from, &TimeZone::UTC), None);
    assert!(started.elapsed() < Duration::from_secs(5));
    // Past the skipped day the zone behaves normally again.
    let later = Timestamp::from_second(1_325_376_000).unwrap(); // 2012-01-01T00:00:00Z
    let want: Timestamp = "2012-01-30T00:00:00+14:00".parse().unwrap();
    assert_eq!(s.next(later, &TimeZone::UTC), Some(want));
}

#[test]
fn empty_fields_answer_at_once() {
    // robfig scans five years minute by minute for these; the answer is the same.
    let started = Instant::now();
    for spec in [", * * * *", "* , * * *", "* * , * ,", "* * * , *"] {
        let s = parse_standard(spec).unwrap();
        assert_eq!(
            s.next(
                Timestamp::from_second(1_700_000_000).unwrap(),
                &TimeZone::UTC
            ),
            None,
            "{spec}"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(1));
}

// ---------------------------------------------------------------------------------------
// Property tests

/// Cases per property: `PROPTEST_CASES` when set, else `default` (sized for CI).
fn config(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    Config {
        cases,
        ..Config::default()
    }
}

/// Controller zones for the properties: the DST oddities of spec A.6 and the
/// differential corpus, zones with historic skipped/repeated days, then fixed offsets.
const PROP_ZONES: &[&str] = &[
    "UTC",
    "America/New_York",
    "Europe/London",
    "Europe/Berlin",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Asia/Tehran",
    "America/Havana",
    "America/Sao_Paulo",
    "Pacific/Apia",
    "Pacific/Kwajalein",
    "America/Santiago",
    "Africa/Casablanca",
    "Antarctica/Troll",
    "Europe/Dublin",
    "America/St_Johns",
    "Asia/Kathmandu",
    "Europe/Amsterdam",
    "Africa/Monrovia",
    "America/Sitka",
];

/// Fixed offsets (seconds east): whole minutes first (used by the exact reference),
/// then a non-whole-minute LMT-like offset and jiff's extremes.
const WHOLE_MINUTE_OFFSETS: &[i32] = &[0, 19_800, 20_700, -34_200, 50_400, -43_200, 3_600];
const ODD_OFFSETS: &[i32] = &[-17_762, 93_599, -93_599];

fn prop_zones() -> &'static [TimeZone] {
    static Z: OnceLock<Vec<TimeZone>> = OnceLock::new();
    Z.get_or_init(|| {
        let mut v: Vec<TimeZone> = PROP_ZONES
            .iter()
            .map(|n| TimeZone::get(n).unwrap())
            .collect();
        v.extend(
            WHOLE_MINUTE_OFFSETS
                .iter()
                .chain(ODD_OFFSETS)
                .map(|&s| TimeZone::fixed(Offset::from_seconds(s).unwrap())),
        );
        v
    })
}

fn fixed_zone(seconds: i32) -> TimeZone {
    TimeZone::fixed(Offset::from_seconds(seconds).unwrap())
}

/// True when `tz` never changes its offset.
fn is_fixed(tz: &TimeZone) -> bool {
    tz.following(Timestamp::MIN).next().is_none()
}

const Y1900: i64 = -2_208_988_800;
const Y2201: i64 = 7_289_654_400;
const TEN_YEARS: i64 = 315_576_000;

/// Instants: mostly 1900–2200 with any nanosecond, some within ten years of jiff's
/// extremes, some right at them; `snap` asks the test to move next to a transition.
#[derive(Clone, Debug)]
struct When {
    t: Timestamp,
    snap: Option<i64>,
}

fn instant() -> impl Strategy<Value = Timestamp> {
    let min = Timestamp::MIN.as_second();
    let max = Timestamp::MAX.as_second();
    prop_oneof![
        14 => (Y1900..Y2201, 0..1_000_000_000i32),
        1 => (min..min + TEN_YEARS, 0..1_000_000_000i32),
        1 => (max - TEN_YEARS..=max, 0..1_000_000_000i32),
        1 => prop::sample::select(vec![(min, 0), (max, 0), (max, 999_999_999), (-1, 999_999_999)]),
    ]
    .prop_map(|(s, n)| Timestamp::new(s, n).unwrap())
}

fn when() -> impl Strategy<Value = When> {
    (
        instant(),
        prop_oneof![2 => Just(None), 1 => (-2 * 86_400i64..3 * 3_600).prop_map(Some)],
    )
        .prop_map(|(t, snap)| When { t, snap })
}

impl When {
    /// The instant, moved to `delta` seconds around the next offset transition of `tz`
    /// when asked to (DST gaps and repeated hours are where robfig is strange).
    fn resolve(&self, tz: &TimeZone) -> Timestamp {
        let Some(delta) = self.snap else {
            return self.t;
        };
        let Some(tr) = tz.following(self.t).next() else {
            return self.t;
        };
        let s = tr.timestamp().as_second().saturating_add(delta);
        let s = s.clamp(Timestamp::MIN.as_second(), Timestamp::MAX.as_second());
        Timestamp::new(s, self.t.subsec_nanosecond().max(0))
            .unwrap_or_else(|_| Timestamp::from_second(s).unwrap())
    }
}

struct Field {
    lo: u32,
    hi: u32,
    names: &'static [&'static str],
}

const MINUTE: Field = Field {
    lo: 0,
    hi: 59,
    names: &[],
};
const HOUR: Field = Field {
    lo: 0,
    hi: 23,
    names: &[],
};
const DOM: Field = Field {
    lo: 1,
    hi: 31,
    names: &[],
};
const MONTH: Field = Field {
    lo: 1,
    hi: 12,
    names: &[
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ],
};
const DOW: Field = Field {
    lo: 0,
    hi: 6,
    names: &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
};

fn mixed_case(s: &str, how: u8) -> String {
    match how % 3 {
        0 => s.to_string(),
        1 => s.to_uppercase(),
        _ => s[..1].to_uppercase() + &s[1..],
    }
}

fn value(f: &'static Field) -> BoxedStrategy<String> {
    let num = (f.lo..=f.hi).prop_map(|n| n.to_string());
    let wild = (0u32..100).prop_map(|n| n.to_string());
    if f.names.is_empty() {
        prop_oneof![9 => num, 1 => wild].boxed()
    } else {
        let names =
            (prop::sample::select(f.names), any::<u8>()).prop_map(|(n, how)| mixed_case(n, how));
        prop_oneof![6 => num, 3 => names, 1 => wild].boxed()
    }
}

/// `a-b` with `a <= b` (robfig rejects the other order), numbers or names.
fn ordered_range(f: &'static Field) -> BoxedStrategy<String> {
    (f.lo..=f.hi, f.lo..=f.hi, any::<bool>(), any::<u8>())
        .prop_map(move |(a, b, named, how)| {
            let (a, b) = (a.min(b), a.max(b));
            let show = |v: u32| match f.names.get(v.wrapping_sub(f.lo) as usize) {
                Some(n) if named && (f.lo..=f.hi).contains(&v) => mixed_case(n, how),
                _ => v.to_string(),
            };
            format!("{}-{}", show(a), show(b))
        })
        .boxed()
}

fn item(f: &'static Field) -> BoxedStrategy<String> {
    let v = value(f);
    prop_oneof![
        3 => Just("*".to_string()),
        1 => Just("?".to_string()),
        4 => v.clone(),
        4 => ordered_range(f),
        1 => (v.clone(), v.clone()).prop_map(|(a, b)| format!("{a}-{b}")),
        2 => (1u32..=f.hi + 2).prop_map(|s| format!("*/{s}")),
        2 => (v.clone(), v.clone(), 1u32..=31).prop_map(|(a, b, s)| format!("{a}-{b}/{s}")),
        1 => (v, 0u32..=31).prop_map(|(a, s)| format!("{a}/{s}")),
    ]
    .boxed()
}

fn field(f: &'static Field) -> impl Strategy<Value = String> {
    prop::collection::vec(item(f), 1..=3).prop_map(|v| v.join(","))
}

fn go_duration() -> impl Strategy<Value = String> {
    let part = (
        1u64..5_000,
        prop::sample::select(vec!["ns", "us", "µs", "ms", "s", "m", "h"]),
    )
        .prop_map(|(n, u)| format!("{n}{u}"));
    (
        prop::collection::vec(part, 1..=3),
        prop_oneof![9 => Just(""), 1 => Just("-")],
    )
        .prop_map(|(parts, sign)| format!("{sign}{}", parts.concat()))
}

/// Bodies with known hard cases: impossible or rare dates, the 5-year limit, empty
/// fields, the day-of-month/day-of-week OR rule and its star bit, DST-sensitive hours.
const TRICKY: &[&str] = &[
    "0 0 29 2 *",
    "0 0 30 2 *",
    "59 23 31 2,4,6,9,11 *",
    "0 0 31 * *",
    "0 0 29 2 1",
    "0 0 29 2 */1",
    "0 0 13 * 5",
    "0 0 1 1 *",
    "59 23 31 12 *",
    ", * * * *",
    "* , * * *",
    "* * , * *",
    "* * * , *",
    "* * * * ,",
    "30 2 * * *",
    "30 1 * * *",
    "*/30 1 * * *",
    "0 0 * * *",
    "0 2 * * *",
    "15 2 * * *",
    "45 2 * * *",
    "0 */2 * * *",
    "* * * * *",
    "*-5 * * * *",
    "0 0 ? * 7",
];

/// Schedules a user could plausibly write: optional `TZ=`/`CRON_TZ=` prefix, then five
/// fields of lists, ranges, steps, names (any case), `?`, or a descriptor / `@every`.
/// Values sometimes leave their field's range, so rejections are exercised too.
fn grammar_schedule() -> impl Strategy<Value = String> {
    let sep = prop_oneof![8 => Just(" "), 1 => Just("\t"), 1 => Just("  ")];
    let fields = (
        field(&MINUTE),
        field(&HOUR),
        field(&DOM),
        field(&MONTH),
        field(&DOW),
        sep,
    )
        .prop_map(|(a, b, c, d, e, sep)| [a, b, c, d, e].join(sep));
    let descriptor = prop_oneof![
        3 => prop::sample::select(vec![
            "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly",
        ])
        .prop_map(str::to_string),
        2 => go_duration().prop_map(|d| format!("@every {d}")),
    ];
    let zone_names: Vec<&'static str> = PROP_ZONES
        .iter()
        .copied()
        .chain(["Local", "Etc/GMT+5", "US/Eastern", "utc", "Nope/Zone", ""])
        .collect();
    let prefix = prop_oneof![
        6 => Just(String::new()),
        1 => prop::sample::select(zone_names.clone()).prop_map(|z| format!("TZ={z} ")),
        1 => prop::sample::select(zone_names).prop_map(|z| format!("CRON_TZ={z} ")),
    ];
    let tricky = prop::sample::select(TRICKY).prop_map(str::to_string);
    (
        prefix,
        prop_oneof![7 => fields, 2 => descriptor, 1 => tricky],
    )
        .prop_map(|(p, b)| p + &b)
}

/// Text no one would write: arbitrary Unicode, and soups of schedule-like tokens.
fn junk_schedule() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~\t\u{a0}\u{85}\u{2028}\u{3000}]{0,40}",
        prop::collection::vec(prop::sample::select(PIECES), 0..14).prop_map(|v| v.concat()),
    ]
}

fn any_schedule() -> impl Strategy<Value = String> {
    prop_oneof![3 => grammar_schedule(), 2 => junk_schedule()]
}

fn zone_index() -> impl Strategy<Value = usize> {
    0..prop_zones().len()
}

/// The zone a schedule is evaluated in: its `TZ=` zone, else the controller's.
fn eval_zone<'a>(s: &'a Schedule, local: &'a TimeZone) -> &'a TimeZone {
    match &s.zone {
        ScheduleZone::Local => local,
        ScheduleZone::Fixed(loc) => &loc.tz,
    }
}

/// How far before its input robfig's `Next` may answer in a zone with transitions (the
/// shift plus an hour of truncation; the largest historic backward shift is about a day).
const MAX_REGRESS_SECONDS: i64 = 2 * 86_400;

/// Per-call time limit. A debug build of the engine answers any `Next` in well under a
/// millisecond typically, and a five-year day-by-day scan in a few milliseconds.
const SLOW: Duration = Duration::from_secs(2);

/// Up to five chained `next` calls, with the invariants robfig guarantees (module doc).
fn check_chain(spec: &str, s: &Schedule, from: Timestamp, local: &TimeZone) {
    let zone = eval_zone(s, local);
    let strict = matches!(s.kind, ScheduleKind::Every(_)) || is_fixed(zone);
    let mut t = from;
    for call in 0..5 {
        let started = Instant::now();
        let got = s.next(t, local);
        let took = started.elapsed();
        assert!(took < SLOW, "{spec:?} from {t} in {local:?}: took {took:?}");
        let Some(n) = got else { return };
        if n == Timestamp::MAX {
            return; // documented saturation past jiff's year 9999
        }
        assert_eq!(n.subsec_nanosecond(), 0, "{spec:?} from {t}: {n}");
        if strict {
            assert!(n > t, "{spec:?} from {t} (call {call}) in {local:?}: {n}");
        } else {
            let back = t.as_second() - n.as_second();
            assert!(
                back < MAX_REGRESS_SECONDS,
                "{spec:?} from {t} (call {call}): {n}"
            );
        }
        if let ScheduleKind::Spec(_) = s.kind {
            // The second loop is robfig's last: a result always shows wall second 0.
            let wall = zone.to_offset(n).seconds() as i64 + n.as_second();
            assert_eq!(wall.rem_euclid(60), 0, "{spec:?} from {t}: {n} in {zone:?}");
        }
        t = n;
    }
}

proptest! {
    #![proptest_config(config(30_000))]

    /// Any text, any instant, any controller zone: parse, then five chained `next`.
    #[test]
    fn prop_any_schedule_never_panics(
        spec in any_schedule(),
        when in when(),
        zone in zone_index(),
    ) {
        let local = &prop_zones()[zone];
        let parsed = parse_standard(&spec);
        // Parsing is a pure function of the text.
        match (&parsed, parse_standard(&spec)) {
            (Err(a), Err(b)) => prop_assert_eq!(a, &b),
            (Ok(a), Ok(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
            _ => prop_assert!(false, "parse of {:?} is not deterministic", spec),
        }
        if let Err(e) = &parsed {
            prop_assert!(!e.message.is_empty());
        }
        if let Ok(s) = parsed {
            let from = when.resolve(eval_zone(&s, local));
            check_chain(&spec, &s, from, local);
        }
    }
}

// ----- exact reference for fixed-offset zones ------------------------------------------

fn bit(set: u64, v: i64) -> bool {
    (0..64).contains(&v) && set & (1u64 << v) != 0
}

/// Spec A.5's day rule, restated: dom and dow ANDed when either carries the star bit.
fn day_ok(s: &SpecSchedule, day: i64, weekday: i64) -> bool {
    if (s.dom | s.dow) & STAR_BIT != 0 {
        bit(s.dom, day) && bit(s.dow, weekday)
    } else {
        bit(s.dom, day) || bit(s.dow, weekday)
    }
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// The first wall time at or after `after + 1 s` (whole seconds) that matches every field,
/// in a zone fixed at `offset` seconds, searched day by day; `None` past robfig's limit
/// (the start's year + 5). Written from the cron definition, not from robfig's loops.
fn reference_next(s: &SpecSchedule, after: Timestamp, offset: i64) -> Option<Timestamp> {
    let start = after.as_second() - i64::from(after.subsec_nanosecond() < 0) + 1;
    let wall_start = start + offset;
    let mut days = wall_start.div_euclid(86_400);
    let start_tod = wall_start.rem_euclid(86_400);
    let first = Timestamp::from_second(days * 86_400)
        .unwrap()
        .to_zoned(TimeZone::UTC);
    let (mut y, mut m, mut d) = (
        i64::from(first.year()),
        i64::from(first.month()),
        i64::from(first.day()),
    );
    let limit = y + 5;
    let mut first_day = true;
    while y <= limit {
        let weekday = (days + 4).rem_euclid(7);
        if bit(s.month, m) && day_ok(s, d, weekday) {
            for h in (0..24).filter(|&h| bit(s.hour, h)) {
                for mi in (0..60).filter(|&mi| bit(s.minute, mi)) {
                    for sec in (0..60).filter(|&sec| bit(s.second, sec)) {
                        let tod = h * 3600 + mi * 60 + sec;
                        if !first_day || tod >= start_tod {
                            return Timestamp::from_second(days * 86_400 + tod - offset).ok();
                        }
                    }
                }
            }
        }
        first_day = false;
        days += 1;
        d += 1;
        if d > days_in_month(y, m) {
            d = 1;
            m += 1;
            if m > 12 {
                m = 1;
                y += 1;
            }
        }
    }
    None
}

fn whole_minute_zone() -> impl Strategy<Value = (i32, TimeZone)> {
    prop::sample::select(WHOLE_MINUTE_OFFSETS).prop_map(|o| (o, fixed_zone(o)))
}

fn modern_instant() -> impl Strategy<Value = Timestamp> {
    (Y1900..Y2201, 0..1_000_000_000i32).prop_map(|(s, n)| Timestamp::new(s, n).unwrap())
}

proptest! {
    #![proptest_config(config(10_000))]

    /// In a fixed-offset zone robfig's `Next` is exactly "the first matching wall time
    /// after t within the 5-year window"; `@every d` is exactly `floor(t) + d`.
    #[test]
    fn prop_fixed_zone_next_is_the_first_match(
        spec in grammar_schedule(),
        from in modern_instant(),
        (offset, zone) in whole_minute_zone(),
    ) {
        let Ok(s) = parse_standard(&spec) else { return Ok(()) };
        if !matches!(s.zone, ScheduleZone::Local) {
            return Ok(());
        }
        let got = s.next(from, &zone);
        let want = match &s.kind {
            ScheduleKind::Spec(spec_s) => reference_next(spec_s, from, i64::from(offset)),
            ScheduleKind::Every(d) => {
                let floor = from.as_second() - i64::from(from.subsec_nanosecond() < 0);
                Timestamp::from_second(floor + d.delay_seconds).ok()
            }
        };
        prop_assert_eq!(got, want, "{:?} from {} at offset {}", spec, from, offset);
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    /// Whole-minute fixed-offset zones: `t1 < t2` ⇒ `Next(t1) <= Next(t2)` when both
    /// exist, and every instant between `t1` and `Next(t1)` has the same answer. (Offsets
    /// with seconds, i.e. historic LMT, break both in robfig: see
    /// `robfig_is_not_monotone_with_lmt_offsets`.)
    #[test]
    fn prop_fixed_zone_next_is_monotone(
        spec in grammar_schedule(),
        t1 in modern_instant(),
        gap in prop_oneof![0i64..120, 0i64..86_400, 0i64..400 * 86_400],
        frac in 0.0f64..1.0,
        (_, zone) in whole_minute_zone(),
    ) {
        let Ok(s) = parse_standard(&spec) else { return Ok(()) };
        if !matches!(s.zone, ScheduleZone::Local) {
            return Ok(());
        }
        let t2 = Timestamp::from_second(t1.as_second() + gap).unwrap();
        let (n1, n2) = (s.next(t1, &zone), s.next(t2, &zone));
        if let (Some(a), Some(b)) = (n1, n2) {
            prop_assert!(t1 >= t2 || a <= b, "{:?}: Next({})={} > Next({})={}", spec, t1, a, t2, b);
            // Any instant in [t1, a) answers a.
            let span = a.as_second() - t1.as_second();
            if matches!(s.kind, ScheduleKind::Spec(_)) && span > 0 {
                let mid = Timestamp::from_second(t1.as_second() + (span as f64 * frac) as i64 % span).unwrap();
                prop_assert_eq!(s.next(mid.max(t1), &zone), Some(a), "{:?} from {}", spec, mid);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(5_000))]

    /// The same schedule asked again gives the same answer: after other zones have
    /// churned the per-thread zone memo, re-parsed, cloned, and on a fresh thread.
    #[test]
    fn prop_reevaluation_gives_the_same_answer(
        spec in grammar_schedule(),
        when in when(),
        zone in zone_index(),
        churn in prop::collection::vec((zone_index(), instant()), 9..12),
    ) {
        let Ok(s) = parse_standard(&spec) else { return Ok(()) };
        let local = prop_zones()[zone].clone();
        let from = when.resolve(eval_zone(&s, &local));
        let first = s.next(from, &local);
        for (z, t) in &churn {
            let _ = s.next(*t, &prop_zones()[*z]);
        }
        prop_assert_eq!(s.next(from, &local), first, "{:?} after churn", spec);
        prop_assert_eq!(parse_standard(&spec).unwrap().next(from, &local), first);
        prop_assert_eq!(s.clone().next(from, &local), first);
        let (s2, local2) = (s.clone(), local.clone());
        let other = std::thread::spawn(move || s2.next(from, &local2)).join().unwrap();
        prop_assert_eq!(other, first, "{:?} on another thread", spec);
    }
}

// ----- robfig's own non-monotone answers, verified with the Go oracle -------------------

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn robfig_goes_backwards_in_chatham_fall_back() {
    // Golden file (real robfig): 2018-04-01 03:45 CHADT → 02:45 CHAST at 14:00Z. From
    // 02:45:01 CHAST, Date(…, 2, 0, 0) resolves to 02:00 CHADT (13:15Z); the hour loop then
    // finds 03:30 CHADT = 13:45Z, before the input.
    let s = parse_standard("CRON_TZ=Pacific/Chatham 30 */3 * * *").unwrap();
    let from = ts("2018-03-31T14:00:01Z");
    let first = s.next(from, &TimeZone::UTC).unwrap();
    assert_eq!(first, ts("2018-03-31T13:45:00Z"));
    assert!(first < from);
    // Chained from that activation it moves forward again (golden file's next answer).
    assert_eq!(
        s.next(first, &TimeZone::UTC),
        Some(ts("2018-03-31T14:45:00Z"))
    );
}

#[test]
fn robfig_has_a_fixed_point_in_chatham_fall_back() {
    // Real robfig (tools/oracle): from 00:59 CHADT (11:14Z) the hour loop reaches 03:00
    // CHADT, the minute loop runs through the 03:45 → 02:45 fall-back without wrapping and
    // stops at minute 59 = 02:59 CHAST (14:14Z), where the hour (2) no longer matches */3.
    // From 14:14Z the same walk ends at 14:14Z again: Next(t) == t, forever. A caller that
    // loops `t = Next(t)` while `t <= now` never ends (the controller's window loop does).
    let s = parse_standard("CRON_TZ=Pacific/Chatham 59 */3 * * *").unwrap();
    let fixed = ts("2018-03-31T14:14:00Z");
    assert_eq!(
        s.next(ts("2018-03-31T12:00:00Z"), &TimeZone::UTC),
        Some(fixed)
    );
    assert_eq!(s.next(fixed, &TimeZone::UTC), Some(fixed));
    let local = parse_standard("59 */3 * * *").unwrap();
    let chatham = TimeZone::get("Pacific/Chatham").unwrap();
    assert_eq!(local.next(fixed, &chatham), Some(fixed));
}

#[test]
fn robfig_is_not_monotone_in_lord_howe_fall_back() {
    // Real robfig (tools/oracle, tzdb 2026e): 2024-04-07 02:00 LHDT → 01:30 LHST at
    // 15:00Z. From 01:59:58 LHST the hour loop restarts at 01:00 LHDT and steps over
    // 02:00 LHST (to 02:30); from 01:59:59 LHST the next second *is* 02:00 LHST.
    let lh = TimeZone::get("Australia/Lord_Howe").unwrap();
    let s = parse_standard("0 2 * * *").unwrap();
    assert_eq!(
        s.next(ts("2024-04-06T15:29:58Z"), &lh),
        Some(ts("2024-04-07T15:30:00Z"))
    );
    assert_eq!(
        s.next(ts("2024-04-06T15:29:59Z"), &lh),
        Some(ts("2024-04-06T15:30:00Z"))
    );
}

#[test]
fn robfig_is_not_monotone_with_lmt_offsets() {
    // Real robfig (tools/oracle): Africa/Monrovia was UTC-00:44:30 until 1972. robfig's
    // Truncate(minute) works on absolute time, so from 00:00Z (wall 23:15:30) the minute
    // loop runs at :30 wall seconds and steps over 00:00:00 wall; from 00:44:29Z the next
    // second is exactly 00:00:00 wall.
    let monrovia = TimeZone::get("Africa/Monrovia").unwrap();
    let s = parse_standard("0 * * * *").unwrap();
    assert_eq!(
        s.next(ts("1970-06-01T00:00:00Z"), &monrovia),
        Some(ts("1970-06-01T01:44:30Z"))
    );
    assert_eq!(
        s.next(ts("1970-06-01T00:44:29Z"), &monrovia),
        Some(ts("1970-06-01T00:44:30Z"))
    );
}

/// The generators must not make the properties vacuous: most grammar-aware schedules
/// parse, and many of those are 5-field schedules in the controller's zone.
#[test]
fn grammar_generator_is_not_vacuous() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = grammar_schedule();
    let (n, mut accepted, mut local_spec, mut never) = (2_000, 0, 0, 0);
    let from = Timestamp::from_second(1_700_000_000).unwrap();
    for _ in 0..n {
        let text = strategy.new_tree(&mut runner).unwrap().current();
        if let Ok(s) = parse_standard(&text) {
            accepted += 1;
            if matches!(
                (&s.kind, &s.zone),
                (ScheduleKind::Spec(_), ScheduleZone::Local)
            ) {
                local_spec += 1;
            }
            if s.next(from, &TimeZone::UTC).is_none() {
                never += 1;
            }
        }
    }
    assert!(
        accepted * 100 >= n * 40,
        "only {accepted}/{n} generated schedules parse"
    );
    assert!(
        local_spec * 100 >= n * 25,
        "only {local_spec}/{n} are local 5-field schedules"
    );
    assert!(never > 0, "no generated schedule exercises \"never\"");
}
