//! `lint -f PATH…`: the CI face of the diagnosis. Exit 0 when nothing reaches --fail-on, 1 when
//! something does, 2 when input could not be read (the rest is still checked and printed).
//!
//! Text and JSON are written one CronJob at a time: each CronJob's report is built, turned
//! into its lines (or JSON), and dropped, so a big input never has its whole report in memory
//! (BENCHMARKS.md, "Big inputs: peak memory"). SARIF and `--write-baseline` need the whole report.
//!
//! With `--baseline FILE`, findings the baseline records are left out (text, JSON) or marked
//! `unchanged` (SARIF), the exit code counts the others alone, and recorded findings that no
//! longer occur are listed on stderr (and as `absent` SARIF results) so the file can shrink.

use doctor::baseline::{Baseline, Matcher};
use doctor::render::{lint, sarif, style::Style};
use doctor::report::{self, CronJobReport, stream, visible};
use doctor::rules::Severity;

use super::plan::{self, Source};
use super::read_files;
use crate::cli::{FailOn, LintArgs, ReportFormat};
use crate::error::exit;
use crate::error::{Error, InputError, OutputError};
use crate::term::{delivered, emit};

/// A baseline file is a list of findings: far below this.
const MAX_BASELINE_SIZE: u64 = 64 << 20;

pub fn run(a: &LintArgs) -> Result<i32, Error> {
    if a.print_config {
        return print_config(a);
    }
    let baseline = a.baseline.as_deref().map(read_baseline).transpose()?;
    let plan = plan::lint(a)?;
    let Source::Files(files) = &plan.source else {
        unreachable!("plan::lint reads files")
    };
    let mut p = read_files::read(&plan, files)?;
    let input_errors = !p.header.errors.is_empty();
    let threshold = match a.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    if let Some(path) = &a.write_baseline {
        return write_baseline(p.into_report(&plan), path, input_errors);
    }
    let mut matcher = baseline.as_ref().map(Matcher::new);
    let drop_known = |cj: &mut CronJobReport, known: &[bool]| {
        let mut i = 0;
        cj.findings.retain(|_| {
            i += 1;
            !known[i - 1]
        });
    };
    // Show warnings even when only errors fail the build; infos only when asked for.
    let show = threshold
        .unwrap_or(Severity::Warning)
        .min(Severity::Warning);
    let at_threshold = |cj: &CronJobReport| {
        threshold.map_or(0, |t| {
            cj.findings.iter().filter(|f| f.severity >= t).count()
        })
    };
    let mut failing = 0;
    let text = match plan.output.format {
        ReportFormat::Json => {
            let opts = p.options(&plan);
            let written = stream::write_json_each(
                &p.header,
                report::cron_job_reports(&p.snapshot, &opts).map(|mut cj| {
                    let k = known(&mut matcher, &cj);
                    drop_known(&mut cj, &k);
                    cj
                }),
                |cj| failing += at_threshold(cj),
                std::io::stdout().lock(),
            );
            delivered(written)?;
            String::new()
        }
        ReportFormat::Sarif => {
            let r = p.into_report(&plan);
            let states: Vec<Vec<bool>> = r
                .cron_jobs
                .iter()
                .map(|cj| known(&mut matcher, cj))
                .collect();
            for (cj, k) in r.cron_jobs.iter().zip(&states) {
                failing += cj
                    .findings
                    .iter()
                    .zip(k)
                    .filter(|(f, known)| !**known && threshold.is_some_and(|t| f.severity >= t))
                    .count();
            }
            let gone = matcher.as_ref().map(Matcher::gone).unwrap_or_default();
            let b = a.baseline.as_ref().map(|file| sarif::BaselineStates {
                known: states,
                gone,
                file: file.clone(),
            });
            sarif::render(
                &r,
                env!("CARGO_PKG_VERSION"),
                &crate::input::reread_for_edits,
                b.as_ref(),
            )
        }
        ReportFormat::Text => {
            // Strings from the input, with control characters made visible.
            visible::make_visible(&mut p.header);
            // Notes (reduced evidence, the instant judged at) go to stderr: stdout stays one
            // line per finding for CI tools to parse.
            for n in &p.header.notes {
                eprintln!("note: {n}");
            }
            let opts = p.options(&plan);
            let mut lines = lint::Lines::new(show);
            for mut cj in report::cron_job_reports(&p.snapshot, &opts) {
                let k = known(&mut matcher, &cj);
                drop_known(&mut cj, &k);
                visible::cron_job_for_terminal(&mut cj);
                failing += at_threshold(&cj);
                lines.add(&cj);
            }
            lines.finish(
                &p.header.errors,
                Style {
                    color: plan.output.color,
                },
            )
        }
    };
    emit(&text);
    if let (Some(m), Some(file)) = (&matcher, &a.baseline) {
        report_gone(m, file);
    }
    Ok(if input_errors {
        exit::TROUBLE
    } else if failing > 0 {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// Which of `cj`'s findings the baseline knows (none without a baseline).
fn known(matcher: &mut Option<Matcher>, cj: &CronJobReport) -> Vec<bool> {
    match matcher.as_mut() {
        Some(m) => cj.findings.iter().map(|f| m.known(cj, f)).collect(),
        None => vec![false; cj.findings.len()],
    }
}

/// Baseline entries that no longer occur, on stderr: the file can shrink.
fn report_gone(m: &Matcher, file: &str) {
    let gone = m.gone();
    if gone.is_empty() {
        return;
    }
    let total: u32 = gone.iter().map(|(_, n)| n).sum();
    eprintln!(
        "baseline {}: {total} recorded finding{} no longer occur{} (write it again with --write-baseline to drop {}):",
        visible::one_line(file),
        if total == 1 { "" } else { "s" },
        if total == 1 { "s" } else { "" },
        if total == 1 { "it" } else { "them" },
    );
    for (e, n) in gone {
        let times = if n > 1 {
            format!(" ×{n}")
        } else {
            String::new()
        };
        eprintln!(
            "  gone: {} {}/{} ({}){times}",
            e.rule,
            visible::one_line(&e.namespace),
            visible::one_line(&e.name),
            visible::one_line(&e.subject)
        );
    }
}

/// Reads and checks `--baseline FILE`.
fn read_baseline(path: &str) -> Result<Baseline, Error> {
    let shown = visible::one_line(path).into_owned();
    let bytes = crate::input::read_file_capped(std::path::Path::new(path), MAX_BASELINE_SIZE)
        .map_err(|e| InputError::BaselineUnreadable {
            shown: shown.clone(),
            source: e,
        })?;
    let text = String::from_utf8(bytes).map_err(|_| InputError::BaselineNotUtf8 {
        shown: shown.clone(),
    })?;
    Baseline::parse(&text).map_err(|error| InputError::BaselineInvalid { shown, error }.into())
}

/// `--write-baseline FILE`: every finding of today with a stable fingerprint, written whole
/// (a temporary file renamed over an old regular file, so a failed write never leaves half a
/// file; a link or a device is written through, never replaced).
fn write_baseline(r: report::Report, path: &str, input_errors: bool) -> Result<i32, Error> {
    let all = r
        .cron_jobs
        .iter()
        .flat_map(|cj| cj.findings.iter().map(move |f| (cj, f)));
    let total = all.clone().count();
    let b = Baseline::of(all);
    let recorded: u32 = b.findings.iter().map(|e| e.count).sum();
    let shown = visible::one_line(path).into_owned();
    let target = std::path::Path::new(path);
    let tmp = target.with_file_name(format!(
        ".{}.tmp",
        target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "baseline".into())
    ));
    // A regular file (or none yet) is replaced whole through a temporary beside it; anything
    // else — a symbolic link, `/dev/stdout`, a FIFO — is written through as it is, never
    // replaced by a file of ours.
    let replace = std::fs::symlink_metadata(target).map_or(true, |m| m.file_type().is_file());
    let written = if replace {
        std::fs::write(&tmp, b.to_text())
            .and_then(|()| std::fs::rename(&tmp, target))
            .inspect_err(|_| {
                let _ = std::fs::remove_file(&tmp);
            })
    } else {
        std::fs::write(target, b.to_text())
    };
    written.map_err(|source| OutputError::Baseline {
        shown: shown.clone(),
        source,
    })?;
    let unstable = total - recorded as usize;
    eprintln!(
        "wrote {shown}: {recorded} finding{} of {} CronJob{}{}",
        if recorded == 1 { "" } else { "s" },
        r.cron_jobs.len(),
        if r.cron_jobs.len() == 1 { "" } else { "s" },
        if unstable > 0 {
            format!(
                "; {unstable} without a stable subject (no field, no schedule) left out: they are always reported"
            )
        } else {
            String::new()
        }
    );
    Ok(if input_errors {
        exit::TROUBLE
    } else {
        exit::OK
    })
}

/// `--print-config`: the settings `lint` runs with, the file's and the flags' together.
fn print_config(a: &LintArgs) -> Result<i32, Error> {
    let mut c = a.config.settings.clone();
    c.fail_on = Some(match a.fail_on {
        FailOn::Never => doctor::config::FailOn::Never,
        FailOn::Info => doctor::config::FailOn::Info,
        FailOn::Warning => doctor::config::FailOn::Warning,
        FailOn::Error => doctor::config::FailOn::Error,
    });
    c.controller_time_zone = Some(a.replay.controller_time_zone.clone());
    c.kube_version = Some(plan::version(&a.replay)?.unwrap_or(doctor::replay::KubeVersion::NEWEST));
    let from = match &a.config.file {
        Some(f) => format!("# from {}\n", visible::one_line(&f.display().to_string())),
        None if a.config.no_config => "# --no-config: defaults and flags only\n".into(),
        None => format!(
            "# no {} found here or above: defaults and flags only\n",
            crate::project::FILE_NAME
        ),
    };
    emit(&(from + &c.to_yaml()));
    Ok(exit::OK)
}
