//! Calm colour: red for what stops runs, yellow for risks, dim for context, green for health.
//! With colour off every helper returns the text unchanged, so the information is identical.

use owo_colors::OwoColorize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub const PLAIN: Style = Style { color: false };

    pub fn red(self, s: &str) -> String {
        if self.color {
            s.red().to_string()
        } else {
            s.to_string()
        }
    }
    pub fn yellow(self, s: &str) -> String {
        if self.color {
            s.yellow().to_string()
        } else {
            s.to_string()
        }
    }
    pub fn green(self, s: &str) -> String {
        if self.color {
            s.green().to_string()
        } else {
            s.to_string()
        }
    }
    pub fn dim(self, s: &str) -> String {
        if self.color {
            s.dimmed().to_string()
        } else {
            s.to_string()
        }
    }
    pub fn bold(self, s: &str) -> String {
        if self.color {
            s.bold().to_string()
        } else {
            s.to_string()
        }
    }
}
