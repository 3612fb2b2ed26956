//! Everything about the terminal in one place: writing to stdout, the colour choice, the
//! width, the progress display, the scan table, the lines actions print and the question
//! they ask. The commands decide what to say; this module decides how it reaches a person.

pub mod confirm;
pub mod out;
pub mod progress;
pub mod scan_table;

use crate::cli::ColorChoice;
use crate::error::{Error, OutputError};

/// The verdict of a write to stdout: a reader that went away (`| head`) is no failure; any
/// other error (a full disk, a closed descriptor) is an error (exit 2), since the output the
/// exit code stands for was not delivered.
pub fn delivered(written: std::io::Result<()>) -> Result<(), Error> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(OutputError::Stdout(e).into()),
        _ => Ok(()),
    }
}

/// Write to stdout without panicking when the reader went away (`| head`).
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// `--color` plus NO_COLOR plus "is stdout a terminal".
pub fn use_color(choice: ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// `--color` plus NO_COLOR plus "is stderr a terminal": for what goes to stderr (the input
/// errors), whatever stdout is.
pub fn use_color_on_stderr(choice: ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

/// Width for wrapping: `COLUMNS`, else the width of the terminal stdout is, else 100 (a pipe
/// or a file). Narrower than 40 columns nothing reads well: 100 then too.
pub fn width() -> usize {
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok());
    let terminal =
        || terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0));
    columns
        .or_else(terminal)
        .filter(|w| *w >= 40)
        .unwrap_or(100)
}
