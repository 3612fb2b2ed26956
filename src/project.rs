//! The project's config file, `.cronjob-doctor.yaml`: found (the current directory, then each
//! parent, like `.hadolint.yaml` or `ruff.toml`), read, and merged into the parsed command
//! line before a command runs. A flag given on the command line wins over the file; the file
//! wins over a flag's default.
//!
//! `lint` takes every setting; `explain`, `scan` and `rules` take the rule severities
//! only (a live diagnosis keeps the cluster's own zone and version).

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use clap::parser::ValueSource;
use doctor::config::file::parse_config;

use crate::cli::{Cli, Command, ConfigArgs, FailOn};
use crate::error::{Error, InputError};

/// The file name looked for.
pub const FILE_NAME: &str = ".cronjob-doctor.yaml";
/// A config file is a few lines; anything this large is not one.
const MAX_SIZE: u64 = 1 << 20;

/// Loads the config for the commands that take one, into their `ConfigArgs`, and applies the
/// file's settings to `lint`'s flags that were not given on the command line.
pub fn resolve(cli: &mut Cli, matches: &ArgMatches) -> Result<(), Error> {
    let sub = matches.subcommand().map(|(_, m)| m);
    let given = |id: &str| {
        sub.is_some_and(|m| {
            m.try_get_raw(id).is_ok_and(|v| v.is_some())
                && m.value_source(id) == Some(ValueSource::CommandLine)
        })
    };
    match &mut cli.command {
        Command::Lint(a) => {
            load(&mut a.config)?;
            let s = a.config.settings.clone();
            if !given("fail_on")
                && let Some(f) = s.fail_on
            {
                a.fail_on = match f {
                    doctor::config::FailOn::Never => FailOn::Never,
                    doctor::config::FailOn::Info => FailOn::Info,
                    doctor::config::FailOn::Warning => FailOn::Warning,
                    doctor::config::FailOn::Error => FailOn::Error,
                };
            }
            if !given("controller_time_zone")
                && let Some(z) = s.controller_time_zone
            {
                a.replay.controller_time_zone = z;
            }
            if a.replay.kube_version.is_none() {
                a.replay.kube_version = s.kube_version.map(|v| v.to_string());
            }
        }
        Command::Explain(a) => severities_only(&mut a.config)?,
        Command::Scan(a) => severities_only(&mut a.config)?,
        Command::Rules(a) => severities_only(&mut a.config)?,
        _ => {}
    }
    Ok(())
}

/// [`load`], keeping only the rule severities: the other settings are `lint`'s.
fn severities_only(args: &mut ConfigArgs) -> Result<(), Error> {
    load(args)?;
    args.settings = doctor::config::Config {
        rules: std::mem::take(&mut args.settings.rules),
        ..Default::default()
    };
    Ok(())
}

/// Finds and reads the config named by `args` (or the nearest `.cronjob-doctor.yaml`).
fn load(args: &mut ConfigArgs) -> Result<(), Error> {
    if args.no_config {
        return Ok(());
    }
    let path = match &args.config {
        Some(p) => PathBuf::from(p),
        None => match std::env::current_dir().ok().and_then(|d| find_upwards(&d)) {
            Some(p) => p,
            None => return Ok(()),
        },
    };
    args.settings = read(&path)?;
    args.file = Some(path);
    Ok(())
}

/// `.cronjob-doctor.yaml` in `dir` or its nearest ancestor that has one.
pub fn find_upwards(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// Reads and checks one config file; every problem as `FILE:LINE:COL: message`.
pub fn read(path: &Path) -> Result<doctor::config::Config, Error> {
    let name = path.display().to_string();
    let bytes = crate::input::read_file_capped(path, MAX_SIZE).map_err(|e| {
        InputError::ConfigUnreadable {
            name: name.clone(),
            source: e,
        }
    })?;
    let text =
        String::from_utf8(bytes).map_err(|_| InputError::ConfigNotUtf8 { name: name.clone() })?;
    parse_config(&text).map_err(|errors| InputError::ConfigInvalid { name, errors }.into())
}

/// The directory the config's path globs are relative to.
pub fn base_dir(args: &ConfigArgs) -> Option<PathBuf> {
    let f = args.file.as_ref()?;
    let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
    Some(if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    })
}
