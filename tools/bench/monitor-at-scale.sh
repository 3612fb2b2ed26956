#!/usr/bin/env bash
# monitor at scale (issue 12): `kubectl-cronjob_doctor monitor -A --listen` against a fake API
# server holding 10,000 CronJobs, 100,000 Jobs, 30,000 Pods and 50,000 Events over TLS on
# loopback, next to `scan -A -o json` on the same server. Measures:
#   - the time from start to `/readyz` 200, and scan's wall time (after one warm-up scan);
#   - VmRSS / VmHWM from /proc right after ready and after ~60 s idle;
#   - one CronJob's change through the API (a merge PATCH of spec.suspend=true, sent with the
#     kubeconfig's token and CA) until its `suspended` finding shows in `/metrics`;
#   - CPU (utime + stime from /proc/PID/stat) and diagnoses run during those ~60 idle seconds;
#   - churn (tools/bench/monitor-churn.py): failed runs made and pruned through the API for
#     CHURN_CRONJOBS CronJobs, CHURN_RUNS each, past the 64 runs a CronJob keeps; VmRSS as the
#     records reach their cap and after.
# Writes the figures into BENCHMARKS.md under "## monitor at scale", followed by the hand-written
# tools/bench/monitor-notes.md. One run: ~4 minutes (the server's generation takes ~1).
#
# Usage: tools/bench/monitor-at-scale.sh   (COUNTS=… IDLE=60 CHURN_CRONJOBS=100 CHURN_RUNS=80
#        override the defaults;
#        SKIP_BUILD=1 uses the release binaries already in target/release;
#        WRITE=0 prints the section without writing it into BENCHMARKS.md, for trial runs)
# Not a test: the numbers depend on the machine. Needs curl and python3.
set -euo pipefail

COUNTS="${COUNTS:-cronjobs=10000,jobs=100000,pods=30000,events=50000}"
IDLE="${IDLE:-60}"
CHURN_CRONJOBS="${CHURN_CRONJOBS:-100}"
CHURN_RUNS="${CHURN_RUNS:-80}"
NOW="2026-11-20T12:00:00Z"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  echo "building release binaries…" >&2
  cargo build --release --quiet -p kubectl-cronjob-doctor --bin kubectl-cronjob_doctor
  cargo build --release --quiet -p cronjob-doctor-fake-apiserver --bin fake-apiserver
fi
# DOCTOR=… measures another build of the same commit (the static musl one: see BENCHMARKS.md).
DOCTOR="${DOCTOR:-$ROOT/target/release/kubectl-cronjob_doctor}"
FAKE="$ROOT/target/release/fake-apiserver"

WORK="$(mktemp -d)"
SERVER_PID=""
MON_PID=""
stop() {
  local pid="$1"
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
}
cleanup() { stop "$MON_PID"; stop "$SERVER_PID"; rm -rf "$WORK"; }
trap cleanup EXIT

now_s() { date +%s.%N; }
elapsed() { echo "$(now_s) - $1" | bc -l; }
kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
metric() { grep -E "^$1 " "$WORK/metrics.txt" | awk '{print $2}' | head -1; }

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "starting fake-apiserver --tls --generate $COUNTS…" >&2
# A running clock (from $NOW, real time), so the monitor's slot timers come due as they would.
"$FAKE" --tls --generate "$COUNTS" --now "$NOW" --clock-rate 1 \
  --kubeconfig "$WORK/kubeconfig" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 1 1200); do
  [ "$(wc -l <"$WORK/server.out")" -ge 2 ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; exit 1; }
  sleep 0.1
done
URL="$(head -1 "$WORK/server.out")"
echo "server at $URL" >&2
export KUBECONFIG="$WORK/kubeconfig"
sed -n 's/.*certificate-authority-data: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$KUBECONFIG" | base64 -d >"$WORK/ca.pem"
TOKEN="$(sed -n 's/.*token: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$KUBECONFIG" | head -1)"

# scan: exit 1 means "some CronJob has an error-level finding", which a generated cluster has.
scan() { local code=0; "$DOCTOR" scan -A -o json >"$WORK/scan.json" || code=$?; [ "$code" -le 1 ]; }
scan # warm-up: the server's first answers touch cold memory
T0="$(now_s)"; scan; SCAN_S="$(elapsed "$T0")"
echo "scan -A -o json: ${SCAN_S}s" >&2

# The CronJob to change: the first one that is not suspended.
read -r CJ_NS CJ_NAME < <(python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cronJobs"]:
    if not any(f.get("slug") == "suspended" for f in c.get("findings", [])):
        print(c["namespace"], c["name"]); break
' "$WORK/scan.json")

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
T0="$(now_s)"
"$DOCTOR" monitor -A --listen "127.0.0.1:$PORT" >"$WORK/monitor.out" 2>"$WORK/monitor.err" &
MON_PID=$!
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/readyz")" = 200 ]; do
  kill -0 "$MON_PID" 2>/dev/null || { cat "$WORK/monitor.err" >&2; exit 1; }
  sleep 0.05
done
READY_S="$(elapsed "$T0")"
RSS_READY="$(kib "$MON_PID" VmRSS)"; HWM_READY="$(kib "$MON_PID" VmHWM)"
echo "monitor ready after ${READY_S}s; VmRSS $RSS_READY KiB, VmHWM $HWM_READY KiB" >&2

# One change through the API, until /metrics shows it.
SERIES="cronjob_doctor_finding{namespace=\"$CJ_NS\",cronjob=\"$CJ_NAME\",rule=\"suspended\""
T0="$(now_s)"
PATCH_S="$(curl -s -o /dev/null -w '%{time_total}' --fail --cacert "$WORK/ca.pem" -H "Authorization: Bearer $TOKEN" \
  -X PATCH -H 'Content-Type: application/merge-patch+json' -d '{"spec":{"suspend":true}}' \
  "$URL/apis/batch/v1/namespaces/$CJ_NS/cronjobs/$CJ_NAME")"
SCRAPES=0
# Into a file first: `grep -q` leaving early would fail curl, and the pipe with it (pipefail).
until curl -s -o "$WORK/metrics.txt" "http://127.0.0.1:$PORT/metrics" && grep -qF "$SERIES" "$WORK/metrics.txt"; do
  SCRAPES=$((SCRAPES + 1))
  [ "$SCRAPES" -lt 600 ] || { echo "the change never showed in /metrics" >&2; exit 1; }
done
CHANGE_S="$(elapsed "$T0")"
T0="$(now_s)"; curl -s "http://127.0.0.1:$PORT/metrics" >"$WORK/metrics.txt"; SCRAPE_S="$(elapsed "$T0")"
echo "change of $CJ_NS/$CJ_NAME visible after ${CHANGE_S}s (the PATCH itself ${PATCH_S}s; $SCRAPES scrapes before; one scrape ${SCRAPE_S}s)" >&2

# Idle: nothing changes in the cluster but the clock.
EVALS_BEFORE="$(metric cronjob_doctor_evaluations_total)"
TICKS_BEFORE="$(cpu_ticks "$MON_PID")"
sleep "$IDLE"
TICKS_AFTER="$(cpu_ticks "$MON_PID")"
curl -s "http://127.0.0.1:$PORT/metrics" >"$WORK/metrics.txt"
EVALS_AFTER="$(metric cronjob_doctor_evaluations_total)"
RSS_IDLE="$(kib "$MON_PID" VmRSS)"; HWM_IDLE="$(kib "$MON_PID" VmHWM)"
IDLE_CPU_S="$(echo "($TICKS_AFTER - $TICKS_BEFORE) / $(getconf CLK_TCK)" | bc -l)"
IDLE_EVALS=$((${EVALS_AFTER%.*} - ${EVALS_BEFORE%.*}))
echo "idle ${IDLE}s: ${IDLE_CPU_S}s CPU, $IDLE_EVALS diagnoses; VmRSS $RSS_IDLE KiB, VmHWM $HWM_IDLE KiB" >&2

# Churn: runs made and pruned continuously for CHURN_CRONJOBS CronJobs, CHURN_RUNS each (more
# than the 64 a CronJob keeps), every one a failed run kept whole (tools/bench/monitor-churn.py).
echo "churn: $CHURN_RUNS runs for each of $CHURN_CRONJOBS CronJobs…" >&2
CRONJOBS="$CHURN_CRONJOBS" RUNS="$CHURN_RUNS" python3 "$ROOT/tools/bench/monitor-churn.py" \
  "$URL" "$WORK/ca.pem" "$TOKEN" "$WORK/scan.json" "$PORT" "$MON_PID" "$NOW" >"$WORK/churn.json"
churn() { python3 -c 'import json,sys; print(eval(sys.argv[2], {}, json.load(open(sys.argv[1]))))' "$WORK/churn.json" "$1"; }
CHURN_RUNS_MADE="$(churn runs_made)"; CHURN_S="$(churn seconds)"; CHURN_REQ="$(churn requests)"
RSS_CAP="$(churn 'rss_kib[min(63, len(rss_kib) - 2)]')"; RSS_CHURN_END="$(churn 'rss_kib[-1]')"
HWM_CHURN="$(kib "$MON_PID" VmHWM)"
CHURN_KEPT="$(churn first_runs_kept)"; CHURN_RETAINED="$(churn first_retained)"; CHURN_FIRST="$(churn first)"
echo "churn: $CHURN_RUNS_MADE runs in ${CHURN_S}s; VmRSS at the cap $RSS_CAP KiB, at the end $RSS_CHURN_END KiB; $CHURN_FIRST keeps $CHURN_KEPT runs" >&2
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
stop "$MON_PID"; MON_PID=""
stop "$SERVER_PID"; SERVER_PID=""

mb() { printf '%.0f' "$(echo "$1 / 1024" | bc -l)"; }
s2() { printf '%.2f' "$1"; }
RATIO="$(echo "$READY_S / $SCAN_S" | bc -l)"
CJS="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cronJobs"]))' "$WORK/scan.json")"
CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
MEM="$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"

SECTION="$WORK/section.md"
cat >"$SECTION" <<EOF
## monitor at scale

\`tools/bench/monitor-at-scale.sh\` ($(date -u +%Y-%m-%d), commit $COMMIT$DIRTY): \`fake-apiserver --tls
--generate $COUNTS --clock-rate 1\` on loopback; release build. **One run** on a shared 2-core
machine (its load average before and after is below): treat differences under ~20 % as noise.

| measure | figure | target (issue 12) |
|---|---|---|
| \`scan -A -o json\` wall time (after one warm-up) | $(s2 "$SCAN_S") s | |
| \`monitor -A --listen\`: start to \`/readyz\` 200 | $(s2 "$READY_S") s (**$(s2 "$RATIO") ×** scan) | ≤ 1.5 × scan |
| VmRSS / VmHWM when ready | $(mb "$RSS_READY") MiB / $(mb "$HWM_READY") MiB | |
| VmRSS / VmHWM after ${IDLE} s idle | **$(mb "$RSS_IDLE") MiB** / $(mb "$HWM_IDLE") MiB | steady state < 300 MB |
| PATCH \`spec.suspend\` of one CronJob → its \`suspended\` series in \`/metrics\` | **$(s2 "$CHANGE_S") s** (of which the fake server's answer to the PATCH: $(s2 "$PATCH_S") s; $SCRAPES scrapes came back without it, one scrape of $CJS CronJobs' series takes $(s2 "$SCRAPE_S") s) | ≤ 1 s |
| CPU while idle for ${IDLE} s (utime + stime) | **$(s2 "$IDLE_CPU_S") s** ($IDLE_EVALS diagnoses, all from slot timers: see below) | near zero |
| Churn: $CHURN_RUNS_MADE runs made and pruned through the API ($CHURN_RUNS for each of $CHURN_CRONJOBS CronJobs, each a failed run with a Pod and a Warning; $CHURN_REQ requests in $(s2 "$CHURN_S") s) | VmRSS **$(mb "$RSS_IDLE") → $(mb "$RSS_CAP") MiB** once each CronJob keeps 64 runs, **$(mb "$RSS_CHURN_END") MiB** after the rest (VmHWM $(mb "$HWM_CHURN") MiB); \`/runs\` of $CHURN_FIRST: $CHURN_KEPT runs, $CHURN_RETAINED of them retained | bounded: at most 64 runs per CronJob |

Machine: $(nproc) CPUs ($CPU), $MEM memory, $(uname -sr). The fake server shares the CPUs with
the monitor. Load average (1, 5, 15 min) before: $LOAD_BEFORE; after: $LOAD_AFTER.
EOF
if [ -f "$ROOT/tools/bench/monitor-notes.md" ]; then
  printf '\n' >>"$SECTION"
  cat "$ROOT/tools/bench/monitor-notes.md" >>"$SECTION"
fi

if [ "${WRITE:-1}" != 0 ]; then
  bash "$ROOT/tools/bench/write-section.sh" monitor-at-scale "$SECTION"
fi
cat "$SECTION" >&2
