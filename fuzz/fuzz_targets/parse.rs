#![no_main]
//! Arbitrary bytes → UTF-8 (lossy) → `parse_standard`: must never panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let spec = String::from_utf8_lossy(data);
    let _ = fuzz_input::check_parse(&spec);
});
