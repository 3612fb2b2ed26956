//! Reading manifests from paths: the only IO of the offline input layer. Parsing itself is
//! `doctor::source` (pure).
//!
//! Each argument is a file, a directory (walked recursively for `.yaml`, `.yml` and `.json`
//! files in sorted, deterministic order, skipping hidden files and directories such as `.git`),
//! or `-` for standard input. A file named explicitly is read whatever its extension. Problems
//! reading a path become `LoadError`s naming the path and the OS error; they never stop the
//! other paths.
//!
//! A directory walk reads regular files only: a FIFO would block forever and a link to a device
//! (`/dev/zero`) would never end, so such entries are skipped with a note. Every input (a file,
//! even one named explicitly, or stdin) is read up to a size cap ([`DEFAULT_MAX_INPUT_SIZE`],
//! raised with `--max-input-size`); a larger one is an error, not an out-of-memory kill.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use doctor::source::{LoadError, Loaded, Note, parse_bytes};

/// How stdin is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// The largest input read by default: 256 MiB (a `kubectl get -A -o yaml` of 400,000 CronJobs).
pub const DEFAULT_MAX_INPUT_SIZE: u64 = 256 << 20;
/// The cap [`load_paths`] applies: set once from `--max-input-size` by the command that reads
/// files, so the shared loading code need not thread it through every caller.
static MAX_INPUT_SIZE: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT_SIZE);
/// The config file's `exclude` globs and the directory they are relative to: files found by
/// walking a directory that match one are not read (a file named explicitly always is). Set
/// once by the command, like the size cap.
static EXCLUDE: std::sync::OnceLock<(PathBuf, Vec<String>)> = std::sync::OnceLock::new();

/// Sets the `exclude` globs of the config file in `dir` (see [`EXCLUDE`]).
pub fn set_exclude(dir: PathBuf, globs: Vec<String>) {
    if !globs.is_empty() {
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let _ = EXCLUDE.set((dir, globs));
    }
}

/// Whether a file found in a directory walk is excluded by the config file.
fn excluded(path: &Path) -> bool {
    let Some((dir, globs)) = EXCLUDE.get() else {
        return false;
    };
    let full = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let Ok(rel) = full.strip_prefix(dir) else {
        return false;
    };
    let rel: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let rel = rel.join("/");
    globs.iter().any(|g| doctor::config::glob_match(g, &rel))
}

/// Why an input could not be read: the OS said no, or it is larger than the cap.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("larger than {} (raise the limit with --max-input-size)", show_size(*max))]
    TooLarge { max: u64 },
}

/// Reads a whole file, refusing one larger than `max` bytes.
pub fn read_file_capped(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let mut f = std::fs::File::open(path)?;
    read_capped(&mut f, max)
}

/// Sets the cap for [`load_paths`] (from `--max-input-size`).
pub fn set_max_input_size(bytes: u64) {
    MAX_INPUT_SIZE.store(bytes, Ordering::Relaxed);
}

/// A file read again for SARIF's edits (the text of the region a fix replaces): only a regular
/// file, within the input size cap. A FIFO or `<(…)` cannot be read twice (a second open would
/// block), so its results simply carry no `fixes`.
pub fn reread_for_edits(path: &str) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_INPUT_SIZE.load(Ordering::Relaxed) {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// Loads every path in order (see the module docs) with the size cap set by
/// [`set_max_input_size`] (default [`DEFAULT_MAX_INPUT_SIZE`]). `-` reads standard input.
pub fn load_paths(paths: &[String]) -> Loaded {
    load_paths_capped(paths, MAX_INPUT_SIZE.load(Ordering::Relaxed))
}

/// [`load_paths`] with a size cap for each input.
pub fn load_paths_capped(paths: &[String], max_size: u64) -> Loaded {
    load_paths_with_stdin(paths, &mut std::io::stdin().lock(), max_size)
}

/// Reads all of `r` unless it holds more than `max` bytes.
fn read_capped(r: &mut dyn Read, max: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    r.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { max });
    }
    Ok(bytes)
}

/// `256 MiB`, `1500 bytes`.
fn show_size(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// [`load_paths`] with standard input and the size cap supplied by the caller (for tests).
pub fn load_paths_with_stdin(paths: &[String], stdin: &mut dyn Read, max_size: u64) -> Loaded {
    let mut loaded = Loaded::default();
    for p in paths {
        if p == "-" {
            match read_capped(stdin, max_size) {
                Ok(bytes) => loaded.extend(parse_bytes(STDIN_NAME, &bytes)),
                Err(e) => loaded.errors.push(LoadError::whole_file(
                    STDIN_NAME,
                    format!("cannot read standard input: {e}"),
                )),
            }
            continue;
        }
        let path = Path::new(p);
        match std::fs::metadata(path) {
            Err(e) => loaded
                .errors
                .push(LoadError::whole_file(p, format!("cannot read: {e}"))),
            Ok(m) if m.is_dir() => {
                let mut files = Vec::new();
                let mut visited = HashSet::new();
                let notes_before = loaded.notes.len();
                walk(path, &mut files, &mut visited, &mut loaded);
                let skipped = loaded.notes.len() - notes_before;
                if files.is_empty() && skipped == 0 {
                    loaded.notes.push(Note::whole_file(
                        p,
                        "no .yaml, .yml or .json files in this directory",
                    ));
                }
                for f in files {
                    load_file(&f, &mut loaded, max_size);
                }
            }
            // Named explicitly: read whatever it is (`-f <(kubectl get …)` is a FIFO), capped.
            Ok(_) => load_file(path, &mut loaded, max_size),
        }
    }
    loaded
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn load_file(path: &Path, loaded: &mut Loaded, max_size: u64) {
    let name = display(path);
    let bytes = std::fs::File::open(path)
        .map_err(ReadError::from)
        .and_then(|mut f| read_capped(&mut f, max_size));
    match bytes {
        Ok(bytes) => loaded.extend(parse_bytes(&name, &bytes)),
        Err(e) => loaded
            .errors
            .push(LoadError::whole_file(&name, format!("cannot read: {e}"))),
    }
}

fn is_manifest(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["yaml", "yml", "json"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

/// Collects manifest files under `dir` in sorted order. Symbolic links are followed; a
/// directory already visited (a link cycle) is skipped.
fn walk(dir: &Path, files: &mut Vec<PathBuf>, visited: &mut HashSet<PathBuf>, loaded: &mut Loaded) {
    let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !visited.insert(key) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            loaded.errors.push(LoadError::whole_file(
                &display(dir),
                format!("cannot read directory: {e}"),
            ));
            return;
        }
    };
    let mut children: Vec<PathBuf> = Vec::new();
    for entry in entries {
        match entry {
            Ok(e) => children.push(e.path()),
            Err(e) => loaded.errors.push(LoadError::whole_file(
                &display(dir),
                format!("cannot read directory: {e}"),
            )),
        }
    }
    children.sort();
    for child in children {
        if is_hidden(&child) {
            continue;
        }
        match std::fs::metadata(&child) {
            Ok(m) if m.is_dir() => walk(&child, files, visited, loaded),
            Ok(m) if m.is_file() && is_manifest(&child) => {
                if !excluded(&child) {
                    files.push(child);
                }
            }
            Ok(_) if is_manifest(&child) => loaded.notes.push(Note::whole_file(
                &display(&child),
                "skipped: not a regular file (a FIFO, socket or device is never read from a directory)",
            )),
            Ok(_) => {}
            Err(e) if is_manifest(&child) => {
                loaded.errors.push(LoadError::whole_file(
                    &display(&child),
                    format!("cannot read: {e}"),
                ));
            }
            Err(_) => {} // e.g. a dangling symlink to something that is not a manifest
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CJ: &str = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: NAME}\nspec: {schedule: '* * * * *'}\n";

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "cronjob-doctor-input-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// `path` read as `-f path` reads it, nothing on stdin.
    fn load(path: &Path) -> Loaded {
        load_paths_with_stdin(
            &[display(path)],
            &mut std::io::empty(),
            DEFAULT_MAX_INPUT_SIZE,
        )
    }

    fn write(path: &Path, name: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, CJ.replace("NAME", name)).unwrap();
    }

    #[test]
    fn directories_are_walked_sorted_skipping_hidden_and_other_files() {
        let d = tmp("walk");
        write(&d.join("b.yaml"), "b");
        write(&d.join("a/z.yml"), "az");
        write(&d.join("a/y.JSON"), "ay"); // YAML content in a .JSON file is fine
        write(&d.join(".git/x.yaml"), "hidden-dir");
        write(&d.join(".hidden.yaml"), "hidden-file");
        write(&d.join("notes.txt"), "txt");
        let l = load(&d);
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        let names: Vec<_> = l.cron_jobs.iter().map(|c| c.meta.name.as_str()).collect();
        assert_eq!(names, ["ay", "az", "b"]);
        let file = &l.cron_jobs[2].origin.as_ref().unwrap().file;
        assert!(file.ends_with("b.yaml"), "{file}");
        // A file named explicitly is read whatever its extension.
        let l = load(&d.join("notes.txt"));
        assert_eq!(l.cron_jobs[0].meta.name, "txt");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn stdin_and_unreadable_paths() {
        let mut stdin = CJ.replace("NAME", "from-stdin").into_bytes();
        let missing = "/nonexistent/cronjob-doctor/x.yaml".to_string();
        let l = load_paths_with_stdin(
            &["-".to_string(), missing.clone()],
            &mut stdin.as_slice(),
            DEFAULT_MAX_INPUT_SIZE,
        );
        assert_eq!(l.cron_jobs[0].meta.name, "from-stdin");
        assert_eq!(l.cron_jobs[0].origin.as_ref().unwrap().file, STDIN_NAME);
        assert_eq!(l.errors.len(), 1);
        let e = l.errors[0].to_string();
        assert!(e.starts_with(&format!("{missing}: cannot read: ")), "{e}");
        stdin.clear();
    }

    #[test]
    fn empty_directory_gets_a_note() {
        let d = tmp("empty");
        let l = load(&d);
        assert!(l.errors.is_empty());
        assert_eq!(l.notes.len(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_walk_skips_fifos_and_devices_with_a_note() {
        let d = tmp("special");
        write(&d.join("a.yaml"), "a");
        let fifo = d.join("fifo.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        std::os::unix::fs::symlink("/dev/zero", d.join("zero.yaml")).unwrap();
        // Before: the FIFO blocked forever and /dev/zero was read until memory ran out.
        let l = load(&d);
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        let names: Vec<_> = l.cron_jobs.iter().map(|c| c.meta.name.as_str()).collect();
        assert_eq!(names, ["a"]);
        let notes: Vec<String> = l.notes.iter().map(ToString::to_string).collect();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].ends_with("fifo.yaml: skipped: not a regular file (a FIFO, socket or device is never read from a directory)"), "{notes:?}");
        assert!(
            notes[1].contains("zero.yaml: skipped: not a regular file"),
            "{notes:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_named_explicitly_stops_at_the_cap() {
        let l = load_paths_with_stdin(&["/dev/zero".to_string()], &mut std::io::empty(), 4096);
        assert_eq!(l.errors.len(), 1);
        assert_eq!(
            l.errors[0].to_string(),
            "/dev/zero: cannot read: larger than 4 KiB (raise the limit with --max-input-size)"
        );
    }

    #[test]
    fn stdin_is_capped_too() {
        let big = format!("{}---\n", CJ.replace("NAME", "x")).repeat(100);
        let l = load_paths_with_stdin(&["-".to_string()], &mut big.as_bytes(), 1024);
        assert_eq!(l.errors.len(), 1);
        assert!(
            l.errors[0].to_string().contains("larger than 1 KiB"),
            "{:?}",
            l.errors
        );
        let l = load_paths_with_stdin(&["-".to_string()], &mut big.as_bytes(), big.len() as u64);
        assert!(l.errors.is_empty());
        assert_eq!(l.cron_jobs.len(), 100);
    }

    #[test]
    fn sizes_show_in_binary_units() {
        assert_eq!(show_size(DEFAULT_MAX_INPUT_SIZE), "256 MiB");
    }
}
