//! One timer per CronJob: the instant (server clock) it is looked at again without a cluster
//! event. Setting a CronJob's timer replaces its previous one, so there is never more than
//! one per CronJob and an idle monitor wakes only when some slot comes due.

use std::collections::{BTreeSet, HashMap};

use jiff::Timestamp;

use super::store::Key;

#[derive(Default)]
pub struct Timers {
    by_due: BTreeSet<(Timestamp, Key)>,
    due_of: HashMap<Key, Timestamp>,
}

impl Timers {
    /// Set (or clear, with None) the timer of `key`.
    pub fn set(&mut self, key: &Key, due: Option<Timestamp>) {
        if let Some(old) = self.due_of.remove(key) {
            self.by_due.remove(&(old, key.clone()));
        }
        if let Some(t) = due {
            self.due_of.insert(key.clone(), t);
            self.by_due.insert((t, key.clone()));
        }
    }

    /// The earliest timer, if any.
    pub fn next(&self) -> Option<Timestamp> {
        self.by_due.first().map(|(t, _)| *t)
    }

    /// Remove and return every timer due at or before `now`.
    pub fn pop_due(&mut self, now: Timestamp) -> Vec<Key> {
        let mut out = Vec::new();
        while let Some((t, _)) = self.by_due.first() {
            if *t > now {
                break;
            }
            if let Some((_, k)) = self.by_due.pop_first() {
                self.due_of.remove(&k);
                out.push(k);
            }
        }
        out
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.due_of.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(n: &str) -> Key {
        ("ns".into(), n.into())
    }

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn one_timer_per_cron_job_fired_in_order() {
        let mut timers = Timers::default();
        timers.set(&k("a"), Some(t("2026-01-01T00:05:00Z")));
        timers.set(&k("b"), Some(t("2026-01-01T00:02:00Z")));
        // Re-arming replaces: `a` now fires at 00:01 only.
        timers.set(&k("a"), Some(t("2026-01-01T00:01:00Z")));
        assert_eq!(timers.len(), 2);
        assert_eq!(timers.next(), Some(t("2026-01-01T00:01:00Z")));
        assert!(timers.pop_due(t("2026-01-01T00:00:59Z")).is_empty());
        assert_eq!(
            timers.pop_due(t("2026-01-01T00:02:00Z")),
            vec![k("a"), k("b")]
        );
        assert_eq!(timers.next(), None);
        assert!(timers.pop_due(t("2026-01-01T00:10:00Z")).is_empty());
    }

    #[test]
    fn clearing_a_timer_removes_it() {
        let mut timers = Timers::default();
        timers.set(&k("a"), Some(t("2026-01-01T00:05:00Z")));
        timers.set(&k("a"), None);
        assert_eq!(timers.next(), None);
        assert_eq!(timers.len(), 0);
    }
}
