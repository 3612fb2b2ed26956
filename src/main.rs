//! `kubectl-cronjob_doctor`: thin entry point. Parses flags, runs a command, prints errors once,
//! and maps outcomes to exit codes (0 ok, 1 findings / rejected input, 2 could not do the job).

mod actions;
mod cli;
mod cluster;
mod commands;
mod input;
mod version;

use clap::Parser;

use commands::exit;

fn main() {
    let cli = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version itself; usage errors exit 2 like every tool error.
            let code = if e.use_stderr() {
                exit::TROUBLE
            } else {
                exit::OK
            };
            let _ = e.print();
            std::process::exit(code);
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
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            exit::TROUBLE
        }
    };
    std::process::exit(code);
}
