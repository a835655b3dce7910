#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fetch.sh BASE: Debian's linux-source-BASE for a base that the machine's
# own apt sources do not carry (modern/base.sh's base_suite: 7.3 comes from
# trixie-backports), through a private apt list under $BUILD/apt:
#   - the mirror is the machine's own: the URI its sources give for its
#     release (apt-get indextargets), so no host name is written here;
#   - the suite is base_suite's, signed by Debian's archive keyring;
#   - apt runs with its sources, lists and cache under $BUILD/apt: the
#     machine's apt configuration, lists and installed packages are not
#     touched (the package is downloaded, not installed).
# The tarball the package holds is extracted to $BUILD/src/ (base_set's
# TARBALL for such a base).  A second run with the tarball there does
# nothing.
#
# Exit 0: the tarball is there.  Exit 3: it cannot be fetched (no mirror,
# no keyring, the suite unreachable, no such package); one line on stderr
# says which and why, and nothing is left half-written.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/base.sh"

die() {
	echo "fetch: $*" >&2
	exit 3
}

[ $# -eq 1 ] || { echo "usage: $0 BASE" >&2; exit 2; }
base_check "$1"
suite=$(base_suite "$1")
[ -n "$suite" ] || { echo "fetch: $1 comes from the machine's own sources (apt-get install linux-source-$1)" >&2; exit 2; }
pkg=linux-source-$1
dir=${BUILD:?}/apt
out=$BUILD/src/$pkg.tar.xz
[ -f "$out" ] && exit 0

release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
[ -n "$release" ] || die "$pkg: this machine's Debian release is unknown (/etc/os-release has no VERSION_CODENAME)"
# the first Debian mirror the machine's sources name for its own release
mirror=$(apt-get indextargets --format '$(RELEASE) $(TARGET_OF) $(REPO_URI)' 2>/dev/null |
	awk -v r="$release" '$1 == r && $2 == "deb" { print $3; exit }')
[ -n "$mirror" ] || die "$pkg: the machine's apt sources name no mirror for $release, so $suite has none either"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$pkg: $keyring not found (apt-get install debian-archive-keyring)"

rm -rf "$dir"
mkdir -p "$dir/sources" "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/dl"
cat >"$dir/sources/ptlock.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite
Components: main
Signed-By: $keyring
EOF
# private_apt apt-get|apt-cache ARGS: apt with the private list only
private_apt() {
	cmd=$1
	shift
	"$cmd" -q -o Dir::Etc::SourceList=/dev/null \
		-o Dir::Etc::SourceParts="$dir/sources" \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Acquire::Retries=1 -o Acquire::http::Timeout=30 "$@"
}
# apt-get update exits 0 when a source cannot be reached: its lists say
if ! private_apt apt-get update >"$dir/update.log" 2>&1 ||
   grep -q '^\(W\|E\): .*\(Failed to fetch\|not signed\|NO_PUBKEY\|does not have a Release\)' "$dir/update.log"; then
	die "$pkg: ${mirror%/} $suite cannot be reached: $(grep '^\(W\|E\): ' "$dir/update.log" | head -n 1)"
fi
ver=$(private_apt apt-cache show "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || die "$pkg: not in ${mirror%/} $suite"
echo "fetch: $pkg $ver from ${mirror%/} $suite"
(cd "$dir/dl" && private_apt apt-get download "$pkg") >"$dir/download.log" 2>&1 ||
	die "$pkg $ver: the download failed: $(tail -n 1 "$dir/download.log")"
deb=$(ls "$dir"/dl/*.deb)
# extracted with the package's own mtime: a tarball fetched again is the
# same to tree.sh (tarball_id), which then imports nothing again
mkdir -p "$dir/x" "$BUILD/src"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/x" "./usr/src/$pkg.tar.xz" ||
	{ rm -rf "$dir/x"; die "$deb holds no usr/src/$pkg.tar.xz"; }
mv "$dir/x/usr/src/$pkg.tar.xz" "$out"
rm -rf "$dir/x"
echo "$ver" >"$BUILD/src/$pkg.version"
rm -f "$deb"
echo "fetch: $out"
