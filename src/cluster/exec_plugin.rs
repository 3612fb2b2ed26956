//! Exec credential plugins (`users[].user.exec`), run under a guard.
//!
//! kube runs the kubeconfig's plugin itself, synchronously and with no time limit, and its
//! errors quote what the plugin wrote: a plugin that crashed mid-write printed its half
//! credential (`"status":{"token":"…",`) inside a parse error, and a failed plugin became a
//! Rust `Output { stdout: […] }` dump. A plugin blocked on an interactive login held the tool
//! (and every context of a fleet scan) forever.
//!
//! So [`guard`] points the kubeconfig's exec entry at this binary's hidden [`GUARD_ARG`] mode,
//! which kube then runs in the plugin's place ([`run_guard`]): it starts the real plugin with
//! kube's environment, passes its stdout on only when it decodes as an ExecCredential, copies
//! its stderr escaped and bounded, and kills it (and, without a terminal, its whole process
//! group) when it has not answered within the bound. Everything it says names the plugin's
//! command and never quotes its stdout. kube still decides when to run it and caches the
//! credential, so a long-running `monitor` refreshes expiring tokens as before.
//!
//! `error::chain::describe_auth_error` is the one place kube's credential errors become text: it never
//! uses their `Display`, which embeds the plugin's output.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::error::chain::TIMED_OUT;

/// The first argument that puts the binary in guard mode (never shown by `--help`).
pub const GUARD_ARG: &str = "__exec-credential-plugin";

/// How long a plugin may take outside a fleet scan: long enough for a browser or device-code
/// login, short enough that a plugin waiting on nobody does not hold a CI job for its whole
/// timeout. Fleet scans bound it by the context's `--context-timeout` instead.
pub const DEFAULT_BOUND: Duration = Duration::from_secs(120);

/// The exit code of a guard whose plugin wrote something that is not an ExecCredential.
const NOT_A_CREDENTIAL: i32 = 125;
/// The exit code of a guard that could not start the plugin (as a shell's "not found").
const NOT_STARTED: i32 = 127;

/// An ExecCredential is a few kilobytes; past this the plugin is not writing one.
const STDOUT_CAP: usize = 1 << 20;
/// What of a plugin's stderr is copied through: enough for any error message.
const STDERR_CAP: usize = 16 << 10;

/// Point `cfg`'s exec plugin (if it has one) at this binary's guard, which runs the
/// kubeconfig's command with its arguments within `bound`. Without a path to this binary
/// (or one that is not UTF-8, which kube's command field cannot hold) the plugin runs
/// unguarded, as kube would run it.
pub fn guard(cfg: &mut kube::Config, bound: Duration) {
    let Some(exec) = cfg.auth_info.exec.as_mut() else {
        return;
    };
    let Some(command) = exec.command.clone() else {
        return; // kube says "command must be specified"
    };
    let Some(me) = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
    else {
        return;
    };
    let bound_ms = bound.as_millis().max(1).to_string();
    let mut args = vec![GUARD_ARG.to_string(), bound_ms, command];
    args.extend(exec.args.take().unwrap_or_default());
    exec.command = Some(me);
    exec.args = Some(args);
}

/// The guard's own messages start with this, so a reader of a scrolled terminal knows who
/// is speaking between the plugin's lines.
const WHO: &str = "kubectl-cronjob_doctor";

/// Run the guard: `args` are this process's arguments after [`GUARD_ARG`] (bound in
/// milliseconds, the plugin's command, its arguments). Returns the exit code.
pub fn run_guard(args: &[OsString]) -> i32 {
    let (Some(bound), Some(command)) = (
        args.first()
            .and_then(|b| b.to_str())
            .and_then(|b| b.parse::<u64>().ok()),
        args.get(1),
    ) else {
        let _ = writeln!(
            std::io::stderr(),
            "{WHO}: {GUARD_ARG} takes a bound in milliseconds and a command"
        );
        return 2;
    };
    let plugin_args = &args[2..];
    let shown = shown_command(command, plugin_args);
    let bound = Duration::from_millis(bound);
    let own_group = !stdin_is_terminal();
    let mut cmd = Command::new(command);
    cmd.args(plugin_args)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    if own_group {
        // Its own process group, so a timeout ends the plugin's children too. Not with a
        // terminal on stdin: a background group that reads the terminal (a password prompt)
        // is stopped by SIGTTIN, and the plugin must be able to prompt.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            say(&format!(
                "cannot start the exec credential plugin {shown}: {e}"
            ));
            return NOT_STARTED;
        }
    };
    let started = Instant::now();
    let stdout = child.stdout.take().map(|mut out| {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let r = (&mut out).take(STDOUT_CAP as u64 + 1).read_to_end(&mut buf);
            let _ = tx.send(r.map(|_| buf));
        });
        rx
    });
    let stderr_done = child.stderr.take().map(|err| {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            copy_stderr(err);
            let _ = tx.send(());
        });
        rx
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < bound => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(None) => {
                kill(&mut child, own_group);
                say(&format!(
                    "the exec credential plugin {shown} did not answer within {}; it was stopped. It may be waiting for a login: run it by hand, then try again",
                    super::http::humantime(bound)
                ));
                return TIMED_OUT;
            }
            Err(e) => {
                kill(&mut child, own_group);
                say(&format!(
                    "lost track of the exec credential plugin {shown}: {e}"
                ));
                return NOT_STARTED;
            }
        }
    };
    // The plugin has exited; a child it left behind may still hold its pipes open, so the
    // wait for what it wrote is bounded too.
    let left = bound
        .saturating_sub(started.elapsed())
        .max(Duration::from_secs(1));
    if let Some(rx) = stderr_done {
        let _ = rx.recv_timeout(left.min(Duration::from_secs(2)));
    }
    if !status.success() {
        let code = status.code().unwrap_or(1);
        say(&format!(
            "the exec credential plugin {shown} failed ({status}); what it wrote to stdout is not shown, it may hold a credential"
        ));
        return if code == 0 { 1 } else { code };
    }
    let out = match stdout.map(|rx| rx.recv_timeout(left)) {
        Some(Ok(Ok(out))) => out,
        Some(Ok(Err(e))) => {
            say(&format!(
                "cannot read the output of the exec credential plugin {shown}: {e}"
            ));
            return NOT_A_CREDENTIAL;
        }
        Some(Err(_)) | None => {
            say(&format!(
                "the exec credential plugin {shown} exited, but its output did not end (a process it started still holds it open)"
            ));
            return NOT_A_CREDENTIAL;
        }
    };
    if let Err(why) = check_credential(&out) {
        say(&format!(
            "decoding the output of the exec credential plugin {shown}: {why}; the output is not shown, it may hold a credential"
        ));
        return NOT_A_CREDENTIAL;
    }
    let mut so = std::io::stdout().lock();
    if so.write_all(&out).and_then(|()| so.flush()).is_err() {
        return 1;
    }
    0
}

/// Whether `out` decodes as an ExecCredential the way kube reads it (JSON, or the YAML that
/// client-go's decoder also accepts); the reason when not, naming a position and a kind of
/// error but never a byte of the output.
pub fn check_credential(out: &[u8]) -> Result<(), NotACredential> {
    #[derive(serde::Deserialize)]
    struct Credential {
        #[allow(dead_code)]
        status: Option<serde::de::IgnoredAny>,
    }
    if out.len() > STDOUT_CAP {
        return Err(NotACredential::TooLong);
    }
    let json = match serde_json::from_slice::<Credential>(out) {
        Ok(_) => return Ok(()),
        Err(e) => e,
    };
    if serde_saphyr::from_slice::<Credential>(out).is_ok() {
        return Ok(());
    }
    let what = match json.classify() {
        serde_json::error::Category::Eof => "the output ends in the middle of a JSON document",
        serde_json::error::Category::Syntax => "the output is not JSON",
        serde_json::error::Category::Data => "the JSON is not an ExecCredential",
        serde_json::error::Category::Io => "the output could not be read",
    };
    Err(NotACredential::Undecodable {
        what,
        line: json.line(),
        column: json.column(),
    })
}

/// Why a plugin's output is not an ExecCredential: a kind of error and a position, never a
/// byte of the output (serde's own messages may quote it).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotACredential {
    #[error("more than {} KiB of output", STDOUT_CAP >> 10)]
    TooLong,
    #[error("{what} (line {line}, column {column})")]
    Undecodable {
        what: &'static str,
        line: usize,
        column: usize,
    },
}

/// The plugin's command line as the guard's messages show it: the kubeconfig's command and
/// arguments (not its environment, where a plugin's secrets go), escaped.
fn shown_command(command: &OsString, args: &[OsString]) -> String {
    let words = std::iter::once(command)
        .chain(args)
        .map(|w| w.to_string_lossy().into_owned());
    let line = doctor::text::shell_command(words);
    format!("`{}`", doctor::report::visible::one_line(&line))
}

/// Copy the plugin's stderr to ours as it comes (a login prompt must show at once), control
/// characters made visible, at most [`STDERR_CAP`] bytes; the rest is read and dropped so the
/// plugin never blocks on a full pipe.
fn copy_stderr(mut from: impl Read) {
    let mut buf = [0u8; 4096];
    let mut copied = 0usize;
    let mut pending = Vec::new();
    let mut err = std::io::stderr();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if copied >= STDERR_CAP {
            continue;
        }
        pending.extend_from_slice(&buf[..n]);
        // Hold back an incomplete UTF-8 sequence at the end for the next read.
        let valid = match std::str::from_utf8(&pending) {
            Ok(s) => s.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => pending.len(),
        };
        let text = String::from_utf8_lossy(&pending[..valid]).into_owned();
        pending.drain(..valid);
        let room = STDERR_CAP - copied;
        let mut shown = doctor::report::visible::text(&text).into_owned();
        if shown.len() > room {
            let mut cut = room;
            while !shown.is_char_boundary(cut) {
                cut -= 1;
            }
            shown.truncate(cut);
            shown.push_str("\n[… the rest of the plugin's stderr is not shown]\n");
        }
        copied += shown.len();
        let _ = err.write_all(shown.as_bytes());
        let _ = err.flush();
    }
    if !pending.is_empty() && copied < STDERR_CAP {
        let text = String::from_utf8_lossy(&pending).into_owned();
        let _ = err.write_all(doctor::report::visible::text(&text).as_bytes());
    }
}

fn say(message: &str) {
    let _ = writeln!(std::io::stderr(), "{WHO}: {message}");
}

fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
}

/// End the plugin: its whole process group when it has one of its own, else the plugin
/// itself. The guard then exits without waiting for the pipes it held.
fn kill(child: &mut std::process::Child, own_group: bool) {
    #[cfg(unix)]
    if own_group && let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the plugin leads
        // (process_group(0) made its pid the group id); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = own_group;
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_credential_decodes_and_a_cut_one_is_described_without_its_bytes() {
        let whole = br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"s3cr3t"}}"#;
        assert_eq!(check_credential(whole), Ok(()));
        assert_eq!(
            check_credential(b"apiVersion: v1\nkind: ExecCredential\nstatus:\n  token: abc\n"),
            Ok(())
        );
        let cut = br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"s3cr3t-TOKEN-abc123","#;
        let why = check_credential(cut).unwrap_err().to_string();
        assert!(why.contains("ends in the middle"), "{why}");
        for part in ["s3cr3t", "TOKEN", "abc123", "token"] {
            assert!(!why.contains(part), "{why}");
        }
        // A data error (serde_json's would quote the value) is named, not quoted.
        let typed = br#"{"status": "s3cr3t-TOKEN-abc123"} trailing"#;
        let why = check_credential(typed).unwrap_err().to_string();
        assert!(!why.contains("s3cr3t"), "{why}");
        let banner = b"Welcome to the corporate proxy s3cr3t\n{";
        let why = check_credential(banner).unwrap_err().to_string();
        assert!(!why.contains("s3cr3t"), "{why}");
    }

    #[test]
    fn the_shown_command_quotes_what_a_shell_would_need_and_escapes_controls() {
        let s = shown_command(
            &OsString::from("aws"),
            &[
                "eks".into(),
                "get-token".into(),
                "a b".into(),
                "x\u{1b}[2J".into(),
            ],
        );
        assert_eq!(s, "`aws eks get-token 'a b' 'x\\e[2J'`");
    }

    #[test]
    fn guard_wraps_the_command_and_keeps_its_arguments() {
        let mut cfg = kube::Config::new("https://127.0.0.1:1".parse().unwrap());
        cfg.auth_info.exec = Some(
            serde_json::from_value(serde_json::json!({
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": "plugin",
                "args": ["--a", "b"],
            }))
            .unwrap(),
        );
        guard(&mut cfg, Duration::from_secs(5));
        let exec = cfg.auth_info.exec.unwrap();
        assert_eq!(
            exec.command.as_deref(),
            std::env::current_exe().unwrap().to_str()
        );
        assert_eq!(
            exec.args.unwrap(),
            [GUARD_ARG, "5000", "plugin", "--a", "b"].map(String::from)
        );
    }
}
