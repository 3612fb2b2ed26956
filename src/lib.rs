//! The CLI as a library, so the tests in `tests/` and the fuzz targets in `fuzz/` can drive the
//! real clap parser (`cli::Cli::try_parse_from`) without starting a process. `main.rs` is only
//! the entry point; everything else lives here, private unless a test needs it.

mod actions;
pub mod allocator;
pub mod cli;
mod cluster;
mod commands;
pub mod error;
pub mod flag_check;
mod input;
mod monitor;
mod project;
mod redact;
mod term;
mod version;

/// The flags' ranges (`cli::ranges`), under the name the tests and fuzz targets know.
pub use cli::ranges as flag_ranges;

pub use error::exit;

/// Parse the process's arguments, run the command, print errors once, and return the exit
/// code (0 ok, 1 findings / rejected input, 2 could not do the job).
pub fn run_from_env() -> std::process::ExitCode {
    // Exit codes are 0, 1 and 2: they fit a byte.
    std::process::ExitCode::from(u8::try_from(run()).unwrap_or(2))
}

fn run() -> i32 {
    // kube runs exec credential plugins through this binary (cluster::exec_plugin): that
    // mode is not a command of the CLI, and takes its arguments as they are.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args
        .get(1)
        .is_some_and(|a| a == cluster::exec_plugin::GUARD_ARG)
    {
        return cluster::exec_plugin::run_guard(&args[2..]);
    }
    let parsed = <cli::Cli as clap::CommandFactory>::command()
        .try_get_matches()
        .and_then(|m| <cli::Cli as clap::FromArgMatches>::from_arg_matches(&m).map(|c| (c, m)));
    let cli = match parsed {
        Ok((mut c, m)) => {
            // The project's config file fills in what the command line left out.
            if let Err(e) = project::resolve(&mut c, &m) {
                eprintln!("error: {}", doctor::report::visible::text(&e.to_string()));
                return e.exit_code();
            }
            c
        }
        Err(e) => {
            // clap prints help/version itself; usage errors exit 2 like every tool error.
            let code = if e.use_stderr() {
                exit::TROUBLE
            } else {
                exit::OK
            };
            let _ = e.print();
            return code;
        }
    };
    let result = match &cli.command {
        cli::Command::Next(a) => commands::next::run(a),
        cli::Command::Version => Ok(commands::version::run()),
        cli::Command::Completion(a) => commands::completion::run(a),
        cli::Command::Man => Ok(commands::manpage::run()),
        cli::Command::Explain(a) => commands::explain::run(a),
        cli::Command::Lint(a) => commands::lint::run(a),
        cli::Command::Rules(a) => Ok(commands::rules::run(a)),
        cli::Command::Scan(a) => commands::scan::run(a),
        cli::Command::Trigger(a) => commands::trigger::run(a),
        cli::Command::Suspend(a) => commands::suspend::run_suspend(a),
        cli::Command::Unsuspend(a) => commands::suspend::run_unsuspend(a),
        cli::Command::Monitor(a) => commands::monitor::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // Errors quote servers (422/409 messages, SSAR denial reasons) and files: control
            // characters are shown, never sent to the terminal. Newlines stay: some errors are
            // several lines of the tool's own (a command per line).
            eprintln!("error: {}", doctor::report::visible::text(&e.to_string()));
            e.exit_code()
        }
    }
}
