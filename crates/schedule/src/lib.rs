//! A byte-for-byte reimplementation of robfig/cron v3.0.1 `ParseStandard` and `Next`,
//! the schedule engine the Kubernetes CronJob controller uses.
//!
//! Pure: no IO, no wall clock. Time zones come from jiff's bundled tz database and are
//! resolved with Go's `time.LoadLocation` rules. Behaviour is specified in
//! `shared/reference/kubernetes-cronjob-semantics.md`, section A.
//!
//! Contract used by the rest of the workspace (keep it stable):
//! * [`parse_standard`] — parse exactly as `cron.ParseStandard`; errors carry robfig's text.
//! * [`Schedule::next`] — robfig's `Next(after)`: normally the first activation strictly after
//!   `after` (but see its docs for clock changes where robfig answers no later time), `None` where Go returns
//!   the zero time ("never" within the 5-year search window).
//! * [`load_location`] — Go's `time.LoadLocation`.
//!
//! Layout: `parse` (the grammar and its error texts) on top of `go_text` (Go's
//! `strings.Fields`, `ToLower`, `strconv.Atoi`/`Quote`) and `go_duration`
//! (`time.ParseDuration`); `location` (LoadLocation as a path walk over the bundled
//! names); `next` (robfig's `Next`, step for step) on top of `go_time` (Go's `Date`,
//! `AddDate`, `Truncate` and zone lookups), `skip` (strides over steps that provably
//! change nothing) and `zone_memo` (per-thread memo of zone offset periods).
//!
//! Known limits, all outside what the controller can meet in practice: results past
//! jiff's year-9999 range saturate at `Timestamp::MAX` (`Schedule::next_checked` tells them
//! apart instead); searches that never end in robfig
//! (zones that skipped a whole calendar day) report `None`; zone data is jiff's bundled
//! tzdb, which can differ from a given controller's tzdata for recently changed zones.

use jiff::Timestamp;
use jiff::tz::TimeZone;

mod go_duration;
mod go_print_table;
mod go_text;
mod go_time;
mod location;
mod next;
mod parse;
mod skip;
mod zone_memo;

pub use go_text::strconv_quote;
pub use location::{Errno, LocationError};
pub use parse::{DAY_NAMES, MONTH_NAMES};

/// The star bit robfig keeps in bit 63 of a field (set by `*`, `?`, `*/1` and descriptors).
pub const STAR_BIT: u64 = 1 << 63;

/// A named time zone, as Go's `*time.Location` would be after `LoadLocation`.
#[derive(Clone, Debug)]
pub struct Location {
    /// The name Go would print (`loc.String()`): `UTC` for `""`/`"UTC"`, else the name given.
    pub name: String,
    pub tz: TimeZone,
}

/// Where a schedule is evaluated.
#[derive(Clone, Debug)]
pub enum ScheduleZone {
    /// No `TZ=` prefix (or `TZ=Local`): robfig's `time.Local` sentinel, i.e. the zone of the
    /// time passed to `Next` — for Kubernetes, the controller process's local zone.
    Local,
    /// A `TZ=`/`CRON_TZ=` prefix that loaded.
    Fixed(Location),
}

/// Bit sets of a `SpecSchedule` (bit n set = value n allowed; [`STAR_BIT`] as robfig).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecSchedule {
    pub second: u64,
    pub minute: u64,
    pub hour: u64,
    pub dom: u64,
    pub month: u64,
    pub dow: u64,
}

/// `@every d`: robfig's `ConstantDelaySchedule` (delay already rounded as `Every` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantDelay {
    pub delay_seconds: i64,
}

#[derive(Clone, Debug)]
pub enum ScheduleKind {
    Spec(SpecSchedule),
    Every(ConstantDelay),
}

#[derive(Clone, Debug)]
pub struct Schedule {
    pub kind: ScheduleKind,
    pub zone: ScheduleZone,
}

/// A schedule robfig rejects (or panics on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// robfig's exact error text (what users see in `UnparseableSchedule` events), or, when
    /// robfig panics instead of returning an error, Go's runtime panic text.
    pub message: String,
    /// True when real robfig panics on this input (e.g. `TZ=UTC` with nothing after it).
    pub panics: bool,
}

/// Parse exactly as robfig/cron v3.0.1 `ParseStandard`.
pub fn parse_standard(spec: &str) -> Result<Schedule, ParseError> {
    parse::parse_standard(spec)
}

/// Go's `time.LoadLocation`: `Ok(None)` means `time.Local`; an error displays as Go's text
/// (`unknown time zone X`, `time: invalid location name`).
pub fn load_location(name: &str) -> Result<Option<Location>, LocationError> {
    location::load_location(name)
}

impl Schedule {
    /// robfig's `Next(after)`; `local` is the zone `Local` schedules use. Normally the first
    /// activation strictly after `after`, but — exactly like robfig — at some clock changes the
    /// answer is not later: at Pacific/Chatham's fall-back `Next` can return its own input or
    /// an earlier time, and at Lord_Howe's half-hour change a later input can give an earlier
    /// answer. Callers that chain `t = next(t)` must stop when the answer does not advance.
    /// `None` where robfig returns the zero time.
    ///
    /// Results beyond jiff's range (Go's is wider) saturate at `Timestamp::MAX`.
    pub fn next(&self, after: Timestamp, local: &TimeZone) -> Option<Timestamp> {
        match &self.kind {
            ScheduleKind::Spec(s) => {
                let tz = match &self.zone {
                    ScheduleZone::Local => local,
                    ScheduleZone::Fixed(loc) => &loc.tz,
                };
                next::spec_next(s, after, tz)
            }
            // robfig's ConstantDelaySchedule has no location: DST cannot affect it.
            ScheduleKind::Every(d) => Some(next::every_next(d, after)),
        }
    }

    /// [`Schedule::next`] without the saturation: [`Fire::BeyondRange`] when robfig's answer
    /// lies past `Timestamp::MAX` (9999-12-30T22:00:00Z; Go's time goes on). For callers that
    /// show the answer: a saturated `Timestamp::MAX` would be a run that does not exist.
    pub fn next_checked(&self, after: Timestamp, local: &TimeZone) -> Fire {
        let unix = match &self.kind {
            ScheduleKind::Spec(s) => {
                let tz = match &self.zone {
                    ScheduleZone::Local => local,
                    ScheduleZone::Fixed(loc) => &loc.tz,
                };
                next::spec_next_unix(s, after, tz)
            }
            ScheduleKind::Every(d) => Some(next::every_next_unix(d, after)),
        };
        match unix {
            None => Fire::Never,
            Some(u) if u > Timestamp::MAX.as_second() => Fire::BeyondRange,
            Some(u) => Fire::At(go_time::to_timestamp(u)),
        }
    }
}

/// robfig's `Next`, told apart from "past what a `Timestamp` can hold".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fire {
    At(Timestamp),
    /// Go's zero time: no activation within robfig's 5-year window.
    Never,
    /// An activation exists but lies after `Timestamp::MAX` (the last hours of year 9999 or
    /// later), which nothing here can represent.
    BeyondRange,
}
