//! `rules`: print the finding catalogue.

use doctor::render::catalogue;

use crate::cli::{RulesArgs, RulesFormat};
use crate::error::exit;
use crate::term::emit;

pub fn run(a: &RulesArgs) -> i32 {
    emit(&match a.output {
        RulesFormat::Text => catalogue::text(),
        RulesFormat::Markdown => catalogue::markdown(),
        RulesFormat::Json => catalogue::json(),
    });
    exit::OK
}
