//! Credentials never printed: the userinfo of cluster URLs (`https://admin:SECRET@host`) is
//! remembered when a kubeconfig is read and removed from every message that might quote it.
//! A leaf, so errors can scrub their messages when they are displayed (`error`), long after
//! the kubeconfig was read (`cluster::config`).

use std::sync::Mutex;

/// The exact userinfo strings of the cluster URLs in use (`admin:p,(x)'!S3cr`), taken from the
/// parsed URL: [`redact_userinfo`] removes them wherever they appear, since a password may hold
/// characters (`' ( ) ,`) that the prose scan below takes for the end of a URL.
static SECRETS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Remember `userinfo` (and its percent-decoded form) as text never to print.
pub(crate) fn forget_on_print(userinfo: &str) {
    if userinfo.is_empty() {
        return;
    }
    let mut secrets = SECRETS.lock().unwrap_or_else(|e| e.into_inner());
    let decoded = percent_decoded(userinfo);
    for s in [userinfo.to_string(), decoded] {
        if !secrets.contains(&s) {
            secrets.push(s);
        }
    }
    // Longest first, so a secret that contains another is replaced whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

pub(crate) fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex),
                b.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The userinfo of a server URL as the kubeconfig spells it, before (or without) parsing:
/// the authority runs from `://` to the first `/`, `?` or `#`, which a userinfo cannot hold
/// unencoded.
pub(crate) fn userinfo_in_text(server: &str) -> Option<&str> {
    let start = server.find("://")? + 3;
    let rest = &server[start..];
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    authority.rfind('@').map(|at| &authority[..at])
}

/// `text` with the userinfo of the cluster URL in use (exactly as parsed) and of every other
/// URL in it (`https://admin:SECRET@host`) replaced by `REDACTED`: a kubeconfig may carry
/// credentials in its server URL, and every message that names the server, or passes on an
/// error that does, must not print them.
pub fn redact_userinfo(text: &str) -> String {
    let mut text = text.to_string();
    for secret in SECRETS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        if text.contains(secret.as_str()) {
            text = text.replace(secret.as_str(), "REDACTED");
        }
    }
    redact_url_userinfo(&text)
}

/// The prose scan: a best effort for URLs that are not the cluster's.
fn redact_url_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        // The authority ends at the path, query or fragment, or where the URL ends in prose.
        let end = tail
            .find(|c: char| {
                matches!(
                    c,
                    '/' | '?' | '#' | '"' | '\'' | '(' | ')' | '<' | '>' | ','
                ) || c.is_whitespace()
            })
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(at) => {
                out.push_str("REDACTED");
                out.push_str(&authority[at..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}
