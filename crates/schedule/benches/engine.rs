//! Placeholder while the benchmark is written (see BENCHMARKS.md).
fn main() {}
