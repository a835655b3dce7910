#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# syscalls.sh UNISTD_32_H BINARY...
#
# List every system call the guest binaries make ("NR name binary"), and fail
# on any that 2.6.14 i386 does not have (number > 293) or whose number cannot
# be read off the code.  Each "int $0x80" is matched with the last immediate
# loaded into %eax before it in the same function; any other write to %eax in
# between makes the number unknown, which fails too.
#
# PROBED: newer calls a test makes only to learn whether the kernel has them,
# skipping when it answers ENOSYS (as 2.6.14 does): "binary:name" each.
PROBED="uffd_move:userfaultfd lockstat_pages:userfaultfd thp_shmem_collapse:memfd_create thp_retract_race:memfd_create"

set -eu
unistd=$1
shift
MAX=293
found=$(mktemp)
trap 'rm -f "$found"' EXIT

for bin; do
	objdump -d --no-show-raw-insn "$bin" | awk -v bin="${bin##*/}" '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; nr = "?"; next }
		/\tmov +\$0x[0-9a-f]+,%eax$/ {
			split($0, a, "$"); split(a[2], b, ","); nr = b[1]; next }
		/\tint +\$0x80/ { print bin, fn, nr; next }
		/%eax$/ || /\t(pop|xchg|xor) .*%eax/ { nr = "?" }'
done | sort -u >"$found"

bad=0
list=
while read -r bin fn nr; do
	if [ "$nr" = "?" ]; then
		echo "$bin $fn: syscall number not visible in the code" >&2
		bad=1
		continue
	fi
	nr=$((nr))
	name=$(awk -v n="$nr" '$1 == "#define" && $3 == n { sub("__NR_", "", $2); print $2; exit }' "$unistd")
	list="$list$nr ${name:-?} $bin
"
	case " $PROBED " in *" $bin:$name "*) continue ;; esac
	if [ "$nr" -gt $MAX ]; then
		echo "$bin $fn: syscall $nr (${name:-?}) is newer than 2.6.14 (> $MAX)" >&2
		bad=1
	fi
done <"$found"
printf '%s' "$list" | sort -n -u
exit $bad
