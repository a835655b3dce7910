#!/bin/sh
# The differential report on made-up consoles: identical cells pass with no
# difference listed; a FAIL in one cell, a digest, a user program's exit
# status and a cell that broke off are each flagged at the top with both
# sides' logs attached and fail the command; a test that fails and is ok
# nowhere fails it too; a skipped test or a cell marked "skip" is listed as
# SKIP, never as a difference.
. "$(dirname "$0")/lib.sh"

# console CELL [fault_zap verdict] [fault_disjoint digest] [extra.three exit] [done]
console() {
	mkdir -p "$T/runs/$1"
	echo "/boot/bzImage split_ptlocks=x" >"$T/runs/$1/cmdline"
	(
		printf 'KTAP version 1\n1..5\nok 1 boot_log\n'
		printf '# fault_disjoint: pages=8 ms=%d digest=%s\nok 2 fault_disjoint\n' ${#1} "$3"
		if [ "$2" = ok ]; then
			printf '# fault_zap: rounds=16\nok 3 fault_zap\n'
		else
			printf '# fault_zap: FAIL range 3 page 7 word 12: found 0\nnot ok 3 fault_zap\n'
		fi
		[ "${5:-done}" = 'done' ] || exit 0
		printf '# lockstat_ptlock: SKIP-able\nok 4 lockstat_ptlock # SKIP no /proc/lock_stat\n'
		printf '# extra.three: out: hello\n# extra.three: exit=%s digest=0232d78f\n' "$4"
		[ "$4" = 0 ] || printf '# extra.three: FAIL exit status %s\n' "$4"
		printf '%s 5 extra.three\n# ptltest: done\n' "$([ "$4" = 0 ] && echo ok || echo not ok)"
	) >"$T/runs/$1/console.log"
}

# report CELL...: parse the consoles, add a skipped cell, write the report
report() {
	BUILD=$T "$ROOT/testvm/ktap.py" --out "$T/results" "$@" >"$T/ktap.out" 2>&1 || true
	printf '{"cell": "hist-smp1", "conf": {"KERNEL": "/x/bzImage", "SMP": "1", "MEM": "256"}, "tests": {}, "errors": [], "skip": "no 2.6.14 kernel given (HIST_KERNEL=)"}\n' \
		>"$T/results/hist-smp1.json"
	python3 - "$T/results/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["cells"].append("hist-smp1")
json.dump(s, open(sys.argv[1], "w"))
PY
	rm -rf "$T/report"
	BUILD=$T "$ROOT/testvm/report.py" >"$T/out" 2>&1
}

# identical cells (the ms figure aside): no difference, exit 0
console debug-on-smp4 ok 8d371d7f 0
console debug-off-smp4 ok 8d371d7f 0
report debug-on-smp4 debug-off-smp4 || { cat "$T/out"; fail "identical cells: report failed"; }
md=$T/report/report.md
expect_in "$T/out" "report: 0 difference(s), 0 test(s) ok nowhere, 0 broken cell(s)"
sed -n '/^## Differences/,/^## Skips/p' "$md" >"$T/diffs"
expect_in "$T/diffs" "None: every test got the same verdict"
! grep -q '^- ' "$T/diffs" || { cat "$T/diffs"; fail "identical cells: a difference is listed"; }
[ ! -d "$T/report/logs" ] || fail "identical cells: logs attached"
# the skipped test and the skipped cell: SKIP with their reasons, not differences
expect_in "$md" "| lockstat_ptlock | debug-on-smp4, debug-off-smp4 | no /proc/lock_stat |"
expect_in "$md" "| (every test) | hist-smp1 | cell skipped: no 2.6.14 kernel given (HIST_KERNEL=) |"
expect_in "$md" "| hist-smp1 | /x/bzImage | 1 | 256 | (none) | - | SKIP: no 2.6.14 kernel given"
expect_in "$md" "| fault_disjoint | ok | ok | SKIP | \`8d371d7f\` |"
[ -s "$T/report/report.json" ] || fail "no report.json"

# fault_zap fails in one cell: flagged with both sides' logs and its lines
console debug-off-smp4 fail 8d371d7f 0
expect_fail "$T/out2" report debug-on-smp4 debug-off-smp4
expect_in "$T/out" "report: fault_zap differs: verdict: debug-off-smp4 FAIL, debug-on-smp4 ok"
expect_in "$md" "- **fault_zap**: verdict differs: FAIL in debug-off-smp4; ok in debug-on-smp4"
expect_in "$md" "  - debug-off-smp4, [logs/debug-off-smp4.log](logs/debug-off-smp4.log):"
expect_in "$md" "  - debug-on-smp4, [logs/debug-on-smp4.log](logs/debug-on-smp4.log):"
expect_in "$md" "        # fault_zap: FAIL range 3 page 7 word 12: found 0"
expect_in "$md" "        not ok 3 fault_zap"
cmp -s "$T/report/logs/debug-off-smp4.log" "$T/runs/debug-off-smp4/console.log" ||
	fail "debug-off-smp4's console not attached"
[ -f "$T/report/logs/debug-on-smp4.log" ] || fail "the ok side's console not attached"
expect_in "$md" "| fault_zap | ok | **FAIL** | SKIP |"

# a digest that differs, both cells ok
console debug-off-smp4 ok 8d371d7e 0
expect_fail "$T/out2" report debug-on-smp4 debug-off-smp4
expect_in "$md" "- **fault_disjoint**: digest differs between cells with MEM=256: debug-off-smp4 8d371d7e, debug-on-smp4 8d371d7f"
expect_in "$md" "        # fault_disjoint: pages=8 ms="
expect_in "$md" "| fault_disjoint | ok \`8d371d7f\` | ok \`8d371d7e\` | SKIP | DIFFERS |"

# a user program's exit status differs (both not ok): flagged; and it is ok
# nowhere, listed apart
console debug-on-smp4 ok 8d371d7f 3
console debug-off-smp4 ok 8d371d7f 4
expect_fail "$T/out2" report debug-on-smp4 debug-off-smp4
expect_in "$md" "- **extra.three**: exit differs between cells with MEM=256: debug-off-smp4 4, debug-on-smp4 3"
expect_in "$md" "- **extra.three**: FAIL in debug-on-smp4, FAIL in debug-off-smp4"
expect_in "$T/out" "report: extra.three fails, ok in no cell"

# a cell that broke off after fault_zap: the tests after it are MISSING there
console debug-on-smp4 ok 8d371d7f 0
console debug-off-smp4 ok 8d371d7f 0 broken
expect_fail "$T/out2" report debug-on-smp4 debug-off-smp4
expect_in "$md" "- **extra.three**: verdict differs: MISSING in debug-off-smp4; ok in debug-on-smp4"
expect_in "$md" "        (no result line for extra.three; the console ends:)"
expect_in "$md" "- **debug-off-smp4**: plan says 5 tests, 3 results; runner did not finish"
! grep -q '^- \*\*lockstat_ptlock' "$md" || fail "SKIP against MISSING listed"
exit 0
