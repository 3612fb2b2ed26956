//! What a scan has listed so far, counted as pages arrive, for the progress display
//! (`term::progress` draws it).

use std::sync::atomic::AtomicUsize;

/// Raw items received so far per resource, for the progress display.
#[derive(Default)]
pub struct Progress {
    pub cron_jobs: AtomicUsize,
    pub jobs: AtomicUsize,
    pub pods: AtomicUsize,
    pub events: AtomicUsize,
}
