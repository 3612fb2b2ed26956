//! The pure core stays pure: the schedule engine and the core crate may not do IO, talk to the
//! cluster or read a clock. `now` is a parameter everywhere below the CLI.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "tokio",
    "kube::",
    "Timestamp::now",
    "SystemTime",
    "Instant::now",
    "Zoned::now",
    "println!",
    "eprintln!",
];

fn scan(dir: &Path, offenders: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scan(&path, offenders);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Unit tests inside a module may print or read fixtures; only the code counts.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for f in FORBIDDEN {
                if code
                    .lines()
                    .any(|l| !l.trim_start().starts_with("//") && l.contains(f))
                {
                    offenders.push(format!("{}: {f}", path.display()));
                }
            }
        }
    }
}

#[test]
fn pure_crates_do_no_io_and_read_no_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    scan(&root.join("crates/schedule/src"), &mut offenders);
    scan(&root.join("crates/core/src"), &mut offenders);
    assert!(
        offenders.is_empty(),
        "IO or clock in the pure core:\n{}",
        offenders.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The IO shell (`src/`) is a one-way graph: `main -> commands -> {cli, cluster,
// actions, term, …}`, never back. The graph is read from the source text: every `crate::…`
// path and every `super::…` path that climbs out of a top-level module names an edge between
// two top-level modules of `src/`. A cycle is printed as the chain of modules that closes it.

use std::collections::{BTreeMap, BTreeSet};

/// Top-level module of a file under `src/` (`src/cluster/http.rs` -> `cluster`), and how many
/// `super::` it takes from the file's own module to reach the crate root. `lib.rs` and
/// `main.rs` are the root itself: they declare the modules and are left out.
fn module_of(rel: &Path) -> Option<(String, usize)> {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let first = parts.first()?;
    if parts.len() == 1 && (first == "lib.rs" || first == "main.rs") {
        return None;
    }
    let top = first.trim_end_matches(".rs").to_string();
    // `a.rs` and `a/mod.rs` are module `a` (depth 1); `a/b.rs` is `a::b` (depth 2).
    let depth = parts.len() - usize::from(parts.last().is_some_and(|l| l == "mod.rs"));
    Some((top, depth))
}

/// The code of a line: comments dropped (a `//` outside a string ends the code).
fn code_of(line: &str) -> &str {
    let mut in_str = false;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        match bytes[i] {
            b'"' if i == 0 || bytes[i - 1] != b'\\' => in_str = !in_str,
            b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

fn ident_at(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The first path segment of every item of a `{a, b::c, d::{e, f}}` group.
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_item_start = true;
    for (i, c) in s.char_indices() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    at_item_start = true;
                    continue;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => {
                at_item_start = true;
                continue;
            }
            _ => {}
        }
        if depth == 1 && at_item_start && !c.is_whitespace() {
            heads.push(ident_at(&s[i..]));
            at_item_start = false;
        }
    }
    heads
}

/// The top-level modules named by a path that starts at the crate root (`crate::x::…`,
/// `crate::{x, y}`).
fn roots_named(after_root: &str) -> Vec<String> {
    if after_root.starts_with('{') {
        group_heads(after_root)
    } else {
        vec![ident_at(after_root)]
    }
}

/// Edges `from -> to` of one file's text.
fn references(module: &str, depth: usize, text: &str, tops: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // One text, comments dropped: rustfmt breaks a long `use crate::{…}` group over several
    // lines, and its items must still be read as the group's.
    let code: String = text.lines().map(|l| format!("{}\n", code_of(l))).collect();
    let code = code.as_str();
    for (i, _) in code.match_indices("crate::") {
        // `kubectl_cronjob_doctor::…` or `$crate::` are not ours to resolve.
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        out.extend(roots_named(&code[i + "crate::".len()..]));
    }
    for (i, _) in code.match_indices("super::") {
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue; // the second `super::` of a `super::super::` chain
        }
        let mut rest = &code[i..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r;
        }
        // Climbing out of the file's top-level module lands at the crate root. (Inside an
        // inline `mod tests` one more `super` is needed; such a path names the module
        // itself or one of its items, never another top-level module, so the check on
        // `tops` below keeps it out.)
        if climbs >= depth {
            out.extend(roots_named(rest));
        }
    }
    out.retain(|m| m != module && tops.contains(m));
    out
}

fn source_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Top-level module -> the top-level modules it refers to, for the crate in `src`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graph_of(src, false)
}

/// The code of `text` that is compiled into the program: a file's `#[cfg(test)]` module (at
/// its end, by this codebase's convention) and everything after it left out.
fn production_code(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

/// [`module_graph`]; with `production_only`, test code (see [`production_code`], `*_tests.rs`
/// files and the core's test support, `rules/examples.rs`) is left out: tests may reach any
/// floor.
fn graph_of(src: &Path, production_only: bool) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    source_files(src, &mut files);
    let test_file = |f: &Path| {
        let rel = f.strip_prefix(src).unwrap();
        rel.to_string_lossy().ends_with("_tests.rs") || rel == Path::new("rules/examples.rs")
    };
    let modules: Vec<(String, usize, String)> = files
        .iter()
        .filter(|f| !(production_only && test_file(f)))
        .filter_map(|f| {
            let (m, d) = module_of(f.strip_prefix(src).unwrap())?;
            let text = std::fs::read_to_string(f).unwrap();
            let text = if production_only {
                production_code(&text).to_string()
            } else {
                text
            };
            Some((m, d, text))
        })
        .collect();
    let tops: BTreeSet<String> = modules.iter().map(|(m, ..)| m.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, depth, text) in &modules {
        let refs = references(m, *depth, text, &tops);
        graph.entry(m.clone()).or_default().extend(refs);
    }
    graph
}

/// A cycle of `graph` as `a -> b -> … -> a`, if there is one (depth-first search).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|p| p == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

fn describe(graph: &BTreeMap<String, BTreeSet<String>>) -> String {
    graph
        .iter()
        .map(|(m, to)| {
            format!(
                "  {m} -> {}",
                to.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_shell_has_no_import_cycle() {
    let graph = module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        graph.contains_key("cli") && graph.contains_key("commands"),
        "{graph:?}"
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle among the modules of src/: {}\nthe graph:\n{}",
            cycle.join(" -> "),
            describe(&graph)
        );
    }
}

/// The core's floors, lowest first (architecture.md: "pure core in floors"). A module uses
/// modules of lower floors, and of its own floor without a cycle; never one above. Every
/// top-level module of crates/core/src must be placed here, so a new one is placed on purpose.
const CORE_FLOORS: &[&[&str]] = &[
    // Words and caches: no knowledge of Kubernetes.
    &["text", "memo", "escape", "names"],
    // The snapshot model and its recorded field positions.
    &["field_paths", "model"],
    // Reading input into the model; what the model's objects say; the controller replay.
    &["source", "evidence", "as_of", "cron", "replay", "runs"],
    // What an action would change (suspend, trigger): used by the rules that propose them.
    &["actions"],
    &["rules"],
    // A project's settings (rule severities, globs); the runs a monitor remembers.
    &["config", "retained"],
    // One report per CronJob: findings, headline, timeline, fix plan.
    &["report"],
    // What is kept of a report: the baseline's fingerprints, the monitor's summary.
    &["baseline", "monitor_view"],
    // Text, JSON, SARIF, Markdown.
    &["render"],
];

#[test]
fn the_core_stands_in_floors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let graph = graph_of(&src, true);
    let floor = |m: &str| CORE_FLOORS.iter().position(|f| f.contains(&m));
    let unplaced: Vec<&String> = graph.keys().filter(|m| floor(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "core modules not placed in CORE_FLOORS (tests/architecture.rs): {unplaced:?}"
    );
    let mut upward = Vec::new();
    for (from, tos) in &graph {
        for to in tos {
            if floor(to) > floor(from) {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "upward imports in crates/core/src (see CORE_FLOORS): {upward:?}\nthe graph:\n{}",
        describe(&graph)
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle in crates/core/src: {}", cycle.join(" -> "));
    }
}

/// `cli` holds the clap types only; it may name `version` (the version strings), a leaf.
#[test]
fn cli_imports_nothing_of_ours() {
    let graph = module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let cli: Vec<&String> = graph["cli"].iter().filter(|m| *m != "version").collect();
    assert!(
        cli.is_empty(),
        "cli imports {cli:?}\nthe graph:\n{}",
        describe(&graph)
    );
    assert!(
        graph.get("version").is_none_or(|v| v.is_empty()),
        "version must be a leaf: {:?}",
        graph["version"]
    );
}

#[test]
fn the_graph_reader_sees_every_kind_of_reference() {
    let tops: BTreeSet<String> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let text = "use crate::b::x;\nuse crate::{c, d::y};\n// use crate::e;\nfn f() { super::super::e::g(); super::a_item(); }\nconst S: &str = \"crate::e\"; // crate::e\n";
    let refs = references("a", 2, text, &tops);
    assert_eq!(
        refs,
        ["b", "c", "d", "e"].iter().map(|s| s.to_string()).collect()
    );
    // A group rustfmt broke over lines, `pub(crate) use`, a nested group.
    let text = "pub(crate) use crate::{\n    b::x,\n    // e,\n    c::{y, z},\n};\n";
    assert_eq!(
        references("a", 1, text, &tops),
        ["b", "c"].iter().map(|s| s.to_string()).collect()
    );
    let text = "pub(crate) use super::super::{\n    d,\n    e::f,\n};\n";
    assert_eq!(
        references("a", 2, text, &tops),
        ["d", "e"].iter().map(|s| s.to_string()).collect()
    );
    // From a top-level file, one `super::` reaches the root.
    let refs = references("a", 1, "use super::b;\nmod tests { use super::*; }", &tops);
    assert_eq!(refs, ["b"].iter().map(|s| s.to_string()).collect());
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(find_cycle(&g).unwrap().join(" -> "), "a -> b -> c -> a");
}

/// The whole check on a scratch crate: a back-import written the way rustfmt writes a long
/// group (`b/c.rs` -> `a` over several lines) closes a cycle with `a.rs` -> `b`, and is found.
#[test]
fn a_back_import_in_a_scratch_crate_is_a_cycle() {
    let src = std::env::temp_dir().join(format!("cjd-arch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(src.join("b")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(src.join(p), t).unwrap();
    write("lib.rs", "mod a;\nmod b;\n");
    write("a.rs", "use crate::b::c::item;\n");
    write("b/mod.rs", "pub mod c;\n");
    write("b/c.rs", "pub fn item() {}\n");
    let acyclic = module_graph(&src);
    write(
        "b/c.rs",
        "pub(crate) use super::super::{\n    a::thing,\n    // nothing\n};\npub fn item() {}\n",
    );
    let cyclic = module_graph(&src);
    let _ = std::fs::remove_dir_all(&src);
    assert_eq!(find_cycle(&acyclic), None, "{acyclic:?}");
    assert_eq!(
        find_cycle(&cyclic).map(|c| c.join(" -> ")).as_deref(),
        Some("a -> b -> a"),
        "{cyclic:?}"
    );
}

/// A fresh clone stands alone: no test or script reaches for the project's sibling `shared/`
/// folder by path. What lives there (the real-world corpus) is named by an environment
/// variable that `.ci/run` sets, and a test without it prints a skip line and passes.
#[test]
fn nothing_but_ci_reaches_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let needle = ["..", "/shared"].concat();
    let mut files = Vec::new();
    for dir in ["src", "tests", "crates", "tools", "fuzz", "benches"] {
        collect(&root.join(dir), &mut files);
    }
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|t| t.contains(&needle))
                && !p.ends_with("tests/architecture.rs")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(files.len() > 100, "{} files read", files.len());
    assert!(offenders.is_empty(), "{needle} named in {offenders:?}");

    fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() && !p.ends_with("target") {
                collect(&p, out);
            } else if p
                .extension()
                .is_some_and(|x| ["rs", "sh", "py", "toml"].iter().any(|k| x == *k))
            {
                out.push(p);
            }
        }
    }
}
