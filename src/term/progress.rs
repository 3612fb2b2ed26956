//! The progress display of a long scan: a spinner with live counts of what was listed and
//! diagnosed (both run at once). Only on a terminal's stderr, only after a short delay (quick
//! scans never flash one), and never mixed into stdout.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cluster::progress::Progress;

/// How long to wait before showing a progress display: quick scans never flash one.
pub const PROGRESS_DELAY: Duration = Duration::from_millis(400);

/// What the listing counted so far: `listed 1,000 CronJobs · 20,000 Jobs · …`.
pub fn listed(p: &Progress) -> String {
    let n = |a: &AtomicUsize| thousands(a.load(Ordering::Relaxed));
    format!(
        "listed {} CronJobs · {} Jobs · {} Pods · {} Events",
        n(&p.cron_jobs),
        n(&p.jobs),
        n(&p.pods),
        n(&p.events)
    )
}

/// The line to show right now.
pub type Status = dyn Fn() -> String + Send + Sync;

pub struct Display {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Display {
    /// Start the display if `wanted` and stderr is a terminal; otherwise a no-op.
    pub fn start(wanted: bool, delay: Duration, status: Arc<Status>) -> Display {
        let stop = Arc::new(AtomicBool::new(false));
        if !wanted || !std::io::stderr().is_terminal() {
            return Display { stop, thread: None };
        }
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            while started.elapsed() < delay {
                if flag.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            while !flag.load(Ordering::Relaxed) {
                pb.set_message(status());
                pb.tick();
                std::thread::sleep(Duration::from_millis(100));
            }
            pb.finish_and_clear();
        });
        Display {
            stop,
            thread: Some(thread),
        }
    }

    /// Remove the display (before anything is printed to stdout or stderr).
    pub fn finish(self) {
        drop(self);
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `12,345`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_separators() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
        assert_eq!(super::thousands(1234567), "1,234,567");
    }
}
