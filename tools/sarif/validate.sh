#!/usr/bin/env bash
# Validate the SARIF that `lint -o sarif` writes, with Microsoft's SARIF multitool (the
# validator GitHub code scanning's schema checks follow), for every example in examples/ and
# every file of the real-world corpus ($CRONJOB_DOCTOR_CORPUS, which .ci/run sets; skipped with a
# line saying so when unset). Fails on any error.
#
# Needs: node + npm (Debian: apt-get install -y nodejs npm), network access on the first run
# to `npm install` the pinned validator into target/sarif-multitool (or $SARIF_TOOL_DIR), and a
# built binary (`cargo build`; or set $DOCTOR to one). The validator is a self-contained .NET
# build: nothing else to install.
#
# Usage: tools/sarif/validate.sh            (from anywhere inside the repository)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
validator_version=5.7.0
tool_dir=${SARIF_TOOL_DIR:-$root/target/sarif-multitool}
corpus=${CRONJOB_DOCTOR_CORPUS:-}
now=2026-11-20T12:00:00Z

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "validate.sh: $tool not found (Debian: apt-get install -y nodejs npm)" >&2; exit 2; }
done
pkg="$tool_dir/node_modules/@microsoft/sarif-multitool-linux"
if [ ! -f "$pkg/package.json" ] || ! grep -q "\"version\": \"$validator_version\"" "$pkg/package.json"; then
  mkdir -p "$tool_dir"
  npm install --prefix "$tool_dir" --no-audit --no-fund --silent \
    "@microsoft/sarif-multitool-linux@$validator_version" >&2
fi
# npm may skip the package's postinstall (which only marks the binary executable).
chmod u+x "$pkg/Sarif.Multitool" 2>/dev/null || true
multitool="$pkg/Sarif.Multitool"
[ -x "$multitool" ] || { echo "validate.sh: $multitool is missing" >&2; exit 2; }

if [ -z "${DOCTOR:-}" ]; then
  cargo build -q --bin kubectl-cronjob_doctor
  DOCTOR="$root/target/debug/kubectl-cronjob_doctor"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count=0
# lint exits 1 when it finds something and 2 when an input cannot be read; either way it
# writes SARIF (unreadable input becomes a tool notification), and that is what is checked.
lint() { # $1 = input, $2 = output name
  local rc=0
  "$DOCTOR" lint -f "$1" --now "$now" -o sarif > "$out/$2.sarif" || rc=$?
  if [ "$rc" -gt 2 ] || [ ! -s "$out/$2.sarif" ]; then
    echo "validate.sh: lint failed on $1 (exit $rc)" >&2
    exit 1
  fi
  count=$((count + 1))
}
for f in examples/*.yaml; do
  lint "$f" "example-$(basename "$f" .yaml)"
done
if [ -d "$corpus" ]; then
  while IFS= read -r -d '' f; do
    lint "$f" "corpus-$(basename "$f")"
  done < <(find "$corpus" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) -print0 | sort -z)
else
  echo "validate.sh: skipped the real-world corpus (CRONJOB_DOCTOR_CORPUS unset or not a directory); validating the examples only" >&2
fi

# With a baseline (lint --baseline): results carry baselineState, and recorded findings that
# are gone are `absent` results. The baseline of every example, used on one example.
"$DOCTOR" lint -f examples --now "$now" --write-baseline "$out/baseline.json" >/dev/null 2>&1 || true
rc=0
"$DOCTOR" lint -f examples/forbid-blocked-by-hung-job.yaml --now "$now" --baseline "$out/baseline.json" \
  -o sarif > "$out/baseline-states.sarif" 2>/dev/null || rc=$?
if [ "$rc" -gt 1 ] || ! grep -q '"baselineState": "absent"' "$out/baseline-states.sarif"; then
  echo "validate.sh: lint --baseline wrote no absent results (exit $rc)" >&2
  exit 1
fi
count=$((count + 1))

# The multitool reports problems as a SARIF log of its own and exits 0 either way: count the
# error-level results in that log.
mkdir "$out/log"
"$multitool" validate -o "$out/log/validation.sarif" "$out"/*.sarif > "$out/log/console.txt" 2>&1 || true
if [ ! -s "$out/log/validation.sarif" ]; then
  cat "$out/log/console.txt" >&2
  echo "validate.sh: the validator wrote no log" >&2
  exit 1
fi
grep -E ': error ' "$out/log/console.txt" >&2 || true
node - "$out/log/validation.sarif" "$count" <<'JS'
const log = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8').replace(/^\uFEFF/, ''));
const errors = [];
for (const run of log.runs || []) {
  for (const n of (run.invocations || []).flatMap(i => i.toolExecutionNotifications || [])) {
    if ((n.level || 'error') === 'error') errors.push(`tool: ${n.message && n.message.text}`);
  }
  for (const r of run.results || []) {
    if ((r.level || 'warning') !== 'error') continue;
    const loc = r.locations && r.locations[0] && r.locations[0].physicalLocation;
    const where = loc ? `${loc.artifactLocation.uri}:${loc.region ? loc.region.startLine : ''}` : '';
    errors.push(`${where} ${r.ruleId}: ${r.message && (r.message.text || (r.message.arguments || []).join(' '))}`);
  }
}
if (errors.length) {
  console.error(errors.join('\n'));
  console.error(`validate.sh: ${errors.length} SARIF error(s) in ${process.argv[3]} files`);
  process.exit(1);
}
console.log(`validate.sh: ${process.argv[3]} SARIF files valid`);
JS
