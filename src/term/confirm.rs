//! Asking before acting. A prompt needs a person: on a terminal we ask (default No); when
//! stdin is a pipe or /dev/null (CI, scripts, `| xargs`) nobody can answer, and reading a
//! stray "y" from a pipe is not consent, so `--yes` is required instead.

use std::io::{BufRead, IsTerminal, Write};

/// The answer, or why there is none.
#[derive(Debug, PartialEq, Eq)]
pub enum Consent {
    Given,
    Declined,
    /// stdin is not a terminal and `--yes` was not given.
    NoTerminal,
}

/// Ask `question` (`Create job x in ops?`), unless `yes` already answered it.
pub fn ask(question: &str, yes: bool) -> Consent {
    if yes {
        return Consent::Given;
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Consent::NoTerminal;
    }
    // On stderr, so stdout stays the preview and the result (pipe-able, like kubectl).
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{question} [y/N] ");
    let _ = err.flush();
    let mut line = String::new();
    if stdin.lock().read_line(&mut line).is_err() {
        return Consent::Declined;
    }
    answer(&line)
}

/// `y`/`yes` (any case) is consent; anything else, including an empty line, is not.
fn answer(line: &str) -> Consent {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Consent::Given,
        _ => Consent::Declined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_yes_is_consent() {
        assert_eq!(answer("y\n"), Consent::Given);
        assert_eq!(answer(" YES "), Consent::Given);
        assert_eq!(answer("\n"), Consent::Declined);
        assert_eq!(answer("n"), Consent::Declined);
        assert_eq!(answer("yep"), Consent::Declined);
    }

    #[test]
    fn yes_answers_without_asking() {
        assert_eq!(ask("Do it?", true), Consent::Given);
    }
}
