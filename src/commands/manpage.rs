//! `man` (hidden): the manual page, generated from the clap definitions with clap_mangen so it
//! cannot drift from `--help`. One page, `kubectl-cronjob_doctor(1)`: the top-level sections,
//! then one COMMANDS subsection per command with its synopsis, description and options, then
//! the exit status. Committed as `docs/kubectl-cronjob_doctor.1` (tests/generated_docs.rs
//! fails when it differs); `kubectl cronjob-doctor man | man -l -` reads it without installing.
//!
//! The version line carries only the version, never the git commit, so the committed page does
//! not change with every commit.

use clap::CommandFactory;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

use crate::error::exit;
use crate::term::emit;

const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Nothing stops a CronJob from running (explain, scan); nothing at or above --fail-on (lint); the schedule is valid (next).",
    ),
    (
        "1",
        "A CronJob has an error-level finding (explain, scan); something reaches --fail-on (lint); robfig/cron rejects the schedule (next).",
    ),
    (
        "2",
        "The tool could not do its job: a bad flag, unreadable input (the rest is still checked), an unreachable or refusing API server.",
    ),
];

const SEE_ALSO: &str = "kubectl(1). The findings catalogue: docs/rules.md, or `kubectl cronjob-doctor rules`. \
Permissions: deploy/rbac/. Home page: https://github.com/cronjob-doctor/kubectl-cronjob-doctor";

/// Render a section of one command's page for use inside its COMMANDS subsection: its
/// `.SH OPTIONS`/`.SH SYNOPSIS`/... heading goes, other headings (an option group such as
/// CLUSTER) become a bold line, and a paragraph break ends it. `verbatim` keeps the lines as
/// written (no filling), for the after-help blocks of commands to copy.
fn subsection(verbatim: bool, render: impl Fn(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    const OWN: [&str; 4] = [
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH OPTIONS",
        ".SH EXTRA",
    ];
    let mut out = Vec::new();
    render(&mut out).expect("writing to memory");
    let mut text = String::from(if verbatim { ".nf\n" } else { "" });
    for line in String::from_utf8(out).expect("roff is UTF-8").lines() {
        if OWN.contains(&line) {
            continue;
        }
        match line.strip_prefix(".SH ") {
            Some(group) => text.push_str(&format!(".PP\n.B {group}\n")),
            None => text.push_str(&format!("{line}\n")),
        }
    }
    text.push_str(if verbatim { ".fi\n.PP\n" } else { ".PP\n" });
    text
}

pub fn page() -> String {
    // The short version only: the long one names the commit.
    let mut cmd = crate::cli::Cli::command()
        .long_version(None::<&str>)
        .disable_help_subcommand(true);
    cmd.build();
    let man = Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out).unwrap();
    man.render_name_section(&mut out).unwrap();
    man.render_synopsis_section(&mut out).unwrap();
    man.render_description_section(&mut out).unwrap();
    man.render_options_section(&mut out).unwrap();

    let mut roff = Roff::default();
    roff.control("SH", ["COMMANDS"]);
    let mut page = String::from_utf8(out).unwrap();
    page.push_str(&roff.render());
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut heading = Roff::default();
        heading.control("SS", [sub.get_name()]);
        page.push_str(&heading.render());
        let sub_man = Man::new(sub.clone());
        page.push_str(&subsection(false, |w| sub_man.render_synopsis_section(w)));
        page.push_str(&subsection(false, |w| {
            sub_man.render_description_section(w)
        }));
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            page.push_str(&subsection(false, |w| sub_man.render_options_section(w)));
        }
        if sub.get_after_long_help().is_some() {
            page.push_str(&subsection(true, |w| sub_man.render_extra_section(w)));
        }
    }

    let mut tail = Roff::default();
    tail.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in EXIT_STATUS {
        tail.control("TP", []);
        tail.text([bold(*code)]);
        tail.text([roman(*meaning)]);
    }
    tail.control("SH", ["SEE ALSO"]);
    tail.text([roman(SEE_ALSO)]);
    page.push_str(&tail.render());
    let mut version = Vec::new();
    man.render_version_section(&mut version).unwrap();
    page.push_str(&String::from_utf8(version).unwrap());
    once_preamble(&page)
}

/// Each roff render starts with the same two-line apostrophe preamble; keep the first.
fn once_preamble(page: &str) -> String {
    let mut seen = false;
    let mut out = String::new();
    let mut lines = page.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with(".ie \\n(.g .ds Aq")
            && lines.peek().is_some_and(|l| l.starts_with(".el .ds Aq"))
        {
            lines.next();
            if !seen {
                out.push_str(line);
                out.push_str("\n.el .ds Aq '\n");
            }
            seen = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

pub fn run() -> i32 {
    emit(&page());
    exit::OK
}
