//! An error and its causes as one line (`a: b: c`), each cause said once; a credential
//! plugin's failure in safe words, never with what the plugin wrote.

use kube::client::AuthError;

/// The exit code the exec plugin guard (`cluster::exec_plugin`) gives a plugin that did not
/// answer in time (as `timeout(1)` does); kube passes it on in its error.
pub const TIMED_OUT: i32 = 124;

/// `a: b: c` from an error and its sources, without repeating a message a wrapper already
/// includes (kube's errors print their source inline).
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    // A credential error's text embeds what the exec plugin wrote, and every error around it
    // repeats that text: the chain is said by the credential error alone, in safe words.
    let mut link = Some(e);
    while let Some(l) = link {
        if let Some(auth) = l.downcast_ref::<kube::client::AuthError>() {
            return describe_auth_error(auth);
        }
        link = l.source();
    }
    let mut out = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        let m = s.to_string();
        if !out.contains(&m) {
            out.push_str(": ");
            out.push_str(&m);
        }
        src = s.source();
    }
    out
}

/// kube's credential error as one safe sentence: which step failed and, for a plugin that
/// exited non-zero, the last lines of what the guard (or the plugin) wrote to stderr, escaped
/// and bounded. Never the error's `Display`, which embeds the plugin's stdout, the `Debug`
/// of its `Output`, and the command with its environment.
pub fn describe_auth_error(e: &AuthError) -> String {
    match e {
        AuthError::AuthExecRun { out, .. } => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = tail[tail.len().saturating_sub(3)..].join(" / ");
            let tail = doctor::report::visible::one_line(&tail);
            let tail = if tail.chars().count() > 600 {
                let cut: String = tail.chars().take(600).collect();
                format!("{cut}…")
            } else {
                tail.into_owned()
            };
            let status = match out.status.code() {
                Some(TIMED_OUT) => "did not answer in time".to_string(),
                Some(c) => format!("failed with exit code {c}"),
                None => "was killed by a signal".to_string(),
            };
            if tail.is_empty() {
                format!(
                    "the exec credential plugin {status} (its messages, if any, are above; run it by hand to see its error)"
                )
            } else {
                format!("the exec credential plugin {status}: {tail}")
            }
        }
        AuthError::AuthExecParse(_) => "decoding the exec credential plugin's output failed: it is not an ExecCredential (the output is not shown, it may hold a credential)".to_string(),
        AuthError::AuthExecStart(io) => format!("cannot start the exec credential plugin: {io}"),
        AuthError::AuthExec(_) => "the exec credential plugin failed (its output is not shown, it may hold a credential); run it by hand to see its error".to_string(),
        AuthError::ParseTokenKey(_) => "the auth provider's token could not be read from its command's output (not shown, it may hold a credential)".to_string(),
        AuthError::ExecPluginFailed => "the exec credential plugin's answer holds no status (no credential)".to_string(),
        other => other.to_string(),
    }
}
