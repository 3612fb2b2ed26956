//! From a parsed YAML document to model objects: dispatch on `kind` (Lists included), typed
//! field reads with the leniency documented in `source`, and field positions.
//!
//! # One reader per kind
//! This module no longer names the fields of a kind: CronJobs, Jobs, Pods and Events are
//! decoded by the `wire` structs the cluster path uses (one struct per kind names each field
//! once), deserialized from the document through `tree_de` (serde over the position tree) and
//! turned into the model by the same `convert` the scan uses. What stays here is what only a
//! file has, keyed by the same paths:
//! - the typed reads with the loader's leniency and diagnostics (`str_value`, `int_value`,
//!   `bool_value`, `time_value`), which `tree_de` calls for each field the wire struct asks;
//! - field positions (`Origin::fields`; `tree_de` records them for every field of a struct it
//!   reads, null or not) and the values of a type the API server rejects;
//! - the `apiVersion` notes, the kinds' dispatch, and the unknown-field Notes at the CronJob
//!   levels (`cron_job_level`, called by `tree_de` as it enters each level; keyed by
//!   Kubernetes' own field lists, which name more than the wire structs read);
//! - who set `spec.suspend` (`read_suspend_managers`, called by `tree_de` when it reaches
//!   `metadata.managedFields`): each entry is read through `wire::ManagedField` and kept by
//!   `convert::suspend_manager`, as the scan reads them; what was reported about an entry that
//!   does not set it is dropped (`drop_since`), so a bad field of another entry is not
//!   reported.
//!
//! Why the fast path and this one can share the structs: the only cost on the scan's side is
//! `wire::lenient` around each field, a no-op unless the error is `tree_de`'s own; the wire
//! structs take their label/annotation filters and a Job's spec as type parameters, so the
//! scan keeps skipping what it skipped. Problems are reported in the wire structs' declaration
//! order (`tree_de` reads a struct in that order), which is the order this reader used to ask
//! in, save a Pod's `spec.nodeName`, which was asked after `status.phase`, `reason` and
//! `message`: `tree_de` holds its diagnostics back until then (`hold_since`). A container
//! state's details are read per state (`wire::State`: a `waiting` state's `exitCode` is not
//! read, nor type-checked), and details that are not a mapping (`waiting: 5`) read as empty
//! without a diagnostic, as this reader always read them.

use jiff::Timestamp;
use serde::Deserialize;

use crate::model::{
    CronJob, Event, FieldManagerEntry, FieldPositions, Job, Origin, Pod, Position, WrongType,
};

use super::filter::{All, NoKeys};
use super::scalar::{Plain, resolve_plain, yaml11_bool};
use super::tree::{N, Shape, Style};
use super::{LoadError, Loaded, Note};
use super::{convert, tree_de, wire};

/// Lists inside lists: deeper than this is not a manifest.
const MAX_LIST_DEPTH: u32 = 4;

/// Reads one YAML document (a root node) into `out`.
pub(crate) fn read_document(file: &str, root: N<'_, '_>, out: &mut Loaded) {
    match root.shape() {
        Shape::Null => {}
        Shape::Map => read_object(file, root, None, 0, out),
        Shape::Seq => {
            // A bare JSON/YAML array of objects: read each like a List item.
            for item in root.items() {
                read_object(file, item, None, 1, out);
            }
        }
        other => out.errors.push(LoadError::new(
            file,
            &root.pos(),
            format!(
                "expected a Kubernetes object (a mapping with `apiVersion` and `kind`), found {}",
                other.describe()
            ),
        )),
    }
}

/// Whether the loader reads objects of this document's kind (CronJob, Job, Pod, Event, Lists).
pub(crate) fn is_read_kind(root: N<'_, '_>) -> bool {
    let kind = plain_text(root.get("kind").map(|(_, v)| v)).unwrap_or("");
    matches!(kind, "CronJob" | "Job" | "Pod" | "Event") || kind.ends_with("List")
}

fn plain_text<'d>(n: Option<N<'d, '_>>) -> Option<&'d str> {
    n.and_then(|n| n.scalar()).map(|(s, _)| s.trim())
}

/// `kind`/`apiVersion` inherited by the items of a typed list (`CronJobList` → `CronJob`).
struct Inherited<'s> {
    kind: &'s str,
    api_version: &'s str,
}

fn read_object(
    file: &str,
    node: N<'_, '_>,
    inherited: Option<&Inherited<'_>>,
    depth: u32,
    out: &mut Loaded,
) {
    if !node.is_map() {
        if !node.is_null() {
            out.errors.push(LoadError::new(
                file,
                &node.pos(),
                format!(
                    "expected a Kubernetes object, found {}",
                    node.shape().describe()
                ),
            ));
        }
        return;
    }
    let kind_node = node.get("kind").map(|(_, v)| v);
    let api_node = node.get("apiVersion").map(|(_, v)| v);
    let kind = plain_text(kind_node)
        .filter(|k| !k.is_empty())
        .or(inherited.map(|i| i.kind))
        .unwrap_or("");
    let api_version = plain_text(api_node)
        .filter(|k| !k.is_empty())
        .or(inherited.map(|i| i.api_version))
        .unwrap_or("");

    if let Some(element) = kind.strip_suffix("List")
        && let Some((_, items)) = node.get("items")
    {
        match element {
            "Job" => out.evidence.jobs = true,
            "Pod" => out.evidence.pods = true,
            "Event" => out.evidence.events = true,
            _ => {}
        }
        if depth >= MAX_LIST_DEPTH {
            return;
        }
        if items.shape() != Shape::Seq && !items.is_null() {
            out.errors.push(LoadError::new(
                file,
                &items.pos(),
                format!(
                    "`items` of a {kind} should be a list, found {}",
                    items.shape().describe()
                ),
            ));
            return;
        }
        let inherit = Inherited {
            kind: element,
            api_version,
        };
        for item in items.items() {
            read_object(
                file,
                item,
                (!element.is_empty()).then_some(&inherit),
                depth + 1,
                out,
            );
        }
        return;
    }

    let mut r = Reader {
        file,
        out,
        fields: FieldPositions::default(),
        record: true,
        wrong_types: Vec::new(),
        suspend_managers: Vec::new(),
        cron_job: false,
        held: (Vec::new(), Vec::new()),
    };
    match kind {
        "CronJob" => {
            let group = api_version.split_once('/').map_or("", |(g, _)| g);
            if group.contains('.') {
                // A custom resource that happens to be called CronJob (kubebuilder's tutorial).
                return;
            }
            let cj = r.cron_job(node, api_version, api_node);
            r.out.cron_jobs.push(cj);
        }
        "Job" => {
            r.out.evidence.jobs = true;
            let job = r.job(node);
            r.out.jobs.push(job);
        }
        "Pod" => {
            r.out.evidence.pods = true;
            r.record = false;
            let pod = r.pod(node);
            r.out.pods.push(pod);
        }
        "Event" => {
            r.out.evidence.events = true;
            r.record = false;
            let ev = r.event(node, api_version);
            r.out.events.push(ev);
        }
        "" => {
            // Not a Kubernetes object (a Helm values file, a kustomization without `kind`)
            // unless it looks like a CronJob someone forgot to label.
            if let Some((_, spec)) = node.get("spec")
                && (spec.get("jobTemplate").is_some() || spec.get("schedule").is_some())
            {
                r.note(
                    &node.pos(),
                    "this looks like a CronJob but has no `kind`; ignored",
                );
            }
        }
        other => {
            for known in ["CronJob", "Job", "Pod", "Event"] {
                if other.eq_ignore_ascii_case(known) {
                    let pos = kind_node.map_or_else(|| node.pos(), |k| k.pos());
                    r.note(
                        &pos,
                        format!("kind `{other}` is not a Kubernetes kind (kinds are case-sensitive: `{known}`); ignored"),
                    );
                }
            }
        }
    }
}

/// How much a [`Reader`] had reported at one point (`Reader::mark`).
#[derive(Clone, Copy)]
pub(super) struct Mark {
    errors: usize,
    notes: usize,
    wrong_types: usize,
}

/// Field reads for one object: typed conversions, diagnostics at the value, and (for objects
/// that carry an [`Origin`]) field positions.
pub(super) struct Reader<'o, 'f> {
    file: &'f str,
    out: &'o mut Loaded,
    pub(super) fields: FieldPositions,
    pub(super) record: bool,
    /// Values of a type the API server rejects, for the object being read (see `Origin`).
    wrong_types: Vec<WrongType>,
    /// What `read_suspend_managers` read, for the object being read.
    suspend_managers: Vec<FieldManagerEntry>,
    /// Reading a CronJob: `cron_job_level` notes unknown fields.
    cron_job: bool,
    /// Errors and notes held back to be reported later in the object (`hold_since`).
    held: (Vec<LoadError>, Vec<Note>),
}

const CRONJOB_TOP: &[&str] = &["apiVersion", "kind", "metadata", "spec", "status"];
const CRONJOB_SPEC: &[&str] = &[
    "schedule",
    "timeZone",
    "startingDeadlineSeconds",
    "concurrencyPolicy",
    "suspend",
    "jobTemplate",
    "successfulJobsHistoryLimit",
    "failedJobsHistoryLimit",
];
const TEMPLATE: &[&str] = &["metadata", "spec"];
const JOB_SPEC: &[&str] = &[
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "podFailurePolicy",
    "successPolicy",
    "backoffLimit",
    "backoffLimitPerIndex",
    "maxFailedIndexes",
    "selector",
    "manualSelector",
    "template",
    "ttlSecondsAfterFinished",
    "completionMode",
    "suspend",
    "podReplacementPolicy",
    "managedBy",
];
/// A few pod-spec fields, to recognise a pod spec written at the wrong level.
const POD_SPEC_HINTS: &[&str] = &[
    "containers",
    "initContainers",
    "restartPolicy",
    "volumes",
    "serviceAccountName",
    "nodeSelector",
    "imagePullSecrets",
    "securityContext",
    "affinity",
    "tolerations",
];

const JT: &str = "spec.jobTemplate";
const JTS: &str = "spec.jobTemplate.spec";
const PT: &str = "spec.jobTemplate.spec.template";
const PTS: &str = "spec.jobTemplate.spec.template.spec";

/// Where a misplaced CronJob field belongs.
fn belongs_under(key: &str, parent: &str) -> Option<String> {
    let home = if CRONJOB_SPEC.contains(&key) {
        "spec"
    } else if JOB_SPEC.contains(&key) {
        JTS
    } else if POD_SPEC_HINTS.contains(&key) {
        PTS
    } else {
        return None;
    };
    (home != parent).then(|| format!("`{key}` belongs under `{home}`"))
}

pub(super) fn field_position(key: N<'_, '_>, value: N<'_, '_>) -> Position {
    let scalar = matches!(value.shape(), Shape::Bool | Shape::Number | Shape::String);
    if scalar && !value.is_block() && value.pos().line == key.pos().line {
        value.pos()
    } else {
        key.pos()
    }
}

fn quote(s: &str) -> String {
    let short: String = s.chars().take(60).collect();
    let ell = if short.len() < s.len() { "…" } else { "" };
    format!("{short:?}{ell}")
}

impl<'d, 'a> Reader<'_, '_> {
    pub(super) fn error(&mut self, pos: &Position, msg: impl Into<String>) {
        self.out.errors.push(LoadError::new(self.file, pos, msg));
    }

    pub(super) fn note(&mut self, pos: &Position, msg: impl Into<String>) {
        self.out.notes.push(Note::new(self.file, pos, msg));
    }

    /// How much was reported so far (for `hold_since` and `drop_since`).
    pub(super) fn mark(&self) -> Mark {
        Mark {
            errors: self.out.errors.len(),
            notes: self.out.notes.len(),
            wrong_types: self.wrong_types.len(),
        }
    }

    /// Holds back the errors and notes reported since `mark` until `release_held` (`tree_de`:
    /// a Pod's `spec.nodeName`, reported in the order the loader has always reported it).
    pub(super) fn hold_since(&mut self, mark: Mark) {
        self.held.0.extend(self.out.errors.drain(mark.errors..));
        self.held.1.extend(self.out.notes.drain(mark.notes..));
    }

    /// Forgets the errors, notes and wrong types reported since `mark` (a `managedFields` entry
    /// that does not set `spec.suspend`: nothing is said about it).
    fn drop_since(&mut self, mark: Mark) {
        self.out.errors.truncate(mark.errors);
        self.out.notes.truncate(mark.notes);
        self.wrong_types.truncate(mark.wrong_types);
    }

    /// Reports what `hold_since` held back, after what was reported since.
    pub(super) fn release_held(&mut self) {
        self.out.errors.append(&mut self.held.0);
        self.out.notes.append(&mut self.held.1);
    }

    /// Remembers a value whose JSON type the API server's decoder rejects (a rule reports it).
    fn wrong_type(&mut self, pos: &Position, path: &str, value: &str, found: &'static str) {
        self.wrong_types.push(WrongType {
            path: path.to_string(),
            value: value.chars().take(200).collect(),
            found,
            position: pos.clone(),
        });
    }

    pub(super) fn str_value(&mut self, v: N<'d, 'a>, path: &str) -> Option<String> {
        let Some((s, style)) = v.scalar() else {
            self.error(
                &v.pos(),
                format!(
                    "`{path}` should be a string, found {}",
                    v.shape().describe()
                ),
            );
            return None;
        };
        if style == Style::Plain {
            match resolve_plain(s) {
                Plain::Null => return None,
                Plain::Str => {}
                Plain::Bool(_) => {
                    self.wrong_type(&v.pos(), path, s, "bool");
                    self.note(
                    &v.pos(),
                    format!("`{path}: {s}` is a boolean in YAML, not a string; the API server rejects it (quote it: \"{s}\")"),
                )
                }
                Plain::Int(_) | Plain::Float(_) => {
                    self.wrong_type(&v.pos(), path, s, "number");
                    self.note(
                    &v.pos(),
                    format!("`{path}: {s}` is a number in YAML, not a string; the API server rejects it (quote it: \"{s}\")"),
                )
                }
            }
        }
        Some(s.to_string())
    }

    pub(super) fn int_value(&mut self, v: N<'d, 'a>, path: &str) -> Option<i64> {
        let Some((s, style)) = v.scalar() else {
            self.error(
                &v.pos(),
                format!(
                    "`{path}` should be an integer, found {}",
                    v.shape().describe()
                ),
            );
            return None;
        };
        let parsed = match style {
            Style::Plain => match resolve_plain(s) {
                Plain::Null => return None,
                Plain::Int(i) => Ok(i),
                Plain::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30 => {
                    Ok(f as i128)
                }
                Plain::Float(_) => Err("not a whole number"),
                Plain::Bool(_) => Err("a boolean"),
                Plain::Str => Err("not a number"),
            },
            Style::Quoted => {
                // Quoted digits are decimal (no YAML 1.1 octal inside quotes).
                let i = s.trim().parse::<i128>().ok();
                match i {
                    Some(i) if i64::try_from(i).is_ok() => {
                        self.wrong_type(&v.pos(), path, s, "string");
                        self.note(
                            &v.pos(),
                            format!("`{path}` is the string {}; read as the integer {i}, but the API server rejects a string here (remove the quotes)", quote(s)),
                        );
                        Ok(i)
                    }
                    _ => Err("a string"),
                }
            }
        };
        match parsed {
            Ok(i) => match i64::try_from(i) {
                Ok(i) => Some(i),
                Err(_) => {
                    self.error(
                        &v.pos(),
                        format!(
                            "`{path}`: {} is out of range for a 64-bit integer",
                            quote(s)
                        ),
                    );
                    None
                }
            },
            Err(what) => {
                self.error(
                    &v.pos(),
                    format!("`{path}` should be an integer, found {} ({what})", quote(s)),
                );
                None
            }
        }
    }

    pub(super) fn bool_value(&mut self, v: N<'d, 'a>, path: &str) -> Option<bool> {
        let Some((s, style)) = v.scalar() else {
            self.error(
                &v.pos(),
                format!(
                    "`{path}` should be true or false, found {}",
                    v.shape().describe()
                ),
            );
            return None;
        };
        match style {
            Style::Plain => match resolve_plain(s) {
                Plain::Null => None,
                Plain::Bool(b) => Some(b),
                _ => {
                    self.error(
                        &v.pos(),
                        format!("`{path}` should be true or false, found {}", quote(s)),
                    );
                    None
                }
            },
            Style::Quoted => match yaml11_bool(s.trim()).or_else(|| {
                let t = s.trim();
                if t.eq_ignore_ascii_case("true") {
                    Some(true)
                } else if t.eq_ignore_ascii_case("false") {
                    Some(false)
                } else {
                    None
                }
            }) {
                Some(b) => {
                    self.wrong_type(&v.pos(), path, s, "string");
                    self.note(
                        &v.pos(),
                        format!("`{path}` is the string {}; read as {b}, but the API server rejects a string here (remove the quotes)", quote(s)),
                    );
                    Some(b)
                }
                None => {
                    self.error(
                        &v.pos(),
                        format!(
                            "`{path}` should be true or false, found the string {}",
                            quote(s)
                        ),
                    );
                    None
                }
            },
        }
    }

    pub(super) fn time_value(&mut self, v: N<'d, 'a>, path: &str) -> Option<Timestamp> {
        let Some((s, _)) = v.scalar() else {
            self.error(
                &v.pos(),
                format!("`{path}` should be a time, found {}", v.shape().describe()),
            );
            return None;
        };
        let s = s.trim();
        match crate::text::parse_time(s) {
            Some(t) => Some(t),
            None => {
                self.error(&v.pos(), format!("`{path}` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found {}", quote(s)));
                None
            }
        }
    }

    /// Notes keys Kubernetes does not know at one level of a CronJob.
    fn unknown_fields(&mut self, node: Option<N<'d, 'a>>, known: &[&str], path: &str) {
        let Some(node) = node else { return };
        for (k, _) in node.entries() {
            let Some((key, _)) = k.scalar() else { continue };
            if known.contains(&key) {
                continue;
            }
            let full = if path.is_empty() {
                key.to_string()
            } else {
                format!("{path}.{key}")
            };
            let hint = if path == JTS && key == "spec" {
                Some(format!(
                    "a pod template needs its own level: `{PT}.spec`, not `{JTS}.spec`"
                ))
            } else {
                belongs_under(key, if path.is_empty() { "" } else { path })
            };
            let msg = match hint {
                Some(h) => format!(
                    "unknown field `{full}`: Kubernetes drops it or, with strict validation, rejects the manifest; {h}"
                ),
                None => format!(
                    "unknown field `{full}`: Kubernetes drops it or, with strict validation, rejects the manifest"
                ),
            };
            self.note(&k.pos(), msg);
        }
    }

    fn origin(&mut self, node: N<'d, 'a>) -> Origin {
        Origin {
            file: self.file.to_string(),
            position: node.pos(),
            fields: {
                let mut f = std::mem::take(&mut self.fields);
                f.shrink_to_fit();
                f
            },
            wrong_types: std::mem::take(&mut self.wrong_types),
        }
    }

    /// Who set `spec.suspend` (`metadata.managedFields`), into `self.suspend_managers`: each
    /// mapping item is read through `wire::ManagedField` (`tree_de`, positions not recorded)
    /// and kept by `convert::suspend_manager`, the cluster path's filter; what was reported
    /// about an entry that does not set `spec.suspend` is dropped. Not through the object's
    /// wire struct (`Managed<NoKeys>` skips the list in manifests): a list that is not one, or
    /// an item that is not a mapping, has never been reported.
    pub(super) fn read_suspend_managers(&mut self, mf: N<'d, 'a>) {
        let mut out = Vec::new();
        let record = std::mem::replace(&mut self.record, false);
        for e in mf.items().filter(N::is_map) {
            let mark = self.mark();
            let entry = wire::ManagedField::deserialize(tree_de::De {
                r: self,
                node: e,
                path: "metadata.managedFields[]".to_string(),
                optional: false,
            });
            match entry.map(convert::suspend_manager) {
                Ok(Some(m)) => out.push(m),
                Ok(None) => self.drop_since(mark),
                // Every optional field is lenient and `e` is a mapping: as in `wire`.
                Err(err) => {
                    self.drop_since(mark);
                    self.error(
                        &e.pos(),
                        format!("internal error reading this object: {err}"),
                    );
                }
            }
        }
        self.record = record;
        self.suspend_managers = out;
    }

    fn cron_job(
        &mut self,
        obj: N<'d, 'a>,
        api_version: &str,
        api_node: Option<N<'d, 'a>>,
    ) -> CronJob {
        let api_pos = api_node.map_or_else(|| obj.pos(), |n| n.pos());
        match api_version {
            "batch/v1" => {}
            "batch/v1beta1" => self.note(
                &api_pos,
                "apiVersion batch/v1beta1 for CronJob was removed in Kubernetes 1.25 (deprecated since 1.21); use batch/v1",
            ),
            "batch/v2alpha1" => self.note(
                &api_pos,
                "apiVersion batch/v2alpha1 for CronJob was an alpha API, removed in Kubernetes 1.21; use batch/v1",
            ),
            "" => self.note(&api_pos, "CronJob without `apiVersion` (the API server rejects it); read as batch/v1"),
            other if other.starts_with("batch/") => self.note(
                &api_pos,
                format!("unknown apiVersion `{other}` for CronJob (served versions: batch/v1); read as batch/v1"),
            ),
            other => self.note(
                &api_pos,
                format!("CronJob is served by apiVersion batch/v1, not `{other}` (the API server rejects this); read as batch/v1"),
            ),
        }
        self.cron_job = true;
        let mut cj = convert::cron_job(self.wire::<wire::CronJob<All, NoKeys>>(obj));
        self.cron_job = false;
        cj.api_version = api_version.to_string();
        cj.meta.suspend_managers = std::mem::take(&mut self.suspend_managers);
        cj.origin = Some(self.origin(obj));
        cj
    }

    /// Notes the keys Kubernetes does not know at the levels of a CronJob that matter (called
    /// by `tree_de` as it starts reading each mapping, with its path).
    pub(super) fn cron_job_level(&mut self, node: N<'d, 'a>, path: &str) {
        if !self.cron_job {
            return;
        }
        let known = match path {
            "" => CRONJOB_TOP,
            "spec" => CRONJOB_SPEC,
            JT | PT => TEMPLATE,
            JTS => JOB_SPEC,
            _ => return,
        };
        self.unknown_fields(Some(node), known, path);
    }

    /// A Job, through the wire struct the scan reads (with the whole spec), and its positions.
    fn job(&mut self, obj: N<'d, 'a>) -> Job {
        let mut job = convert::job(self.wire::<wire::Job<All, All, wire::JobSpec>>(obj));
        job.meta.suspend_managers = std::mem::take(&mut self.suspend_managers);
        job.origin = Some(self.origin(obj));
        job
    }

    /// A Pod, through the wire struct the scan reads (`tree_de`).
    fn pod(&mut self, obj: N<'d, 'a>) -> Pod {
        let mut pod = convert::pod(self.wire::<wire::Pod<All, All>>(obj));
        pod.meta.suspend_managers = std::mem::take(&mut self.suspend_managers);
        pod
    }

    /// Core `v1` Events and `events.k8s.io` Events, through their wire structs (`tree_de`).
    fn event(&mut self, obj: N<'d, 'a>, api_version: &str) -> Event {
        let mut ev = if api_version.starts_with("events.k8s.io/") {
            convert::event_v1(self.wire::<wire::EventV1<All, All>>(obj))
        } else {
            convert::event(self.wire::<wire::Event<All, All>>(obj))
        };
        ev.meta.suspend_managers = std::mem::take(&mut self.suspend_managers);
        ev
    }

    /// `obj` deserialized into a wire struct, with the loader's leniency and diagnostics.
    fn wire<W: serde::de::DeserializeOwned + Default>(&mut self, obj: N<'d, 'a>) -> W {
        let de = tree_de::De {
            r: self,
            node: obj,
            path: String::new(),
            optional: false,
        };
        // Every field is read leniently and `obj` is a mapping: an error here is a wire struct
        // asking for something `tree_de` does not read.
        let w = W::deserialize(de).unwrap_or_else(|e| {
            self.error(
                &obj.pos(),
                format!("internal error reading this object: {e}"),
            );
            W::default()
        });
        self.release_held();
        w
    }
}
