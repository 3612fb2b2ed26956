//! Reading manifests from paths: the only IO of the offline input layer. Parsing itself is
//! `doctor::source` (pure).
//!
//! Each argument is a file, a directory (walked recursively for `.yaml`, `.yml` and `.json`
//! files in sorted, deterministic order, skipping hidden files and directories such as `.git`),
//! or `-` for standard input. A file named explicitly is read whatever its extension. Problems
//! reading a path become `LoadError`s naming the path and the OS error; they never stop the
//! other paths.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use doctor::source::{LoadError, Loaded, Note, parse_bytes};

/// How stdin is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Loads every path in order (see the module docs). `-` reads standard input.
pub fn load_paths(paths: &[String]) -> Loaded {
    load_paths_with_stdin(paths, &mut std::io::stdin().lock())
}

/// [`load_paths`] with standard input supplied by the caller (for tests).
pub fn load_paths_with_stdin(paths: &[String], stdin: &mut dyn Read) -> Loaded {
    let mut loaded = Loaded::default();
    for p in paths {
        if p == "-" {
            let mut bytes = Vec::new();
            match stdin.read_to_end(&mut bytes) {
                Ok(_) => loaded.extend(parse_bytes(STDIN_NAME, &bytes)),
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
                walk(path, &mut files, &mut visited, &mut loaded);
                if files.is_empty() {
                    loaded.notes.push(Note::whole_file(
                        p,
                        "no .yaml, .yml or .json files in this directory",
                    ));
                }
                for f in files {
                    load_file(&f, &mut loaded);
                }
            }
            Ok(_) => load_file(path, &mut loaded),
        }
    }
    loaded
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn load_file(path: &Path, loaded: &mut Loaded) {
    let name = display(path);
    match std::fs::read(path) {
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
            Ok(_) if is_manifest(&child) => files.push(child),
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
        let l = load_paths_with_stdin(&[display(&d)], &mut std::io::empty());
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        let names: Vec<_> = l.cron_jobs.iter().map(|c| c.meta.name.as_str()).collect();
        assert_eq!(names, ["ay", "az", "b"]);
        let file = &l.cron_jobs[2].origin.as_ref().unwrap().file;
        assert!(file.ends_with("b.yaml"), "{file}");
        // A file named explicitly is read whatever its extension.
        let l = load_paths_with_stdin(&[display(&d.join("notes.txt"))], &mut std::io::empty());
        assert_eq!(l.cron_jobs[0].meta.name, "txt");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn stdin_and_unreadable_paths() {
        let mut stdin = CJ.replace("NAME", "from-stdin").into_bytes();
        let missing = "/nonexistent/cronjob-doctor/x.yaml".to_string();
        let l = load_paths_with_stdin(&["-".to_string(), missing.clone()], &mut stdin.as_slice());
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
        let l = load_paths_with_stdin(&[display(&d)], &mut std::io::empty());
        assert!(l.errors.is_empty());
        assert_eq!(l.notes.len(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }
}
