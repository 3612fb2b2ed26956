#!/usr/bin/env bash
# Build the archives krew installs: kubectl-cronjob_doctor-<version>-<os>-<arch>.tar.gz
# (.zip for windows), each holding the binary, LICENSE and README.md at the archive root —
# the layout krew/cronjob-doctor.yaml's `files` expects — and print their sha256.
#
#   tools/release/build-archives.sh                        # release build for the host
#   tools/release/build-archives.sh --target aarch64-apple-darwin --out dist
#   tools/release/build-archives.sh --all                  # the 5 krew platforms whose
#                                                          # toolchains are installed here
#   CARGO=cross tools/release/build-archives.sh --target aarch64-unknown-linux-musl
#   tools/release/build-archives.sh --binary target/debug/kubectl-cronjob_doctor   # no build:
#                                # package this binary (for tests; CRONJOB_DOCTOR_BINARY= works too)
#
# Options: --target TRIPLE (repeatable), --all, --out DIR (default dist/), --binary PATH.
# Environment: CARGO (default cargo; `cross` for cross-compiling), SOURCE_DATE_EPOCH (archive
# timestamps; default: the last commit's time, else now).
#
# Output: one line per archive on stdout, `<sha256>  <path>` (sha256sum's format), and a
# `<archive>.sha256` file beside it; progress goes to stderr. Then
# `tools/release/update-krew-manifest.py <archives>` writes uri + sha256 into the krew manifest.
#
# Why the packing is done with Python's tarfile/zipfile: the same code on Linux, macOS and the
# Windows runner's Git Bash, and byte-for-byte repeatable archives (sorted entries, fixed owner,
# mode and timestamp), so a rebuilt archive from the same binary has the same sha256.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=kubectl-cronjob_doctor
# The platforms krew/cronjob-doctor.yaml lists. Linux builds are static (musl) so they run on
# any distribution.
KREW_TARGETS=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-msvc)

log() { printf 'build-archives: %s\n' "$*" >&2; }
die() { printf 'build-archives: error: %s\n' "$*" >&2; exit 2; }

targets=() all=0 out="$ROOT/dist" binary=${CRONJOB_DOCTOR_BINARY:-}
while [ $# -gt 0 ]; do
  case $1 in
    --target) [ $# -ge 2 ] || die "--target needs a value"; targets+=("$2"); shift 2 ;;
    --target=*) targets+=("${1#*=}"); shift ;;
    --all) all=1; shift ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --binary) [ $# -ge 2 ] || die "--binary needs a value"; binary=$2; shift 2 ;;
    --binary=*) binary=${1#*=}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done

CARGO=${CARGO:-cargo}
# A Python 3 that really runs (on Windows `python3` can be a Store placeholder).
PY=
for cand in python3 python; do
  if command -v "$cand" >/dev/null && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    PY=$(command -v "$cand"); break
  fi
done
[ -n "$PY" ] || die "python3 not found (it packs the archives)"
command -v rustc >/dev/null || die "rustc not found"
HOST=$(rustc -vV | sed -n 's/^host: //p')
[ -n "$HOST" ] || die "cannot tell the host triple from rustc -vV"

# [workspace.package] version in Cargo.toml: the one version of everything.
VERSION=$(awk '
  /^\[/ { in_ws = ($0 == "[workspace.package]") }
  in_ws && /^version[ \t]*=/ { gsub(/^version[ \t]*=[ \t]*"|".*$/, ""); print; exit }
' "$ROOT/Cargo.toml")
[ -n "$VERSION" ] || die "no version in [workspace.package] of $ROOT/Cargo.toml"

# Rust target triple -> krew's os and arch (Go's GOOS/GOARCH names).
krew_platform() {
  local os arch
  case $1 in
    *-linux-*) os=linux ;;
    *-apple-darwin) os=darwin ;;
    *-windows-*) os=windows ;;
    *) return 1 ;;
  esac
  case $1 in
    x86_64-*) arch=amd64 ;;
    aarch64-*) arch=arm64 ;;
    i686-*|i586-*) arch=386 ;;
    arm-*|armv7-*) arch=arm ;;
    powerpc64le-*) arch=ppc64le ;;
    *) return 1 ;;
  esac
  printf '%s %s\n' "$os" "$arch"
}

# Can this machine build for the triple? The host always; with cross, anything; otherwise the
# target's standard library must be installed (rustup target add ...).
buildable() {
  [ "$1" = "$HOST" ] && return 0
  [ "$(basename "$CARGO")" = cross ] && return 0
  command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$1"
}

if [ -n "$binary" ]; then
  [ "$all" = 0 ] || die "--binary packages one binary; it does not combine with --all"
  [ "${#targets[@]}" -le 1 ] || die "--binary packages one binary; give at most one --target"
  [ -f "$binary" ] || die "--binary $binary: no such file"
elif [ "$all" = 1 ]; then
  [ "${#targets[@]}" = 0 ] || die "--all and --target do not combine"
  covered=" "
  for t in "${KREW_TARGETS[@]}"; do
    if buildable "$t"; then
      targets+=("$t"); covered="$covered$(krew_platform "$t" | tr ' ' /) "
    else
      log "skipping $t: no toolchain here (rustup target add $t, or CARGO=cross)"
    fi
  done
  # The host can always build its own platform, even without the musl target installed.
  host_platform=$(krew_platform "$HOST" | tr ' ' /) || true
  if [ -n "$host_platform" ] && [[ "$covered" != *" $host_platform "* ]]; then
    log "building $host_platform for the host ($HOST) instead"
    targets+=("")
  fi
  [ "${#targets[@]}" -gt 0 ] || die "no krew target can be built here"
fi
[ "${#targets[@]}" -gt 0 ] || targets=("")  # "" = the host, built without --target

mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

built=()
for target in "${targets[@]}"; do
  triple=${target:-$HOST}
  read -r os arch < <(krew_platform "$triple") || die "$triple is not a platform krew supports"
  exe=$BIN
  [ "$os" = windows ] && exe=$BIN.exe

  if [ -n "$binary" ]; then
    src=$binary
    log "packaging $src as $os/$arch (no build)"
  else
    buildable "$triple" || die "cannot build for $triple here: rustup target add $triple, or CARGO=cross"
    args=(build --release --locked --bin "$BIN")
    [ -n "$target" ] && args+=(--target "$target")
    log "$CARGO ${args[*]}"
    (cd "$ROOT" && "$CARGO" "${args[@]}") >&2
    target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
    if [ -n "$target" ]; then src=$target_dir/$target/release/$exe; else src=$target_dir/release/$exe; fi
    [ -f "$src" ] || die "the build did not produce $src"
  fi

  # A binary we can run must say it is this version (catches packaging a stale build).
  if [ "$triple" = "$HOST" ]; then
    said=$("$src" --version 2>&1 | head -1) || die "$src --version failed: $said"
    case $said in
      "$BIN $VERSION"|"$BIN $VERSION "*) ;;
      *) die "$src --version says '$said', expected '$BIN $VERSION'" ;;
    esac
  fi

  if [ "$os" = windows ]; then ext=zip; else ext=tar.gz; fi
  archive=$out/$BIN-$VERSION-$os-$arch.$ext
  sha=$("$PY" - "$archive" "$src" "$exe" "$ROOT/LICENSE" "$ROOT/README.md" <<'PYEOF'
import gzip, hashlib, io, os, sys, tarfile, time, zipfile

archive, binary, exe, *docs = sys.argv[1:]
mtime = int(os.environ["SOURCE_DATE_EPOCH"])
# name in the archive -> (path on disk, mode); sorted so the bytes do not depend on the disk
members = sorted([(exe, binary, 0o755)] + [(os.path.basename(d), d, 0o644) for d in docs])
tmp = archive + ".tmp"
if archive.endswith(".zip"):
    stamp = time.gmtime(max(mtime, 315532800))[:6]  # zip cannot say earlier than 1980
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for name, path, mode in members:
            info = zipfile.ZipInfo(name, stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.create_system = 3  # unix, so the mode is honoured
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                z.writestr(info, f.read())
else:
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=6, mtime=mtime) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for name, path, mode in members:
                    info = tarfile.TarInfo(name)
                    info.size = os.path.getsize(path)
                    info.mode, info.mtime = mode, mtime
                    info.uid = info.gid = 0
                    info.uname = info.gname = ""
                    with open(path, "rb") as f:
                        tar.addfile(info, f)
os.replace(tmp, archive)
h = hashlib.sha256()
with open(archive, "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
print(h.hexdigest())
PYEOF
  )
  printf '%s  %s\n' "$sha" "$(basename "$archive")" > "$archive.sha256"
  printf '%s  %s\n' "$sha" "$archive"
  log "wrote $archive ($os/$arch, sha256 $sha)"
  built+=("$os/$arch")
done
log "built ${#built[@]} archive(s): ${built[*]}"
