#![no_main]
//! Arbitrary bytes → the manifest loader → the report → text and JSON rendering: must never
//! panic, whatever the file holds (issue 9). Also: loading is deterministic, every position is
//! 1-based or 0 (whole file), and the text output never carries a raw escape character.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    fuzz_input::check_manifest(data);
});
