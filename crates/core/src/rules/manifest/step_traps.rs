//! The step traps of suspicious-schedule, read from the fields as written: a step that does
//! not fit its range (`*/60` selects only the start), `a/1` (= `a-max`), and steps that do not
//! divide the range, so the cadence is uneven where the field wraps (minutes, hours, months,
//! weekdays; day-of-month restarts on every 1st, whatever the month's length).

use super::common::Fields;
use super::cron_items::{FIELDS, Item, items};
use crate::text::and_list;

pub(super) struct Trap {
    pub message: String,
    pub fix: String,
    pub schedule: Option<String>,
    /// Harmless spelling of the obvious (`0/1` is `*`): said at info level.
    pub info: bool,
}

fn divisors_near(step: u32, range: u32) -> String {
    let d: Vec<u32> = (1..range).filter(|d| range.is_multiple_of(*d)).collect();
    let below = d
        .iter()
        .rev()
        .find(|x| **x < step)
        .map(|x| format!("*/{x}"));
    let above = d.iter().find(|x| **x > step).map(|x| format!("*/{x}"));
    and_list(&[below, above].into_iter().flatten().collect::<Vec<_>>()).replace(" and ", " or ")
}

pub(super) fn step_traps(i: usize, token: &str, f: &Fields, out: &mut Vec<Trap>) {
    let (name, lo, hi) = FIELDS[i];
    let Some(list) = items(i, token) else { return };
    let single = list.len() == 1;
    for (text, it) in token.split(',').filter(|t| !t.is_empty()).zip(&list) {
        let Item {
            start,
            end,
            step: Some(s),
            ..
        } = *it
        else {
            continue;
        };
        if s > 1 && start < end && start.saturating_add(s) > end {
            out.push(Trap {
                message: format!("`{text}` in the {name} field selects only {name} {start}: a step of {s} does not fit in {start}–{end}, so only the start value matches."),
                fix: format!("Write `{start}` to say what it does; a step cannot cross the {name} field's wrap (for a fixed interval, `@every` counts from the CronJob's creation)."),
                schedule: single.then(|| f.with(i, &start.to_string())),
                info: false,
            });
        } else if s == 1 && i < 2 && !text.contains('-') && !it.star {
            let what = if start == lo {
                format!("every {name}, the same as `*`")
            } else {
                format!("every {name} from {start} to {hi}")
            };
            out.push(Trap {
                message: format!("`{text}` in the {name} field means {what} (`a/n` is `a-{hi}/n`), not {name} {start} only."),
                fix: if start == lo {
                    format!("Write `*` if every {name} is intended, or `{start}` for once at {name} {start}.")
                } else {
                    format!("Write `{start}` for once at {name} {start}, or `{start}-{hi}` if every {name} is intended.")
                },
                schedule: None,
                info: start == lo,
            });
        } else if s > 1 && single && end == hi && start - lo < s && i != 2 {
            let range = hi - lo + 1;
            let vals: Vec<u32> = (start..=end).step_by(s as usize).collect();
            let wrap = vals[0] + range - vals[vals.len() - 1];
            if vals.len() > 1 && wrap != s {
                let shown: Vec<String> = vals.iter().map(u32::to_string).collect();
                out.push(Trap {
                    message: format!("`{text}` in the {name} field gives {}, then {} again after {wrap}, not {s}: the step restarts at each wrap, so the runs are uneven.", and_list(&shown), vals[0]),
                    fix: format!("For an even cadence use a step that divides {range}, e.g. {}.", divisors_near(s, range)),
                    schedule: None,
                    info: false,
                });
            }
        } else if s > 1 && single && i == 2 && end == hi && start < s.saturating_add(lo) {
            let vals: Vec<u32> = (start..=end).step_by(s as usize).collect();
            let gaps: Vec<u32> = [28, 29, 30, 31]
                .iter()
                .map(|m| m - vals.iter().rev().find(|v| *v <= m).unwrap_or(&0) + vals[0])
                .collect();
            let (min, max) = (
                gaps.iter().min().copied().unwrap_or(s),
                gaps.iter().max().copied().unwrap_or(s),
            );
            let shown: Vec<String> = vals.iter().map(u32::to_string).collect();
            out.push(Trap {
                message: format!("`{text}` in the day-of-month field runs on days {} of every month: it restarts on the 1st, so the gap across a month end is {min}–{max} days, not {s}.", and_list(&shown)),
                fix: format!("If you need exactly every {s} days, `@every {}h` keeps a fixed interval (counted from the CronJob's creation, not aligned to midnight).", 24 * s),
                schedule: None,
                info: false,
            });
        }
    }
}
