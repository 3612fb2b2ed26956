#!/usr/bin/env bash
# Engine speed vs. the real robfig/cron v3.0.1, same machine, same run; writes the
# "Engine: parse and Next vs robfig" section of BENCHMARKS.md (other sections are kept).
#
#   tools/bench/engine-vs-robfig.sh            # measure and rewrite that section
#   tools/bench/engine-vs-robfig.sh --dry-run  # measure, print the section, leave the file
#
# Both sides time the same fixed mix, tools/oracle/bench-mix.txt (45 entries: group,
# controller Local zone, start instant, schedule):
#   Go:   tools/oracle `oracle bench -mix` (testing.Benchmark per entry, ParseStandard and
#         one Next from the entry's instant in its Local zone), GO_BENCHTIME per measurement
#         (default 1s);
#   Rust: crates/schedule/benches/engine.rs (criterion, release profile): the whole mix per
#         iteration, its groups, and every entry alone.
# tools/bench/engine-notes.md (hand-written reading notes) is copied into the section.
# Go's zone lookups read the dump of jiff's bundled tz database (ZONEINFO), as in the
# differential test, and the script fails unless both sides give the same Next answer for
# every entry (so the two columns time the same computation).
#
# Prerequisites: golang-go + golang-github-robfig-cron-dev (see tools/oracle/README.md),
# python3, cargo. Takes 5–10 minutes. Run it on an otherwise idle machine when the
# figures are to be published; the load average before and after is recorded.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MIX=$ROOT/tools/oracle/bench-mix.txt
OUT=$ROOT/BENCHMARKS.md
dry=0
for arg in "$@"; do
  case $arg in
    --dry-run) dry=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "engine-vs-robfig: unknown argument $arg" >&2; exit 2 ;;
  esac
done
log() { printf '== %s\n' "$*" >&2; }
die() { printf 'engine-vs-robfig: %s\n' "$*" >&2; exit 2; }
command -v go >/dev/null || die "go not found (apt-get install -y golang-go golang-github-robfig-cron-dev)"
command -v python3 >/dev/null || die "python3 not found"
[ -f /usr/share/gocode/src/github.com/robfig/cron/parser.go ] || die "golang-github-robfig-cron-dev missing"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cronjob-doctor-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ -z "${GOCACHE:-}" ] && [ -z "$(go env GOCACHE 2>/dev/null || true)" ]; then
  export GOCACHE=$WORK/go-cache
fi

# Machine and toolchains.
{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc=$(nproc)"
  echo "cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel=$(uname -sr)"
  echo "go=$(go version | cut -d' ' -f3-)"
  echo "rustc=$(rustc --version)"
  echo "robfig=$(dpkg-query -W -f='${Version}' golang-github-robfig-cron-dev 2>/dev/null || echo unknown)"
  echo "commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD -- crates/schedule/src 2>/dev/null || echo ' (crates/schedule/src modified)')"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$WORK/machine.txt"

log "building the Go oracle (offline, Debian's robfig/cron)"
(cd "$ROOT/tools/oracle" && GOFLAGS=-mod=mod GOPROXY=off GONOSUMDB=* GOWORK=off GOTOOLCHAIN=local \
  go build -trimpath -o "$WORK/oracle" .)
log "dumping jiff's bundled tz database for Go (ZONEINFO)"
(cd "$ROOT" && cargo run -q -p cronjob-doctor-schedule --example dump_tzdb -- "$WORK/zoneinfo") >&2
log "building the criterion benchmark (release)"
(cd "$ROOT" && cargo bench -q -p cronjob-doctor-schedule --bench engine --no-run) >&2

log "robfig/cron: oracle bench -mix (GO_BENCHTIME=${GO_BENCHTIME:-1s})"
ZONEINFO=$WORK/zoneinfo "$WORK/oracle" bench -mix "$MIX" -benchtime "${GO_BENCHTIME:-1s}" > "$WORK/go.tsv"

log "crates/schedule: cargo bench --bench engine"
CRIT=$ROOT/target/criterion
rm -rf "$CRIT/mix" "$CRIT/group" "$CRIT/parse_entry" "$CRIT/next_entry"
(cd "$ROOT" && BENCH_ANSWERS=$WORK/rust-answers.tsv cargo bench -q -p cronjob-doctor-schedule --bench engine) > "$WORK/criterion.log" 2>&1 \
  || { tail -30 "$WORK/criterion.log" >&2; die "cargo bench failed"; }
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$WORK/machine.txt"

python3 - "$WORK" "$CRIT" "$MIX" "$OUT" "$dry" <<'PY'
import json, math, os, re, statistics, sys

work, crit, mix_path, out_path, dry = sys.argv[1:6]
machine = dict(l.split("=", 1) for l in open(os.path.join(work, "machine.txt")).read().splitlines())

entries = []
for line in open(mix_path, encoding="utf-8").read().split("\n"):
    if line and not line.startswith("#"):
        g, zone, frm, spec = line.split("\t", 3)
        entries.append(dict(group=g, zone=zone, frm=frm, spec=spec))
n = len(entries)

go = {"parse": {}, "next": {}}
go_answer = {}
go_header = ""
for line in open(os.path.join(work, "go.tsv"), encoding="utf-8").read().splitlines():
    if line.startswith("# robfig"):
        go_header = line[2:]
    if not line or line.startswith("#"):
        continue
    op, idx, group, ns, answer, spec = line.split("\t", 5)
    go[op][int(idx)] = float(ns)
    if op == "next":
        go_answer[int(idx)] = answer
assert len(go["next"]) == n and len(go["parse"]) == n, "Go bench did not cover the mix"

rust_answer = {}
for line in open(os.path.join(work, "rust-answers.tsv"), encoding="utf-8").read().splitlines():
    idx, group, answer, spec = line.split("\t", 3)
    rust_answer[int(idx)] = answer
diff = [i for i in range(n) if go_answer.get(i) != rust_answer.get(i)]
if diff:
    for i in diff:
        print("answer differs for entry %d %r: robfig %s, ours %s" % (i, entries[i]["spec"], go_answer.get(i), rust_answer.get(i)), file=sys.stderr)
    sys.exit("engine-vs-robfig: the two sides computed different answers; not publishing")

def est(*parts):
    p = os.path.join(crit, *parts, "new", "estimates.json")
    e = json.load(open(p))
    return e["mean"]["point_estimate"], e["mean"]["confidence_interval"]

rust_parse = {i: est("parse_entry", str(i))[0] for i in range(n)}
rust_next = {i: est("next_entry", str(i))[0] for i in range(n)}
mix_parse, mix_parse_ci = est("mix", "parse")
mix_next, mix_next_ci = est("mix", "next")

def mean(xs):
    return sum(xs) / len(xs)

def fmt_ns(x):
    return "{:,.0f}".format(x) if x >= 100 else "{:.1f}".format(x)

go_next_mean = mean(list(go["next"].values()))
go_parse_mean = mean(list(go["parse"].values()))
our_next_mean = mix_next / n
our_parse_mean = mix_parse / n
ratio_next = go_next_mean / our_next_mean
ratio_parse = go_parse_mean / our_parse_mean
per_next = [go["next"][i] / rust_next[i] for i in range(n)]
per_parse = [go["parse"][i] / rust_parse[i] for i in range(n)]
geo = lambda xs: math.exp(mean([math.log(x) for x in xs]))
notz = [i for i in range(n) if not re.match(r"(CRON_)?TZ=", entries[i]["spec"])]
go_parse_notz = mean([go["parse"][i] for i in notz])
our_parse_notz = mean([rust_parse[i] for i in notz])

rows_groups = []
for g in ["utc", "zoned", "every"]:
    idx = [i for i in range(n) if entries[i]["group"] == g]
    ours_g = est("group", "next-" + g)[0] / len(idx)
    go_g = mean([go["next"][i] for i in idx])
    rows_groups.append("| `next`, group `%s` (%d entries) | %s | %s | **%.1f×** |" % (g, len(idx), fmt_ns(go_g), fmt_ns(ours_g), go_g / ours_g))

target_met = ratio_next >= 2.0
lines = []
lines.append("<!-- engine-vs-robfig:begin (generated by tools/bench/engine-vs-robfig.sh; edit the script, not this section) -->")
lines.append("## Engine: parse and Next vs robfig")
lines.append("")
lines.append("`crates/schedule` (our reimplementation) against the real robfig/cron v3.0.1 that the Kubernetes")
lines.append("CronJob controller uses, timed in the same run on the same machine over the same fixed mix of")
lines.append("%d schedules and start instants (`tools/oracle/bench-mix.txt`: %d UTC, %d DST-zoned as Local zone or" % (
    n, sum(e["group"] == "utc" for e in entries), sum(e["group"] == "zoned" for e in entries)))
lines.append("`TZ=` prefix incl. America/New_York and Australia/Lord_Howe transition instants, %d `@every`)." % sum(e["group"] == "every" for e in entries))
lines.append("Both sides returned the same `Next` answer for every entry (checked by the script).")
lines.append("")
lines.append("Throughput ratio = robfig's time per operation / ours (higher is better for us; target for `Next`: ≥ 2×).")
lines.append("")
lines.append("| measure | robfig ns/op | ours ns/op | ours ÷ robfig throughput |")
lines.append("|---|---:|---:|---:|")
lines.append("| **`Next`, whole mix** (mean per call) | %s | %s | **%.1f×** %s |" % (
    fmt_ns(go_next_mean), fmt_ns(our_next_mean), ratio_next, "(target ≥ 2× met)" if target_met else "(**target ≥ 2× missed**)"))
lines.extend(rows_groups)
lines.append("| `ParseStandard`, whole mix | %s | %s | **%.1f×** |" % (fmt_ns(go_parse_mean), fmt_ns(our_parse_mean), ratio_parse))
lines.append("| `ParseStandard`, without `TZ=` entries (%d) | %s | %s | **%.1f×** |" % (len(notz), fmt_ns(go_parse_notz), fmt_ns(our_parse_notz), go_parse_notz / our_parse_notz))
lines.append("")
lines.append("Per entry (%d entries), ours ÷ robfig: `Next` min %.1f×, median %.1f×, geometric mean %.1f×, max %.1f×; "
             "`ParseStandard` min %.1f×, median %.1f×, max %.1f×." % (
    n, min(per_next), statistics.median(per_next), geo(per_next), max(per_next),
    min(per_parse), statistics.median(per_parse), max(per_parse)))
lines.append("")
lines.append("Measured %s on: %s CPU(s) `%s`, %s RAM, %s; %s (robfig/cron Debian package %s); `%s`. "
             "Commit %s. Load average before/after: %s / %s (2 shared cores: treat differences under ~20%% as noise)." % (
    machine["date"], machine["nproc"], machine["cpu"], machine["mem"], machine["kernel"], machine["go"],
    machine["robfig"], machine["rustc"], machine["commit"], machine["load_before"], machine["load_after"]))
lines.append("")
lines.append("How it is measured: Go `testing.Benchmark` per entry (`oracle bench -mix`, `-benchtime %s`, `time.Local` set to the"
             " entry's zone, `Next` from the entry's instant in that zone); Rust criterion (release profile, thin LTO): `mix/next` runs the"
             " whole mix per iteration (%s ns ±%s per pass), per-entry figures from `next_entry/<i>`. Our zone lookups use a"
             " per-thread memo of offset periods that stays warm across iterations, as Go's `Location` keeps its cached zone;"
             " Go's `ParseStandard` with `TZ=` reads and parses a TZif file on every call (`LoadLocation`), ours looks the"
             " name up in jiff's bundled database." % (
    os.environ.get("GO_BENCHTIME", "1s"), "{:,.0f}".format(mix_next), "{:,.0f}".format((mix_next_ci["upper_bound"] - mix_next_ci["lower_bound"]) / 2)))
lines.append("")
notes = os.path.join(os.path.dirname(mix_path), "..", "bench", "engine-notes.md")
if os.path.exists(notes):
    lines.append(open(notes, encoding="utf-8").read().rstrip("\n"))
    lines.append("")
lines.append("<details><summary>Per-entry figures</summary>")
lines.append("")
lines.append("| # | group | Local zone | from | schedule | robfig `Next` ns | ours | ratio | robfig parse ns | ours | ratio |")
lines.append("|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|")
for i, e in enumerate(entries):
    lines.append("| %d | %s | %s | %s | `%s` | %s | %s | %.1f× | %s | %s | %.1f× |" % (
        i, e["group"], e["zone"], e["frm"], e["spec"], fmt_ns(go["next"][i]), fmt_ns(rust_next[i]), per_next[i],
        fmt_ns(go["parse"][i]), fmt_ns(rust_parse[i]), per_parse[i]))
lines.append("")
lines.append("</details>")
lines.append("")
lines.append("Reproduce: `tools/bench/engine-vs-robfig.sh` (5–10 minutes; `--dry-run` prints instead of writing).")
lines.append("<!-- engine-vs-robfig:end -->")
section = "\n".join(lines) + "\n"

if dry == "1":
    print(section)
    sys.exit(0)
begin, end = "<!-- engine-vs-robfig:begin", "<!-- engine-vs-robfig:end -->"
if os.path.exists(out_path):
    text = open(out_path, encoding="utf-8").read()
else:
    text = "# Benchmarks\n\nEach section is written by its own script and can be regenerated independently.\n\n"
if begin in text:
    a = text.index(begin)
    b = text.index(end, a) + len(end)
    if text[b:b + 1] == "\n":
        b += 1
    text = text[:a] + section + text[b:]
else:
    text = text.rstrip("\n") + "\n\n" + section
open(out_path, "w", encoding="utf-8").write(text)
print("engine-vs-robfig: Next %.1fx robfig (%s vs %s ns/op), parse %.1fx; wrote %s" % (
    ratio_next, fmt_ns(go_next_mean), fmt_ns(our_next_mean), ratio_parse, out_path))
PY
