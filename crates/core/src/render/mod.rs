//! Renderers: pure functions from data to the text a person (or a program) reads. They take
//! the colour choice as a parameter and never write to stdout themselves.

pub mod next;
pub mod style;
