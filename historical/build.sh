#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build.sh tree|kernels|config KERNEL|build KERNEL|ptl KERNEL|cc|hint [KERNEL]
#
# Build 2.6.14 before and after the 2005 split on a tree you supply, and
# 2.6.15 (the first release with the split) as the mainline reference, for
# the same i386 QEMU guest as the modern kernels ('make historical').  Three
# kinds of tree are taken:
#   2.6.14-rc4-mm1   the tree the series was posted against: the series is
#                    historical/patches/000[1-9]-*.patch (HISTORICAL_SRC)
#   2.6.14           vanilla 2.6.14 (also with a vendor's EXTRAVERSION, such
#                    as -hsc0; not -rc, -mm or -git): the series is the port,
#                    historical/port/*.patch but its cover letter
#                    (HISTORICAL_SRC)
#   2.6.15           2.6.15 as released (a vendor's EXTRAVERSION allowed; not
#                    -rc, -mm or -git): no series, it has the split
#                    (HISTORICAL_2615_SRC)
#
#   tree    check each tree given, copy its files (not its .git) to
#           $BUILD/historical/linux (HISTORICAL_SRC) or
#           $BUILD/historical/linux-2.6.15, commit them as the base, commit
#           compat.sh's fixes on top as their own commit (tag compat; for
#           HISTORICAL_SRC the worktree $BUILD/historical/before stays
#           there), then git am the series of its kind.  The trees given
#           are only read.  A patch that does not apply is aborted and
#           named, with its failing hunks.  Skipped for a copy that already
#           holds this source, compat step and series.  At least one tree.
#   kernels print the kernels the prepared trees give: historical-before
#           (compat, no split), and with a series historical (NR_CPUS=8:
#           split on) and historical-off (NR_CPUS=2, under
#           SPLIT_PTLOCK_CPUS=4: the 2005 way of keeping it off); from a
#           2.6.15 tree historical-2.6.15 (NR_CPUS=8: split on)
#   config  allnoconfig, the kernel's fragments written into .config (2.6.14's
#           conf has no KCONFIG_ALLCONFIG), then oldconfig, out of tree in
#           $BUILD/kernel/KERNEL; fails, naming them, if any option of the
#           fragments did not survive
#   build   bzImage: $BUILD/kernel/KERNEL/arch/i386/boot/bzImage
#   ptl     print the lock the fault path takes in KERNEL, as mm/memory.c
#           preprocessed with its configuration spells it (2.6.14 has no
#           lock_stat): handle_pte_fault's ptl, or before the series the
#           lock __handle_mm_fault takes
#   cc      print the CC= line config and build give make
#   hint    print what builds KERNEL, or why it cannot be built
#
#   HISTORICAL_SRC    the 2.6.14-rc4-mm1 or 2.6.14 tree
#   HISTORICAL_2615_SRC  the 2.6.15 tree ('tree' needs one of the two)
#   HISTORICAL_CC     the compiler (default gcc)
#   HISTORICAL_CFLAGS what the compiler is given on top of the kernel's own
#                     flags (default: the compat flags below; empty them for
#                     a gcc of 2005's vintage)
#   HISTORICAL_MAKE   make (default make)
#   JOBS              parallel jobs (default nproc)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
COPY=$BUILD/historical/linux
COPY15=$BUILD/historical/linux-2.6.15
BEFORE=$BUILD/historical/before
MM=2.6.14-rc4-mm1
JOBS=${JOBS:-$(nproc)}
HISTORICAL_CC=${HISTORICAL_CC:-gcc}
HISTORICAL_MAKE=${HISTORICAL_MAKE:-make}
# The compat flags, all in one place: an i386 kernel from an x86_64 gcc
# (-m32), without Debian's default PIE and stack protector, with the C and
# inline semantics of the gcc of 2005 (gnu89).
HISTORICAL_CFLAGS=${HISTORICAL_CFLAGS--m32 -fno-pie -fno-stack-protector -std=gnu89 -fgnu89-inline}

die() {
	echo "historical: error: $*" >&2
	exit 1
}

note() {
	echo "note: $*"
}

# git in the copy at hand: $copy, HISTORICAL_SRC's ($COPY) unless set
git_c() {
	git -C "${copy:-$COPY}" "$@"
}

# check_src VAR: the tree in $VAR (HISTORICAL_SRC or HISTORICAL_2615_SRC);
# sets src, ver and kind
check_src() {
	var=$1
	eval "src=\${$var:-}"
	[ -n "$src" ] ||
		die "$var is not set: $(hint)"
	[ -e "$src" ] || die "$var=$src does not exist"
	[ -d "$src" ] || die "$var=$src is not a directory"
	[ -f "$src/Makefile" ] ||
		die "$var=$src has no top-level Makefile: not a kernel tree"
	ver=$(tree_version "$src")
	[ -n "$ver" ] ||
		die "$var=$src: its Makefile names no VERSION/PATCHLEVEL: not a kernel tree"
	case $var in
	HISTORICAL_SRC)
		kind=$(kind_of "$ver") && [ "$kind" != 2615 ] ||
			die "$var=$src is linux $ver, expected $MM (the posted series) or 2.6.14 (the port)${kind:+; a 2.6.15 tree is HISTORICAL_2615_SRC}" ;;
	*)
		kind=$(kind_of "$ver") && [ "$kind" = 2615 ] ||
			die "$var=$src is linux $ver, expected 2.6.15 (the mainline reference)${kind:+; a 2.6.14 tree is HISTORICAL_SRC}" ;;
	esac
	for p in arch/i386 mm/memory.c; do
		[ -e "$src/$p" ] || die "$var=$src (linux $ver) has no $p"
	done
	src=$(cd "$src" && pwd -P)
	mkdir -p "$BUILD"
	b=$(cd "$BUILD" && pwd -P)
	case $b/ in
	"$src"/*) die "$var=$src holds the build directory $b: give the kernel tree itself" ;;
	esac
	case $src/ in
	"$b"/historical/*) die "$var=$src is the build's own copy: give the tree you downloaded" ;;
	esac
}

# mm: the posted series' tree; vanilla: 2.6.14 itself, whatever its vendor;
# 2615: 2.6.15 as released
kind_of() {
	case $1 in
	"$MM") echo mm ;;
	2.6.14-rc* | 2.6.14-mm* | 2.6.14-git*) return 1 ;;
	2.6.14 | 2.6.14-*) echo vanilla ;;
	2.6.15-rc* | 2.6.15-mm* | 2.6.15-git*) return 1 ;;
	2.6.15 | 2.6.15-*) echo 2615 ;;
	*) return 1 ;;
	esac
}

# What the copy is made from: this source as it is now (path, version and
# every file's name, size and time), compat.sh and the series of its kind.
series() {
	case $kind in
	mm) ls "$here"/patches/000[1-9]-*.patch ;;
	vanilla)
		for p in "$here"/port/*.patch; do
			case $p in
			*/0000-cover-letter.patch) ;;
			*) [ ! -e "$p" ] || echo "$p" ;;
			esac
		done ;;
	2615) ;;
	esac
}

identity() {
	{
		echo "$src $ver"
		(cd "$src" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | sort)
		cat "$here/compat.sh"
		for p in $(series); do
			echo "${p##*/}"
			cat "$p"
		done
	} | sha256sum | cut -c1-16
}

# prepare: copy, compat and series of the tree check_src found, in $copy
prepare() {
	id=$(identity)
	if [ -d "$copy/.git" ] && [ "$(git_c config historical.id || true)" = "$id" ] &&
	   [ "$(git_c rev-parse -q --verify HEAD || true)" = "$(git_c config historical.head)" ] &&
	   [ -z "$(git_c status --porcelain -uno)" ]; then
		echo "$copy: linux $ver, compat step and series up to date"
		return 0
	fi
	[ ! -e "$copy" ] || note "$copy made again from $src"
	rm -rf "$copy"
	mkdir -p "$copy"
	# files only: a .git of the source is neither copied nor touched
	(cd "$src" && tar --exclude=./.git -cf - .) | tar -C "$copy" -xf -
	from=
	if [ -e "$src/.git" ] &&
	   srchead=$(git -C "$src" rev-parse -q --verify HEAD 2>/dev/null); then
		from=" (a git tree at $srchead)"
	fi
	git_import "$copy" "linux $ver as found in $src$from"
	git_c tag base
	"$here/compat.sh" "$copy" >"$copy/.git/compat.out" ||
		die "the compat step failed on $src (above); the tree is not what it expects"
	cat "$copy/.git/compat.out"
	git_c add -A .
	git_c commit -q -F - <<-MSG
	compat: build fixes for make 4.3 and gcc 12 (not part of the 2005 series)

	Made by historical/compat.sh; the compiler flags are in historical/build.sh.

	$(sed 's/^compat: /- /' "$copy/.git/compat.out")
	MSG
	git_c tag compat
	if [ "$kind" != 2615 ]; then
		git_c worktree prune
		rm -rf "$BEFORE"
		git_c worktree add -q --detach "$BEFORE" compat
	fi
	# shellcheck disable=SC2046  # patch paths have no blanks
	nr=$(am_series "$copy" "linux $ver + compat" historical $(series)) || exit 1
	git_c config historical.kind "$kind"
	git_c config historical.id "$id"
	git_c config historical.head "$(git_c rev-parse HEAD)"
	case $kind in
	mm) note "$copy: linux $ver + compat + $nr patches of the 2005 series" ;;
	2615) note "$copy: linux $ver (the 2.6.15 reference) + compat" ;;
	*) if [ "$nr" = 0 ]; then
		note "$copy: linux $ver (vanilla 2.6.14) + compat; historical/port/ holds no series yet: only historical-before builds"
	   else
		note "$copy: linux $ver (vanilla 2.6.14) + compat + $nr patches of the port"
	   fi ;;
	esac
}

# whether a series was applied on top of the compat commit
has_series() {
	[ "$(git_c rev-parse -q --verify HEAD)" != "$(git_c rev-parse -q --verify 'compat^{commit}')" ]
}

hint() {
	if [ "${1:-}" = historical-2.6.15 ]; then
		echo "make historical HISTORICAL_2615_SRC=/path/to/linux-2.6.15"
		return
	fi
	if [ "${1:-historical-before}" != historical-before ] && [ -d "$COPY/.git" ] &&
	   [ "$(git_c config historical.kind || true)" = vanilla ] && ! has_series; then
		echo "no series for vanilla 2.6.14 yet (historical/port/): only historical-before builds"
		return
	fi
	echo "make historical HISTORICAL_SRC=/path/to/linux-2.6.14 (or linux-$MM)"
}

# whether the copy $1 was prepared to the end
is_prepared() {
	[ -d "$1/.git" ] && git -C "$1" config historical.head >/dev/null
}

# the kernels of the prepared trees: before, and after when a series
# applied; 2.6.15's
kernels() {
	if is_prepared "$COPY"; then
		echo historical-before
		! has_series || echo historical historical-off
	fi
	! is_prepared "$COPY15" || echo historical-2.6.15
}

# KERNEL's source tree and fragments
kernel_src() {
	case $1 in
	historical-before) echo "$BEFORE" ;;
	historical | historical-off) echo "$COPY" ;;
	historical-2.6.15) echo "$COPY15" ;;
	*) die "no kernel '$1' (historical-before, historical, historical-off or historical-2.6.15)" ;;
	esac
}

kernel_frags() {
	echo "$here/configs/guest-2.6.14.config"
	case $1 in
	historical | historical-2.6.15) echo "$here/configs/split-2.6.14.config" ;;
	historical-off) echo "$here/configs/split-2.6.14.config $here/configs/nr-cpus-2.config" ;;
	esac
}

CC_LINE="$HISTORICAL_CC${HISTORICAL_CFLAGS:+ $HISTORICAL_CFLAGS}"

hmake() {
	"$HISTORICAL_MAKE" -C "$SRC" O="$O" ARCH=i386 CC="$CC_LINE" "$@"
}

# prepared [KERNEL]: KERNEL's copy is prepared (without one: any copy)
prepared() {
	case ${1:-} in
	historical-2.6.15)
		is_prepared "$COPY15" ||
			die "no prepared tree at $COPY15 (historical/build.sh tree, with HISTORICAL_2615_SRC)" ;;
	'')
		is_prepared "$COPY" || is_prepared "$COPY15" ||
			die "no prepared tree at $COPY or $COPY15 (historical/build.sh tree, with HISTORICAL_SRC or HISTORICAL_2615_SRC)" ;;
	*)
		is_prepared "$COPY" ||
			die "no prepared tree at $COPY (historical/build.sh tree, with HISTORICAL_SRC)" ;;
	esac
}

# Every option of the fragments must read the same in .config.
check_config() {
	# shellcheck disable=SC2086
	config_check "$O/.config" $FRAGS ||
		die "options above did not survive allnoconfig + oldconfig (missing dependency, or a symbol this 2.6.14 does not have?)"
}

# the kernel a step is for: one of the prepared tree's
for_kernel() {
	[ -n "${1:-}" ] || die "usage: $0 $step KERNEL ($(kernels | tr '\n' ' '| sed 's/ $//'))"
	SRC=$(kernel_src "$1")
	prepared "$1"
	kernels | tr ' ' '\n' | grep -qx "$1" || die "$1: $(hint "$1")"
	O=$BUILD/kernel/$1
	FRAGS=$(kernel_frags "$1")
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 tree|kernels|config KERNEL|build KERNEL|ptl KERNEL|cc|hint [KERNEL]"
step=$1
case $step in
tree)
	[ -n "${HISTORICAL_SRC:-}${HISTORICAL_2615_SRC:-}" ] ||
		die "neither HISTORICAL_SRC nor HISTORICAL_2615_SRC is set: $(hint)"
	if [ -n "${HISTORICAL_SRC:-}" ]; then
		check_src HISTORICAL_SRC
		copy=$COPY
		prepare
	fi
	if [ -n "${HISTORICAL_2615_SRC:-}" ]; then
		check_src HISTORICAL_2615_SRC
		copy=$COPY15
		prepare
	fi
	;;
kernels)
	prepared
	kernels | tr '\n' ' ' | sed 's/ $/\n/'
	;;
config)
	for_kernel "${2:-}"
	for p in scripts/kconfig/Makefile arch/i386/Kconfig; do
		[ -f "$SRC/$p" ] ||
			die "$SRC has no $p: HISTORICAL_SRC is not a complete kernel tree"
	done
	for p in .config include/asm; do
		[ ! -e "$SRC/$p" ] ||
			die "$SRC has $p: the copy was configured in place after compat.sh cleaned it; remove $BUILD/historical and run the tree step again"
	done
	# shellcheck disable=SC2086
	stamp=$({ cat $FRAGS; git -C "$SRC" rev-parse HEAD; echo "$HISTORICAL_CC $HISTORICAL_CFLAGS"; } |
		sha256sum | cut -c1-16)
	if [ -f "$O/.config" ] && [ "$(cat "$O/.ptlock-config" 2>/dev/null)" = "$stamp" ]; then
		echo "config of $2 up to date"
		exit 0
	fi
	mkdir -p "$O"
	rm -f "$O/.config" "$O/.ptlock-config"
	hmake allnoconfig || die "make allnoconfig failed in $SRC (see above)"
	[ -f "$O/.config" ] || die "make allnoconfig wrote no $O/.config"
	# the fragments' lines replace allnoconfig's for the same symbols
	# (2.6.14's conf takes a symbol's last line, 2.6.15's its first)
	# shellcheck disable=SC2086
	grep -hE '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set$)' $FRAGS >"$O/frags.config"
	awk 'function sym(l) { return match(l, /CONFIG_[A-Za-z0-9_]+/) ? substr(l, RSTART, RLENGTH) : "" }
	NR == FNR { set[sym($0)] = 1; next }
	!(sym($0) in set) { print }' "$O/frags.config" "$O/.config" >"$O/.config.new"
	cat "$O/frags.config" >>"$O/.config.new"
	mv "$O/.config.new" "$O/.config"
	yes '' | hmake oldconfig >"$O/oldconfig.log" 2>&1 ||
		{ tail -n 20 "$O/oldconfig.log" >&2; die "make oldconfig failed in $SRC (above)"; }
	check_config
	echo "$stamp" >"$O/.ptlock-config"
	;;
build)
	for_kernel "${2:-}"
	[ -f "$O/.ptlock-config" ] || die "$2 is not configured (historical/build.sh config $2)"
	hmake -j"$JOBS" bzImage ||
		die "the 2.6.14 build failed; README.md (the compat table) says what was and was not tried"
	img=$(kernel_image "$2")
	[ -f "$img" ] || die "no $img after the build"
	echo "$img"
	;;
ptl)
	# Which lock the fault path takes, from the preprocessed mm/memory.c
	# of this kernel's configuration: lock_stat does not exist in 2.6.14.
	for_kernel "${2:-}"
	[ -f "$O/.ptlock-config" ] || die "$2 is not configured (historical/build.sh config $2)"
	hmake mm/memory.i >"$O/memory.i.log" 2>&1 ||
		die "preprocessing mm/memory.c for $2 failed: see $O/memory.i.log"
	python3 - "$O/mm/memory.i" "$2" <<-'PY'
	import re, sys
	text, name = open(sys.argv[1]).read(), sys.argv[2]

	def body(fn):
	    m = re.search(r"\b%s\s*\([^;{]*\)\s*\{" % fn, text)
	    return text[m.end():text.find("\n}\n", m.end())] if m else None

	def statement(s, at):
	    """the statement starting at s[at:], parentheses balanced"""
	    depth = 0
	    for i in range(at, len(s)):
	        depth += {"(": 1, ")": -1}.get(s[i], 0)
	        if s[i] == ";" and depth == 0:
	            return " ".join(s[at:i + 1].split())
	    return None

	b = body("handle_pte_fault")
	m = b and re.search(r"\bptl\s*=", b)
	if m:
	    print("%s: handle_pte_fault: %s" % (name, statement(b, m.start())))
	    sys.exit(0)
	b = body("__handle_mm_fault")
	m = b and re.search(r"\b_?spin_lock\s*\(", b)
	if not m:
	    sys.exit("historical: error: no lock found in the fault path of %s" % name)
	print("%s: __handle_mm_fault: %s" % (name, statement(b, m.start())))
	PY
	;;
cc)
	echo "$CC_LINE"
	;;
hint)
	hint "${2:-}"
	;;
*)
	die "unknown step '$1' (tree, kernels, config, build, ptl, cc or hint)"
	;;
esac
