//! Generated files must match what the binary generates. Run with `UPDATE_GENERATED=1` to
//! rewrite them after an intended change, then review the diff.

use std::path::Path;

fn check(path: &str, fresh: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == fresh,
        "{path} is out of date: run `UPDATE_GENERATED=1 cargo test --test integration generated_docs::` and commit the result"
    );
}

#[test]
fn rules_catalogue_matches_the_registry() {
    check("docs/rules.md", &doctor::render::catalogue::markdown());
}

/// What the binary prints for `args` (it must succeed and say nothing on stderr).
fn printed_by(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .args(args)
        .env_remove("COLUMNS")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `completion SHELL` → the committed file (`kubectl` is the helper kubectl itself runs).
const COMPLETIONS: [(&str, &str); 6] = [
    ("bash", "completions/kubectl-cronjob_doctor.bash"),
    ("zsh", "completions/_kubectl-cronjob_doctor"),
    ("fish", "completions/kubectl-cronjob_doctor.fish"),
    ("powershell", "completions/_kubectl-cronjob_doctor.ps1"),
    ("elvish", "completions/kubectl-cronjob_doctor.elv"),
    ("kubectl", "completions/kubectl_complete-cronjob_doctor"),
];

#[test]
fn completion_scripts_match_the_binary() {
    for (shell, path) in COMPLETIONS {
        check(path, &printed_by(&["completion", shell]));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    present.sort();
    let mut expected: Vec<String> = COMPLETIONS
        .iter()
        .map(|(_, p)| p.trim_start_matches("completions/").to_string())
        .collect();
    expected.sort();
    assert_eq!(
        present, expected,
        "completions/ holds exactly the generated files"
    );

    // kubectl runs the helper by name from the PATH: it has to be executable.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let helper = dir.join("kubectl_complete-cronjob_doctor");
        if std::env::var_os("UPDATE_GENERATED").is_some() {
            std::fs::set_permissions(&helper, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let mode = std::fs::metadata(&helper).unwrap().permissions().mode();
        assert!(
            mode & 0o111 == 0o111,
            "completions/kubectl_complete-cronjob_doctor must be executable (chmod +x)"
        );
    }
}

#[test]
fn man_page_matches_the_binary() {
    let page = printed_by(&["man"]);
    check("docs/kubectl-cronjob_doctor.1", &page);
    // One page for everything: a subsection per visible command, and no git commit (it would
    // make the committed page change with every commit).
    for cmd in ["explain", "lint", "next", "rules", "version", "completion"] {
        assert!(
            page.contains(&format!(".SS {cmd}\n")),
            "the man page lacks the {cmd} command"
        );
    }
    assert!(
        !page.contains("(commit "),
        "the man page must not carry the git commit"
    );
    assert!(page.starts_with(".ie \\n(.g .ds Aq"), "roff preamble first");
    assert_eq!(page.matches(".ds Aq").count(), 2, "the preamble once");
}
