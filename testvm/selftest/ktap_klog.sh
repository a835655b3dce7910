#!/bin/sh
# testvm/klog-bad.txt's two kinds of line, on the host and in the guest: a
# console line holding a bad substring breaks its cell (2.6.14's WARN_ON,
# "Badness in", among them), unless it also holds a '!' line's substring
# (2.6.14's "WARNING: NR_CPUS limit of 2 reached", historical-off-smp4);
# the guest runner's klog_bad.h carries both lists.
. "$(dirname "$0")/lib.sh"

cell() {	# NAME KLOG-LINE
	mkdir -p "$T/runs/$1"
	echo "kernel" >"$T/runs/$1/cmdline"
	printf 'KTAP version 1\n1..1\n%s\nok 1 boot_log\n# ptltest: done\n' "$2" \
		>"$T/runs/$1/console.log"
}
cell debug-on-smp4 "WARNING: NR_CPUS limit of 2 reached.  Processor ignored."
cell debug-off-smp4 "Badness in vma_adjust at mm/mmap.c:562"
BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/r" debug-on-smp4 debug-off-smp4 >"$T/out" 2>&1 &&
	{ cat "$T/out"; fail "a console with 'Badness in' passed"; }
python3 - "$T/r" <<'PY' || { cat "$T/out"; fail "console lines judged wrongly"; }
import json, sys
ok = json.load(open(sys.argv[1] + "/debug-on-smp4.json"))
bad = json.load(open(sys.argv[1] + "/debug-off-smp4.json"))
assert ok["console_bad"] == [] and ok["errors"] == [], ok
assert bad["console_bad"] == ["Badness in vma_adjust at mm/mmap.c:562"], bad["console_bad"]
PY

make -s -C "$ROOT" BUILD="$T/b" "$T/b/guest/klog_bad.h" >"$T/out" 2>&1 || { cat "$T/out"; fail "klog_bad.h"; }
h=$T/b/guest/klog_bad.h
sed -n '/klog_not_bad/,$p' "$h" | grep -qF '"WARNING: NR_CPUS limit of",' || { cat "$h"; fail "klog_not_bad[] lacks the NR_CPUS line"; }
sed -n '/klog_bad\[\]/,/};/p' "$h" | grep -qF '"Badness in",' || { cat "$h"; fail "klog_bad[] lacks 'Badness in'"; }
sed -n '/klog_bad\[\]/,/};/p' "$h" | grep -q 'NR_CPUS' && { cat "$h"; fail "a '!' line went into klog_bad[]"; }
exit 0
