//! Reading manifests: text in, model objects and positioned diagnostics out. No IO here (the
//! binary's `input` module reads files and stdin and calls [`parse_bytes`] / [`parse_text`]).
//!
//! What is accepted:
//! - YAML streams of any number of documents (`---`, `...`, comments, directives, CRLF line
//!   endings, a UTF-8 byte-order mark, no final newline), JSON (one value, `kubectl get -o json`
//!   output, or several concatenated values as `jq` prints them);
//! - `kind: List` and every `…List` kind (`CronJobList`, `JobList`, `PodList`, `EventList`, …)
//!   with `items`; items of a typed list may omit `kind`/`apiVersion`;
//! - CronJobs (`batch/v1`, `batch/v1beta1`, `batch/v2alpha1`), Jobs, Pods, core `v1` Events and
//!   `events.k8s.io` Events (`regarding`, `note`, `series.count`/`deprecatedCount`,
//!   `eventTime`/`deprecated*Timestamp` map onto the core names; `count` is 1 when no count is
//!   given). Other kinds are ignored silently, except for two Notes: a mapping with no `kind`
//!   that looks like a CronJob, and a kind that differs from ours only by case (`Cronjob`).
//!   A `CronJob` of a custom API group (`batch.tutorial.kubebuilder.io/v1`) is not ours.
//!
//! Errors never stop the other documents: the text is split into documents first (see
//! `split`), each is parsed on its own, and a structurally broken object is still loaded as far
//! as it can be read.
//!
//! # Positions
//! Lines and columns are 1-based; columns count characters (not bytes), a tab counting as one.
//! [`crate::model::Origin::fields`] maps dotted paths (`spec.schedule`,
//! `spec.jobTemplate.spec.template.spec.containers.0.image`) to:
//! - the first character of the **value** (its opening quote, if quoted) when the value is a
//!   non-null scalar, so a finding about a schedule can point into the schedule;
//! - the **key** when the value is a mapping, a list, null/empty, or starts on a later line
//!   (block scalars), since that is where a reader looks for it.
//!
//! [`crate::model::Origin::position`] is where the object starts: its first key in block YAML,
//! its opening `{` in JSON and flow YAML; for a List item, the item.
//!
//! # Leniency (what a typed field accepts)
//! - Plain scalars are typed like `kubectl` types them (go-yaml v2, YAML 1.1): `False`, `yes`,
//!   `On` are booleans, `0755` is octal, `1_000` is an integer, an integral float (`3.0`,
//!   `1e3`) is accepted as an integer. Such values load silently.
//! - A quoted value of the right shape in a boolean or integer field (`"3"`, `"true"`) is
//!   accepted for its evident meaning, with a [`Note`] saying the API server rejects strings
//!   there. A number or boolean where a string belongs (`name: 123`, an annotation `true`) is
//!   read as its text, with a [`Note`] to quote it.
//! - Anything else of the wrong type (`startingDeadlineSeconds: soon`, `suspend: maybe`,
//!   `spec: "x"`, an integer beyond 64 bits) is a [`LoadError`] at that value; the field stays
//!   absent (None / default) and the rest of the object loads.
//! - Unknown `concurrencyPolicy` values are kept as `ConcurrencyPolicy::Other`.
//! - Fields Kubernetes does not know, at the CronJob levels that matter (`spec`, `jobTemplate`,
//!   its `spec` and pod `template`), produce a [`Note`] (with a hint when the key belongs at
//!   another level, e.g. a pod template written without its `template:` key), since no rule
//!   could see a field the model does not keep.
//! - A key written twice in one mapping: the last value wins, with a [`Note`].
//! - `{{ … }}` Helm templates are reported once per file as a [`LoadError`] (the document is
//!   not loaded): template actions on their own line or as unquoted values, and Helm-only
//!   expressions (`.Values`, `include`, `toYaml`, …) inside strings of the kinds we read.
//!   `{{range …}}` go-templates inside command strings, templates for other tools in a
//!   ConfigMap, and `${VAR}` placeholders are ordinary strings.
//!
//! # Resource limits
//! Memory is linear in the input: aliases share their anchored node instead of copying it, so
//! an alias bomb costs what its text costs; merge-key (`<<`) lookups are budgeted; nesting is
//! capped by the parser (256 levels); nothing recurses over the document. Documents are parsed
//! one at a time.

pub mod convert;
mod filter;
mod manifest;
mod scalar;
pub(crate) mod split;
pub(crate) mod tree;
mod tree_de;
pub mod wire;

use std::fmt;

use crate::model::{CronJob, Event, Evidence, Job, Pod, Position, Snapshot};

/// A problem that kept part of the input from being read, e.g.
/// `deploy/x.yaml:12:3: invalid YAML: mapping values are not allowed in this context`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    /// 1-based; 0 when the problem concerns the whole file (unreadable, not UTF-8 at all).
    pub line: u32,
    /// 1-based character column; 0 when unknown.
    pub column: u32,
    pub message: String,
}

/// Something read with a caveat (a removed API version, a quoted number, an unknown field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub file: String,
    /// 1-based; 0 when the note concerns the whole file.
    pub line: u32,
    /// 1-based character column; 0 when unknown.
    pub column: u32,
    pub message: String,
}

fn write_located(
    f: &mut fmt::Formatter<'_>,
    file: &str,
    line: u32,
    column: u32,
    message: &str,
) -> fmt::Result {
    match (line, column) {
        (0, _) => write!(f, "{file}: {message}"),
        (l, 0) => write!(f, "{file}:{l}: {message}"),
        (l, c) => write!(f, "{file}:{l}:{c}: {message}"),
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, &self.file, self.line, self.column, &self.message)
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, &self.file, self.line, self.column, &self.message)
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    pub fn new(file: &str, pos: &Position, message: impl Into<String>) -> Self {
        LoadError {
            file: file.to_string(),
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }
    /// An error about a whole file (no position), e.g. an unreadable path.
    pub fn whole_file(file: &str, message: impl Into<String>) -> Self {
        LoadError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }
}

impl Note {
    pub fn new(file: &str, pos: &Position, message: impl Into<String>) -> Self {
        Note {
            file: file.to_string(),
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }
    pub fn whole_file(file: &str, message: impl Into<String>) -> Self {
        Note {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }
}

/// Everything read from one or more inputs, in input order.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub cron_jobs: Vec<CronJob>,
    pub jobs: Vec<Job>,
    pub pods: Vec<Pod>,
    pub events: Vec<Event>,
    /// Which kinds of evidence the input contained at all: a Job/Pod/Event, or a (possibly
    /// empty) `JobList`/`PodList`/`EventList`. An empty `JobList` is evidence of no Jobs.
    pub evidence: Evidence,
    pub errors: Vec<LoadError>,
    pub notes: Vec<Note>,
}

/// `to.extend(from)`, but a move when `to` is empty.
fn append<T>(to: &mut Vec<T>, mut from: Vec<T>) {
    if to.is_empty() {
        std::mem::swap(to, &mut from);
    } else {
        to.append(&mut from);
    }
}

impl Loaded {
    /// Appends `other` (objects, diagnostics) after `self`'s.
    pub fn extend(&mut self, other: Loaded) {
        // Moving a list into an empty one instead of copying it: with one big file, copying
        // held every object twice at the peak (BENCHMARKS.md, "Big inputs: peak memory").
        append(&mut self.cron_jobs, other.cron_jobs);
        append(&mut self.jobs, other.jobs);
        append(&mut self.pods, other.pods);
        append(&mut self.events, other.events);
        self.evidence.jobs |= other.evidence.jobs;
        self.evidence.pods |= other.evidence.pods;
        self.evidence.events |= other.evidence.events;
        self.errors.extend(other.errors);
        self.notes.extend(other.notes);
    }

    /// The snapshot (notes rendered as `file:line:col: message`) and the load errors, which
    /// the caller reports (they are not part of a snapshot).
    pub fn into_snapshot(mut self) -> (Snapshot, Vec<LoadError>) {
        // The lists grew by doubling; the report is built next to them, so give back the slack.
        self.cron_jobs.shrink_to_fit();
        self.jobs.shrink_to_fit();
        self.pods.shrink_to_fit();
        self.events.shrink_to_fit();
        let snapshot = Snapshot {
            cron_jobs: self.cron_jobs,
            jobs: self.jobs,
            pods: self.pods,
            events: self.events,
            evidence: self.evidence,
            notes: self.notes.iter().map(ToString::to_string).collect(),
        };
        (snapshot, self.errors)
    }
}

/// Reads one input given as bytes: strips a UTF-8 byte-order mark, decodes UTF-16 (with a BOM)
/// and reports other non-UTF-8 input as a positioned [`LoadError`].
pub fn parse_bytes(file_name: &str, bytes: &[u8]) -> Loaded {
    if let Some(text) = decode_utf16(bytes) {
        return parse_text(file_name, &text);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_text(file_name, text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            // Safe: `good` is valid UTF-8 by construction.
            let good = std::str::from_utf8(good).unwrap_or("");
            let line = good.matches('\n').count() as u32 + 1;
            let column = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
            let mut loaded = Loaded::default();
            loaded.errors.push(LoadError {
                file: file_name.to_string(),
                line,
                column,
                message: "not UTF-8 text (save the file as UTF-8)".to_string(),
            });
            loaded
        }
    }
}

fn decode_utf16(bytes: &[u8]) -> Option<String> {
    let (le, body) = match bytes {
        [0xFF, 0xFE, rest @ ..] => (true, rest),
        [0xFE, 0xFF, rest @ ..] => (false, rest),
        _ => return None,
    };
    let units = body.chunks(2).map(|c| {
        let pair = [c[0], c.get(1).copied().unwrap_or(0)];
        if le {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    Some(
        char::decode_utf16(units)
            .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect(),
    )
}

/// Reads one input given as text. `file_name` is only used in positions and messages.
/// Never panics; every problem becomes a [`LoadError`] or a [`Note`].
pub fn parse_text(file_name: &str, text: &str) -> Loaded {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut loaded = Loaded::default();
    let mut helm_reported = false;
    for chunk in split::split_documents(text) {
        let parsed = tree::parse_chunk(&chunk);
        if let Some(err) = parsed.error {
            // Several JSON values back to back (`jq` output) are not one YAML document.
            if let Some(values) = split::split_json_values(&chunk) {
                for value in values {
                    read_chunk(file_name, &value, &mut loaded, &mut helm_reported);
                }
                continue;
            }
            for doc in &parsed.docs {
                read_doc(file_name, &chunk, doc, &mut loaded, &mut helm_reported);
            }
            match helm_marker(&chunk) {
                Some(pos) => report_helm(file_name, &pos, &mut loaded, &mut helm_reported),
                None => loaded.errors.push(LoadError::new(
                    file_name,
                    &err.pos,
                    format!("invalid YAML: {}", err.message),
                )),
            }
            continue;
        }
        for doc in &parsed.docs {
            read_doc(file_name, &chunk, doc, &mut loaded, &mut helm_reported);
        }
    }
    loaded
}

fn read_chunk(file: &str, chunk: &split::Chunk<'_>, loaded: &mut Loaded, helm: &mut bool) {
    let parsed = tree::parse_chunk(chunk);
    for doc in &parsed.docs {
        read_doc(file, chunk, doc, loaded, helm);
    }
    if let Some(err) = parsed.error {
        loaded.errors.push(LoadError::new(
            file,
            &err.pos,
            format!("invalid YAML: {}", err.message),
        ));
    }
}

fn read_doc(
    file: &str,
    chunk: &split::Chunk<'_>,
    doc: &tree::Doc<'_>,
    loaded: &mut Loaded,
    helm: &mut bool,
) {
    if doc.complex_key
        && let Some(pos) = helm_marker(chunk)
    {
        report_helm(file, &pos, loaded, helm);
        return;
    }
    // A Helm expression inside a string only matters in an object we read (a ConfigMap may
    // legitimately carry templates for another tool).
    if let Some(pos) = &doc.helm_scalar
        && manifest::is_read_kind(doc.root())
    {
        report_helm(file, pos, loaded, helm);
        return;
    }
    for d in &doc.duplicates {
        loaded.notes.push(Note::new(
            file,
            &d.again,
            format!(
                "duplicate key `{}` (first at line {}): the last value is used",
                d.key, d.first.line
            ),
        ));
    }
    manifest::read_document(file, doc.root(), loaded);
}

fn report_helm(file: &str, pos: &Position, loaded: &mut Loaded, reported: &mut bool) {
    if !*reported {
        *reported = true;
        loaded.errors.push(LoadError::new(
            file,
            pos,
            "looks like a Helm template ({{ … }}); render it first with `helm template`",
        ));
    }
}

/// Where a chunk uses `{{ … }}` the way a Helm template does (a template action on a line of
/// its own, as an unquoted value, or naming `.Values`/`include`/…), outside comments. Go
/// templates inside quoted kubectl arguments (`'{{range .items}}'`) do not count.
fn helm_marker(chunk: &split::Chunk<'_>) -> Option<Position> {
    for (i, line) in chunk.text.lines().enumerate() {
        let Some(first) = line.find("{{") else {
            continue;
        };
        // Cut a trailing comment: `#` at the start or after a blank.
        let code_end = line
            .char_indices()
            .find(|&(j, c)| c == '#' && (j == 0 || line[..j].ends_with([' ', '\t'])))
            .map_or(line.len(), |(j, _)| j);
        if first >= code_end {
            continue;
        }
        let code = &line[..code_end];
        let t = code.trim_start();
        let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
        if t.starts_with("{{") || code.contains(": {{") || tree::has_helm_action(code) {
            let line_no = chunk.first_line.saturating_add(i as u32);
            let col =
                code[..first].chars().count() as u32 + if i == 0 { chunk.first_col } else { 0 };
            return Some(Position {
                line: line_no,
                column: col + 1,
            });
        }
    }
    None
}
