#![no_main]
//! Schedule + instant + controller zone (layout in `src/lib.rs`) → parse, then up to five
//! chained `next`: never panic, never hang (run with `-timeout=1`), results strictly later
//! and whole seconds.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = fuzz_input::decode(data);
    if let Some(s) = fuzz_input::check_parse(&input.schedule) {
        fuzz_input::check_next(&s, input.from, &input.zone, input.chain, &input.schedule);
    }
});
