#!/usr/bin/env bash
# The static Linux build, as krew's archives and the monitor's image ship it: built for
# <arch>-unknown-linux-musl (debug, so that CI stays quick), it must be static,
# allocate with mimalloc (src/allocator.rs: musl's own allocator made a large scan 3-4x slower),
# and give the glibc build's answers byte for byte: `lint -o json` and `explain -o json` of
# every example, `scan -A -o json` against a generated fake API server over TLS, and the
# finding series `monitor` (the image's command) serves once ready.
#
# Usage: tools/release/musl-check.sh   (needs the target: `rustup target add`, and musl-gcc
#        from Debian's musl-tools for the C parts; .ci/run installs both). The glibc side is
#        built with `cargo build`, or taken from $DOCTOR and $FAKE_APISERVER when set.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
TARGET="$(uname -m)-unknown-linux-musl"
NOW=2026-11-20T12:00:00Z
fail() { echo "musl-check: $*" >&2; exit 1; }

cargo build --quiet --target "$TARGET" --bin kubectl-cronjob_doctor
MUSL="$ROOT/target/$TARGET/debug/kubectl-cronjob_doctor"
# The glibc side: $DOCTOR and $FAKE_APISERVER when set (.ci/run passes the binaries its test
# step built and tested, instead of rebuilding the dependency graph for `cargo build`'s
# feature set, which differs from `cargo test`'s by the dev-dependencies'); built otherwise.
if [ -z "${DOCTOR:-}" ]; then
  cargo build --quiet --bin kubectl-cronjob_doctor -p kubectl-cronjob-doctor
fi
if [ -z "${FAKE_APISERVER:-}" ]; then
  cargo build --quiet --bin fake-apiserver -p cronjob-doctor-fake-apiserver
fi
GNU="${DOCTOR:-$ROOT/target/debug/kubectl-cronjob_doctor}"
FAKE="${FAKE_APISERVER:-$ROOT/target/debug/fake-apiserver}"
[ -x "$GNU" ] || fail "$GNU is not an executable"
[ -x "$FAKE" ] || fail "$FAKE is not an executable"

# Static: no interpreter, no shared libraries.
if ldd "$MUSL" 2>&1 | grep -q '=>'; then fail "$MUSL is not static"; fi
# mimalloc is linked into both Linux builds (its option names are in the binaries).
grep -qa 'mimalloc' "$MUSL" || fail "$MUSL does not contain mimalloc"
grep -qa 'mimalloc' "$GNU" || fail "$GNU does not contain mimalloc"

# The option numbers src/allocator.rs hands to mi_option_set are the positions in the
# `mi_option_e` enum of the mimalloc that is locked (libmimalloc-sys builds its v2 sources with
# the feature Cargo.toml asks for): a dependency update that moved them would tune the wrong
# options silently.
python3 - "$ROOT" <<'PY' || fail "src/allocator.rs's mimalloc option numbers do not match the locked mimalloc"
import json, pathlib, re, subprocess, sys
root = pathlib.Path(sys.argv[1])
meta = json.loads(subprocess.check_output(
    ["cargo", "metadata", "--format-version", "1", "--locked"], cwd=root))
sys_pkg = next(p for p in meta["packages"] if p["name"] == "libmimalloc-sys")
header = pathlib.Path(sys_pkg["manifest_path"]).parent / "c_src/mimalloc/v2/include/mimalloc.h"
text = header.read_text()
body = text[text.index("typedef enum mi_option_e {"):]
body = body[body.index("{") + 1:body.index("_mi_option_last")]
names = [m.group(1) for m in re.finditer(r"^\s*(mi_option_\w+)\s*,", body, re.M)]
ours = pathlib.Path(root / "src/allocator.rs").read_text()
want = {"mi_option_eager_commit": "EAGER_COMMIT", "mi_option_arena_eager_commit": "ARENA_EAGER_COMMIT",
        "mi_option_purge_delay": "PURGE_DELAY"}
for c_name, rust_name in want.items():
    got = int(re.search(rf"const {rust_name}: c_int = (\d+);", ours).group(1))
    if names.index(c_name) != got:
        sys.exit(f"{c_name} is {names.index(c_name)} in {header}, {rust_name} = {got} in src/allocator.rs")
print(f"musl-check: mimalloc option numbers match {header.parent.parent.name} of libmimalloc-sys {sys_pkg['version']}")
PY

WORK="$(mktemp -d)"
SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

same() { # name, then the arguments both builds get; exit codes and stdout must agree
  local name="$1"; shift
  local a=0 b=0
  "$GNU" "$@" >"$WORK/gnu.out" 2>/dev/null || a=$?
  "$MUSL" "$@" >"$WORK/musl.out" 2>/dev/null || b=$?
  [ "$a" = "$b" ] || fail "$name: exit $a (glibc) vs $b (musl)"
  cmp -s "$WORK/gnu.out" "$WORK/musl.out" || { diff "$WORK/gnu.out" "$WORK/musl.out" | head -20 >&2; fail "$name: output differs"; }
  [ -s "$WORK/gnu.out" ] || fail "$name: no output"
  echo "musl-check: $name: same ($(wc -c <"$WORK/gnu.out") bytes, exit $a)"
}

same "lint -o json examples/" lint -f examples -o json --now "$NOW"
same "explain -o json examples/" explain -f examples -o json --now "$NOW"

"$FAKE" --tls --generate cronjobs=300,jobs=3000,pods=900,events=1500 \
  --now "$NOW" --kubeconfig "$WORK/kubeconfig" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER=$!
for _ in $(seq 1 600); do
  [ "$(wc -l <"$WORK/server.out")" -ge 2 ] && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.err" >&2; fail "fake-apiserver did not start"; }
  sleep 0.1
done
export KUBECONFIG="$WORK/kubeconfig"
same "scan -A -o json (TLS, 300 CronJobs)" scan -A -o json --now "$NOW"

# The image's command: `monitor` serves the same findings from the musl build as from glibc.
monitor_findings() { # binary, output file: the sorted cronjob_doctor_finding series once ready
  local port pid
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  "$1" monitor -A --listen "127.0.0.1:$port" >/dev/null 2>"$WORK/monitor.err" &
  pid=$!
  python3 - "$port" "$2" <<'PY' || { kill "$pid" 2>/dev/null; cat "$WORK/monitor.err" >&2; fail "monitor of $1 did not get ready"; }
import sys, time, urllib.request
port, out = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"
deadline = time.time() + 120
while True:
    try:
        if urllib.request.urlopen(base + "/readyz", timeout=5).status == 200:
            break
    except Exception:
        pass
    if time.time() > deadline:
        sys.exit(1)
    time.sleep(0.1)
text = urllib.request.urlopen(base + "/metrics", timeout=30).read().decode()
lines = sorted(l for l in text.splitlines() if l.startswith("cronjob_doctor_finding{"))
open(out, "w").write("\n".join(lines) + "\n")
PY
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
}
monitor_findings "$GNU" "$WORK/gnu.metrics"
monitor_findings "$MUSL" "$WORK/musl.metrics"
[ "$(wc -l <"$WORK/gnu.metrics")" -gt 100 ] || fail "monitor: too few finding series ($(wc -l <"$WORK/gnu.metrics"))"
cmp -s "$WORK/gnu.metrics" "$WORK/musl.metrics" || { diff "$WORK/gnu.metrics" "$WORK/musl.metrics" | head -20 >&2; fail "monitor: /metrics findings differ"; }
echo "musl-check: monitor /metrics: the same $(wc -l <"$WORK/gnu.metrics") finding series"
