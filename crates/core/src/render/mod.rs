//! Renderers: pure functions from data to the text a person (or a program) reads. They take
//! the colour choice as a parameter and never write to stdout themselves.

pub mod catalogue;
pub mod explain;
pub mod fleet;
pub mod input_errors;
pub mod json;
pub mod lint;
pub mod next;
pub mod sarif;
pub mod scan_rows;
pub mod slot;
pub mod style;
pub mod wrap;
