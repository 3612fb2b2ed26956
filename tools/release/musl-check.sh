#!/usr/bin/env bash
# The static Linux build, as krew's archives and the monitor's image ship it: built for
# <arch>-unknown-linux-musl (debug, so CI reuses nothing but stays quick), it must be static,
# allocate with mimalloc (src/allocator.rs: musl's own allocator made a large scan 3-4x slower),
# and give the glibc build's answers byte for byte: `lint -o json` and `explain -o json` of
# every example, and `scan -A -o json` against a generated fake API server over TLS.
#
# Usage: tools/release/musl-check.sh   (needs the target: `rustup target add`, and musl-gcc
#        from Debian's musl-tools for the C parts; .ci/run installs both)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
TARGET="$(uname -m)-unknown-linux-musl"
NOW=2026-11-20T12:00:00Z

cargo build --quiet --target "$TARGET" --bin kubectl-cronjob_doctor
cargo build --quiet --bin kubectl-cronjob_doctor -p kubectl-cronjob-doctor
cargo build --quiet --bin fake-apiserver -p cronjob-doctor-fake-apiserver
MUSL="$ROOT/target/$TARGET/debug/kubectl-cronjob_doctor"
GNU="$ROOT/target/debug/kubectl-cronjob_doctor"

fail() { echo "musl-check: $*" >&2; exit 1; }

# Static: no interpreter, no shared libraries.
if ldd "$MUSL" 2>&1 | grep -q '=>'; then fail "$MUSL is not static"; fi
# mimalloc is linked in (its option names are in the binary), and only there.
grep -qa 'mimalloc' "$MUSL" || fail "$MUSL does not contain mimalloc"
if grep -qa 'mimalloc' "$GNU"; then fail "the glibc build links mimalloc too"; fi

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

"$ROOT/target/debug/fake-apiserver" --tls --generate cronjobs=300,jobs=3000,pods=900,events=1500 \
  --now "$NOW" --kubeconfig "$WORK/kubeconfig" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER=$!
for _ in $(seq 1 600); do
  [ "$(wc -l <"$WORK/server.out")" -ge 2 ] && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.err" >&2; fail "fake-apiserver did not start"; }
  sleep 0.1
done
export KUBECONFIG="$WORK/kubeconfig"
same "scan -A -o json (TLS, 300 CronJobs)" scan -A -o json --now "$NOW"
