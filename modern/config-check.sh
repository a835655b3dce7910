#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# config-check.sh CONFIG FRAGMENT...
#
# Every option the fragments set must read the same in CONFIG (a .config
# after merge_config.sh or KCONFIG_ALLCONFIG); where two fragments set one
# option, the later wins, as in merge_config.sh.  Prints each option that did
# not survive, with what CONFIG has and the fragments that set it, on
# stderr; exit status 1 if there is one.  Used by modern/kbuild.sh and
# historical/build.sh.

set -eu

[ $# -ge 2 ] || { echo "usage: $0 CONFIG FRAGMENT..." >&2; exit 2; }
config=$1
shift
bad=0
want=$(cat "$@" | awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
	sym != "" { want[sym] = $0; if (!(sym in seen)) order[n++] = sym; seen[sym] = 1; sym = "" }
	END { for (i = 0; i < n; i++) print want[order[i]] }')
while IFS= read -r line; do
	[ -n "$line" ] || continue
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$config" && continue
		sym=${line%%=*} ;;
	*)	sym=${line#\# }
		sym=${sym%% *}
		grep -q "^$sym=" "$config" || continue ;;
	esac
	now=$(grep -E "^($sym=|# $sym is not set)" "$config" || echo "$sym absent")
	echo "asked for '$line', got '$now' (fragments: $(grep -l "${sym}[= ]" "$@" | xargs -n1 basename | tr '\n' ' '))" >&2
	bad=1
done <<EOT
$want
EOT
exit $bad
