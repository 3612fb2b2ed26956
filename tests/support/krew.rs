//! A Rust restatement of what krew checks before a plugin manifest enters krew-index, so a bad
//! manifest fails here instead of in a krew-index pull request. Shared by
//! `tests/krew_manifest.rs` (the committed manifest) and `tests/release_archive.rs` (the manifest
//! after the release script wrote a locally built archive into it).
//!
//! Two sources, both in kubernetes-sigs/krew (restated, not copied):
//! - `internal/index/validation/validate.go` (`ValidatePlugin`): apiVersion and kind, a safe
//!   name (`^[\w-]+$`, no Windows device name) equal to the file name, a one-line
//!   shortDescription, at least one platform, a semver version with a leading `v`, and per
//!   platform: uri, a 64-hex sha256, bin, well-formed `files`, a selector that is neither nil nor
//!   empty and uses only the keys `os` and `arch`;
//! - `cmd/validate-krew-manifest` (krew-index CI): the `.yaml` extension, every selector matching
//!   one of the 11 os/arch pairs krew supports, no pair matched by two platforms, line-length
//!   advice for the descriptions, and a real install per platform that must extract a LICENSE.
//!   The install is simulated from the archive's file list with krew's file-operation rules
//!   (`internal/installation/move.go`): a `from` naming an existing entry is moved to `to`
//!   (its own name when `to` is `.`), otherwise `from` is a glob whose matches go into `to`;
//!   no `files` means everything at the archive root; `to` must be a clean path.
//!
//! Stricter than krew on purpose: the descriptions' line lengths are errors here (warnings in
//! krew), unknown fields are rejected, and a uri must be https and end in `.tar.gz` or `.zip`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;

pub const API_VERSION: &str = "krew.googlecontainertools.github.com/v1alpha2";

/// The <os, arch> pairs krew supports (`allPlatforms` in cmd/validate-krew-manifest).
pub const SUPPORTED_PLATFORMS: [(&str, &str); 11] = [
    ("windows", "386"),
    ("windows", "amd64"),
    ("windows", "arm64"),
    ("linux", "386"),
    ("linux", "amd64"),
    ("linux", "arm"),
    ("linux", "arm64"),
    ("linux", "ppc64le"),
    ("darwin", "386"),
    ("darwin", "amd64"),
    ("darwin", "arm64"),
];

/// Names Windows reserves for devices; krew refuses them as plugin names (case-insensitively).
const WINDOWS_RESERVED: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// File names krew accepts as "the licence was extracted" (compared lower-cased).
const LICENSE_NAMES: [&str; 8] = [
    "license",
    "license.txt",
    "license.md",
    "licenses",
    "licenses.txt",
    "licenses.md",
    "copying",
    "copying.txt",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Plugin {
    pub api_version: String,
    pub kind: String,
    pub metadata: Metadata,
    pub spec: Spec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    pub name: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Spec {
    #[serde(default)]
    pub version: String,
    pub homepage: Option<String>,
    #[serde(default)]
    pub short_description: String,
    pub description: Option<String>,
    pub caveats: Option<String>,
    #[serde(default)]
    pub platforms: Vec<Platform>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    pub selector: Option<Selector>,
    #[serde(default)]
    pub uri: String,
    #[serde(default)]
    pub sha256: String,
    #[serde(default)]
    pub bin: String,
    pub files: Option<Vec<FileOperation>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Selector {
    pub match_labels: Option<BTreeMap<String, String>>,
    pub match_expressions: Option<Vec<Requirement>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub key: String,
    pub operator: String,
    pub values: Option<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileOperation {
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub to: String,
}

pub fn read(path: &Path) -> Result<Plugin, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_saphyr::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `^[\w-]+$` (Go's `\w` is ASCII) and not a Windows device name.
pub fn is_safe_plugin_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !WINDOWS_RESERVED
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
}

/// `^[a-f0-9]{64}$`.
pub fn is_valid_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// krew's `semver.Parse`: a leading `v`, then a semantic version (apimachinery's
/// `ParseSemantic`, i.e. SemVer 2.0 with pre-release and build metadata).
pub fn parse_version(v: &str) -> Result<semver::Version, String> {
    let Some(rest) = v.strip_prefix('v') else {
        return Err(format!("version string {v:?} not starting with 'v'"));
    };
    semver::Version::parse(rest).map_err(|e| format!("version {v:?}: {e}"))
}

/// Does the selector select this <os, arch>? Label-selector semantics: every matchLabels entry
/// equal, every expression satisfied. `Err` where apimachinery refuses to build the selector.
pub fn selector_matches(sel: &Selector, os: &str, arch: &str) -> Result<bool, String> {
    let label = |k: &str| match k {
        "os" => Some(os),
        "arch" => Some(arch),
        _ => None,
    };
    let mut ok = true;
    for (k, v) in sel.match_labels.iter().flatten() {
        ok &= label(k) == Some(v.as_str());
    }
    for r in sel.match_expressions.iter().flatten() {
        let values = r.values.as_deref().unwrap_or_default();
        let got = label(&r.key);
        ok &= match r.operator.as_str() {
            "In" | "NotIn" if values.is_empty() => {
                return Err(format!(
                    "operator {} on {:?} needs values",
                    r.operator, r.key
                ));
            }
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                return Err(format!(
                    "operator {} on {:?} takes no values",
                    r.operator, r.key
                ));
            }
            "In" => got.is_some_and(|g| values.iter().any(|v| v == g)),
            "NotIn" => got.is_none_or(|g| values.iter().all(|v| v != g)),
            "Exists" => got.is_some(),
            "DoesNotExist" => got.is_none(),
            other => return Err(format!("{other:?} is not a valid label selector operator")),
        };
    }
    Ok(ok)
}

/// The first supported pair the selector matches (krew's `findAnyMatchingPlatform`).
pub fn matching_platform(sel: &Selector) -> Option<(&'static str, &'static str)> {
    SUPPORTED_PLATFORMS
        .iter()
        .copied()
        .find(|(os, arch)| selector_matches(sel, os, arch).unwrap_or(false))
}

fn validate_selector(sel: Option<&Selector>) -> Result<(), String> {
    let Some(sel) = sel else {
        return Err("nil selector is not supported".into());
    };
    let no_exprs = sel.match_expressions.as_ref().is_none_or(|e| e.is_empty());
    if sel.match_labels.is_none() && no_exprs {
        return Err("empty selector is not supported".into());
    }
    let keys = sel
        .match_labels
        .iter()
        .flatten()
        .map(|(k, _)| k.as_str())
        .chain(
            sel.match_expressions
                .iter()
                .flatten()
                .map(|r| r.key.as_str()),
        );
    for key in keys {
        if key != "os" && key != "arch" {
            return Err(format!("key {key:?} not supported"));
        }
    }
    if sel.match_labels.as_ref().is_some_and(|m| m.is_empty()) {
        return Err("`matchLabels` specified but empty".into());
    }
    if sel.match_expressions.as_ref().is_some_and(|e| e.is_empty()) {
        return Err("`matchExpressions` specified but empty".into());
    }
    Ok(())
}

fn validate_files(files: Option<&[FileOperation]>) -> Result<(), String> {
    let Some(files) = files else { return Ok(()) };
    if files.is_empty() {
        return Err("`files` has to be unspecified or non-empty".into());
    }
    for op in files {
        if op.from.is_empty() {
            return Err("`from` field has to be set".into());
        }
        if op.to.is_empty() {
            return Err("`to` field has to be set".into());
        }
    }
    Ok(())
}

/// `ValidatePlugin` for one platform.
fn validate_platform(p: &Platform) -> Result<(), String> {
    if p.uri.is_empty() {
        return Err("`uri` has to be set".into());
    }
    if p.sha256.is_empty() {
        return Err("`sha256` sum has to be set".into());
    }
    if !is_valid_sha256(&p.sha256) {
        return Err(format!(
            "`sha256` value {} is not valid, must match pattern ^[a-f0-9]{{64}}$",
            p.sha256
        ));
    }
    if p.bin.is_empty() {
        return Err("`bin` has to be set".into());
    }
    validate_files(p.files.as_deref()).map_err(|e| format!("`files` is invalid: {e}"))?;
    validate_selector(p.selector.as_ref()).map_err(|e| format!("invalid platform selector: {e}"))
}

/// Go's `filepath.Clean` for the relative, slash-separated paths a manifest uses.
pub fn clean(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    if out.is_empty() {
        ".".to_string()
    } else {
        out.join("/")
    }
}

/// `filepath.Match` for one path element: `*`, `?` and literals (classes and escapes are not
/// used by this project and are refused rather than guessed).
fn glob_element(pattern: &str, name: &str) -> Result<bool, String> {
    if pattern.contains(['[', '\\']) {
        return Err(format!(
            "glob {pattern:?}: character classes and escapes are not supported by this checker"
        ));
    }
    fn go(p: &[char], n: &[char]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some(('*', rest)) => (0..=n.len()).any(|i| go(rest, &n[i..])),
            Some(('?', rest)) => !n.is_empty() && go(rest, &n[1..]),
            Some((c, rest)) => n.first() == Some(c) && go(rest, &n[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    Ok(go(&p, &n))
}

/// Simulate krew's install of one platform from the archive's file list (paths relative to the
/// archive root, `/`-separated; directories are implied). Returns the installed file paths.
pub fn simulate_install(p: &Platform, archive: &[String]) -> Result<BTreeSet<String>, String> {
    let files: BTreeSet<String> = archive.iter().map(|f| clean(f)).collect();
    // Every entry krew could stat or glob: the files and the directories above them.
    let mut entries: BTreeSet<String> = files.clone();
    for f in &files {
        let mut parts: Vec<&str> = f.split('/').collect();
        while parts.len() > 1 {
            parts.pop();
            entries.insert(parts.join("/"));
        }
    }
    let under = |entry: &str| -> Vec<String> {
        files
            .iter()
            .filter(|f| *f == entry || f.starts_with(&format!("{entry}/")))
            .cloned()
            .collect()
    };
    let default_ops = [FileOperation {
        from: "*".into(),
        to: ".".into(),
    }];
    let ops = p.files.as_deref().unwrap_or(&default_ops);
    let mut installed = BTreeSet::new();
    let place = |src_entry: &str, dest: &str, installed: &mut BTreeSet<String>| {
        for f in under(src_entry) {
            let tail = f[src_entry.len()..].trim_start_matches('/');
            let target = if tail.is_empty() {
                dest.to_string()
            } else {
                format!("{dest}/{tail}")
            };
            installed.insert(clean(&target));
        }
    };
    for op in ops {
        if op.to != clean(&op.to) {
            return Err(format!(
                "the provided path is not clean, {:?} should be {:?}",
                op.to,
                clean(&op.to)
            ));
        }
        let from = clean(&op.from);
        if from.starts_with("..") || op.to.starts_with("..") || op.to.starts_with('/') {
            return Err(format!(
                "file operation {op:?} leaves the archive or the install directory"
            ));
        }
        if entries.contains(&from) {
            let base = from.rsplit('/').next().unwrap_or(&from);
            let dest = if op.to == "." {
                base.to_string()
            } else {
                op.to.clone()
            };
            place(&from, &dest, &mut installed);
            continue;
        }
        let pattern: Vec<&str> = from.split('/').collect();
        let mut matched = Vec::new();
        for e in &entries {
            let parts: Vec<&str> = e.split('/').collect();
            if parts.len() != pattern.len() {
                continue;
            }
            let mut all = true;
            for (p, n) in pattern.iter().zip(&parts) {
                all &= glob_element(p, n)?;
            }
            if all {
                matched.push(e.clone());
            }
        }
        if matched.is_empty() {
            return Err(format!(
                "no files in the plugin archive matched the glob pattern={}",
                op.from
            ));
        }
        for m in matched {
            let base = m.rsplit('/').next().unwrap_or(&m).to_string();
            place(&m, &clean(&format!("{}/{base}", op.to)), &mut installed);
        }
    }
    Ok(installed)
}

/// Every line at most `max` characters unless it is a single word (krew's `validateLineLength`).
fn line_length_ok(s: &str, max: usize) -> bool {
    s.split('\n')
        .all(|l| l.chars().count() <= max || !l.trim().contains(' '))
}

/// Validate a manifest file as krew-index would. `archive_of(os, arch)` gives the file list of
/// the archive for the supported pair a platform selects (the pair krew's CI installs it as);
/// `None` skips the install simulation for that platform. Returns the parsed plugin, or every
/// problem found.
pub fn validate_file(
    path: &Path,
    archive_of: &dyn Fn(&str, &str) -> Option<Vec<String>>,
) -> Result<Plugin, Vec<String>> {
    let plugin = read(path).map_err(|e| vec![e])?;
    let mut problems = Vec::new();
    let file_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some(name) = file_name.strip_suffix(".yaml") else {
        return Err(vec![format!(
            "expected manifest extension \".yaml\" in {file_name:?}"
        )]);
    };

    // ValidatePlugin, in its order.
    if plugin.api_version != API_VERSION {
        problems.push(format!(
            "apiVersion={:?} is not supported (want {API_VERSION:?})",
            plugin.api_version
        ));
    }
    if plugin.kind != "Plugin" {
        problems.push(format!(
            "kind={:?}, but only \"Plugin\" is supported",
            plugin.kind
        ));
    }
    if !is_safe_plugin_name(name) {
        problems.push(format!(
            "the plugin name {name:?} is not allowed, must match ^[\\w-]+$"
        ));
    }
    if plugin.metadata.name != name {
        problems.push(format!(
            "plugin should be named {name:?}, not {:?}",
            plugin.metadata.name
        ));
    }
    let spec = &plugin.spec;
    if spec.short_description.is_empty() {
        problems.push("should have a short description".into());
    }
    if spec.short_description.contains(['\r', '\n']) {
        problems.push("should not have line breaks in short description".into());
    }
    if spec.platforms.is_empty() {
        problems.push("should have a platform specified".into());
    }
    if spec.version.is_empty() {
        problems.push("should have a version specified".into());
    } else if let Err(e) = parse_version(&spec.version) {
        problems.push(format!("failed to parse plugin version: {e}"));
    }
    for (i, p) in spec.platforms.iter().enumerate() {
        if let Err(e) = validate_platform(p) {
            problems.push(format!("platforms[{i}] is badly constructed: {e}"));
        }
    }
    if !problems.is_empty() {
        return Err(problems); // krew stops here too: the rest assumes a structurally valid plugin
    }

    // validate-krew-manifest's line-length advice (errors here).
    for (field, text, max) in [
        (
            "shortDescription",
            Some(spec.short_description.as_str()),
            70,
        ),
        ("description", spec.description.as_deref(), 80),
        ("caveats", spec.caveats.as_deref(), 80),
    ] {
        if !text.is_none_or(|t| line_length_ok(t, max)) {
            problems.push(format!("line length in `{field}` exceeds {max} characters"));
        }
    }
    if spec.description.as_deref().is_none_or(str::is_empty) {
        problems.push("`description` is required by krew-index".into());
    }

    // Every platform selects a supported pair; no pair is selected twice.
    let selected: Vec<Option<(&str, &str)>> = spec
        .platforms
        .iter()
        .map(|p| p.selector.as_ref().and_then(matching_platform))
        .collect();
    for (i, (p, sel)) in spec.platforms.iter().zip(&selected).enumerate() {
        if sel.is_none() {
            problems.push(format!(
                "platforms[{i}]'s selector {:?} doesn't match any supported platform",
                p.selector
            ));
        }
        if let Some(Err(e)) = p
            .selector
            .as_ref()
            .map(|s| selector_matches(s, "linux", "amd64"))
        {
            problems.push(format!(
                "platforms[{i}]'s selector cannot be converted: {e}"
            ));
        }
    }
    for (os, arch) in SUPPORTED_PLATFORMS {
        let hits: Vec<usize> = spec
            .platforms
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.selector
                    .as_ref()
                    .is_some_and(|s| selector_matches(s, os, arch).unwrap_or(false))
            })
            .map(|(i, _)| i)
            .collect();
        if hits.len() > 1 {
            problems.push(format!("platforms at indexes {hits:?} have overlapping selectors that select os={os}/arch={arch}"));
        }
    }

    // Archive form (stricter than krew, which sniffs the content type).
    for (i, p) in spec.platforms.iter().enumerate() {
        if !p.uri.starts_with("https://") {
            problems.push(format!("platforms[{i}].uri {:?} is not https", p.uri));
        }
        if !(p.uri.ends_with(".tar.gz") || p.uri.ends_with(".zip")) {
            problems.push(format!(
                "platforms[{i}].uri {:?} is neither a .tar.gz nor a .zip",
                p.uri
            ));
        }
    }

    // The install, simulated: bin installed, a licence extracted.
    for (i, (p, sel)) in spec.platforms.iter().zip(&selected).enumerate() {
        let Some((os, arch)) = sel else { continue };
        let Some(archive) = archive_of(os, arch) else {
            continue;
        };
        match simulate_install(p, &archive) {
            Err(e) => problems.push(format!(
                "platforms[{i}] ({os}/{arch}) failed to install: {e}"
            )),
            Ok(installed) => {
                if !installed.contains(&clean(&p.bin)) {
                    problems.push(format!(
                        "platforms[{i}] ({os}/{arch}): bin {:?} is not installed from the archive (installed: {installed:?})",
                        p.bin
                    ));
                }
                let has_license = installed.iter().any(|f| {
                    let base = f.rsplit('/').next().unwrap_or(f).to_ascii_lowercase();
                    LICENSE_NAMES.contains(&base.as_str())
                });
                if !has_license {
                    problems.push(format!(
                        "platforms[{i}] ({os}/{arch}): LICENSE (or alike) file is not extracted from the archive (installed: {installed:?})"
                    ));
                }
            }
        }
    }

    if problems.is_empty() {
        Ok(plugin)
    } else {
        Err(problems)
    }
}

// ---- This project's archives ----------------------------------------------------------------

pub const BIN: &str = "kubectl-cronjob_doctor";

/// The five platforms the release builds (and the manifest must list, in this order).
pub const RELEASE_PLATFORMS: [(&str, &str); 5] = [
    ("linux", "amd64"),
    ("linux", "arm64"),
    ("darwin", "amd64"),
    ("darwin", "arm64"),
    ("windows", "amd64"),
];

/// What `tools/release/build-archives.sh` puts in an archive for `os`, sorted.
pub fn archive_layout(os: &str) -> Vec<String> {
    let bin = if os == "windows" {
        format!("{BIN}.exe")
    } else {
        BIN.to_string()
    };
    let mut v = vec![bin, "LICENSE".to_string(), "README.md".to_string()];
    v.sort();
    v
}

/// The archive's file name for a version (without `v`) and platform.
pub fn archive_name(version: &str, os: &str, arch: &str) -> String {
    let ext = if os == "windows" { "zip" } else { "tar.gz" };
    format!("{BIN}-{version}-{os}-{arch}.{ext}")
}
