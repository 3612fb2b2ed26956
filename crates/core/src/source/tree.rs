//! A small position-carrying YAML tree, built from the event stream of serde-saphyr's parser
//! (`granit_parser`, re-exported by serde-saphyr).
//!
//! Why events rather than `serde_saphyr::from_str::<Spanned<…>>`: the loader must be lenient in
//! the ways `kubectl` is (YAML 1.1 booleans such as `False`, numbers written where strings are
//! expected) and must point at keys as well as values. Both need the scalar's source text and
//! quoting style, which a typed deserialization resolves away.
//!
//! Safety against hostile input:
//! - nodes live in one arena per document and an alias is a second reference to the anchored
//!   node, never a copy, so memory stays linear in the input (a "billion laughs" document costs
//!   what its text costs); lookups that could fan out through aliases (`<<` merge keys) are
//!   budgeted;
//! - nesting is bounded by the parser's own limits (block and flow nesting, 256 levels), and
//!   nothing here recurses over the tree;
//! - scalars borrow from the input whenever the parser allows it.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_saphyr::granit_parser::{Event, Options, Parser, ScalarStyle, StructureStyle};

use crate::model::Position;

use super::split::Chunk;

/// How a scalar was written. Only plain scalars are subject to YAML type resolution
/// (`true`, `3`, `~`); quoted and block scalars are always strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    Quoted,
}

#[derive(Debug)]
pub(crate) enum Kind<'a> {
    Scalar(Cow<'a, str>, Style),
    /// Children are `children[start..start + len]`.
    Seq {
        start: u32,
        len: u32,
    },
    /// Keys and values alternate in `children[start..start + 2 * pairs]`.
    Map {
        start: u32,
        pairs: u32,
    },
}

#[derive(Debug)]
pub(crate) struct Node<'a> {
    pub pos: Position,
    /// A block mapping or sequence (these start on the line below their key).
    pub block: bool,
    pub kind: Kind<'a>,
}

/// A key written twice in one mapping (the last value wins, as in most YAML tools).
#[derive(Debug, Clone)]
pub(crate) struct Duplicate {
    pub key: String,
    pub first: Position,
    pub again: Position,
}

/// One parsed YAML document.
#[derive(Debug)]
pub(crate) struct Doc<'a> {
    nodes: Vec<Node<'a>>,
    children: Vec<u32>,
    root: u32,
    pub duplicates: Vec<Duplicate>,
    /// Some mapping key is itself a mapping or a sequence: never the case in a Kubernetes
    /// manifest, always the case when `{{ … }}` is read as YAML flow syntax.
    pub complex_key: bool,
    /// First scalar that contains an unmistakable Helm template action.
    pub helm_scalar: Option<Position>,
}

/// A YAML syntax error, positioned in the whole file.
#[derive(Debug, Clone)]
pub(crate) struct SyntaxError {
    pub pos: Position,
    pub message: String,
}

/// Documents fully read from a chunk, and the error that stopped it, if any.
pub(crate) struct Parsed<'a> {
    pub docs: Vec<Doc<'a>>,
    pub error: Option<SyntaxError>,
}

/// Budget for following `<<` merge keys during one lookup.
const MERGE_VISITS: u32 = 64;
const MERGE_DEPTH: u32 = 8;

fn parser_options() -> Options {
    let mut o = Options::default();
    o.set_emit_comments(false);
    // The parser defaults (255 nested block and flow collections, 1024-character simple keys)
    // already bound the work per event; manifests nest about 15 deep.
    o.block_nesting_limit = 256;
    o.flow_nesting_limit = 256;
    o
}

/// Whether a scalar holds a Helm template action (`{{ .Values.x }}`, `{{ include … }}`), as
/// opposed to a kubectl go-template (`{{range .items}}`) inside a command line.
pub(crate) fn has_helm_action(s: &str) -> bool {
    // Helm-only vocabulary: plain Go templates (kubectl `-o go-template`, Alertmanager and
    // Prometheus templates in ConfigMaps) use `{{range}}`, `{{template "x"}}`, `{{ $labels }}`.
    const HELM: [&str; 13] = [
        ".Values",
        ".Release",
        ".Chart",
        ".Capabilities",
        ".Files",
        ".Template.",
        "$.Values",
        "$.Release",
        "$.Chart",
        "include ",
        "toYaml",
        "tpl ",
        "required ",
    ];
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        let after = rest[i + 2..].trim_start_matches(['-', ' ']);
        if HELM.iter().any(|h| after.starts_with(h)) {
            return true;
        }
        rest = &rest[i + 2..];
    }
    false
}

struct Frame {
    map: bool,
    /// Index into `pending` where this collection's children start.
    start: usize,
    pos: Position,
    block: bool,
    anchor: usize,
}

struct Builder<'a> {
    line_offset: u32,
    first_col: u32,
    nodes: Vec<Node<'a>>,
    children: Vec<u32>,
    pending: Vec<u32>,
    frames: Vec<Frame>,
    anchors: HashMap<usize, u32>,
    duplicates: Vec<Duplicate>,
    complex_key: bool,
    helm_scalar: Option<Position>,
}

impl<'a> Builder<'a> {
    fn pos(&self, line: usize, col: usize) -> Position {
        let line = u32::try_from(line).unwrap_or(u32::MAX).max(1);
        let col = u32::try_from(col).unwrap_or(u32::MAX);
        let col = if line == 1 {
            col.saturating_add(self.first_col)
        } else {
            col
        };
        Position {
            line: line.saturating_add(self.line_offset),
            column: col.saturating_add(1),
        }
    }

    fn add(&mut self, node: Node<'a>) -> Result<u32, TooLarge> {
        let id = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i < u32::MAX)
            .ok_or(TooLarge)?;
        self.nodes.push(node);
        Ok(id)
    }

    /// Whether the next node pushed to `pending` is in a mapping-key position.
    fn at_key(&self) -> bool {
        self.frames
            .last()
            .is_some_and(|f| f.map && (self.pending.len() - f.start).is_multiple_of(2))
    }

    fn end_collection(&mut self) -> Result<(), TooLarge> {
        let Some(f) = self.frames.pop() else {
            return Ok(());
        };
        let start = u32::try_from(self.children.len()).map_err(|_| TooLarge)?;
        let kids = self.pending.len() - f.start;
        self.children.extend(self.pending.drain(f.start..));
        let kids = u32::try_from(kids).map_err(|_| TooLarge)?;
        let kind = if f.map {
            let pairs = kids / 2;
            self.check_duplicates(start, pairs);
            Kind::Map { start, pairs }
        } else {
            Kind::Seq { start, len: kids }
        };
        let id = self.add(Node {
            pos: f.pos,
            block: f.block,
            kind,
        })?;
        if f.anchor != 0 {
            self.anchors.insert(f.anchor, id);
        }
        self.pending.push(id);
        Ok(())
    }

    fn check_duplicates(&mut self, start: u32, pairs: u32) {
        if pairs < 2 {
            return;
        }
        let key = |i: u32| {
            let node = &self.nodes[self.children[(start + 2 * i) as usize] as usize];
            match &node.kind {
                // `<<` may legitimately repeat in hand-written YAML 1.1.
                Kind::Scalar(s, _) if s != "<<" => Some((s.as_ref(), &node.pos)),
                _ => None,
            }
        };
        let mut found = Vec::new();
        if pairs <= 16 {
            // Small mappings (nearly all of them): no allocation.
            for j in 1..pairs {
                let Some((kj, pj)) = key(j) else { continue };
                if let Some((_, pi)) = (0..j).filter_map(key).find(|(ki, _)| *ki == kj) {
                    found.push(Duplicate {
                        key: kj.to_string(),
                        first: pi.clone(),
                        again: pj.clone(),
                    });
                }
            }
        } else {
            let mut seen: HashMap<&str, &Position> = HashMap::new();
            for i in 0..pairs {
                let Some((k, p)) = key(i) else { continue };
                if let Some(first) = seen.get(k) {
                    found.push(Duplicate {
                        key: k.to_string(),
                        first: (*first).clone(),
                        again: p.clone(),
                    });
                } else {
                    seen.insert(k, p);
                }
            }
        }
        self.duplicates.extend(found);
    }

    fn finish(&mut self) -> Doc<'a> {
        // Close anything left open (cannot happen after a well-formed DocumentEnd).
        while !self.frames.is_empty() {
            if self.end_collection().is_err() {
                break;
            }
        }
        let root = match self.pending.pop() {
            Some(r) => r,
            None => {
                let pos = self.pos(1, 0);
                self.add(Node {
                    pos,
                    block: false,
                    kind: Kind::Scalar(Cow::Borrowed(""), Style::Plain),
                })
                .unwrap_or(0)
            }
        };
        self.pending.clear();
        self.anchors.clear();
        Doc {
            nodes: std::mem::take(&mut self.nodes),
            children: std::mem::take(&mut self.children),
            root,
            duplicates: std::mem::take(&mut self.duplicates),
            complex_key: std::mem::replace(&mut self.complex_key, false),
            helm_scalar: self.helm_scalar.take(),
        }
    }
}

/// Parses one chunk into documents. Never panics; stops at the first syntax error.
pub(crate) fn parse_chunk<'a>(chunk: &Chunk<'a>) -> Parsed<'a> {
    let mut b = Builder {
        line_offset: chunk.first_line.saturating_sub(1),
        first_col: chunk.first_col,
        nodes: Vec::new(),
        children: Vec::new(),
        pending: Vec::new(),
        frames: Vec::new(),
        anchors: HashMap::new(),
        duplicates: Vec::new(),
        complex_key: false,
        helm_scalar: None,
    };
    let mut docs = Vec::new();
    let mut in_doc = false;
    for item in Parser::new_from_str_with_options(chunk.text, parser_options()) {
        let (event, span) = match item {
            Ok(x) => x,
            Err(e) => {
                let m = e.marker();
                return Parsed {
                    docs,
                    error: Some(SyntaxError {
                        pos: b.pos(m.line(), m.col()),
                        message: e.info(),
                    }),
                };
            }
        };
        let pos = b.pos(span.start.line(), span.start.col());
        let error_pos = pos.clone();
        let r: Result<(), TooLarge> = (|| {
            match event {
                Event::DocumentStart(..) => {
                    in_doc = true;
                }
                Event::DocumentEnd => {
                    if in_doc {
                        docs.push(b.finish());
                    }
                    in_doc = false;
                }
                Event::Scalar(value, style, anchor, tag) => {
                    if b.helm_scalar.is_none() && value.contains("{{") && has_helm_action(&value) {
                        b.helm_scalar = Some(pos.clone());
                    }
                    let mut style = match style {
                        ScalarStyle::Plain => Style::Plain,
                        _ => Style::Quoted,
                    };
                    if let Some(tag) = tag.as_deref() {
                        // `!!str 3` is a string; `!!int "3"` is resolved like a plain scalar.
                        style = match tag.core_suffix() {
                            Some("str") => Style::Quoted,
                            Some("int" | "bool" | "float" | "null") => Style::Plain,
                            _ => style,
                        };
                    }
                    let id = b.add(Node {
                        pos,
                        block: false,
                        kind: Kind::Scalar(value, style),
                    })?;
                    if anchor != 0 {
                        b.anchors.insert(anchor, id);
                    }
                    b.pending.push(id);
                }
                Event::SequenceStart(style, anchor, _) | Event::MappingStart(style, anchor, _) => {
                    if b.at_key() {
                        b.complex_key = true;
                    }
                    let map = matches!(event, Event::MappingStart(..));
                    let block = style == StructureStyle::Block;
                    b.frames.push(Frame {
                        map,
                        start: b.pending.len(),
                        pos,
                        block,
                        anchor,
                    });
                }
                Event::SequenceEnd | Event::MappingEnd => b.end_collection()?,
                Event::Alias(anchor) => {
                    if b.at_key() {
                        b.complex_key = true;
                    }
                    match b.anchors.get(&anchor) {
                        Some(&id) => b.pending.push(id),
                        None => {
                            // An alias to a collection that is still open (a recursive
                            // structure): read it as null.
                            let id = b.add(Node {
                                pos,
                                block: false,
                                kind: Kind::Scalar(Cow::Borrowed(""), Style::Plain),
                            })?;
                            b.pending.push(id);
                        }
                    }
                }
                _ => {}
            }
            Ok(())
        })();
        if let Err(too_large) = r {
            return Parsed {
                docs,
                error: Some(SyntaxError {
                    pos: error_pos,
                    message: too_large.to_string(),
                }),
            };
        }
    }
    Parsed { docs, error: None }
}

/// A document with more nodes or children than the tree's `u32` indexes can count: read as
/// a syntax error at the node that overflowed.
#[derive(Debug, thiserror::Error)]
#[error("document too large")]
struct TooLarge;

/// A node of a document, for navigation.
#[derive(Clone, Copy)]
pub(crate) struct N<'d, 'a> {
    doc: &'d Doc<'a>,
    id: u32,
}

impl<'a> Doc<'a> {
    pub fn root(&self) -> N<'_, 'a> {
        N {
            doc: self,
            id: self.root,
        }
    }
}

/// What a node is, for messages ("found a list").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Null,
    Bool,
    Number,
    String,
    Map,
    Seq,
}

impl Shape {
    pub fn describe(self) -> &'static str {
        match self {
            Shape::Null => "null",
            Shape::Bool => "a boolean",
            Shape::Number => "a number",
            Shape::String => "a string",
            Shape::Map => "a mapping",
            Shape::Seq => "a list",
        }
    }
}

impl<'d, 'a> N<'d, 'a> {
    fn node(&self) -> &'d Node<'a> {
        &self.doc.nodes[self.id as usize]
    }

    fn child(&self, i: u32) -> N<'d, 'a> {
        N {
            doc: self.doc,
            id: self.doc.children[i as usize],
        }
    }

    pub fn pos(&self) -> Position {
        self.node().pos.clone()
    }

    pub fn is_block(&self) -> bool {
        self.node().block
    }

    /// The scalar's text and style, for scalars.
    pub fn scalar(&self) -> Option<(&'d str, Style)> {
        match &self.node().kind {
            Kind::Scalar(s, st) => Some((s.as_ref(), *st)),
            _ => None,
        }
    }

    pub fn shape(&self) -> Shape {
        match &self.node().kind {
            Kind::Map { .. } => Shape::Map,
            Kind::Seq { .. } => Shape::Seq,
            Kind::Scalar(_, Style::Quoted) => Shape::String,
            Kind::Scalar(s, Style::Plain) => match super::scalar::resolve_plain(s) {
                super::scalar::Plain::Null => Shape::Null,
                super::scalar::Plain::Bool(_) => Shape::Bool,
                super::scalar::Plain::Int(_) | super::scalar::Plain::Float(_) => Shape::Number,
                super::scalar::Plain::Str => Shape::String,
            },
        }
    }

    pub fn is_null(&self) -> bool {
        self.shape() == Shape::Null
    }

    pub fn is_map(&self) -> bool {
        matches!(self.node().kind, Kind::Map { .. })
    }

    /// Items of a sequence (empty for anything else).
    pub fn items(&self) -> impl Iterator<Item = N<'d, 'a>> + 'd {
        let (start, len) = match self.node().kind {
            Kind::Seq { start, len } => (start, len),
            _ => (0, 0),
        };
        let this = *self;
        (start..start + len).map(move |i| this.child(i))
    }

    /// The pairs written directly in this mapping, `<<` included.
    fn own_pairs(&self) -> impl Iterator<Item = (N<'d, 'a>, N<'d, 'a>)> + 'd {
        let (start, pairs) = match self.node().kind {
            Kind::Map { start, pairs } => (start, pairs),
            _ => (0, 0),
        };
        let this = *self;
        (0..pairs).map(move |i| (this.child(start + 2 * i), this.child(start + 2 * i + 1)))
    }

    fn is_merge_key(k: &N<'d, 'a>) -> bool {
        matches!(k.scalar(), Some(("<<", Style::Plain)))
    }

    /// The mappings merged into this one with `<<`, in precedence order.
    fn merged(&self) -> Vec<N<'d, 'a>> {
        let mut out = Vec::new();
        for (k, v) in self.own_pairs() {
            if Self::is_merge_key(&k) {
                if v.is_map() {
                    out.push(v);
                } else {
                    out.extend(v.items().filter(N::is_map));
                }
            }
        }
        out
    }

    fn get_budgeted(
        &self,
        key: &str,
        depth: u32,
        visits: &mut u32,
    ) -> Option<(N<'d, 'a>, N<'d, 'a>)> {
        *visits += 1;
        // The last occurrence wins, as in most YAML libraries.
        let mut found = None;
        let mut has_merge = false;
        for (k, v) in self.own_pairs() {
            match k.scalar() {
                Some((s, _)) if s == key => found = Some((k, v)),
                _ => has_merge |= Self::is_merge_key(&k),
            }
        }
        if found.is_some() || !has_merge || depth >= MERGE_DEPTH {
            return found;
        }
        for m in self.merged() {
            if *visits >= MERGE_VISITS {
                return None;
            }
            if let Some(r) = m.get_budgeted(key, depth + 1, visits) {
                return Some(r);
            }
        }
        None
    }

    /// Looks `key` up in a mapping (following `<<` merge keys); returns the key and value nodes.
    pub fn get(&self, key: &str) -> Option<(N<'d, 'a>, N<'d, 'a>)> {
        if !self.is_map() {
            return None;
        }
        let mut visits = 0;
        self.get_budgeted(key, 0, &mut visits)
    }

    /// All entries of a mapping with scalar keys, merges resolved (own entries first, then
    /// merged entries whose key is not already present). The last duplicate wins.
    pub fn entries(&self) -> Vec<(N<'d, 'a>, N<'d, 'a>)> {
        let mut out: Vec<(N<'d, 'a>, N<'d, 'a>)> = Vec::new();
        let mut index: HashMap<&'d str, usize> = HashMap::new();
        let mut queue = vec![(*self, 0u32)];
        let mut visits = 0;
        let mut qi = 0;
        while qi < queue.len() && visits < MERGE_VISITS {
            let (m, depth) = queue[qi];
            qi += 1;
            visits += 1;
            let own = qi == 1;
            for (k, v) in m.own_pairs() {
                if Self::is_merge_key(&k) {
                    if depth < MERGE_DEPTH {
                        if v.is_map() {
                            queue.push((v, depth + 1));
                        } else {
                            queue.extend(v.items().filter(N::is_map).map(|x| (x, depth + 1)));
                        }
                    }
                    continue;
                }
                let Some((s, _)) = k.scalar() else { continue };
                match index.get(s) {
                    Some(&i) if own => out[i] = (k, v),
                    Some(_) => {}
                    None => {
                        index.insert(s, out.len());
                        out.push((k, v));
                    }
                }
            }
        }
        out
    }
}
