#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--no-kernel] [TEST...]: the host-side tests of the tooling
# (testvm/selftest/*.sh), each in a scratch directory, reported as KTAP with
# a closing count line.  A test that exits 77 was skipped (lib.sh: skip),
# with the reason it gave.  --no-kernel leaves out the tests whose second
# line says "# needs: ..." (built kernels, the guest): the rest run in
# seconds on a fresh checkout.

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../../build}
nokernel=
[ "${1:-}" != --no-kernel ] || { nokernel=1; shift; }
[ $# -gt 0 ] || set -- "$here"/*.sh
tests=
for t; do
	case ${t##*/} in lib.sh|run.sh) continue ;; esac
	[ -z "$nokernel" ] || ! sed -n 2p "$t" | grep -q '^# needs: ' || continue
	tests="$tests $t"
done
n=0
passed=0
failed=0
skipped=0
echo "KTAP version 1"
echo "1..$(echo $tests | wc -w)"
for t in $tests; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	T=$(mktemp -d "${TMPDIR:-/tmp}/selftest-$name.XXXXXX")
	start=$(date +%s)
	T=$T BUILD=$BUILD sh "$t" >"$T.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "# $name: $(($(date +%s) - start))s"
		echo "ok $n $name"
		passed=$((passed + 1))
	elif [ $rc -eq 77 ] && [ -s "$T.skip" ]; then
		echo "ok $n $name # SKIP $(cat "$T.skip")"
		skipped=$((skipped + 1))
	else
		sed 's/^/# /' "$T.log"
		echo "not ok $n $name"
		failed=$((failed + 1))
	fi
	rm -rf "$T" "$T.log" "$T.skip"
done
echo "selftest: $passed passed, $failed failed, $skipped skipped"
mkdir -p "$BUILD/results"
echo "{\"passed\": $passed, \"failed\": $failed, \"skipped\": $skipped}" \
	>"$BUILD/results/selftest${nokernel:+-host}.json"
[ $failed -eq 0 ]
