#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kcache-check.sh KERNEL
#
# The compiler cache cannot change a result: build KERNEL (a kbuild.sh
# name, already built with the cache) once more with KCACHE=0, from
# nothing, in a scratch directory ($BUILD/kcache-check), and compare the
# two: the same .config, and every section of vmlinux byte for byte but
# .notes (the build id: a hash over the whole image, linker's choice).
# Prints one line per section it compared; fails on the first difference.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
die() {
	echo "kcache-check: error: $*" >&2
	exit 1
}
[ $# -eq 1 ] || die "usage: $0 KERNEL"
name=$1
cached=$BUILD/kernel/$name
[ -f "$cached/vmlinux" ] || die "$name is not built ($cached/vmlinux; make kernel-$name)"
scratch=$BUILD/kcache-check
# from nothing: a link of before is removed with its directory
rm -rf "${scratch:?}/$name"
KCACHE=0 KDIR=$scratch "$here/kbuild.sh" config "$name"
KCACHE=0 KDIR=$scratch "$here/kbuild.sh" build "$name"
plain=$scratch/$name
grep -q '^CONFIG_' "$plain/.config" || die "no .config in $plain"
cmp -s "$cached/.config" "$plain/.config" ||
	{ diff "$cached/.config" "$plain/.config" >&2; die ".config differs (above)"; }
echo "kcache-check: .config: the same ($(grep -c '^CONFIG_' "$plain/.config") options)"
sections() {
	objdump -h "$1" | awk '$1 ~ /^[0-9]+$/ && $2 != ".notes" { print $2 }'
}
[ "$(sections "$cached/vmlinux")" = "$(sections "$plain/vmlinux")" ] ||
	die "vmlinux sections differ: $(sections "$cached/vmlinux" | tr '\n' ' ') / $(sections "$plain/vmlinux" | tr '\n' ' ')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for s in $(sections "$cached/vmlinux"); do
	objcopy -O binary --only-section="$s" "$cached/vmlinux" "$tmp/a"
	objcopy -O binary --only-section="$s" "$plain/vmlinux" "$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || die "vmlinux section $s differs with and without the cache"
	echo "kcache-check: $s: the same ($(wc -c <"$tmp/a") bytes)"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no section of vmlinux compared"
cmp -s "$cached/arch/x86/boot/bzImage" "$plain/arch/x86/boot/bzImage" &&
	echo "kcache-check: bzImage: the same" ||
	echo "kcache-check: bzImage: differs (the build id in it)"
echo "kcache-check: $name: $n sections the same with and without the cache"
