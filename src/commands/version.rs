//! `version`: what is running, from which commit, with which tz database.

pub fn run() -> i32 {
    super::emit(&crate::version::report());
    super::exit::OK
}
