#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbuild.sh config|build FLAVOUR [ARCH]
#
# Configure or build one guest kernel out of tree, in $BUILD/kernel/NAME,
# NAME being FLAVOUR for i386 and FLAVOUR-ARCH otherwise.
#   config  tinyconfig, then the fragments modern/configs/guest.config and
#           modern/configs/FLAVOUR.config (plus ARCH.config when present)
#           merged with scripts/kconfig/merge_config.sh, then olddefconfig.
#           Fails, listing them, if any option asked for did not survive.
#           Skipped when neither the fragments nor the tree's HEAD changed.
#   build   bzImage (kbuild's own incremental build), which also builds usr/gen_init_cpio.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../build}
TREE=${TREE:-$BUILD/linux}
JOBS=${JOBS:-$(nproc)}

die() {
	echo "kbuild: error: $*" >&2
	exit 1
}

[ $# -ge 2 ] || die "usage: $0 config|build FLAVOUR [ARCH]"
step=$1
flavour=$2
arch=${3:-i386}
name=$flavour
[ "$arch" = i386 ] || name=$flavour-$arch
O=$BUILD/kernel/$name
[ -f "$here/configs/$flavour.config" ] ||
	die "no flavour '$flavour' (modern/configs/$flavour.config)"
[ -f "$TREE/Makefile" ] || die "no kernel tree at $TREE (run 'make tree' first)"

frags="$here/configs/guest.config $here/configs/$flavour.config"
[ ! -f "$here/configs/$arch.config" ] || frags="$frags $here/configs/$arch.config"

kmake() {
	make -C "$TREE" O="$O" ARCH="$arch" "$@"
}

# Every option a fragment sets must read the same in the final .config.
check_config() {
	bad=0
	for f in $frags; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF "$line" "$O/.config" && continue ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				grep -q "^$sym=" "$O/.config" || continue ;;
			*)	continue ;;
			esac
			sym=${line#\# }
			sym=${sym%%[= ]*}
			now=$(grep -E "^($sym=|# $sym is not set)" "$O/.config" || echo "$sym absent")
			echo "${f##*/}: asked for '$line', got '$now'" >&2
			bad=1
		done <"$f"
	done
	[ $bad -eq 0 ] || die "options above did not survive the merge (missing dependency?)"
}

case $step in
config)
	stamp=$(cat $frags | sha256sum | cut -c1-16)-$(git -C "$TREE" rev-parse HEAD)
	if [ -f "$O/.config" ] && [ "$(cat "$O/.ptlock-config" 2>/dev/null)" = "$stamp" ]; then
		echo "config of $name up to date"
		exit 0
	fi
	mkdir -p "$O"
	rm -f "$O/.ptlock-config"
	kmake tinyconfig
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" $frags
	kmake olddefconfig
	check_config
	echo "$stamp" >"$O/.ptlock-config"
	;;
build)
	[ -f "$O/.ptlock-config" ] || die "$name is not configured (kbuild.sh config $flavour)"
	kmake -j"$JOBS" bzImage
	[ -x "$O/usr/gen_init_cpio" ] || die "kbuild did not build usr/gen_init_cpio (BLK_DEV_INITRD off?)"
	;;
*)
	die "unknown step '$step' (config or build)"
	;;
esac
