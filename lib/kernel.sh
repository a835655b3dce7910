# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Sourced by modern/ and historical/ (and the boot scripts): what both kinds
# of tree share.  Each caller defines die() first.
#
#   BUILD                    the build directory: the caller's, else build/
#   kcache_setup             for the scripts that run kbuild: with KCACHE=1
#                            (the default) every compiler kbuild runs goes
#                            through ccache (Debian's /usr/lib/ccache first
#                            in PATH), its cache in KCACHE_DIR (default
#                            ~/.cache/ptlock/ccache: outside the clone, so
#                            that another clone and CI on this machine
#                            share it), at most KCACHE_SIZE (default 5G);
#                            KCACHE=0: no cache.  KBUILD_BUILD_TIMESTAMP,
#                            _USER, _HOST and _VERSION are fixed, so that
#                            a kernel built twice is the same kernel
#   kbuild_dir TREE KDIR NAME
#                            the build directory of kernel NAME, made if
#                            missing: TREE/.kbuild-NAME (with KDIR's name
#                            in it unless KDIR is $BUILD/kernel), linked
#                            from KDIR/NAME.  Inside the tree (ignored by
#                            the kernel's .gitignore), kbuild names every
#                            file relative to it (srctree is ".."), so
#                            that the compiler's command line is the same
#                            in every clone and the cache finds it
#   kcache_stats             "hits misses" of the cache so far (0 0 without)
#   kernel_image NAME        the bzImage of a kernel: ${KDIR:-$BUILD/kernel}/
#                            NAME's (historical* are i386's older path), or
#                            NAME itself when it is a path
#   arch_of_kernel NAME      the guest architecture of a kernel (or a cell's
#                            KERNEL): x86_64 when a part of its name is
#                            x86_64 (modern/kbuild.sh), else i386
#   tree_version DIR         "6.1.192", "2.6.14-rc4-mm1": DIR/Makefile's
#                            version; empty when it names none
#   git_import DIR MESSAGE [BRANCH]
#                            make DIR (a plain source tree) a git repository
#                            of one commit holding every file, on BRANCH
#   am_series DIR WHAT NAME PATCH...
#                            git am each PATCH onto DIR's HEAD; the first
#                            that does not apply is aborted and named, with
#                            every hunk of it that does not apply (WHAT: what
#                            HEAD is, NAME: the caller's name for its
#                            messages).  Prints how many applied.
#   failing_hunks DIR PATCH  list each hunk of PATCH that does not apply to
#                            DIR's work tree, on its own, with its file
#   config_check CONFIG FRAGMENT...
#                            every option the fragments set reads the same in
#                            CONFIG (a .config after merge_config.sh or
#                            KCONFIG_ALLCONFIG); where two fragments set one
#                            option, the later wins, as in merge_config.sh.
#                            Prints each that did not survive on stderr, with
#                            what CONFIG has and the fragments that set it;
#                            status 1 if there is one.

# Where everything built goes (make passes it): by default the project's
# build/, the caller's $here being its own folder, one below the top.
BUILD=${BUILD:-$(cd "${here:?}/.." && pwd)/build}

kcache_setup() {
	KCACHE=${KCACHE:-1}
	case $KCACHE in
	0) ;;
	1)	[ -x /usr/lib/ccache/gcc ] ||
			die "KCACHE=1 but no /usr/lib/ccache/gcc: install ccache (make deps does), or set KCACHE=0"
		case :$PATH: in
		*:/usr/lib/ccache:*) ;;
		*) PATH=/usr/lib/ccache:$PATH ;;
		esac
		CCACHE_DIR=${KCACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ptlock/ccache}
		CCACHE_MAXSIZE=${KCACHE_SIZE:-5G}
		# kbuild writes every object's dependencies (-Wp,-MMD): ccache
		# reads them instead of running the preprocessor a second time
		# on a miss (about 10% of a cold build's compile time)
		CCACHE_DEPEND=1
		export PATH CCACHE_DIR CCACHE_MAXSIZE CCACHE_DEPEND ;;
	*)	die "KCACHE=$KCACHE: 1 (ccache, the default) or 0 (none)" ;;
	esac
	# the same sources and .config give the same kernel (init/version.c's
	# banner included), and the cache a hit for it
	KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2005-10-29 00:00:00 UTC}
	KBUILD_BUILD_USER=${KBUILD_BUILD_USER:-ptlock}
	KBUILD_BUILD_HOST=${KBUILD_BUILD_HOST:-qemu}
	KBUILD_BUILD_VERSION=${KBUILD_BUILD_VERSION:-1}
	export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER KBUILD_BUILD_HOST KBUILD_BUILD_VERSION
}

kbuild_dir() {
	k_tree=$(cd "$1" && pwd -P)
	k_kdir=${2:-$BUILD/kernel}
	mkdir -p "$k_kdir"
	k_kdir=$(cd "$k_kdir" && pwd -P)
	k_dir=$k_tree/.kbuild-$3
	[ "$k_kdir" = "$(cd "$BUILD" && pwd -P)/kernel" ] ||
		k_dir=$k_tree/.kbuild-${k_kdir##*/}-$3
	# a directory of the old layout, or a link removed to start afresh
	if [ "$(readlink "$k_kdir/$3" 2>/dev/null)" != "$k_dir" ]; then
		rm -rf "${k_kdir:?}/$3" "$k_dir"
		ln -s "$k_dir" "$k_kdir/$3"
	fi
	# new, or gone with the tree when it was imported again
	mkdir -p "$k_dir"
	echo "$k_dir"
}

kcache_stats() {
	if [ "$KCACHE" = 1 ]; then
		ccache --print-stats 2>/dev/null | awk '
			/^(direct|preprocessed)_cache_hit\t/ { h += $2 }
			/^cache_miss\t/ { m += $2 }
			END { print h + 0, m + 0 }'
	else
		echo 0 0
	fi
}

kernel_image() {
	case $1 in
	*/*) echo "$1" ;;
	historical | historical-*) echo "${KDIR:-${BUILD:?}/kernel}/$1/arch/i386/boot/bzImage" ;;
	*) echo "${KDIR:-${BUILD:?}/kernel}/$1/arch/x86/boot/bzImage" ;;
	esac
}

arch_of_kernel() {
	case -$1- in
	*-x86_64-*) echo x86_64 ;;
	*) echo i386 ;;
	esac
}

tree_version() {
	makefile_version <"$1/Makefile"
}

# the same of a Makefile on standard input
makefile_version() {
	awk -F' *= *' '/^VERSION *=/ { v = $2 } /^PATCHLEVEL *=/ { p = $2 }
		/^SUBLEVEL *=/ { s = $2 } /^EXTRAVERSION *=/ { e = $2 }
		END { if (v != "" && p != "") print v "." p "." s e }'
}

git_import() {
	git -C "$1" init -q -b "${3:-master}"
	git -C "$1" config user.name "ptlock build"
	git -C "$1" config user.email "build@localhost"
	git -C "$1" config gc.auto 0
	git -C "$1" add -f -A .
	GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
	git -C "$1" commit -q -m "$2"
}

am_series() {
	a_dir=$1 a_what=$2 a_name=$3
	shift 3
	a_nr=0
	for a_p in "$@"; do
		if ! git -C "$a_dir" am -q "$a_p" >"$a_dir/.git/am.out" 2>&1; then
			git -C "$a_dir" am --abort
			case $a_p in
			*/modern/*) a_rel=modern/${a_p##*/modern/} ;;
			*/historical/*) a_rel=historical/${a_p##*/historical/} ;;
			*) a_rel=$a_p ;;
			esac
			echo "$a_name: error: $a_rel does not apply to $a_what:" >&2
			git -C "$a_dir" apply --check -v "$a_p" 2>&1 | grep -v '^Checking patch' >&2 || true
			failing_hunks "$a_dir" "$a_p" >&2
			die "series aborted; $a_dir is left at $a_what plus the $a_nr patches before it"
		fi
		a_nr=$((a_nr + 1))
	done
	echo "$a_nr"
}

failing_hunks() {
	f_tmp=$(mktemp -d)
	# one patch per hunk, each with its file's header
	awk -v dir="$f_tmp" '
		/^diff --git / { hdr = $0 "\n"; inhdr = 1; out = ""; next }
		inhdr && /^@@ / { inhdr = 0 }
		inhdr { hdr = hdr $0 "\n"; if ($1 == "+++") { file = $2; sub(/^b\//, "", file) } next }
		/^@@ / { n++; out = sprintf("%s/%04d", dir, n); printf "%s", hdr >out
			 print file "  " $0 >(out ".what") }
		/^-- $/ { out = "" }
		out != "" { print >out }' "$2"
	f_bad=0
	for f_h in "$f_tmp"/[0-9]*; do
		case $f_h in *.what) continue ;; esac
		[ -f "$f_h" ] || continue
		if ! git -C "$1" apply --check "$f_h" >/dev/null 2>&1; then
			[ $f_bad = 1 ] || echo "every hunk that does not apply:"
			echo "  $(cat "$f_h.what")"
			f_bad=1
		fi
	done
	rm -rf "$f_tmp"
}

config_check() {
	c_config=$1
	shift
	c_bad=0
	c_want=$(cat "$@" | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
		sym != "" { want[sym] = $0; if (!(sym in seen)) order[n++] = sym; seen[sym] = 1; sym = "" }
		END { for (i = 0; i < n; i++) print want[order[i]] }')
	while IFS= read -r c_line; do
		[ -n "$c_line" ] || continue
		case $c_line in
		CONFIG_*=*)
			grep -qxF "$c_line" "$c_config" && continue
			c_sym=${c_line%%=*} ;;
		*)	c_sym=${c_line#\# }
			c_sym=${c_sym%% *}
			grep -q "^$c_sym=" "$c_config" || continue ;;
		esac
		c_now=$(grep -E "^($c_sym=|# $c_sym is not set)" "$c_config" || echo "$c_sym absent")
		echo "asked for '$c_line', got '$c_now' (fragments: $(grep -l "${c_sym}[= ]" "$@" | xargs -n1 basename | tr '\n' ' '))" >&2
		c_bad=1
	done <<EOT
$c_want
EOT
	return $c_bad
}
