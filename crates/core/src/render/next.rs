//! `kubectl cronjob-doctor next`: the computation (pure) and its text / JSON renderings.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::{Fire, ParseError, Schedule, ScheduleKind};
use serde::Serialize;

use super::style::Style;
use crate::cron::{describe, dst, format_schedule, hint};
use crate::rules::verdict;
use crate::text::human_duration;

/// The view's strings made visible for a terminal: the schedule and zone as typed (they may
/// come from a script reading a cluster), the parse error that quotes them, and the hint.
pub fn for_terminal(view: &mut NextView) {
    use crate::escape::{fix_line, fix_opt_line, fix_text};
    fix_line(&mut view.schedule);
    fix_opt_line(&mut view.time_zone);
    fix_line(&mut view.effective);
    match &mut view.outcome {
        Ok(f) => {
            fix_text(&mut f.description);
            fix_line(&mut f.zone_name);
        }
        Err(r) => {
            fix_text(&mut r.error.message);
            if let Some(h) = &mut r.hint {
                fix_text(h);
            }
        }
    }
}

/// Everything `next` shows, computed once and rendered twice (text or JSON).
#[derive(Debug)]
pub struct NextView {
    pub schedule: String,
    pub time_zone: Option<String>,
    /// What robfig is given after `formatSchedule`.
    pub effective: String,
    pub from: Timestamp,
    pub outcome: Result<Fires, Rejected>,
}

#[derive(Debug)]
pub struct Fires {
    pub description: String,
    pub zone_name: String,
    pub zone: TimeZone,
    pub times: Vec<Timestamp>,
    /// Asked for more than the schedule gives within robfig's 5-year window.
    pub exhausted: bool,
    /// The next run lies past the last instant a timestamp here can hold
    /// (`Timestamp::MAX`, 9999-12-30T22:00:00Z): the list ends there, with no invented run.
    pub beyond_range: bool,
    /// No run at all: lint's never-fires error, with its reason ("day 31 never occurs in
    /// February").
    pub never: Option<String>,
    /// robfig's `Next` answered this instant, which is not later than the previous run: the
    /// chain (and the controller, with InvalidSchedule) stops advancing there.
    pub stalled: Option<Timestamp>,
    pub dst: Vec<dst::DstEffect>,
}

#[derive(Debug)]
pub struct Rejected {
    pub error: ParseError,
    pub hint: Option<String>,
}

impl NextView {
    /// The verdict lint gives the same question: a rejected schedule or time zone, or a
    /// schedule that never fires, is an error (exit 1).
    pub fn is_error(&self) -> bool {
        match &self.outcome {
            Err(_) => true,
            Ok(f) => f.never.is_some(),
        }
    }
}

/// Compute the next `count` fire times after `from`, as the controller would. The zone and
/// the schedule are judged by the same checks as `spec.timeZone` and `spec.schedule` in lint.
pub fn compute(
    schedule_text: &str,
    time_zone: Option<&str>,
    from: Timestamp,
    count: usize,
    controller_zone_name: &str,
    controller_zone: &TimeZone,
) -> NextView {
    let effective = format_schedule(schedule_text, time_zone);
    let zone_problem = time_zone.and_then(|tz| {
        let problems = verdict::time_zone_problems(tz);
        let first = problems.first()?;
        Some(Rejected {
            error: ParseError {
                message: format!("spec.timeZone {tz:?} is refused: {first}"),
                panics: false,
            },
            hint: Some(match verdict::zone_suggestion(tz) {
                Some(s) => format!("did you mean {s}?"),
                None => "use an IANA zone name such as Europe/Berlin (case-sensitive): the API server checks spec.timeZone as lint does".into(),
            }),
        })
    });
    let outcome = match zone_problem {
        Some(rejected) => Err(rejected),
        None => judge_schedule(
            &effective,
            from,
            count,
            controller_zone_name,
            controller_zone,
        ),
    };
    NextView {
        schedule: schedule_text.to_string(),
        time_zone: time_zone.map(str::to_string),
        effective,
        from,
        outcome,
    }
}

fn judge_schedule(
    effective: &str,
    from: Timestamp,
    count: usize,
    controller_zone_name: &str,
    controller_zone: &TimeZone,
) -> Result<Fires, Rejected> {
    match schedule::parse_standard(effective) {
        Err(error) => Err(Rejected {
            hint: hint::hint(effective, &error),
            error,
        }),
        Ok(sched) => Ok(fires(
            &sched,
            from,
            count,
            controller_zone_name,
            controller_zone,
        )),
    }
}

fn fires(sched: &Schedule, from: Timestamp, count: usize, ctl_name: &str, ctl: &TimeZone) -> Fires {
    let (zone_name, zone) = match &sched.zone {
        schedule::ScheduleZone::Fixed(loc) => (loc.name.clone(), loc.tz.clone()),
        schedule::ScheduleZone::Local => (ctl_name.to_string(), ctl.clone()),
    };
    // The CLI bounds `count`; the cap keeps any other caller from a huge allocation.
    let mut times = Vec::with_capacity(count.min(1024));
    let mut stalled = None;
    let mut beyond_range = false;
    let mut t = from;
    while times.len() < count {
        match sched.next_checked(t, ctl) {
            Fire::At(n) if n > t => {
                times.push(n);
                t = n;
            }
            Fire::At(n) => {
                // robfig answers its own input (or an earlier time) at some clock changes
                // (Pacific/Chatham's fall-back): the chain, and the controller, stall here.
                stalled = Some(n);
                break;
            }
            Fire::BeyondRange => {
                beyond_range = true;
                break;
            }
            Fire::Never => break,
        }
    }
    let exhausted = times.len() < count && stalled.is_none() && !beyond_range;
    // Lint's never-fires asks robfig for the run after "now"; `next` asks after --from.
    let never = match &sched.kind {
        ScheduleKind::Spec(spec) if times.is_empty() && exhausted => {
            Some(verdict::never_fires_reason(spec))
        }
        _ => None,
    };
    let dst = match times.last() {
        Some(last) => dst::effects(sched, ctl, from, *last),
        None => Vec::new(),
    };
    let zone_shown =
        matches!(sched.kind, schedule::ScheduleKind::Spec(_)).then_some(zone_name.as_str());
    Fires {
        description: describe::describe(&sched.kind, zone_shown, true),
        zone_name,
        zone,
        times,
        exhausted,
        beyond_range,
        never,
        stalled,
        dst,
    }
}

/// The JSON contract (`schemaVersion` 1): other tools and our own checks rely on it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NextJson<'a> {
    schema_version: u32,
    schedule: &'a str,
    time_zone: Option<&'a str>,
    from: String,
    times: Vec<String>,
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'a str>,
    /// Set when robfig's Next stops advancing (see [`Fires::stalled`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    stalled_at: Option<String>,
    /// Set when the next run lies past 9999-12-30T22:00:00Z (see [`Fires::beyond_range`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    beyond_range: bool,
}

/// The never-fires verdict in words, as lint's rule words it.
fn never_message(reason: &str) -> String {
    format!(
        "never fires: {reason}; the controller records InvalidSchedule and never starts a Job (lint: never-fires, error)"
    )
}

pub fn to_json(v: &NextView) -> String {
    let (times, error, description, hint) = match &v.outcome {
        Ok(f) => (
            f.times.iter().map(|t| t.to_string()).collect(),
            f.never.as_deref().map(never_message),
            Some(f.description.as_str()),
            None,
        ),
        Err(r) => (
            Vec::new(),
            Some(r.error.message.clone()),
            None,
            r.hint.as_deref(),
        ),
    };
    let beyond_range = v.outcome.as_ref().is_ok_and(|f| f.beyond_range);
    let stalled_at = v
        .outcome
        .as_ref()
        .ok()
        .and_then(|f| f.stalled)
        .map(|t| t.to_string());
    let j = NextJson {
        schema_version: 1,
        schedule: &v.schedule,
        time_zone: v.time_zone.as_deref(),
        from: v.from.to_string(),
        times,
        error: error.as_deref(),
        description,
        hint,
        stalled_at,
        beyond_range,
    };
    serde_json::to_string_pretty(&j).unwrap_or_default() + "\n"
}

fn wall(t: Timestamp, tz: &TimeZone, fmt: &str) -> String {
    let z = t.to_zoned(tz.clone());
    format!(
        "{} {}",
        z.strftime(fmt),
        tz.to_offset_info(t).abbreviation()
    )
}

/// Text rendering: description, then one line per run, with DST warnings in place.
pub fn to_text(v: &NextView, st: Style) -> String {
    let mut out = String::new();
    let f = match &v.outcome {
        Err(r) => {
            out.push_str(&format!("{} {}\n", st.red("✗ rejected:"), r.error.message));
            if let Some(h) = &r.hint {
                out.push_str(&format!("  {} {h}\n", st.dim("hint:")));
            }
            if v.effective != v.schedule {
                // Already made terminal-safe (`report::visible`): quoted, not Debug-escaped
                // a second time.
                out.push_str(&st.dim(&format!("  (the controller parses \"{}\")\n", v.effective)));
            }
            return out;
        }
        Ok(f) => f,
    };
    out.push_str(&st.bold(&f.description));
    out.push('\n');
    let utc_column = f.zone_name != "UTC";
    // Lines keyed by instant so DST notes land between the runs they sit between.
    let mut lines: Vec<(Timestamp, String)> = Vec::new();
    for t in &f.times {
        let mut line = format!("  {}", wall(*t, &f.zone, "%a %Y-%m-%d %H:%M"));
        if utc_column {
            line.push_str(&format!("   {}", wall(*t, &TimeZone::UTC, "%H:%M")));
        }
        let secs = t.as_second() - v.from.as_second();
        line.push_str(&format!(
            "   {}",
            st.dim(&format!("in {}", human_duration(secs.max(0))))
        ));
        for e in &f.dst {
            if e.doubled.iter().any(|(_, a, b)| a == t || b == t) {
                line.push_str(&format!(
                    "   {}",
                    st.yellow(&format!(
                        "⚠ repeated hour: runs twice (clocks go {} → {})",
                        e.clock_from.strftime("%H:%M"),
                        e.clock_to.strftime("%H:%M")
                    ))
                ));
            }
            if e.shifted.contains(t) {
                line.push_str(&format!("   {}", st.yellow("⚠ moved by the clock change")));
            }
        }
        lines.push((*t, line));
    }
    for e in &f.dst {
        for w in &e.swallowed {
            let why = if e.forward && *w >= e.clock_from && *w < e.clock_to {
                format!(
                    "{} does not exist (clocks go {} → {})",
                    w.strftime("%H:%M"),
                    e.clock_from.strftime("%H:%M"),
                    e.clock_to.strftime("%H:%M")
                )
            } else {
                format!(
                    "robfig skips {} after the clock change ({} → {}); upstream quirk",
                    w.strftime("%H:%M"),
                    e.clock_from.strftime("%H:%M"),
                    e.clock_to.strftime("%H:%M")
                )
            };
            let text = format!(
                "  {}",
                st.yellow(&format!("⚠ {} — no run: {why}", w.strftime("%a %Y-%m-%d")))
            );
            lines.push((e.transition, text));
        }
    }
    lines.sort_by_key(|(t, _)| *t);
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    if let Some(t) = f.stalled {
        out.push_str(&format!(
            "  {}\n",
            st.yellow(&format!(
                "⚠ then robfig's Next answers {} again, not a later time (a robfig bug at this zone's clock change): the controller stops scheduling with InvalidSchedule (\"time difference between two schedules is less than 1 second\") until lastScheduleTime moves",
                wall(t, &f.zone, "%a %Y-%m-%d %H:%M")
            ))
        ));
    }
    if let Some(reason) = &f.never {
        out.push_str(&format!("  {} {}\n", st.red("✗"), never_message(reason)));
    } else if f.beyond_range {
        out.push_str(&st.dim(&format!(
            "  (the next run falls after {}, the last instant this tool can compute; RFC 3339 time ends with year 9999)\n",
            wall(Timestamp::MAX, &f.zone, "%a %Y-%m-%d %H:%M")
        )));
    } else if f.exhausted {
        out.push_str(
            &st.dim(&format!(
                "  (no {} run within robfig's 5-year search window)\n",
                if f.times.is_empty() { "" } else { "further " }
            ))
            .replace("no  run", "no run"),
        );
    }
    out
}
