//! Object names and namespaces as the API server validates them, checked before any request
//! is made: a name that the server would never have accepted cannot name an existing object,
//! and checking it here keeps hostile input (`#`, `?`, `/`, `..`, `%`) out of request paths.
//!
//! The rules (apimachinery's `IsDNS1123Subdomain` / `IsDNS1123Label`):
//! - CronJob, Job and Pod names are DNS-1123 subdomains: at most 253 characters, lower-case
//!   alphanumerics, `-` and `.`, each dot-separated part starting and ending alphanumeric.
//!   (The API server limits a *new* CronJob's name to 52 characters, but objects created
//!   before that rule, or restored, are read by any valid subdomain name, so reads accept
//!   the subdomain length.)
//! - Namespaces are DNS-1123 labels: at most 63 characters, lower-case alphanumerics and `-`,
//!   starting and ending alphanumeric.
//! - Service names are DNS-1035 labels: a DNS-1123 label that starts with a letter.

/// Longest DNS-1123 subdomain.
pub const SUBDOMAIN_MAX: usize = 253;
/// Longest DNS-1123 label.
pub const LABEL_MAX: usize = 63;

/// What a checked string is, for the message (`CronJob name`, `namespace`, `--job-name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    CronJob,
    Job,
    Pod,
    Namespace,
    Service,
}

impl NameKind {
    fn describe(self) -> &'static str {
        match self {
            NameKind::CronJob => "CronJob name",
            NameKind::Job => "Job name",
            NameKind::Pod => "Pod name",
            NameKind::Namespace => "namespace",
            NameKind::Service => "Service name",
        }
    }
}

/// A rejected name: what it was meant to be, the value (shown escaped and shortened), and the
/// rule it breaks, worded like the API server's own message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidName {
    pub kind: NameKind,
    pub value: String,
    pub reason: String,
}

impl std::fmt::Display for InvalidName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "invalid {} {}: {}",
            self.kind.describe(),
            shown(&self.value),
            self.reason
        )
    }
}

impl std::error::Error for InvalidName {}

/// The value quoted with control characters escaped (never raw on a terminal), cut after 64
/// characters so a 300-character name does not flood the message.
fn shown(v: &str) -> String {
    const SHOWN_MAX: usize = 64;
    let count = v.chars().count();
    if count <= SHOWN_MAX {
        return format!("{v:?}");
    }
    let head: String = v.chars().take(SHOWN_MAX).collect();
    format!("{head:?}… ({count} characters)")
}

const SUBDOMAIN_RULE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')";
const LABEL_RULE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc')";

fn alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, without the length rule.
fn label_chars(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            alnum(first) && alnum(last) && b.iter().all(|&c| alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// `<prefix>-<digits>` → prefix: the names the controller gives its Jobs (the CronJob's
/// name, then its scheduled time as a number).
pub fn digits_suffix(name: &str) -> Option<&str> {
    let (prefix, d) = name.rsplit_once('-')?;
    (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())).then_some(prefix)
}

/// Whether `s` is a DNS-1123 subdomain.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= SUBDOMAIN_MAX && s.split('.').all(label_chars)
}

/// Whether `s` is a DNS-1123 label.
pub fn is_dns1123_label(s: &str) -> bool {
    s.len() <= LABEL_MAX && label_chars(s)
}

fn check(kind: NameKind, s: &str, label: bool) -> Result<(), InvalidName> {
    let (max, rule, ok) = if label {
        (LABEL_MAX, LABEL_RULE, is_dns1123_label(s))
    } else {
        (SUBDOMAIN_MAX, SUBDOMAIN_RULE, is_dns1123_subdomain(s))
    };
    if ok {
        return Ok(());
    }
    let reason = if s.is_empty() {
        "it is empty".to_string()
    } else if s.len() > max {
        format!("must be no more than {max} characters (it has {})", s.len())
    } else {
        rule.to_string()
    };
    Err(InvalidName {
        kind,
        value: s.to_string(),
        reason,
    })
}

/// A CronJob name that can name an existing object.
pub fn cron_job_name(s: &str) -> Result<(), InvalidName> {
    check(NameKind::CronJob, s, false)
}

/// A Job name (`trigger --job-name`, a Job followed by `--wait`).
pub fn job_name(s: &str) -> Result<(), InvalidName> {
    check(NameKind::Job, s, false)
}

/// A Pod name.
pub fn pod_name(s: &str) -> Result<(), InvalidName> {
    check(NameKind::Pod, s, false)
}

/// A namespace (`-n`, or the kubeconfig context's).
pub fn namespace(s: &str) -> Result<(), InvalidName> {
    check(NameKind::Namespace, s, true)
}

const DNS1035_RULE: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123')";

/// A Service name (`explain --monitor NS/SERVICE`): a DNS-1035 label.
pub fn service_name(s: &str) -> Result<(), InvalidName> {
    check(NameKind::Service, s, true)?;
    if s.as_bytes()[0].is_ascii_lowercase() {
        Ok(())
    } else {
        Err(InvalidName {
            kind: NameKind::Service,
            value: s.to_string(),
            reason: DNS1035_RULE.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn service_names_are_dns1035_labels() {
        assert!(service_name("cronjob-doctor").is_ok());
        for bad in [
            "1abc",
            "",
            "a.b",
            "Abc",
            "a-",
            &"a".repeat(64),
            "a/b",
            "a:1",
        ] {
            assert!(service_name(bad).is_err(), "{bad:?}");
        }
        assert!(
            service_name("9x")
                .unwrap_err()
                .to_string()
                .contains("start with an alphabetic character")
        );
    }

    #[test]
    fn valid_names_pass() {
        for n in [
            "backup",
            "a",
            "0",
            "rotate-logs",
            "db.backup-1",
            "a-b.c-d.e",
        ] {
            assert_eq!(cron_job_name(n), Ok(()), "{n}");
        }
        for n in ["ops", "kube-system", "a", "x1"] {
            assert_eq!(namespace(n), Ok(()), "{n}");
        }
        assert_eq!(cron_job_name(&"a".repeat(253)), Ok(()));
        assert_eq!(namespace(&"a".repeat(63)), Ok(()));
    }

    #[test]
    fn hostile_names_are_refused() {
        for n in [
            "",
            "rotate-logs#",
            "rotate-logs?x=",
            "a/../b",
            "..",
            ".",
            "%2F",
            "Backup",
            "back up",
            "-a",
            "a-",
            "a..b",
            ".a",
            "a.",
            "café",
            "a\u{1b}]0;x\u{7}",
        ] {
            assert!(cron_job_name(n).is_err(), "{n:?}");
            assert!(namespace(n).is_err(), "{n:?}");
        }
        assert!(namespace("platform/../kube-system").is_err());
        assert!(namespace("db.ops").is_err(), "labels have no dots");
        assert!(cron_job_name(&"a".repeat(254)).is_err());
        assert!(namespace(&"a".repeat(64)).is_err());
    }

    #[test]
    fn messages_say_what_and_why_without_raw_control_characters() {
        let e = cron_job_name("rotate-logs#").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("invalid CronJob name \"rotate-logs#\": {SUBDOMAIN_RULE}")
        );
        assert_eq!(
            namespace("").unwrap_err().to_string(),
            "invalid namespace \"\": it is empty"
        );
        let long = cron_job_name(&"a".repeat(300)).unwrap_err().to_string();
        assert!(long.contains("(300 characters)"), "{long}");
        assert!(
            long.contains("must be no more than 253 characters"),
            "{long}"
        );
        let esc = cron_job_name("x\u{1b}[2J").unwrap_err().to_string();
        assert!(!esc.contains('\u{1b}'), "{esc}");
        assert_eq!(
            job_name("A").unwrap_err().to_string(),
            format!("invalid Job name \"A\": {SUBDOMAIN_RULE}")
        );
        assert!(pod_name("p-1").is_ok());
    }

    proptest! {
        /// Whatever is accepted is safe as a URL path segment: no character that a path, a
        /// query or a fragment would read specially, no `.`/`..` segment.
        #[test]
        fn accepted_names_are_plain_path_segments(s in "\\PC{0,300}") {
            if cron_job_name(&s).is_ok() || namespace(&s).is_ok() {
                prop_assert!(!s.is_empty() && s.len() <= SUBDOMAIN_MAX);
                prop_assert!(s != "." && s != "..");
                prop_assert!(s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.'));
            }
        }

        /// The generated valid forms are accepted.
        #[test]
        fn generated_subdomains_pass(s in "[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?){0,3}") {
            prop_assert!(cron_job_name(&s).is_ok(), "{}", s);
        }

        #[test]
        fn generated_labels_pass(s in "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?") {
            prop_assert!(namespace(&s).is_ok(), "{}", s);
        }

        /// A namespace is also a valid subdomain (labels are the stricter rule).
        #[test]
        fn labels_are_subdomains(s in "[a-z0-9.\\-]{0,70}") {
            if namespace(&s).is_ok() {
                prop_assert!(cron_job_name(&s).is_ok());
            }
        }
    }
}
