#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--no-kernel] [TEST...]: the host-side tests of the tooling
# (testvm/selftest/*.sh), each in a scratch directory, reported as KTAP with
# a closing count line.  A test that exits 77 was skipped (lib.sh: skip),
# with the reason it gave.  --no-kernel leaves out the tests whose second
# line says "# needs: ..." (built kernels, the guest): the rest run in
# seconds on a fresh checkout.  SELFTEST_JOBS tests run at once (default:
# one per core; the tests share nothing but read-only inputs, and most of
# them boot a single-threaded guest or run one program at a time), but for
# those marked "# alone", which run one at a time after the rest; each is
# reported in order, as soon as it and those before it are done.

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../../build}

# run.sh --one DIR N TEST: one test, its outcome in DIR/N (exit status,
# seconds, scratch directory)
if [ "${1:-}" = --one ]; then
	name=$(basename "$4" .sh)
	T=$(mktemp -d "${TMPDIR:-/tmp}/selftest-$name.XXXXXX")
	start=$(date +%s)
	T=$T BUILD=$BUILD sh "$4" >"$T.log" 2>&1
	rc=$?
	echo "$rc $(($(date +%s) - start)) $T" >"$2/$3.tmp"
	mv "$2/$3.tmp" "$2/$3"
	exit 0
fi

nokernel=
[ "${1:-}" != --no-kernel ] || { nokernel=1; shift; }
[ $# -gt 0 ] || set -- "$here"/*.sh
# a test whose header says "# alone" runs by itself, after the others: its
# guests' kernel logs must stay clean of the stalls a starved vCPU reports.
# together and alone: "N TEST" lines, N the test's place in the report
tests=
together=
alone=
n=0
for t; do
	case ${t##*/} in lib.sh|run.sh) continue ;; esac
	[ -z "$nokernel" ] || ! sed -n 2p "$t" | grep -q '^# needs: ' || continue
	tests="$tests $t"
	n=$((n + 1))
	if sed -n 2,6p "$t" | grep -q '^# alone'; then
		alone="$alone$n $t
"
	else
		together="$together$n $t
"
	fi
done
jobs=${SELFTEST_JOBS:-$(nproc)}
case $jobs in ''|*[!0-9]*|0) echo "run.sh: SELFTEST_JOBS must be a positive number, not '$jobs'" >&2; exit 2 ;; esac
R=$(mktemp -d "${TMPDIR:-/tmp}/selftest-run.XXXXXX")
trap 'rm -rf "$R"' EXIT
trap 'exit 130' INT TERM
{
	printf '%s' "$together" | xargs -r -n 2 -P "$jobs" "$here/run.sh" --one "$R"
	printf '%s' "$alone" | xargs -r -n 2 -P 1 "$here/run.sh" --one "$R"
} &
xargs_pid=$!

n=0
passed=0
failed=0
skipped=0
echo "KTAP version 1"
echo "1..$(echo $tests | wc -w)"
for t in $tests; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	while [ ! -f "$R/$n" ]; do
		kill -0 "$xargs_pid" 2>/dev/null || [ -f "$R/$n" ] ||
			{ echo "run.sh: the runner of $name stopped before reporting" >&2; exit 2; }
		sleep 1
	done
	read -r rc secs T <"$R/$n"
	if [ "$rc" -eq 0 ]; then
		echo "# $name: ${secs}s"
		echo "ok $n $name"
		passed=$((passed + 1))
	elif [ "$rc" -eq 77 ] && [ -s "$T.skip" ]; then
		echo "ok $n $name # SKIP $(cat "$T.skip")"
		skipped=$((skipped + 1))
	else
		sed 's/^/# /' "$T.log"
		echo "not ok $n $name"
		failed=$((failed + 1))
	fi
	rm -rf "$T" "$T.log" "$T.skip"
done
wait "$xargs_pid"
echo "selftest: $passed passed, $failed failed, $skipped skipped"
mkdir -p "$BUILD/results"
echo "{\"passed\": $passed, \"failed\": $failed, \"skipped\": $skipped}" \
	>"$BUILD/results/selftest${nokernel:+-host}.json"
[ $failed -eq 0 ]
