#!/usr/bin/env python3
"""Write the uri and sha256 of release archives into the krew manifest.

    tools/release/update-krew-manifest.py dist/*.tar.gz dist/*.zip
    tools/release/update-krew-manifest.py --manifest krew/cronjob-doctor.yaml \\
        --base-url https://github.com/OWNER/REPO/releases/download --partial dist/x.tar.gz

Each archive is named kubectl-cronjob_doctor-<version>-<os>-<arch>.<tar.gz|zip> (what
tools/release/build-archives.sh writes). For each one the platform whose selector names that
os/arch gets `uri: <base-url>/v<version>/<file name>` and the archive's sha256, and
spec.version becomes v<version>.

Why an editor of lines and not a YAML round trip: the Python standard library has no YAML,
and a round trip would lose the manifest's comments and layout. The manifest keeps a fixed
shape (platforms listed as `- selector: / matchLabels: / os: / arch:` followed by `uri:`
and `sha256:`), and this script refuses anything else rather than guess.

Safety: all archives must carry one version; without --partial every platform of the
manifest must get an archive (a release must not mix old and new sha256 values); with
--partial the version must already be the manifest's. Prints the updated platforms.
Standard library only.
"""

import argparse
import hashlib
import os
import re
import sys

DEFAULT_MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "krew", "cronjob-doctor.yaml")
DEFAULT_BASE_URL = "https://github.com/cronjob-doctor/kubectl-cronjob-doctor/releases/download"
ARCHIVE_RE = re.compile(r"^kubectl-cronjob_doctor-(?P<version>.+)-(?P<os>[a-z]+)-(?P<arch>[a-z0-9]+)\.(?P<ext>tar\.gz|zip)$")
SEMVER_RE = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


def die(msg):
    print("update-krew-manifest: error: " + msg, file=sys.stderr)
    sys.exit(2)


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def scalar(line):
    """The value of a `key: value` line, unquoted."""
    value = line.split(":", 1)[1].strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def find_platforms(lines):
    """[(os, arch, uri_index, sha_index)] for each `  - selector:` item under spec.platforms."""
    starts = [i for i, l in enumerate(lines) if re.match(r"^  - selector:\s*$", l)]
    platforms = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        item = {}
        for i in range(start, end):
            m = re.match(r"^\s+(os|arch|uri|sha256):", lines[i])
            if m:
                if m.group(1) in item:
                    die("platform at line %d has two %s lines" % (start + 1, m.group(1)))
                item[m.group(1)] = i
        missing = [k for k in ("os", "arch", "uri", "sha256") if k not in item]
        if missing:
            die("platform at line %d has no %s line (the manifest must keep its fixed shape)" % (start + 1, ", ".join(missing)))
        platforms.append((scalar(lines[item["os"]]), scalar(lines[item["arch"]]), item["uri"], item["sha256"]))
    if not platforms:
        die("no `  - selector:` platforms found in the manifest")
    return platforms


def set_value(line, value, quote=False):
    indent = line[: len(line) - len(line.lstrip())]
    key = line.strip().split(":", 1)[0]
    return '%s%s: %s\n' % (indent, key, '"%s"' % value if quote else value)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("archives", nargs="+", help="release archives (kubectl-cronjob_doctor-<version>-<os>-<arch>.tar.gz|zip)")
    ap.add_argument("--manifest", default=DEFAULT_MANIFEST, help="krew manifest to update (default: krew/cronjob-doctor.yaml)")
    ap.add_argument("--output", help="write here instead of over --manifest")
    ap.add_argument("--base-url", default=DEFAULT_BASE_URL, help="release download URL without the tag (default: %(default)s)")
    ap.add_argument("--partial", action="store_true", help="allow updating only some platforms (same version only)")
    args = ap.parse_args()

    found = {}
    versions = set()
    for path in args.archives:
        name = os.path.basename(path)
        m = ARCHIVE_RE.match(name)
        if not m:
            die("%s is not named kubectl-cronjob_doctor-<version>-<os>-<arch>.tar.gz|zip" % name)
        if not SEMVER_RE.match(m.group("version")):
            die("%s: version %r is not semver" % (name, m.group("version")))
        if (m.group("ext") == "zip") != (m.group("os") == "windows"):
            die("%s: krew archives here are .zip for windows and .tar.gz otherwise" % name)
        if not os.path.isfile(path):
            die("%s: no such file" % path)
        key = (m.group("os"), m.group("arch"))
        if key in found:
            die("two archives for %s/%s" % key)
        found[key] = (path, name)
        versions.add(m.group("version"))
    if len(versions) != 1:
        die("the archives carry different versions: %s" % ", ".join(sorted(versions)))
    version = versions.pop()

    with open(args.manifest, encoding="utf-8", newline="") as f:
        lines = f.read().splitlines(keepends=True)
    version_lines = [i for i, l in enumerate(lines) if re.match(r"^  version:", l)]
    if len(version_lines) != 1:
        die("expected exactly one `  version:` line under spec, found %d" % len(version_lines))
    old_version = scalar(lines[version_lines[0]])
    platforms = find_platforms(lines)
    listed = {(o, a) for o, a, _, _ in platforms}

    unknown = sorted(set(found) - listed)
    if unknown:
        die("the manifest has no platform for %s" % ", ".join("%s/%s" % k for k in unknown))
    left_out = sorted(listed - set(found))
    if left_out and not args.partial:
        die("no archive for %s (pass every platform's archive, or --partial)" % ", ".join("%s/%s" % k for k in left_out))
    if left_out and old_version != "v" + version:
        die("--partial keeps the manifest's version %s, but the archives are v%s" % (old_version, version))

    lines[version_lines[0]] = set_value(lines[version_lines[0]], "v" + version)
    base = args.base_url.rstrip("/")
    for os_name, arch, uri_i, sha_i in platforms:
        if (os_name, arch) not in found:
            continue
        path, name = found[(os_name, arch)]
        lines[uri_i] = set_value(lines[uri_i], "%s/v%s/%s" % (base, version, name))
        lines[sha_i] = set_value(lines[sha_i], sha256_of(path), quote=True)
        print("%s/%s: %s %s" % (os_name, arch, lines[uri_i].strip(), lines[sha_i].strip()))

    out = args.output or args.manifest
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write("".join(lines))
    os.replace(tmp, out)
    print("update-krew-manifest: wrote %s (v%s, %d of %d platforms)" % (out, version, len(found), len(platforms)), file=sys.stderr)


if __name__ == "__main__":
    main()
