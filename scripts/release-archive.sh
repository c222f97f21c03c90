#!/usr/bin/env bash
# The release archive of tunnelctl, for one target (this machine's unless --target says):
#
#     scripts/release-archive.sh [--no-build] [--target TRIPLE] [--out DIR]
#
# builds the release binary (`cargo build --release --locked --bin tunnelctl`: the release
# profile, the one every package is built with, and the binary alone, as `cargo install` and
# `cargo deb` build it), then writes into DIR (default target/dist/):
#
#     tunnelctl-VERSION-TARGET.tar.gz         one folder, tunnelctl-VERSION-TARGET/, holding
#                                             tunnelctl, completions/ (bash, zsh, fish,
#                                             PowerShell, elvish), man/ (a page per command),
#                                             README.md, LICENSE-MIT and LICENSE-APACHE
#     tunnelctl-VERSION-TARGET.tar.gz.sha256  its SHA-256 sum, for `sha256sum -c`
#
# and prints the archive's path. --no-build packages the release binary already built.
# The same binary gives the same archive: names sorted, owned by root, dated at the commit
# (or SOURCE_DATE_EPOCH), gzip without a time stamp. docs/install.md says how to install it.
set -euo pipefail

die() { printf 'release-archive: %s\n' "$*" >&2; exit 1; }

build=1 target= out=
while [ $# -gt 0 ]; do
    case $1 in
    --no-build) build= ;;
    --target) target=${2:?--target needs a target triple}; shift ;;
    --out) out=${2:?--out needs a folder}; shift ;;
    -h | --help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
    esac
    shift
done

cd "$(dirname "$0")/.."
for tool in cargo rustc tar gzip sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is needed"
done

# The version as cargo has it: `…#tunnelctl@0.1.0`, or `…#0.1.0` in a folder named tunnelctl.
id=$(cargo pkgid -p tunnelctl)
version=${id##*[#@]}
host=$(rustc -vV | sed -n 's/^host: //p')
target=${target:-$host}
target_dir=$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ -n "$target_dir" ] || die "cargo metadata names no target folder"
out=${out:-$target_dir/dist}

if [ "$target" = "$host" ]; then
    binary=$target_dir/release/tunnelctl
    target_flag=()
else
    binary=$target_dir/$target/release/tunnelctl
    target_flag=(--target "$target")
fi
if [ -n "$build" ]; then
    # The binary alone, as cargo deb asks for it: asked for the library too (`-p tunnelctl`),
    # cargo builds every dependency again, with object code beside the LTO bitcode.
    cargo build --release --locked --bin tunnelctl "${target_flag[@]}"
fi
[ -x "$binary" ] || die "no release binary at $binary (build it, or leave out --no-build)"

name=tunnelctl-$version-$target
mkdir -p "$out"
stage=$(mktemp -d "$out/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
dir=$stage/$name
mkdir -p "$dir/completions" "$dir/man"
install -m 755 "$binary" "$dir/tunnelctl"
install -m 644 completions/* "$dir/completions/"
install -m 644 man/*.1 "$dir/man/"
install -m 644 README.md LICENSE-MIT LICENSE-APACHE "$dir/"

# Dated at the commit, so that the same binary and sources give the same bytes.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
fi
archive=$out/$name.tar.gz
tar --create --directory "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$SOURCE_DATE_EPOCH" --format=gnu "$name" | gzip -9 -n >"$archive.tmp"
mv "$archive.tmp" "$archive"
# The sum names the archive without a folder: `sha256sum -c` runs beside it.
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$archive"
