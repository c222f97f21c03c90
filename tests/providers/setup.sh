#!/usr/bin/env bash
# Installs the providers' official webhook libraries from the package registries, for
# tests/signatures.rs: the Python ones (requirements.txt) in a virtual environment and
# GitHub's npm package (package.json), both under target/providers/ (or
# $TUNNELCTL_PROVIDERS_DIR). Run by .ci/run before the tests; run it by hand once to make
# `cargo test --test signatures` check against them instead of saying SKIPPED.
# On failure it leaves the reason in SKIPPED there, which the tests print, and exits 1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${TUNNELCTL_PROVIDERS_DIR:-$here/../../target/providers}"
mkdir -p "$dir"
rm -f "$dir/ready" "$dir/SKIPPED"

fail() {
  echo "$1" >"$dir/SKIPPED"
  echo "provider libraries not installed: $1" >&2
  exit 1
}

command -v python3 >/dev/null 2>&1 || fail "python3 is not installed"
command -v npm >/dev/null 2>&1 || fail "npm is not installed"
if [ ! -x "$dir/venv/bin/python" ]; then
  python3 -m venv "$dir/venv" >/dev/null 2>&1 \
    || { rm -rf "$dir/venv"; fail "python3 -m venv failed (is python3-venv installed?)"; }
fi
"$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -r "$here/requirements.txt" >"$dir/pip.log" 2>&1 \
  || fail "pip could not install $(grep -v '^#' "$here/requirements.txt" | tr '\n' ' ')(no registry? see $dir/pip.log)"
mkdir -p "$dir/node"
cp "$here/package.json" "$dir/node/package.json"
(cd "$dir/node" && npm install --silent --no-audit --no-fund --no-package-lock) >"$dir/npm.log" 2>&1 \
  || fail "npm could not install @octokit/webhooks-methods (no registry? see $dir/npm.log)"
touch "$dir/ready"
echo "provider libraries ready in $dir"
