#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: the series of one base (BASE=6.1 or 6.12, modern/base.sh)
# against the kernel's own checkers.
#   checkpatch  scripts/checkpatch.pl --strict on every patch of
#               modern/BASE: any error, warning or check fails.
#   sparse      make C=2 on each .c file the series touches, in the stock
#               tree and in the patched one: any warning the series adds
#               fails (line numbers ignored).  Files the debug kernel
#               compiles are checked there; those only the PAE kernel
#               compiles (THP, hugetlb) in debug-pae build directories
#               where only the object is compiled (LINT_KERNEL=debug-pae
#               checks them in the debug-pae kernels instead); arch/x86/xen/ ones in x86_64
#               debug + xen.config (modern/kbuild.sh), where only the object
#               itself is compiled, after prepare; arch/arm/ ones with clang
#               (LLVM=1, no cross gcc: Debian's conflicts with gcc-multilib)
#               in two ARM build directories: versatile_defconfig (ARMv5,
#               VIVT: the only kind where adjust_pte() is compiled) and
#               vexpress_defconfig (ARMv7, VIPT, SMP, NR_CPUS 4: split
#               locks built in); arch/powerpc/ ones with clang in a
#               ppc64le_defconfig directory (radix MMU, THP).  THP and
#               hugetlb code is also checked in the x86_64 Xen directory
#               (xen.config turns both on): hugetlb pmd sharing
#               (ARCH_WANT_HUGE_PMD_SHARE) is compiled only on x86_64.
#               A file not checked is named as skipped, with the reason.
#   kunit=m     the series' KUnit test with KUnit as a module: an i386
#               kernel with MODULES=y, KUNIT=m and KUNIT_ALL_TESTS=m, as
#               allmodconfig sets them ([BASE-]perf-kunitm, without
#               series.config), must configure without the built-in-only
#               test, and link.  LINT_KUNITM=0 leaves it out.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
# canonical paths: sparse names the sources by them in an O= build
BUILD=$(cd "$BUILD" && pwd -P)
. "$here/base.sh"
base_set "${BASE:-6.1}"
TREE=$(cd "$TREE" && pwd -P)
STOCK=$(cd "$STOCK" && pwd -P)
KERNEL=${LINT_KERNEL:-debug}
# test-only: LINT_INJECT=1 adds one warning, worded as sparse words them, to
# the series' side of the first file checked; lint must then fail
INJECT=${LINT_INJECT:-0}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lint.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0

echo "== checkpatch --strict"
for p in "$PATCHES"/0*.patch; do
	case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
	# Debian's python3 (spdxcheck.py needs its python3-ply, python3-git)
	out=$(PATH=/usr/bin:$PATH "$TREE/scripts/checkpatch.pl" --strict --terse \
		--no-summary "$p" 2>&1) || true
	if [ -n "$out" ]; then
		echo "${p##*/}:"
		echo "$out" | sed 's/^/  /'
		bad=1
	else
		echo "${p##*/}: clean"
	fi
done

echo "== sparse (make C=2) on touched files, $PRE$KERNEL kernel"
base=$(git -C "$TREE" config ptlock.base)
files=$(git -C "$TREE" diff --name-only "$base..ptlock-split" -- '*.c')
# cross DIR KIND TREE: configure DIR for a file the debug kernel does not
# build; prints the make arguments that compile in it
cross() {
	case $2 in
	arm-*)
		[ -f "$1/.config" ] ||
			make -s -C "$3" O="$1" ARCH=arm LLVM=1 "${2#arm-}_defconfig" >&2 ||
			return 1
		# sparse cannot parse clang's two-word "-meabi gnu": drop it
		cat >"$tmp/sparse-arm" <<-'EOF'
		#!/bin/sh
		skip=
		for a; do
			shift
			if [ -n "$skip" ]; then skip=; continue; fi
			[ "$a" = -meabi ] && { skip=1; continue; }
			set -- "$@" "$a"
		done
		exec sparse "$@"
		EOF
		chmod +x "$tmp/sparse-arm"
		echo "ARCH=arm LLVM=1 CHECK=$tmp/sparse-arm" ;;
	ppc64le)
		[ -f "$1/.config" ] ||
			make -s -C "$3" O="$1" ARCH=powerpc LLVM=1 ppc64le_defconfig >&2 ||
			return 1
		echo "ARCH=powerpc LLVM=1" ;;
	xen|pae)
		k=$(kernel_of "$2")
		[ "$3" = "$TREE" ] || k=stock-$k
		TREE=$3 KDIR=$(dirname "$1") "$here/kbuild.sh" config "$PRE$k" >&2 || return 1
		[ "$2" = xen ] && echo ARCH=x86_64 || echo ARCH=i386 ;;
	esac
}

# the kbuild.sh kernel a configured KIND is (its build directory's name)
kernel_of() {
	case $1 in
	xen) echo debug-x86_64-xen ;;
	pae) echo debug-pae ;;
	*) echo "$1" ;;
	esac
}

# check FILE KIND: sparse on FILE in the stock and the patched tree, built
# for KIND (main: the $KERNEL kernel); any warning the series adds fails
check() {
	f=$1
	kind=${2#main}
	o=${f%.c}.o
	if [ -z "$kind" ] && [ ! -f "$BUILD/kernel/$PRE$KERNEL/$o" ]; then
		echo "$f: not built in the $PRE$KERNEL kernel, skipped"
		return
	fi
	sp() {	# tree objdir -> sparse warnings for $f, without line numbers
		if [ -n "$kind" ]; then
			args=$(cross "$2" "$kind" "$1") ||
				{ echo "lint: error: cannot configure $2 for $f" >&2; exit 1; }
		else
			args=ARCH=i386
		fi
		# lint's own directories: compile again, so that gcc's warnings
		# are read on every run, not only on the first
		[ -z "$kind" ] || rm -f "$2/$o"
		# shellcheck disable=SC2086
		make -s -C "$1" O="$2" $args C=2 "$o" >"$2.lint.log" 2>&1 ||
			{ tail -n 20 "$2.lint.log" >&2; echo "lint: error: $o does not compile in $2" >&2; exit 1; }
		if [ "$INJECT" = 1 ] && [ "$1" = "$TREE" ]; then
			echo "$1/$f:1:1: warning: lint self-test: injected" >>"$2.lint.log"
			INJECT=injected
		fi
		# an O= build names the source by its full path
		sed "s|^$1/||" "$2.lint.log" |
			grep -E "^$f:[0-9]+:[0-9]+: (warning|error)" |
			sed -E 's/:[0-9]+:[0-9]+:/:/' | sort
	}
	case $kind in
	"") dirs="$BUILD/kernel/$PRE$KERNEL $BUILD/kernel/${PRE}stock-$KERNEL" ;;
	*) k=$(kernel_of "$kind"); dirs="$BUILD/lint/$PRE$k $BUILD/lint/${PRE}stock-$k" ;;
	esac
	set -- $dirs
	mkdir -p "$1" "$2"
	[ ! -f "$STOCK/$f" ] || sp "$STOCK" "$2" >"$tmp/sparse.base"
	[ -f "$STOCK/$f" ] || : >"$tmp/sparse.base"
	sp "$TREE" "$1" >"$tmp/sparse.new"
	added=$(comm -13 "$tmp/sparse.base" "$tmp/sparse.new")
	where=${kind:+ ($kind build)}
	if [ -n "$added" ]; then
		echo "$f$where: sparse warnings the series adds:"
		echo "$added" | sed 's/^/  /'
		bad=1
	else
		echo "$f$where: no new sparse warnings ($(wc -l <"$tmp/sparse.new") in all, $(wc -l <"$tmp/sparse.base") before)"
	fi
}

for f in $files; do
	case $f in
	arch/arm/*) kinds="arm-versatile arm-vexpress" ;;
	arch/x86/xen/*) kinds=xen ;;
	arch/powerpc/*) kinds=ppc64le ;;
	arch/*) echo "$f: another architecture, not compiled here, skipped"; continue ;;
	*) kinds=main ;;
	esac
	# THP and hugetlb code: only the PAE kernel has them; x86_64 also
	# compiles hugetlb pmd sharing
	if [ "$kinds" = main ] && [ ! -f "$BUILD/kernel/$PRE$KERNEL/${f%.c}.o" ] &&
	   [ -f "$BUILD/kernel/${PRE}debug-pae/${f%.c}.o" ]; then
		kinds="pae xen"
	elif [ "$kinds" = main ] && [ "$KERNEL" = debug-pae ]; then
		case $f in mm/huge_memory.c|mm/hugetlb.c) kinds="main xen" ;; esac
	fi
	if [ "${kinds#arm}" != "$kinds" ] || [ "$kinds" = ppc64le ] &&
	   ! command -v clang >/dev/null; then
		echo "$f: no clang (make deps installs it), skipped"
		bad=1
		continue
	fi
	for kind in $kinds; do
		check "$f" "$kind"
	done
done

[ "${LINT_KUNITM:-1}" = 0 ] || {
	echo "== the KUnit test with KUNIT=m"
	k=${PRE}perf-kunitm
	if SERIES_CONFIG=no "$here/kbuild.sh" config $k >"$BUILD/lint/$k.log" 2>&1 &&
	   "$here/kbuild.sh" build $k >>"$BUILD/lint/$k.log" 2>&1; then
		if grep -q '^CONFIG_SPLIT_PTLOCK_KUNIT_TEST=y' "$BUILD/kernel/$k/.config"; then
			echo "$k: the built-in-only test was configured with KUNIT=m"
			bad=1
		else
			echo "$k: configures without the test, and links"
		fi
	else
		tail -n 20 "$BUILD/lint/$k.log"
		echo "$k: does not build with KUNIT=m ($BUILD/lint/$k.log)"
		bad=1
	fi
}
[ $bad -eq 0 ] && echo "lint: clean" || { echo "lint: FAILED"; exit 1; }
