# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Sourced by the scripts of modern/: where each packaged base lives.
#
# A base is a Debian linux-source package the series is carried on:
#   6.1   linux-source-6.1 (bookworm)
#   6.12  linux-source-6.12 (trixie; bookworm-security)
#   7.3   linux-source-7.3 (trixie-backports: fetched by modern/fetch.sh
#         through a private apt list, base_suite)
# Its series is modern/BASE/.  The first base of BASES (6.1, which came
# first) keeps the plain names (tree $BUILD/linux, kernels debug,
# stock-debug-pae, ...); every other base's trees, kernels and cells are
# prefixed with "BASE-" (tree $BUILD/linux-6.12, kernel 6.12-debug-pae,
# cell 6.12-pae-on-smp4).  BASE_FIRST names it; nothing else may.
#
# base_set BASE sets PRE (the prefix of the base's kernel and cell names:
# empty or "BASE-") and, unless already set: TARBALL, PKG, TREE, STOCK,
# STAMP, PATCHES, REPORT (where make bench writes its tables); UNAVAILABLE,
# the file tree.sh writes when a base cannot be fetched (base_unavailable).
# base_of_kernel NAME prints the base a kernel or cell name belongs to
# ("historical*", the 2005 kernels, are 2.6.14; historical-2.6.15 is 2.6.15).  These are the only places
# that know the naming rule; the Makefile and Python ask them.

BASES="6.1 6.12 7.3"
BASE_FIRST=${BASES%% *}

base_die() {
	echo "error: $*" >&2
	exit 1
}

base_check() {
	case " $BASES " in
	*" $1 "*) ;;
	*) base_die "BASE=$1: no such base (one of: $BASES)" ;;
	esac
}

base_set() {
	base_check "$1"
	BASE=$1
	b_dir=${BUILD:?}
	PRE=$(base_prefix "$BASE")
	b_pre=${PRE:+-$BASE}
	TARBALL=${TARBALL:-/usr/src/linux-source-$BASE.tar.xz}
	# a base of another suite: the tarball fetch.sh extracts, unless the
	# package is installed
	if [ -n "$(base_suite "$BASE")" ] && [ ! -f "$TARBALL" ]; then
		TARBALL=$b_dir/src/linux-source-$BASE.tar.xz
	fi
	# shellcheck disable=SC2034  # read by the scripts that source this
	PKG=linux-source-$BASE
	TREE=${TREE:-$b_dir/linux$b_pre}
	STOCK=${STOCK:-$b_dir/linux$b_pre-stock}
	STAMP=${STAMP:-$b_dir/tree$b_pre.stamp}
	# says why the base's tree could not be had (tree.sh), when it could not
	# shellcheck disable=SC2034
	UNAVAILABLE=$b_dir/tree$b_pre.unavailable
	PATCHES=${PATCHES:-$(cd "$(dirname "$0")" && pwd)/$BASE}
	# shellcheck disable=SC2034
	REPORT=${REPORT:-$b_dir/report${PRE:+/$BASE}}
}

# The Debian suite modern/fetch.sh fetches a base's package from, through a
# private apt list; empty for the bases the machine's own sources carry
# (apt-get install, make deps).
base_suite() {
	case $1 in
	7.3) echo trixie-backports ;;
	esac
}

# base_unavailable BASE: why BASE's tree could not be had, if it could not
# (empty, and status 1, when it was)
base_unavailable() {
	base_check "$1"
	case $(base_prefix "$1") in
	"") cat "${BUILD:?}/tree.unavailable" ;;
	*) cat "${BUILD:?}/tree-$1.unavailable" ;;
	esac 2>/dev/null
}

# base_nearest VERSION: the base whose series is meant for a tree of
# VERSION ("7.2.0-rc3", "6.6.58"): the base of the same major version whose
# minor one is nearest (the newer of two as near), else the newest base of
# the nearest major version
base_nearest() {
	echo "$1" | awk -v bases="$BASES" -F. '{
		n = split(bases, b, " "); best = ""; bd = -1
		for (i = 1; i <= n; i++) {
			split(b[i], v, ".")
			d = ($1 - v[1]) * ($1 - v[1]) * 100000 + ($2 - v[2]) * ($2 - v[2])
			if (bd < 0 || d <= bd) { bd = d; best = b[i] }
		}
		print best }'
}

# "" for the first base; "BASE-" for every other
base_prefix() {
	[ "$1" = "$BASE_FIRST" ] || echo "$1-"
}

# "6.12-stock-debug" -> 6.12; "stock-debug" -> the first base (6.1);
# "historical-off" -> 2.6.14;
# "historical-2.6.15" -> 2.6.15
base_of_kernel() {
	case $1 in
	historical-2.6.15) echo 2.6.15; return ;;
	historical | historical-*) echo 2.6.14; return ;;
	esac
	for b in $BASES; do
		case $1 in "$b"-*) echo "$b"; return ;; esac
	done
	echo "$BASE_FIRST"
}
