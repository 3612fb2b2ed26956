//! What each Warning event reason of the CronJob and Job controllers means for a CronJob, in a
//! few words (B.10 of the semantics reference), for the controller-warnings rule's evidence.

/// What a reason means for this CronJob, in a few words.
pub fn meaning(reason: &str, on_job: bool) -> &'static str {
    match (reason, on_job) {
        ("FailedCreate", true) => {
            "the Job controller could not create Pods (quota, PodSecurity, webhook): the Job stays active without running"
        }
        ("FailedCreate", false) => {
            "the Job could not be created; the controller retries with back-off and lastScheduleTime does not advance"
        }
        ("UnexpectedJob", _) => {
            "a Job this CronJob controls is running but not in status.active: Forbid does not count it and Replace does not delete it"
        }
        ("FailedDelete", _) => {
            "Replace or the history limits could not delete a Job; a Replace sync stops there without creating the new Job"
        }
        ("FailedGet", _) => {
            "Replace could not read an active Job, so the sync stopped without creating the new Job"
        }
        ("UnknownTimeZone", _) => {
            "the controller cannot load spec.timeZone: it creates no Job and does not requeue"
        }
        ("UnparseableSchedule" | "UnParseableCronJobSchedule", _) => {
            "the controller cannot parse the schedule: no Job"
        }
        ("InvalidSchedule", _) => {
            "the schedule has no next run within the controller's limits: no Job"
        }
        ("UnsupportedSchedule", _) => {
            "TZ/CRON_TZ in the schedule: evaluated in that zone but unsupported; use spec.timeZone"
        }
        ("TooManyMissedTimes", _) => {
            "more than 100 missed start times were counted; only the latest slot ran"
        }
        ("FailedNeedsStart", _) => {
            "the (≤1.20) controller could not decide what to start and created no Job"
        }
        ("MissSchedule", _) => "a slot was missed past startingDeadlineSeconds",
        _ => "see the message",
    }
}
