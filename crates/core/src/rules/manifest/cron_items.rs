//! The items of one schedule field as written (`*/5`, `1-10/2`, `MON`), for rules that need
//! what the person typed rather than robfig's bit sets: which items have steps, where a step
//! starts and ends, which values a field selects.

use schedule::{DAY_NAMES, MONTH_NAMES};

/// Bounds of the five fields, in order, with their names.
pub(super) const FIELDS: [(&str, u32, u32); 5] = [
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day-of-month", 1, 31),
    ("month", 1, 12),
    ("day-of-week", 0, 6),
];

/// One comma-separated item: `start-end/step` resolved as robfig does (`*` → full range,
/// `a/n` → `a-hi/n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Item {
    pub start: u32,
    pub end: u32,
    pub step: Option<u32>,
    /// Written as `*` or `?`.
    pub star: bool,
}

fn value(field: usize, t: &str) -> Option<u32> {
    let lower = t.to_ascii_lowercase();
    let named = match field {
        3 => MONTH_NAMES
            .iter()
            .position(|m| *m == lower)
            .map(|i| i as u32 + 1),
        4 => DAY_NAMES.iter().position(|d| *d == lower).map(|i| i as u32),
        _ => None,
    };
    named.or_else(|| t.trim_start_matches('+').parse().ok())
}

/// The items of field `field` (0 = minute … 4 = day-of-week); None if any item is unusual.
pub(super) fn items(field: usize, token: &str) -> Option<Vec<Item>> {
    let (_, lo, hi) = FIELDS[field];
    token
        .split(',')
        .filter(|i| !i.is_empty())
        .map(|item| {
            let (range, step) = match item.split_once('/') {
                Some((r, s)) => (r, Some(s.parse::<u32>().ok()?)),
                None => (item, None),
            };
            let (start, end, star) = if range == "*" || range == "?" || range.starts_with("*-") {
                (lo, hi, true)
            } else if let Some((a, b)) = range.split_once('-') {
                (value(field, a)?, value(field, b)?, false)
            } else {
                let a = value(field, range)?;
                (a, if step.is_some() { hi } else { a }, false)
            };
            Some(Item {
                start,
                end,
                step,
                star,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_resolve_like_robfig() {
        assert_eq!(
            items(0, "*/60").unwrap(),
            [Item {
                start: 0,
                end: 59,
                step: Some(60),
                star: true
            }]
        );
        assert_eq!(
            items(0, "30/1").unwrap(),
            [Item {
                start: 30,
                end: 59,
                step: Some(1),
                star: false
            }]
        );
        assert_eq!(
            items(4, "MON-fri").unwrap(),
            [Item {
                start: 1,
                end: 5,
                step: None,
                star: false
            }]
        );
        assert_eq!(items(1, "1,,2").unwrap().len(), 2);
        assert!(items(0, "L").is_none());
    }
}
