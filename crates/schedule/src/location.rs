//! Go's `time.LoadLocation`, answered from jiff's bundled tz database only.
//!
//! The bundled database keeps the result independent of the machine running the doctor
//! (the controller's own zoneinfo is not available to us anyway). On Linux, Go resolves
//! a name as a path under `/usr/share/zoneinfo/`, so the lookup here replays that walk
//! over a virtual tree whose files are the bundled zone names and whose directories are
//! their prefixes: names are case-sensitive, `Etc/./UTC` and `Etc//UTC` find `Etc/UTC`,
//! and `America` or `UTC/` fail with the kernel's error text as Go reports it.
//!
//! Not modelled: distribution extras in that directory (`posix/…`, `right/…`,
//! `posixrules`, `localtime`, `zone.tab`, …); they report "unknown time zone".

use std::collections::HashSet;
use std::sync::OnceLock;

use jiff::tz::{TimeZone, TimeZoneDatabase};

use crate::Location;

/// Why Go's `time.LoadLocation` refuses a name; Display is Go's own text, which the
/// controller puts in its events ("provided bad location X: …").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocationError {
    /// Go's `errLocation`: `..` in the name, or a leading slash or backslash.
    InvalidName,
    /// Reading the zone file failed with this errno, which Go reports as is.
    Errno(Errno),
    /// No such zone (ENOENT from every source).
    Unknown { name: String },
}

/// The `syscall.Errno`s a zone lookup can end with besides ENOENT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errno {
    NotDir,
    IsDir,
    NameTooLong,
    Inval,
}

impl std::fmt::Display for LocationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocationError::InvalidName => f.write_str("time: invalid location name"),
            LocationError::Errno(e) => f.write_str(match e {
                Errno::NotDir => "not a directory",
                Errno::IsDir => "is a directory",
                Errno::NameTooLong => "file name too long",
                Errno::Inval => "invalid argument",
            }),
            LocationError::Unknown { name } => write!(f, "unknown time zone {name}"),
        }
    }
}

impl std::error::Error for LocationError {}

/// Go tries `<source> + "/" + name` for its Linux sources in order; only the first
/// exists. Linux refuses paths of PATH_MAX (4096) bytes or more, counting the
/// terminating NUL, and components longer than NAME_MAX.
const ZONEINFO_PREFIX_LEN: usize = "/usr/share/zoneinfo//".len();
/// The second source is absent, but a long enough path fails there before the walk does.
const SECOND_SOURCE_PREFIX_LEN: usize = "/usr/share/lib/zoneinfo//".len();
const PATH_MAX: usize = 4096;
const NAME_MAX: usize = 255;

/// Every directory of the virtual zoneinfo tree ("America", "America/Argentina", …).
fn directories() -> &'static HashSet<String> {
    static DIRS: OnceLock<HashSet<String>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let mut dirs = HashSet::new();
        for name in TimeZoneDatabase::bundled().available() {
            let name = name.as_str();
            for (i, _) in name.match_indices('/') {
                dirs.insert(name[..i].to_owned());
            }
        }
        dirs
    })
}

/// The zone stored under exactly this (already normalised) path, if any.
fn zone_file(path: &str) -> Option<TimeZone> {
    let tz = TimeZoneDatabase::bundled().get(path).ok()?;
    // jiff matches case-insensitively and answers "Etc/Unknown" with a placeholder.
    (!tz.is_unknown() && tz.iana_name() == Some(path)).then_some(tz)
}

/// How opening and reading `<zoneinfo>/<name>` ends.
enum Lookup {
    Found(TimeZone),
    /// ENOENT: Go moves on and finally reports "unknown time zone".
    Missing,
    /// Any other errno, which Go reports as is.
    Failed(Errno),
}

/// Replays the kernel's path walk: empty and `.` components stay put, every component
/// before the last must be a directory, and the last may be a file only when nothing
/// (not even a trailing slash) follows it. A directory opens but cannot be read.
fn walk(name: &str) -> Lookup {
    let parts: Vec<&str> = name.split('/').collect();
    let mut dir = String::new();
    for (i, part) in parts.iter().enumerate() {
        if part.is_empty() || *part == "." {
            continue;
        }
        if part.len() > NAME_MAX {
            return Lookup::Failed(Errno::NameTooLong);
        }
        let path = if dir.is_empty() {
            (*part).to_owned()
        } else {
            format!("{dir}/{part}")
        };
        if directories().contains(&path) {
            dir = path;
        } else if let Some(tz) = zone_file(&path) {
            return if i + 1 == parts.len() {
                Lookup::Found(tz)
            } else {
                Lookup::Failed(Errno::NotDir)
            };
        } else {
            return Lookup::Missing;
        }
    }
    Lookup::Failed(Errno::IsDir)
}

/// Go's `time.LoadLocation`: `Ok(None)` is `time.Local`.
pub(crate) fn load_location(name: &str) -> Result<Option<Location>, LocationError> {
    if name.is_empty() || name == "UTC" {
        return Ok(Some(Location {
            name: "UTC".to_owned(),
            tz: TimeZone::UTC,
        }));
    }
    if name == "Local" {
        return Ok(None);
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err(LocationError::InvalidName);
    }
    // Go refuses a NUL byte before making the system call.
    if name.contains('\0') {
        return Err(LocationError::Errno(Errno::Inval));
    }
    let too_long = |prefix_len: usize| prefix_len + name.len() + 1 > PATH_MAX;
    if too_long(ZONEINFO_PREFIX_LEN) {
        return Err(LocationError::Errno(Errno::NameTooLong));
    }
    // Go reports the first error that is not ENOENT, from any source.
    match walk(name) {
        Lookup::Found(tz) => Ok(Some(Location {
            name: name.to_owned(),
            tz,
        })),
        Lookup::Failed(errno) => Err(LocationError::Errno(errno)),
        Lookup::Missing if too_long(SECOND_SOURCE_PREFIX_LEN) => {
            Err(LocationError::Errno(Errno::NameTooLong))
        }
        Lookup::Missing => Err(LocationError::Unknown {
            name: name.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::load_location;

    fn err(name: &str) -> String {
        load_location(name).unwrap_err().to_string()
    }

    #[test]
    fn special_names() {
        assert_eq!(load_location("").unwrap().unwrap().name, "UTC");
        assert_eq!(load_location("UTC").unwrap().unwrap().name, "UTC");
        assert!(load_location("Local").unwrap().is_none());
        for bad in [
            "../etc/passwd",
            "/etc/localtime",
            "\\x",
            "a..b",
            "America/../UTC",
        ] {
            assert_eq!(err(bad), "time: invalid location name");
        }
    }

    #[test]
    fn lookup_is_case_sensitive_and_exact() {
        let berlin = load_location("Europe/Berlin").unwrap().unwrap();
        assert_eq!(berlin.name, "Europe/Berlin");
        assert_eq!(
            load_location("US/Eastern").unwrap().unwrap().name,
            "US/Eastern"
        );
        for bad in [
            "europe/berlin",
            "utc",
            "Etc/Unknown",
            "Nowhere/Land",
            "local",
            "=UTC",
        ] {
            assert_eq!(err(bad), format!("unknown time zone {bad}"));
        }
    }

    #[test]
    fn names_are_paths() {
        // The given spelling is kept as the location's name, as Go does.
        assert_eq!(
            load_location("Etc/./UTC").unwrap().unwrap().name,
            "Etc/./UTC"
        );
        assert!(load_location("./UTC").unwrap().is_some());
        assert!(load_location("America//New_York").unwrap().is_some());
        assert_eq!(err("America"), "is a directory");
        assert_eq!(err("Europe/"), "is a directory");
        assert_eq!(err("."), "is a directory");
        assert_eq!(err("America/New_York/"), "not a directory");
        assert_eq!(err("UTC/x"), "not a directory");
        assert_eq!(
            err("America/Nowhere/x"),
            "unknown time zone America/Nowhere/x"
        );
        assert_eq!(err("a\0b"), "invalid argument");
        assert_eq!(err(&"x".repeat(256)), "file name too long");
        assert_eq!(err(&"a/".repeat(2100)), "file name too long");
        // Fits the first source's path limit but not the (absent) second source's.
        assert_eq!(
            err(&format!("Nowhere{}", "/x".repeat(2033))),
            "file name too long"
        );
    }
}
