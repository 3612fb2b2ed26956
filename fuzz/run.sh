#!/usr/bin/env bash
# The documented fuzz run (fuzz/README.md): seeds, build, then each target for a bounded time,
# one libFuzzer process (one job), a 1-second per-input timeout, logs in fuzz/logs/.
#
#   fuzz/run.sh [PARSE_SECONDS] [PARSE_NEXT_SECONDS]     # default 300 900 (20 minutes)
#
# cargo-fuzz needs nightly-only rustc flags (-Cpasses=sancov-module, -Zsanitizer=...);
# RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them.
set -euo pipefail
cd "$(dirname "$0")"
parse_s=${1:-300}
next_s=${2:-900}
export RUSTC_BOOTSTRAP=1
mkdir -p logs
python3 make-seeds.py
cargo fuzz build -s none
common=(-timeout=1 -rss_limit_mb=2048 -use_value_profile=1 -print_final_stats=1)
cargo fuzz run -s none parse corpus/parse -- \
  -max_total_time="$parse_s" -max_len=512 "${common[@]}" 2>&1 | tee logs/parse.log | grep -E '^#[0-9]+ +(pulse|DONE)|^(stat|Done|==)' || true
cargo fuzz run -s none parse_next corpus/parse_next -- \
  -max_total_time="$next_s" -max_len=256 "${common[@]}" 2>&1 | tee logs/parse_next.log | grep -E '^#[0-9]+ +(pulse|DONE)|^(stat|Done|==)' || true
ls artifacts/*/ 2>/dev/null || true
