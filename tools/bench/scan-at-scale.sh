#!/usr/bin/env bash
# scan -A at scale: `kubectl-cronjob_doctor scan -A -o json` against a fake API server holding
# 10,000 CronJobs, 100,000 Jobs, 30,000 Pods and 50,000 Events, served over TLS on loopback the
# way Go's net/http sends (TCP_NODELAY, one write per response), with no added latency and with
# 20 ms per request (a remote API server). Next to it, in the same run against the same server:
# the raw sequential transfer, `list-pager` (one process, one keep-alive TLS connection, the
# scan's five LISTs paged one after another with limit=500 + continue, bodies read and
# dropped). The ratio scan / raw is the client's own cost. Writes the figures and the machine
# into BENCHMARKS.md under "## scan -A at scale".
#
# Usage: tools/bench/scan-at-scale.sh [--wait-idle] [--dry-run] [RUNS]
#        (default 1 run of each after one warm-up; with more, the median is reported).
#        --wait-idle: before each block, wait (up to 15 min) until the 1-minute load average
#        is below 0.3, so an unattended run measures an idle machine; --dry-run prints the
#        section instead of writing BENCHMARKS.md. COUNTS=… and LATENCIES="0ms 20ms"
#        override the defaults (use a smaller COUNTS while developing). About 2–4 minutes
#        once the release build is there.
# Not a test: numbers depend on the machine. Needs GNU time (installed via apt if missing).
set -euo pipefail

WAIT_IDLE=0
DRY_RUN=0
while [ $# -gt 0 ]; do
  case "$1" in
    --wait-idle) WAIT_IDLE=1; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    *) break ;;
  esac
done
RUNS="${1:-1}"
COUNTS="${COUNTS:-cronjobs=10000,jobs=100000,pods=30000,events=50000}"
LATENCIES="${LATENCIES:-0ms 20ms}"
NOW="2026-11-20T12:00:00Z"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time (apt-get install time)" >&2
  apt-get install -y time >/dev/null
fi

echo "building release binaries…" >&2
cargo build --release --quiet -p kubectl-cronjob-doctor --bin kubectl-cronjob_doctor
cargo build --release --quiet -p cronjob-doctor-fake-apiserver --bin fake-apiserver --bin list-pager
# DOCTOR=… measures another build of the same commit (the static musl one: see BENCHMARKS.md).
DOCTOR="${DOCTOR:-$ROOT/target/release/kubectl-cronjob_doctor}"
FAKE="$ROOT/target/release/fake-apiserver"
PAGER="$ROOT/target/release/list-pager"

WORK="$(mktemp -d)"
SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  SERVER_PID=""
}
cleanup() { stop_server; rm -rf "$WORK"; }
trap cleanup EXIT

start_server() {
  local latency="$1"
  echo "starting fake-apiserver --tls --latency $latency --generate $COUNTS…" >&2
  : >"$WORK/server.out"
  "$FAKE" --tls --latency "$latency" --generate "$COUNTS" --now "$NOW" \
    --kubeconfig "$WORK/kubeconfig" >"$WORK/server.out" 2>"$WORK/server.err" &
  SERVER_PID=$!
  for _ in $(seq 1 1200); do
    [ "$(wc -l <"$WORK/server.out")" -ge 2 ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; exit 1; }
    sleep 0.1
  done
  echo "server at $(head -1 "$WORK/server.out")" >&2
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
json_field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }

# Exit 1 means "some CronJob has an error-level finding", which a generated cluster has.
scan() {
  local code=0
  "$@" || code=$?
  [ "$code" -le 1 ] || { echo "scan failed with exit code $code" >&2; exit 1; }
}

export KUBECONFIG="$WORK/kubeconfig"
ROWS=""
EVERY=""
LOAD=""
wait_idle() {
  [ "$WAIT_IDLE" = 1 ] || return 0
  for _ in $(seq 1 180); do
    awk '{exit !($1 < 0.3)}' /proc/loadavg && return 0
    sleep 5
  done
  echo "the machine did not become idle within 15 minutes; measuring anyway" >&2
}

for LAT in $LATENCIES; do
  wait_idle
  LOAD="$LOAD $LAT: $(cut -d' ' -f1-3 /proc/loadavg);"
  start_server "$LAT"
  # Warm-up: the server's first answers touch cold memory.
  "$PAGER" >"$WORK/pager.json"
  scan "$DOCTOR" scan -A -o json >/dev/null
  : >"$WORK/raw.txt"
  for F in json table; do : >"$WORK/wall.$F"; : >"$WORK/cpu.$F"; : >"$WORK/rss.$F"; done
  for i in $(seq 1 "$RUNS"); do
    "$PAGER" >"$WORK/pager.json"
    json_field seconds <"$WORK/pager.json" >>"$WORK/raw.txt"
    for F in json table; do
      FORMAT=(-o json); [ "$F" = table ] && FORMAT=()
      scan /usr/bin/time -v -o "$WORK/time.$F.$i" "$DOCTOR" scan -A "${FORMAT[@]}" >"$WORK/scan.$F"
      awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(k=1;k<=n;k++) s=s*60+p[k]; print s}' "$WORK/time.$F.$i" >>"$WORK/wall.$F"
      awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$WORK/time.$F.$i" >>"$WORK/cpu.$F"
      awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.$F.$i" >>"$WORK/rss.$F"
      echo "latency $LAT run $i: raw $(tail -1 "$WORK/raw.txt")s, scan ($F) $(tail -1 "$WORK/wall.$F")s wall, $(tail -1 "$WORK/cpu.$F")s CPU, $(tail -1 "$WORK/rss.$F") KiB" >&2
    done
  done
  REQUESTS="$(json_field requests <"$WORK/pager.json")"
  BYTES="$(json_field bytes <"$WORK/pager.json")"
  CJS="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cronJobs"]))' "$WORK/scan.json" 2>/dev/null || echo '?')"
  stop_server
  RAW="$(median <"$WORK/raw.txt")"
  EVERY="$EVERY latency $LAT: raw $(paste -sd' ' "$WORK/raw.txt") s;"
  for F in json table; do
    WALL="$(median <"$WORK/wall.$F")"
    CPU_S="$(median <"$WORK/cpu.$F")"
    # GNU time reports KiB; the target is in MB (10^6 bytes).
    RSS_MB="$(echo "$(median <"$WORK/rss.$F") * 1024 / 1000000" | bc -l)"
    RATIO="$(echo "$WALL / $RAW" | bc -l)"
    SHOWN='`-o json`'; [ "$F" = table ] && SHOWN='table'
    CPU_RATIO="$(echo "$CPU_S / $RAW" | bc -l)"
    ROWS="$ROWS| $LAT | $SHOWN | $(printf '%.2f' "$RAW") s | $(printf '%.2f' "$WALL") s | $(printf '%.2f' "$RATIO") × | $(printf '%.2f' "$CPU_S") s | $(printf '%.2f' "$CPU_RATIO") × | $(printf '%.0f' "$RSS_MB") MB |
"
    EVERY="$EVERY scan ($F) $(paste -sd' ' "$WORK/wall.$F") s wall, $(paste -sd' ' "$WORK/cpu.$F") s CPU, $(paste -sd' ' "$WORK/rss.$F") KiB peak RSS;"
  done
done

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
MEM="$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
RUNS_TEXT="One run of each"
[ "$RUNS" -gt 1 ] && RUNS_TEXT="Median of $RUNS runs of each"

SECTION="$WORK/section.md"
cat >"$SECTION" <<EOF
## scan -A at scale

\`tools/bench/scan-at-scale.sh\` ($(date -u +%Y-%m-%d), commit $COMMIT$DIRTY): \`fake-apiserver --tls
--generate $COUNTS\` on loopback (HTTPS with a CA made at startup, TCP_NODELAY, one write per
response, as Go's net/http sends), once without added latency and once with \`--latency 20ms\` per
request. Against the same server in the same run: **raw** is \`list-pager\`, one process on one
keep-alive TLS connection paging through the scan's five LISTs (CronJobs, Jobs, the Pods of Jobs
by both selectors, Events; all namespaces, limit=500 + continue) one after another, reading each
body and parsing nothing but the continue token: the sequential transfer alone. **scan** is
\`kubectl-cronjob_doctor scan -A -o json\` (release build) under \`/usr/bin/time -v\`, the report the
targets are set for, and next to it the default table (\`scan -A\`, which needs no fix plans and
no timelines); CPU is user + system time. Ratio = scan wall time / raw. $RUNS_TEXT, after one
warm-up of each.

| added latency per request | output | raw sequential transfer | scan wall | wall / raw | scan CPU | CPU / raw | scan peak RSS |
|---|---|---|---|---|---|---|---|
$ROWS
$REQUESTS requests and $(echo "$BYTES / 1048576" | bc) MiB of JSON per pass; $CJS CronJobs diagnosed.
Targets (issue 11, for \`-o json\`): with 20 ms, wall ≤ 0.35 × raw; without latency, wall ≤ 3 × raw
and CPU ≤ 4 × raw; peak RSS < 150 MB. The issue states the CPU target for its own population
(149 MB of JSON, a raw transfer of 0.15 s) as "CPU ≤ 0.6 s": four times its raw transfer, the
\`≤ 3 ×\` target in CPU seconds at the parallelism it measured. This population is 4.5 times
the bytes, and the code as the issue found it needs 11-12 s of CPU for it on this machine
(against the 1.6 s the issue measured on its own), so the target is held here in that unit,
CPU / raw, measured in the same run.

Machine: $(nproc) CPUs ($CPU), $MEM memory, $(uname -sr). The fake server shares the CPUs with
the client, as it would not in a real cluster; the raw baseline pays the same price. Load
average (1, 5, 15 min) before each block:$LOAD other work on the machine inflates wall and CPU
time alike, so compare runs made on an idle machine.

How the scan reads (src/cluster/scan.rs, slices.rs, list.rs): the CronJob list first, in pages
of 2,000 (the one list read before any other starts, so its round trips are the only ones no
concurrency hides); it says which namespaces matter and, from the history limits, how many
Jobs to expect in each. A
namespace expected to hold a page of Jobs or more gets namespace-scoped LISTs of its own (a
*slice*); the other namespaces are read by one cluster-wide slice whose field selector
excludes the sliced ones, so every object is read once. The estimate is checked against the
API server's count (\`remainingItemCount\` of a one-item first page of the Jobs, read while the
CronJobs are): when the cluster holds a slice's worth of Jobs more than the estimate leaves to
the cluster-wide slice, the namespaces left there are counted too (at most 4 rounds of 16) and
a namespace counted at a page or more is sliced. Slices run side by side, at most 16
requests in flight (each holding its body until parsed); every list requests its next page as
soon as the current page's continue token is read, before parsing it; nothing reads further
than 4 namespaces beyond the first one not yet diagnosed, and namespaces go to the diagnosis
(on all cores) in key order as soon as they are complete. The core shares the DST effects of a
year per (schedule, zone) across CronJobs (a per-thread memo). Linux builds allocate with
mimalloc ("The static Linux build (musl) and the allocator" below).

$(cat "$ROOT/tools/bench/scan-notes.md" 2>/dev/null || true)

Every run:$EVERY
EOF

if [ "$DRY_RUN" = 1 ]; then cat "$SECTION"; exit 0; fi

bash "$ROOT/tools/bench/write-section.sh" scan-at-scale "$SECTION"
echo "written to BENCHMARKS.md:" >&2
printf '%s' "$ROWS" >&2
