#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbuild.sh config|build|fragments KERNEL
#
# Configure or build one guest kernel out of tree, in $BUILD/kernel/KERNEL.
# KERNEL is [BASE-][stock-]FLAVOUR[-VARIANT...]:
#   BASE-     the packaged base (modern/base.sh): none for 6.1, "6.12-" for
#             6.12 (tree $BUILD/linux-6.12)
#   stock-    build the packaged tree without the series ($BUILD/linux-stock,
#             a worktree at the base tag) instead of branch ptlock-split
#   FLAVOUR   perf or debug: modern/configs/FLAVOUR.config
#   VARIANT   pae, x86_64, ...: modern/configs/VARIANT.config (x86_64 also
#             switches ARCH)
# Fragments: guest.config, then FLAVOUR and VARIANTs (each followed by
# configs/BASE/PART.config where the base needs its own spelling of an
# option), then series.config when
# the tree carries the series (SERIES_CONFIG=no leaves it out, =known keeps
# only the options the tree's Kconfig defines: for commits inside the series).
# KDIR moves the links to the build directories (default $BUILD/kernel;
# each links to TREE/.kbuild-..., lib/kernel.sh's kbuild_dir), KCACHE=0
# builds without the compiler cache (kcache_setup).
#
#   config  tinyconfig, the fragments merged with
#           scripts/kconfig/merge_config.sh, then olddefconfig.  Fails,
#           listing them, if any option asked for did not survive.  Skipped
#           when neither the fragments nor the tree's HEAD changed.
#   build   bzImage (kbuild's own incremental build), which also builds
#           usr/gen_init_cpio.
#   fragments  print the fragments KERNEL's name stands for (not
#           series.config), in the order they are merged.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/kernel.sh"
. "$here/base.sh"
JOBS=${JOBS:-$(nproc)}

die() {
	echo "kbuild: error: $*" >&2
	exit 1
}
kcache_setup

[ $# -eq 2 ] || die "usage: $0 config|build|fragments KERNEL"
step=$1
name=$2
arch=$(arch_of_kernel "$name")
frags=$here/configs/guest.config
kbase=$(base_of_kernel "$name")
parts=${name#"$kbase"-}
base_set "$kbase"
case $parts in
stock-*)
	TREE=$STOCK
	parts=${parts#stock-} ;;
esac
for part in $(echo "$parts" | tr '-' ' '); do
	[ -f "$here/configs/$part.config" ] ||
		die "no fragment for '$part' of '$name' (modern/configs/$part.config)"
	frags="$frags $here/configs/$part.config"
	# what only one base spells this way (a symbol the other lacks)
	[ ! -f "$here/configs/$kbase/$part.config" ] ||
		frags="$frags $here/configs/$kbase/$part.config"
done
# the fragments the name stands for (bisect-check.sh stamps its builds with them)
if [ "$step" = fragments ]; then
	echo "$frags"
	exit 0
fi
if why=$(base_unavailable "$kbase"); then
	echo "note: $name not built: base $kbase left out ($why)"
	exit 0
fi
[ -f "$TREE/Makefile" ] || die "no kernel tree at $TREE (run 'make tree' first)"
O=$(kbuild_dir "$TREE" "${KDIR:-}" "$name")
base=$(git -C "$TREE" config ptlock.base 2>/dev/null || echo HEAD)
if [ "${SERIES_CONFIG:-yes}" != no ] && [ -f "$here/configs/series.config" ] &&
   [ "$(git -C "$TREE" rev-list --count "$base..HEAD")" -gt 0 ]; then
	if [ "${SERIES_CONFIG:-yes}" = known ]; then
		# part of the series only (bisect-check): the options its
		# Kconfig files define so far
		mkdir -p "$O"
		: >"$O/series-known.config"
		while IFS= read -r line; do
			sym=${line#CONFIG_}
			sym=${sym%%=*}
			case $line in CONFIG_*) ;; *) continue ;; esac
			grep -rqxE --include='Kconfig*' "(menu)?config $sym" "$TREE" &&
				echo "$line" >>"$O/series-known.config"
		done <"$here/configs/series.config"
		frags="$frags $O/series-known.config"
	else
		frags="$frags $here/configs/series.config"
	fi
fi

kmake() {
	make -C "$TREE" O="$O" ARCH="$arch" "$@"
}

# Every option the fragments set must read the same in the final .config.
check_config() {
	# shellcheck disable=SC2086
	config_check "$O/.config" $frags ||
		die "options above did not survive the merge (missing dependency?)"
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
	# in $O: merge_config.sh leaves its temporary files in the current
	# directory when it is interrupted
	(cd "$O" && "$TREE/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" $frags)
	kmake olddefconfig
	check_config
	echo "$stamp" >"$O/.ptlock-config"
	;;
build)
	[ -f "$O/.ptlock-config" ] || die "$name is not configured (kbuild.sh config $name)"
	before=$(kcache_stats)
	kmake -j"$JOBS" bzImage
	echo "$before $(kcache_stats)" | awk '$3 + $4 > $1 + $2 {
		printf "note: ccache: %d hits, %d misses\n", $3 - $1, $4 - $2 }'
	kernel_image "$name"
	[ -x "$O/usr/gen_init_cpio" ] || die "kbuild did not build usr/gen_init_cpio (BLK_DEV_INITRD off?)"
	;;
*)
	die "unknown step '$step' (config, build or fragments)"
	;;
esac
