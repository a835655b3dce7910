#!/bin/sh
# testvm/base-bugs.txt: a test that meets a declared bug of the base kernel
# is XFAIL (skipped, not passed) only when it fails on the declared kernel
# log lines alone, in a cell of the declared kernel.  The same test passing
# there (the bug gone), failing on another warning too, failing its own
# checks, or failing on the declared warning in a kernel not declared
# (ours), all fail.
. "$(dirname "$0")/lib.sh"

sig=$(awk '!/^#/ && NF { print $3; exit }' "$ROOT/testvm/base-bugs.txt")
kernel=$(awk '!/^#/ && NF { print $1; exit }' "$ROOT/testvm/base-bugs.txt")
test=$(awk '!/^#/ && NF { print $2; exit }' "$ROOT/testvm/base-bugs.txt")
[ -n "$sig" ] && [ -n "$test" ] || fail "no declaration read from base-bugs.txt"

cell() {	# NAME KERNEL VERDICT-LINE NOTE KLOG-LINE...
	name=$1 k=$2 v=$3 note=$4
	shift 4
	mkdir -p "$T/runs/$name"
	echo "kernel" >"$T/runs/$name/cmdline"
	printf 'KERNEL=%s\nSMP=4\nMEM=512\nCPU=qemu64\nSWAP_MB=64\nAPPEND=\n' "$k" >"$T/runs/$name/cell"
	{
		printf 'KTAP version 1\n1..2\nok 1 boot_log\n'
		for l; do printf '# klog: <4>[   18.5] %s\n' "$l"; done
		[ -z "$note" ] || printf '# %s: %s\n' "$test" "$note"
		printf '%s 2 %s\n# ptltest: done\n' "$v" "$test"
	} >"$T/runs/$name/console.log"
}
cut="------------[ cut here ]------------"
warn="WARNING: CPU: 2 PID: 234 at $sig hugetlb_split+0x97/0xc0"
other="WARNING: CPU: 2 PID: 234 at mm/memory.c:100 zap_pte_range+0x1/0x2"
cell xfail "$kernel" "not ok" "FAIL kernel log has 2 bad line(s)" "$cut" "$warn"
cell gone "$kernel" "ok" ""
cell also "$kernel" "not ok" "FAIL kernel log has 4 bad line(s)" "$cut" "$warn" "$cut" "$other"
cell data "$kernel" "not ok" "FAIL page 3 holds 0x0, not 0x5" "$cut" "$warn"
cell ours "debug-x86_64" "not ok" "FAIL kernel log has 2 bad line(s)" "$cut" "$warn"

BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" xfail >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "the declared base bug failed its cell"; }
expect_in "$T/out" "xfail: $test skipped: XFAIL base bug $sig"
expect_in "$T/out" "1 passed, 0 failed, 1 skipped"
for c in gone also data ours; do
	BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" $c >"$T/out" 2>&1 &&
		{ cat "$T/out"; fail "cell '$c' passed"; }
done
BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" gone >"$T/out" 2>&1
expect_in "$T/out" "did not show"
BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" also >"$T/out" 2>&1
expect_in "$T/out" "zap_pte_range"
exit 0
