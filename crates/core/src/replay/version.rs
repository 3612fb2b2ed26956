//! Which Kubernetes release's CronJob controller to replay, and every behaviour that differs
//! between releases.
//!
//! The replay keys everything off the *minor* version. Patch versions are parsed and kept for
//! display only; see [`KubeVersion::variant`] for why (the #118724/#121327 backports).

use std::fmt;
use std::str::FromStr;

/// A Kubernetes version as given to `--kube-version` (`1.31`, `v1.27.3`, `v1.28.2-gke.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: Option<u32>,
}

/// The controller implementations whose scheduling arithmetic differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ControllerVariant {
    /// ≤1.20: the 10-second polling controller (`getRecentUnmetScheduleTimes`, hard stop after
    /// 100 unmet times, job names in unix seconds).
    V1Legacy,
    /// 1.21–1.24: v2 with linear extrapolation (returned in UTC) and requeue `Next(now)`.
    V2_1_21To1_24,
    /// 1.25–1.27: linear extrapolation, requeue from `lastScheduleTime` (#109250).
    V2_1_25To1_27,
    /// 1.28: window iteration (#118724/#118940), requeue `recent ?? earliest` (hot loop).
    V2_1_28,
    /// 1.29+: window iteration with the none/few/many requeue fix (#121327).
    V2_1_29Plus,
}

impl ControllerVariant {
    pub const ALL: [ControllerVariant; 5] = [
        Self::V1Legacy,
        Self::V2_1_21To1_24,
        Self::V2_1_25To1_27,
        Self::V2_1_28,
        Self::V2_1_29Plus,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::V1Legacy => "v1-legacy",
            Self::V2_1_21To1_24 => "v2-1.21-1.24",
            Self::V2_1_25To1_27 => "v2-1.25-1.27",
            Self::V2_1_28 => "v2-1.28",
            Self::V2_1_29Plus => "v2-1.29+",
        }
    }

    /// A version that replays as this variant (used when only a variant is known).
    pub fn representative_version(self) -> KubeVersion {
        let minor = match self {
            Self::V1Legacy => 20,
            Self::V2_1_21To1_24 => 24,
            Self::V2_1_25To1_27 => 27,
            Self::V2_1_28 => 28,
            Self::V2_1_29Plus => KubeVersion::NEWEST.minor,
        };
        KubeVersion {
            major: 1,
            minor,
            patch: None,
        }
    }
}

impl fmt::Display for ControllerVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ControllerVariant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// State of the `spec.timeZone` field in a release (KEP-3140).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeZoneSupport {
    /// ≤1.23: the field does not exist; the API server drops it.
    Absent,
    /// 1.24: alpha, `CronJobTimeZone` gate off by default (we assume the default).
    AlphaOffByDefault,
    /// 1.25–1.26: beta, gate on by default.
    Beta,
    /// ≥1.27: GA.
    Ga,
}

impl TimeZoneSupport {
    /// Whether the controller honours `spec.timeZone` with default feature gates.
    pub fn enabled_by_default(self) -> bool {
        matches!(self, Self::Beta | Self::Ga)
    }
}

/// When the `UnsupportedSchedule` warning (schedule contains "TZ") is emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnsupportedScheduleEvent {
    /// ≤1.22: never.
    Never,
    /// 1.23 (#106455): after a successful parse, before the due-time computation.
    AfterParse,
    /// ≥1.24: inside `formatSchedule`, i.e. before the parse (so also on parse failure).
    BeforeParse,
}

/// The `SawCompletedJob` message format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SawCompletedText {
    /// v1: `Saw completed job: <name>`.
    NameOnly,
    /// 1.21–1.30: `Saw completed job: <name>, status: <Complete|Failed>`.
    Status,
    /// ≥1.31: `Saw completed job: <name>, condition: <Complete|Failed>`.
    Condition,
}

/// How `status.lastSuccessfulTime` is maintained during reconciliation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastSuccessfulRule {
    /// v1 and 1.21: not maintained.
    NotTracked,
    /// 1.22–1.29 (#102642): any finished job that is *not* in active (Failed included).
    FinishedOutsideActive,
    /// 1.30 (#123380): only Complete jobs, still only those not in active.
    SucceededOutsideActive,
    /// ≥1.31 (#122025): Complete jobs, including the one removed from active in this pass.
    SucceededSamePass,
}

/// Every release-dependent behaviour the replay models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Features {
    pub variant: ControllerVariant,
    pub time_zone: TimeZoneSupport,
    pub unsupported_schedule_event: UnsupportedScheduleEvent,
    /// `batch.kubernetes.io/cronjob-scheduled-timestamp` on created jobs (beta on from 1.28).
    pub scheduled_timestamp_annotation: bool,
    /// AlreadyExists on create adopts a job we control: written in 1.29 (#120649), but the GET
    /// of the existing job was sent without a namespace and failed until 1.37 (#136920), so
    /// adoption works from 1.37 only.
    pub adopt_existing_job: bool,
    /// 1.29–1.36: on AlreadyExists the controller GETs the existing job with the job
    /// template's empty namespace; the GET fails and the sync returns that error (#136918).
    pub already_exists_get_fails: bool,
    /// 1.37 (#133313): a job belongs to the CronJob only when its controller reference names
    /// a CronJob of this name *and UID*; before, the name alone decided (v2).
    pub jobs_matched_by_uid: bool,
    /// A schedule that makes robfig panic (`TZ=UTC` with nothing after it) is parsed under a
    /// `recover` (#134526, `ParseCronScheduleWithPanicRecovery`): the API server refuses it
    /// (422) and the controller records `UnparseableSchedule` with "invalid schedule format: …".
    /// Verified in 1.36; 1.35 is not (the PR has no release note), so it keeps the panic.
    pub schedule_panic_recovered: bool,
    /// The Job controller adds `Failed` / `Complete` only once every Pod is terminal, after
    /// `FailureTarget` / `SuccessCriteriaMet` (#125510, 1.31; always on from 1.34). Before, a
    /// Job past its deadline or backoff limit was Failed at once.
    pub terminal_condition_waits_for_pods: bool,
    /// `spec.managedBy` in a job template is kept by the API server (JobManagedBy beta, on by
    /// default, 1.32; GA 1.35). With the gate off it is dropped on create.
    pub job_managed_by_honoured: bool,
    /// The Job controller clears `status.startTime` of a suspended Job
    /// (MutableSchedulingDirectivesForSuspendedJobs, #135104: alpha 1.35, on by default 1.36).
    pub suspended_job_start_time_cleared: bool,
    /// History cleanup runs before `syncCronJob` (combined status write); before 1.29 it ran
    /// after, and only when the sync returned no error.
    pub cleanup_before_sync: bool,
    /// Status is written on every sync (v1, 1.21–1.23) rather than only when something changed.
    pub status_always_written: bool,
    pub saw_completed: SawCompletedText,
    pub last_successful: LastSuccessfulRule,
    /// `TooManyMissedTimes` carries the estimated count (≤1.27).
    pub too_many_missed_with_count: bool,
    /// The gap error reads `… is less than 1 second` (≥1.25) rather than `… less than 1 second`.
    pub gap_error_has_is: bool,
    /// Creating a CronJob with `TZ`/`CRON_TZ` in the schedule is rejected (#116252, 1.29).
    pub tz_in_schedule_rejected_on_create: bool,
}

impl KubeVersion {
    /// The newest release whose controller we model. Newer minors replay with its rules and
    /// say so ([`KubeVersion::beyond_modelled_note`]).
    pub const NEWEST: KubeVersion = KubeVersion {
        major: 1,
        minor: 37,
        patch: None,
    };

    /// Whether this release is newer than [`KubeVersion::NEWEST`]: its controller may do
    /// things we do not model, and the newest modelled rules are replayed instead.
    pub fn beyond_modelled(self) -> bool {
        self.minor > Self::NEWEST.minor
    }

    /// The one-line note for a release newer than the newest modelled one (None otherwise).
    pub fn beyond_modelled_note(self) -> Option<String> {
        self.beyond_modelled().then(|| {
            format!(
                "Kubernetes v{self} is newer than the newest release this tool models (v{newest}): the v{newest} controller's rules are replayed, and a change in v{self} would not be seen",
                newest = Self::NEWEST
            )
        })
    }

    /// The release whose rules are replayed: this one, or the newest modelled one for a
    /// newer release.
    pub fn rules(self) -> KubeVersion {
        if self.beyond_modelled() {
            Self::NEWEST
        } else {
            self
        }
    }

    pub fn new(minor: u32) -> KubeVersion {
        KubeVersion {
            major: 1,
            minor,
            patch: None,
        }
    }

    /// Minor-only mapping. The #118724/#118940 fix was cherry-picked to 1.25–1.27
    /// (#119137–#119139, July 2023) and #121327 to 1.26–1.28 (#121536/#121537/#121540, Oct 2023),
    /// but we could not verify which patch releases first shipped them, so a patch number never
    /// changes the variant: `1.27.9` replays as 1.27.0 did. Callers who know their patch release
    /// carries the backports can replay with a newer variant's representative version.
    pub fn variant(self) -> ControllerVariant {
        match self.minor {
            0..=20 => ControllerVariant::V1Legacy,
            21..=24 => ControllerVariant::V2_1_21To1_24,
            25..=27 => ControllerVariant::V2_1_25To1_27,
            28 => ControllerVariant::V2_1_28,
            _ => ControllerVariant::V2_1_29Plus,
        }
    }

    pub fn features(self) -> Features {
        let m = self.minor;
        let variant = self.variant();
        let v1 = variant == ControllerVariant::V1Legacy;
        Features {
            variant,
            time_zone: match m {
                0..=23 => TimeZoneSupport::Absent,
                24 => TimeZoneSupport::AlphaOffByDefault,
                25..=26 => TimeZoneSupport::Beta,
                _ => TimeZoneSupport::Ga,
            },
            unsupported_schedule_event: match m {
                0..=22 => UnsupportedScheduleEvent::Never,
                23 => UnsupportedScheduleEvent::AfterParse,
                _ => UnsupportedScheduleEvent::BeforeParse,
            },
            scheduled_timestamp_annotation: m >= 28,
            adopt_existing_job: m >= 37,
            already_exists_get_fails: (29..=36).contains(&m),
            jobs_matched_by_uid: m >= 37,
            schedule_panic_recovered: m >= 36,
            terminal_condition_waits_for_pods: m >= 31,
            job_managed_by_honoured: m >= 32,
            suspended_job_start_time_cleared: m >= 36,
            cleanup_before_sync: m >= 29,
            status_always_written: m <= 23,
            saw_completed: if v1 {
                SawCompletedText::NameOnly
            } else if m <= 30 {
                SawCompletedText::Status
            } else {
                SawCompletedText::Condition
            },
            last_successful: match m {
                0..=21 => LastSuccessfulRule::NotTracked,
                22..=29 => LastSuccessfulRule::FinishedOutsideActive,
                30 => LastSuccessfulRule::SucceededOutsideActive,
                _ => LastSuccessfulRule::SucceededSamePass,
            },
            too_many_missed_with_count: m <= 27,
            gap_error_has_is: m >= 25,
            tz_in_schedule_rejected_on_create: m >= 29,
        }
    }
}

impl Default for KubeVersion {
    fn default() -> Self {
        Self::NEWEST
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(p) => write!(f, "{}.{}.{}", self.major, self.minor, p),
            None => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

impl serde::Serialize for KubeVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why a `--kube-version` (or controller variant) string was rejected; `given` as typed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionParseError {
    #[error("invalid Kubernetes version {given:?}: expected e.g. 1.31 or v1.27.3")]
    Invalid { given: String },
    #[error("unsupported Kubernetes major version {major} in {given:?}: only 1.x is modelled")]
    UnsupportedMajor { major: u32, given: String },
    #[error("unknown controller variant {given:?}")]
    UnknownVariant { given: String },
}

impl FromStr for KubeVersion {
    type Err = VersionParseError;

    /// Accepts `1.31`, `v1.27.3`, `1.28.2-gke.1157000`, `v1.30.1+k3s1`. Vendor suffixes after
    /// `-` or `+` are ignored: distributions ship the upstream controller for that release.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || VersionParseError::Invalid {
            given: s.to_string(),
        };
        let t = s.trim();
        let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
        let core = t.split(['-', '+']).next().unwrap_or("");
        let mut parts = core.split('.');
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let patch = match parts.next() {
            None => None,
            Some(p) => Some(p.parse::<u32>().map_err(|_| bad())?),
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        if major != 1 {
            return Err(VersionParseError::UnsupportedMajor {
                major,
                given: s.to_string(),
            });
        }
        Ok(KubeVersion {
            major,
            minor,
            patch,
        })
    }
}

impl FromStr for ControllerVariant {
    type Err = VersionParseError;

    /// Accepts the variant names (`v2-1.28`, …) as printed by [`ControllerVariant::as_str`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| VersionParseError::UnknownVariant {
                given: s.to_string(),
            })
    }
}
