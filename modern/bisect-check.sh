#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bisect-check.sh: build every commit of the series of BASE (6.1 or 6.12,
# modern/base.sh), in order, for each kernel of BISECT_KERNELS (default:
# perf and debug for i386, i386 PAE and x86_64), incrementally: one
# worktree per base ($BUILD/linux-bisect, $BUILD/linux-6.12-bisect) moved
# from commit to commit, one build directory per kernel ($BUILD/bisect).  Stops
# at the first commit that does not build, naming it.
#
# A build that succeeded is remembered ($BUILD/bisect/ok/): a later run skips
# a kernel at a commit whose tree and fragments (guest, the kernel's own,
# series) are the same, so an interrupted run goes on where it stopped.
# BISECT_FRESH=1 forgets what was remembered.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
. "$here/base.sh"
base_set "${BASE:-$BASE_FIRST}"
if why=$(base_unavailable "$BASE"); then
	echo "bisect-check: base $BASE left out, skipped ($why)"
	exit 0
fi
KERNELS=${BISECT_KERNELS:-perf debug perf-pae debug-pae perf-x86_64 debug-x86_64}
W=$BUILD/linux${PRE:+-$BASE}-bisect
LOGS=$BUILD/logs/bisect

die() {
	echo "bisect-check: error: $*" >&2
	exit 1
}

base=$(git -C "$TREE" config ptlock.base) || die "no prepared tree (make tree)"
commits=$(git -C "$TREE" rev-list --reverse "$base..ptlock-split")
[ -n "$commits" ] || die "ptlock-split has no commits on $base"
if [ ! -d "$W" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$W" "$base"
fi
OK=$BUILD/bisect/ok
[ "${BISECT_FRESH:-0}" = 0 ] || rm -rf "$OK"
mkdir -p "$LOGS" "$OK"
# what else decides whether a commit builds: the kernel's fragments
fragments() {
	# shellcheck disable=SC2046  # fragment paths have no blanks
	cat $("$here/kbuild.sh" fragments "$1") "$here/configs/series.config" |
		sha256sum | cut -c1-12
}
total=$(echo "$commits" | wc -l)
# kernel by kernel, so that each build directory only moves forward
for k in $KERNELS; do
	n=0
	k=$PRE$k
	tools=$(fragments "$k")
	for c in $commits; do
		n=$((n + 1))
		subject=$(git -C "$TREE" log -1 --format=%s "$c")
		stamp=$OK/$(git -C "$TREE" rev-parse "$c^{tree}")-$tools-$k
		if [ -f "$stamp" ]; then
			echo "ok $n/$total $k (built by an earlier run: $(cat "$stamp"))  $subject"
			continue
		fi
		git -C "$W" checkout -q --detach "$c"
		log=$LOGS/$n-$k.log
		start=$(date +%s)
		if ! { TREE=$W KDIR=$BUILD/bisect SERIES_CONFIG=known \
			"$here/kbuild.sh" config "$k" &&
		       TREE=$W KDIR=$BUILD/bisect \
			"$here/kbuild.sh" build "$k"; } >"$log" 2>&1; then
			tail -n 20 "$log" >&2
			die "patch $n/$total ($subject) does not build for $k: $log"
		fi
		echo "$(date -u +%Y-%m-%dT%H:%MZ), $(($(date +%s) - start))s" >"$stamp"
		echo "ok $n/$total $k $(($(date +%s) - start))s  $subject"
	done
done
echo "bisect-check: all $total patches of modern/$BASE build for: $KERNELS"
