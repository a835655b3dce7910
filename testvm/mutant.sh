#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mutant.sh NAME...
#
# Each NAME is a file in testvm/mutants/: a bug planted on purpose, and the
# tests that must catch it.  Keys (KEY=value lines, like a cell):
#   REVERT   the subject of a series commit to revert, or
#   PATCH    a file in testvm/mutants/ to apply with git apply
#   KERNEL   the kernel to build with the bug (kbuild.sh names)
#   CELL     the cell to boot it in (testvm/cells/)
#   TESTS    the guest tests that must catch it, comma-separated
# For each: a scratch worktree of branch ptlock-split of KERNEL's base
# ($BUILD/mutants/tree, tree-6.12, ...: modern/base.sh), the bug applied
# there, KERNEL built in $BUILD/mutants/kernel/ (once per bug and kernel:
# mutants that differ only in their tests share it), CELL booted with
# ptltest.only=TESTS (TIMEOUT, default 240 s; an oops or soft lockup panics
# the guest).  The mutant is
# caught when the run fails: a test not ok, a bad kernel-log line, a hang or
# a panic.  Prints one line per mutant; exits 1 if any was missed or could
# not be built.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
. "$here/../modern/base.sh"
M=$BUILD/mutants
export TIMEOUT=${TIMEOUT:-240}

die() {
	echo "mutant: error: $*" >&2
	exit 1
}

[ $# -ge 1 ] || die "usage: $0 NAME... (testvm/mutants/: $(ls "$here/mutants" | tr '\n' ' '))"
[ -f "${INITRAMFS:-}" ] || die "no initramfs '${INITRAMFS:-}' (make guest)"
mkdir -p "$M"

# worktree NAME KERNEL: the scratch worktree of KERNEL's base, made once,
# in $W (and its tree in $TREE)
worktree() {
	kb=$(base_of_kernel "$2")
	TREE=$(TREE=; base_set "$kb" && echo "$TREE")
	pre=$(base_prefix "$kb")
	W=$M/tree${pre:+-$kb}
	git -C "$TREE" rev-parse -q --verify ptlock-split >/dev/null ||
		die "$1: no branch ptlock-split in $TREE (make tree)"
	if [ ! -d "$W" ]; then
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$W" ptlock-split
	fi
}

missed=0
for name in "$@"; do
	f=$here/mutants/$name
	[ -f "$f" ] || die "no mutant '$name' (testvm/mutants/)"
	val() { sed -n "s/^$1=//p" "$f" | tail -n 1; }
	kernel=$(val KERNEL); cell=$(val CELL); tests=$(val TESTS)
	[ -n "$kernel" ] && [ -n "$cell" ] && [ -n "$tests" ] ||
		die "$name: KERNEL, CELL and TESTS are all needed"
	worktree "$name" "$kernel"
	git -C "$W" checkout -q --detach --force ptlock-split
	if [ -n "$(val REVERT)" ]; then
		c=$(git -C "$W" log --format=%H --fixed-strings --grep="$(val REVERT)" \
			"$(git -C "$TREE" config ptlock.base)..ptlock-split" | head -n 1)
		[ -n "$c" ] || die "$name: no commit '$(val REVERT)' in the series"
		git -C "$W" -c user.name=mutant -c user.email=mutant@localhost \
			revert --no-edit "$c" >/dev/null ||
			die "$name: the revert does not apply"
	elif [ -n "$(val PATCH)" ]; then
		git -C "$W" apply "$here/mutants/$(val PATCH)" ||
			die "$name: $(val PATCH) does not apply"
	else
		die "$name: neither REVERT nor PATCH"
	fi
	log=$M/$name.log
	# one build per bug and kernel, shared by the mutants that test it
	key=$(printf '%s|%s|%s' "$(val REVERT)" "$(val PATCH)" "$kernel" | sha256sum | cut -c1-12)
	kdir=$M/kernel/$key
	if ! { TREE=$W KDIR=$kdir "$here/../modern/kbuild.sh" config "$kernel" &&
	       TREE=$W KDIR=$kdir "$here/../modern/kbuild.sh" build "$kernel"; } \
		>"$log" 2>&1; then
		tail -n 20 "$log" >&2
		echo "mutant $name: BUILD FAILED ($log)"
		missed=1
		continue
	fi
	rm -rf "${M:?}/runs/$cell"
	# an oops or a soft lockup panics: the run ends at once, not at TIMEOUT
	KERNEL=$(KDIR=$kdir kernel_image "$kernel") \
	APPEND="ptltest.only=$tests oops=panic softlockup_panic=1" \
		"$here/qemu-run.sh" "$cell" "$M/runs/$cell" >>"$log" 2>&1 || true
	if RUNS=$M/runs "$here/ktap.py" --out "$M/results/$name" "$cell" >"$M/$name.table" 2>&1; then
		echo "mutant $name: MISSED by $tests in $cell ($M/$name.table)"
		missed=1
	else
		con=$M/runs/$cell/console.log
		why=$(grep -m1 -E '^# [a-z0-9_.]+: FAIL' "$con" ||
		      grep -v '^#' "$here/klog-bad.txt" | grep -m1 -F -f - "$con" ||
		      grep -m1 -E '^(\[ *[0-9.]+\] )? +not ok [0-9]+ ' "$con" ||
		      grep -m1 -E 'did not finish|kernel panic|plan says' "$log" "$M/$name.table") 2>/dev/null
		why=$(echo "$why" | sed 's/^\[ *[0-9.]*\] //' | cut -c1-150)
		echo "mutant $name: caught in $cell: $why"
	fi
done
exit $missed
