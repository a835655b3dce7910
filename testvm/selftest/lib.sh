# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the host-side tests: sourced, never run.  Each test runs in its own
# scratch directory $T (created and removed by run.sh) and says what went
# wrong with fail(); it must not touch the real $BUILD tree.

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# the base whose kernels the tests boot (make passes the first of BASES);
# its kernel names start with PRE (modern/base.sh)
SELFTEST_BASE=${SELFTEST_BASE:-6.1}
# make's BASE (exported to its recipes) is not the tests': a fake tree is
# 6.1 unless a test says otherwise
unset BASE
# nor make check's REUSE: a test's boots are its own
unset REUSE
. "$ROOT/modern/base.sh"
. "$ROOT/lib/kernel.sh"
PRE=$(base_prefix "$SELFTEST_BASE")

# cell_kernel CELL: the bzImage the cell names, of the base under test
cell_kernel() {
	kernel_image "$PRE$("$ROOT/testvm/cell.py" get "$1" KERNEL)"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# skip REASON: this machine cannot run the test (run.sh reports SKIP with
# REASON, counted as skipped, never as passed).
skip() {
	echo "$*" >"$T.skip"
	exit 77
}

# expect_fail LOG CMD...: CMD must exit non-zero; its output goes to LOG.
expect_fail() {
	log=$1
	shift
	if "$@" >"$log" 2>&1; then
		cat "$log"
		fail "'$*' succeeded"
	fi
}

# expect_in LOG TEXT: LOG must contain TEXT.
expect_in() {
	grep -qF -- "$2" "$1" || { cat "$1"; fail "no '$2' in the output"; }
}

# fake_source DIR VERSION PATCHLEVEL: a tarball shaped like Debian's
# linux-source one, holding a three-file "kernel".
fake_source() {
	d=$T/src/linux-source-$2.$3
	mkdir -p "$d/mm"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 999\nEXTRAVERSION =\n' \
		"$2" "$3" >"$d/Makefile"
	printf '# kernel ignores\n*.o\n#\n# Debian packaging: ignore everything\n/*\n!/debian/\n' \
		>"$d/.gitignore"
	seq 1 40 | sed 's/^/int line_/; s/$/;/' >"$d/mm/memory.c"
	tar -cJf "$1" -C "$T/src" "linux-source-$2.$3"
	rm -rf "$T/src"
}

# series DIR: a good two-patch series against fake_source, as git format-patch
# writes it (with cover letter).
series() {
	w=$T/work
	mkdir -p "$w" && tar -xf "$T/src.tar.xz" -C "$w" --strip-components=1
	git -C "$w" init -q
	git -C "$w" add -f -A
	git -C "$w" -c user.name=t -c user.email=t@t commit -q -m base
	sed -i 's/^int line_10;/int line_10 = 10;/' "$w/mm/memory.c"
	git -C "$w" -c user.name=t -c user.email=t@t commit -q -a -m "mm: first"
	sed -i 's/^int line_30;/int line_30 = 30;/' "$w/mm/memory.c"
	git -C "$w" -c user.name=t -c user.email=t@t commit -q -a -m "mm: second"
	git -C "$w" format-patch -q --cover-letter -o "$1" HEAD~2
	rm -rf "$w"
}

# tree [ARGS]: modern/tree.sh on the fake source, in $T.
tree() {
	BUILD=$T/build TARBALL=$T/src.tar.xz PATCHES=$T/patches "$ROOT/modern/tree.sh" "$@"
}

# boot_cell CELL APPEND: boot the cell's real kernel (the built initramfs)
# into $T with APPEND, then parse its verdicts; the exit status is non-zero
# when the guest or any test failed.  SWAP_MB passes through; INITRAMFS
# (INITRAMFS_X86_64) replaces the built one.
boot_cell() {
	# expanded before BUILD is pointed at $T for the run
	_kernel=$(cell_kernel "$1")
	_initramfs=${INITRAMFS:-$BUILD/initramfs.cpio}
	_initramfs64=${INITRAMFS_X86_64:-$BUILD/initramfs-x86_64.cpio}
	BUILD=$T TIMEOUT=300 KERNEL=$_kernel INITRAMFS=$_initramfs INITRAMFS_X86_64=$_initramfs64 APPEND="$2" \
		"$ROOT/testvm/qemu-run.sh" "$1" "$T/runs/$1" &&
	BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/results" "$1"
}

# boot_perf APPEND: boot_cell perf-smp2 (the perf kernel, 2 vCPUs)
boot_perf() {
	boot_cell perf-smp2 "$1"
}
