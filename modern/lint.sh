#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: the series of one base (BASE=6.1 or 6.12, modern/base.sh)
# against the kernel's own checkers.
#   checkpatch  scripts/checkpatch.pl --strict on every patch of
#               modern/BASE: any error, warning or check fails.
#   sparse      make C=2 on each .c file the series touches, in the stock
#               tree and in the patched one: any warning the series adds
#               fails (line numbers ignored).  Files the LINT_KERNEL
#               kernel compiles (make passes the first base's debug-pae,
#               the others' debug-x86_64) are checked there, against its
#               stock kernel; those only the PAE kernel compiles (THP,
#               hugetlb; LINT_KERNEL=debug) in debug-pae build directories
#               where only the object is compiled; arch/x86/xen/ ones in x86_64
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
#   arches      every architecture the series touches or that builds split
#               locks (ARCHES below): its files, the arch's page table lock
#               users and the KUnit test, turned on by KUNIT_ALL_TESTS=y,
#               compiled in a defconfig directory under build/lint/arch;
#               any warning the stock tree lacks fails.  s390 and sparc64
#               with Debian's cross gcc (cross-gcc.sh), the others with
#               the host gcc or clang.
#   kunit=m     the series' KUnit test with KUnit as a module: an i386
#               kernel with MODULES=y, KUNIT=m and KUNIT_ALL_TESTS=m, as
#               allmodconfig sets them ([BASE-]perf-kunitm, without
#               series.config), must configure without the built-in-only
#               test, and link.  LINT_KUNITM=config only configures it
#               (make check); LINT_KUNITM=0 leaves it out.
#   LINT_ARCHES=0 leaves the architectures out (make check: first base only).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
die() { echo "lint: error: $*" >&2; exit 1; }
kcache_setup
# canonical paths: sparse names the sources by them in an O= build
BUILD=$(cd "$BUILD" && pwd -P)
export BUILD
. "$here/base.sh"
base_set "${BASE:-$BASE_FIRST}"
if why=$(base_unavailable "$BASE"); then
	echo "lint: base $BASE left out, skipped ($why)"
	exit 0
fi
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
# lint_dir TREE DIR: DIR (a path under $BUILD/lint) made a link to a
# directory inside TREE (kbuild_dir), new when DIR was not such a link
lint_dir() {
	kbuild_dir "$1" "$(dirname "$2")" "$(basename "$2")" >/dev/null
}

# cross DIR KIND TREE: configure DIR for a file the debug kernel does not
# build; prints the make arguments that compile in it.  DIR becomes a link
# to a directory inside TREE (kbuild_dir), as the kernels' are
cross() {
	case $2 in
	arm-*)
		[ -f "$1/.config" ] || { lint_dir "$3" "$1" &&
			make -s -C "$3" O="$1" ARCH=arm LLVM=1 "${2#arm-}_defconfig" >&2; } ||
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
		[ -f "$1/.config" ] || { lint_dir "$3" "$1" &&
			make -s -C "$3" O="$1" ARCH=powerpc LLVM=1 ppc64le_defconfig >&2; } ||
			return 1
		echo "ARCH=powerpc LLVM=1" ;;
	xen|pae)
		k=$(kernel_of "$2")
		[ "$3" = "$TREE" ] || k=stock-$k
		TREE=$3 KDIR=$(dirname "$1") "$here/kbuild.sh" config "$PRE$k" >&2 || return 1
		[ "$2" = xen ] && echo ARCH=x86_64 || echo ARCH=i386 ;;
	esac
}

# clang_too_old TREE: why this machine's clang cannot build TREE (older than
# the tree's scripts/min-tool-version.sh llvm: bookworm's clang 14 against
# 7.3's 17), else nothing and status 1
clang_too_old() {
	need=$("$1/scripts/min-tool-version.sh" llvm 2>/dev/null) || return 1
	have=$(clang -dumpversion 2>/dev/null) || return 1
	[ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1)" != "$need" ] || return 1
	echo "clang $have is older than the $need this tree asks for"
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
			args=ARCH=$(arch_of_kernel "$PRE$KERNEL")
		fi
		# lint's own directories: compile again, so that gcc's warnings
		# are read on every run, not only on the first
		[ -z "$kind" ] || rm -f "$2/$o"
		# shellcheck disable=SC2086
		make -s -C "$1" O="$2" $args C=2 "$o" >"$2.lint.log" 2>&1 ||
			{ tail -n 20 "$2.lint.log" >&2; echo "lint: error: $o does not compile in $2" >&2; exit 1; }
		if [ "$INJECT" = 1 ] && [ "$1" = "$TREE" ]; then
			echo "../$f:1:1: warning: lint self-test: injected" >>"$2.lint.log"
			INJECT=injected
		fi
		# an O= build names the source by its full path, one inside the
		# tree (kbuild_dir) relative to it
		sed -e "s|^$1/||" -e 's|^\.\./||' "$2.lint.log" |
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
	elif [ "$kinds" = main ] && [ "$KERNEL" != debug ]; then
		case $f in mm/huge_memory.c|mm/hugetlb.c) kinds="main xen" ;; esac
	fi
	if [ "${kinds#arm}" != "$kinds" ] || [ "$kinds" = ppc64le ] &&
	   ! command -v clang >/dev/null; then
		echo "$f: no clang (make deps installs it), skipped"
		bad=1
		continue
	fi
	# a machine whose clang this base cannot use: said, not a failure
	if { [ "${kinds#arm}" != "$kinds" ] || [ "$kinds" = ppc64le ]; } &&
	   why=$(clang_too_old "$TREE"); then
		echo "$f: $why (its LLVM=1 builds), skipped"
		continue
	fi
	for kind in $kinds; do
		check "$f" "$kind"
	done
done

# Every architecture the series touches or that builds split locks: the
# series' mm/ files, its arch files of that architecture, the files under
# arch/SRCARCH/mm that take a page table lock, and the KUnit test, turned
# on by KUNIT_ALL_TESTS=y as allyesconfig turns it on.  Compiled only (no
# sparse), in the patched tree; where a file warns, the stock tree is
# configured the same way and only the warnings it lacks fail.
#   NAME ARCH COMPILER DEFCONFIG [CONFIG=VALUE...]
# COMPILER: gcc (the host's), clang (LLVM=1) or a Debian triple
# (cross-gcc.sh).  x86_64-nosplit is the state patch "let the user choose
# the split ptlock threshold" opens: THP without split locks.
ARCHES="i386 i386 gcc i386_defconfig
x86_64 x86_64 gcc x86_64_defconfig
x86_64-nosplit x86_64 gcc x86_64_defconfig CONFIG_SPLIT_PTLOCK_CPUS=999999
arm arm clang vexpress_defconfig CONFIG_ARM_LPAE=y
arm64 arm64 clang defconfig
ppc64-hash powerpc clang ppc64le_defconfig CONFIG_PPC_RADIX_MMU=n
ppc64-radix powerpc clang ppc64le_defconfig CONFIG_PPC_64S_HASH_MMU=n
s390 s390 s390x-linux-gnu defconfig
sparc64 sparc64 sparc64-linux-gnu sparc64_defconfig
riscv riscv clang defconfig"
# test-only: LINT_PLANT=1 compiles the KUnit test once more on each
# architecture with an #error forced in (KCFLAGS=-include): each must fail
PLANT=${LINT_PLANT:-0}
printf '#error "lint: planted error"\n' >"$tmp/plant.h"

# arch_make TREE DIR ARCH COMPILER ARGS...: make of TREE in DIR for that
# compiler (no standard input: a kconfig prompt must not read the list of
# arches)
arch_make() {
	am_t=$1 am_d=$2 am_a=$3 am_cc=$4
	shift 4
	case $am_cc in
	gcc) set -- ARCH="$am_a" "$@" ;;
	clang) set -- ARCH="$am_a" LLVM=1 "$@" ;;
	*) set -- ARCH="$am_a" CROSS_COMPILE="$am_cc-" "$@" ;;
	esac
	make -s -j"$(nproc)" -C "$am_t" O="$am_d" "$@" </dev/null
}

# what every architecture directory has on top of its defconfig
ARCH_CONFIG="CONFIG_KUNIT=y CONFIG_KUNIT_ALL_TESTS=y CONFIG_TRANSPARENT_HUGEPAGE=y CONFIG_HUGETLBFS=y"

# arch_config TREE DIR ARCH COMPILER DEFCONFIG CONFIG...: configure DIR,
# unless it was configured so.  DIR is a link to a directory inside TREE
# (kbuild_dir): kbuild's command lines are then the same in every clone,
# and the compiler cache serves another clone's lint too
arch_config() {
	t=$1 d=$2 a=$3 cc=$4 defc=$5
	shift 5
	want="$defc $ARCH_CONFIG $*"
	[ -f "$d/.config" ] && [ "$(cat "$d/.lint-config" 2>/dev/null)" = "$want" ] && return 0
	# from nothing: without its link, kbuild_dir makes the directory anew
	rm -rf "$d"
	lint_dir "$t" "$d"
	# shellcheck disable=SC2086
	printf '%s\n' $ARCH_CONFIG "$@" >"$d.fragment"
	arch_make "$t" "$d" "$a" "$cc" "$defc" &&
		"$t/scripts/kconfig/merge_config.sh" -m -O "$d" "$d/.config" "$d.fragment" &&
		arch_make "$t" "$d" "$a" "$cc" olddefconfig &&
		arch_make "$t" "$d" "$a" "$cc" prepare || return 1
	echo "$want" >"$d/.lint-config"
}

# arch_objs TREE DIR ARCH COMPILER OBJECT...: those of the objects the
# configuration builds, as kbuild says: a dry run of their directories
# with KCFLAGS changed lists every object they build (a single-object
# target is compiled whether the configuration builds it or not)
arch_objs() {
	t=$1 d=$2 a=$3 cc=$4
	shift 4
	dirs=$(for o; do echo "${o%/*}/"; done | sort -u)
	# shellcheck disable=SC2086
	arch_make "$t" "$d" "$a" "$cc" -n KCFLAGS=-DLINT_LIST $dirs 2>/dev/null |
		grep -oE '[A-Za-z0-9_./-]+\.o' | sort -u >"$d.objs" || true
	for o; do
		grep -qxF "$o" "$d.objs" && echo "$o"
	done
	return 0
}

# arch_build TREE DIR ARCH COMPILER OBJECT...: compile the objects; prints
# their warnings and errors, without line numbers, sorted
arch_build() {
	t=$1 d=$2 a=$3 cc=$4
	shift 4
	arch_make "$t" "$d" "$a" "$cc" -k "$@" >"$d.log" 2>&1 || true
	{
		sed -e "s|^$t/||" -e 's|^\.\./||' "$d.log" |
			grep -E '^[^ :]+\.[chS]:[0-9]+:[0-9]+: (warning|error)' |
			sed -E 's/:[0-9]+:[0-9]+:/:/'
		for o; do
			[ -f "$d/$o" ] || echo "$o: error: not compiled ($d.log)"
		done
	} | LC_ALL=C sort -u
}

echo "== every architecture: touched files, page table lock users, the KUnit test"
if [ "${LINT_ARCHES:-1}" = 0 ]; then
	echo "not built here (LINT_ARCHES=0: make check builds them for the first base; make lint for each)"
	ARCHES=
fi
mkdir -p "$BUILD/lint/arch"
series_c=$(echo "$files" | grep -E '^mm/.*\.c$' || true)
echo "$ARCHES" | while read -r name a cc defc extra; do
	[ -n "$name" ] || continue
	case $a in
	i386|x86_64) src=x86 ;;
	sparc64) src=sparc ;;
	*) src=$a ;;
	esac
	case $cc in
	gcc|clang)
		command -v "$cc" >/dev/null ||
			{ echo "$name: no $cc (make deps installs it)"; echo bad >>"$tmp/arch-bad"; continue; }
		if [ "$cc" = clang ] && why=$(clang_too_old "$TREE"); then
			echo "$name: $why, skipped"
			continue
		fi ;;
	*)
		cbin=$("$here/cross-gcc.sh" "$cc" 2>"$tmp/cross.err") ||
			{ echo "$name: $(cat "$tmp/cross.err")"; echo bad >>"$tmp/arch-bad"; continue; }
		PATH=$cbin:$PATH ;;
	esac
	# shellcheck disable=SC2086
	objs=$(
		{
			echo "$series_c"
			echo "$files" | grep "^arch/$src/.*\.c$" || true
			grep -rlE 'pte_lockptr|pmd_lockptr|ptlock_|pte_offset_map_lock|pmd_lock\(|page_table_lock' \
				"$TREE/arch/$src/mm" --include='*.c' | sed "s|^$TREE/||"
		} | grep . | sort -u | sed 's/\.c$/.o/'
	)
	d=$BUILD/lint/arch/$PRE$name
	# shellcheck disable=SC2086
	if ! arch_config "$TREE" "$d" "$a" "$cc" "$defc" $extra >"$d.config.log" 2>&1; then
		tail -n 5 "$d.config.log"
		echo "$name: cannot configure ($defc $extra; $d.config.log)"
		echo bad >>"$tmp/arch-bad"
		continue
	fi
	if ! grep -q '^CONFIG_SPLIT_PTLOCK_KUNIT_TEST=y' "$d/.config"; then
		echo "$name: KUNIT_ALL_TESTS=y does not turn the KUnit test on"
		echo bad >>"$tmp/arch-bad"
	fi
	# shellcheck disable=SC2086
	built=$(arch_objs "$TREE" "$d" "$a" "$cc" $objs)
	skipped=$(for o in $objs; do echo "$built" | grep -qxF "$o" || echo "$o"; done | tr '\n' ' ')
	# shellcheck disable=SC2086
	arch_build "$TREE" "$d" "$a" "$cc" $built >"$tmp/arch.warn"
	added=
	if [ -s "$tmp/arch.warn" ]; then
		sd=$BUILD/lint/arch/${PRE}stock-$name
		# shellcheck disable=SC2086
		if arch_config "$STOCK" "$sd" "$a" "$cc" "$defc" $extra >"$sd.config.log" 2>&1; then
			sobjs=$(for o in $built; do [ ! -f "$STOCK/${o%.o}.c" ] || echo "$o"; done)
			# shellcheck disable=SC2086
			arch_build "$STOCK" "$sd" "$a" "$cc" $sobjs >"$tmp/arch.base"
		else
			: >"$tmp/arch.base"
		fi
		added=$(LC_ALL=C comm -13 "$tmp/arch.base" "$tmp/arch.warn")
	fi
	# shellcheck disable=SC2086
	set -- $built
	n=$#
	thp=$(grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$d/.config" && echo THP || echo "no THP")
	if [ -n "$added" ]; then
		echo "$name ($cc, $defc${extra:+ $extra}): warnings or errors the series adds:"
		echo "$added" | sed 's/^/  /'
		echo bad >>"$tmp/arch-bad"
	else
		echo "$name ($cc, $defc${extra:+ $extra}, $thp): $n files compiled${skipped:+ (not built here: $skipped)}, no new warnings ($(wc -l <"$tmp/arch.warn") in all)"
	fi
	if [ "$PLANT" = 1 ]; then
		if arch_make "$TREE" "$d" "$a" "$cc" KCFLAGS="-include $tmp/plant.h" \
			mm/split_ptlock_kunit.o >"$d.plant.log" 2>&1; then
			echo "$name: the planted error was NOT seen"
			echo bad >>"$tmp/arch-bad"
		elif grep -q 'lint: planted error' "$d.plant.log"; then
			echo "$name: the planted error fails the build"
		else
			echo "$name: the build failed, but not on the planted error ($d.plant.log)"
			echo bad >>"$tmp/arch-bad"
		fi
	fi
done
[ ! -s "$tmp/arch-bad" ] || bad=1

[ "${LINT_KUNITM:-1}" = 0 ] || {
	echo "== the KUnit test with KUNIT=m"
	k=${PRE}perf-kunitm
	link=1 links=", and links"
	[ "${LINT_KUNITM:-1}" != config ] || link=0 links=" (not linked here: make lint links it)"
	if SERIES_CONFIG=no "$here/kbuild.sh" config $k >"$BUILD/lint/$k.log" 2>&1 &&
	   { [ $link = 0 ] || "$here/kbuild.sh" build $k >>"$BUILD/lint/$k.log" 2>&1; }; then
		if grep -q '^CONFIG_SPLIT_PTLOCK_KUNIT_TEST=y' "$BUILD/kernel/$k/.config"; then
			echo "$k: the built-in-only test was configured with KUNIT=m"
			bad=1
		elif ! grep -q '^CONFIG_KUNIT=m' "$BUILD/kernel/$k/.config"; then
			echo "$k: KUNIT=m was not configured"
			bad=1
		else
			echo "$k: configures without the test$links"
		fi
	else
		tail -n 20 "$BUILD/lint/$k.log"
		echo "$k: does not build with KUNIT=m ($BUILD/lint/$k.log)"
		bad=1
	fi
}
[ $bad -eq 0 ] && echo "lint: clean" || { echo "lint: FAILED"; exit 1; }
