//! `rules`: print the finding catalogue.

use doctor::render::catalogue;

use crate::cli::{RulesArgs, RulesFormat};
use crate::error::exit;
use crate::term::emit;

pub fn run(a: &RulesArgs) -> i32 {
    emit(&match a.output {
        RulesFormat::Text => catalogue::text(&a.config.settings.rules),
        RulesFormat::Markdown => catalogue::markdown(),
        RulesFormat::Json => catalogue::json(&a.config.settings.rules),
    });
    exit::OK
}
