#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# compat.sh TREE
#
# Make a 2.6.14 or 2.6.15 tree buildable with today's make and gcc: the
# source half of the compat step of 'make historical' (the compiler flags
# are the other half, in build.sh).  Not part of the 2005 series: build.sh
# commits what this does as its own commit, before any series is applied.
#
#   1. make >= 3.82 rejects a rule that mixes a pattern and a plain target:
#      the top Makefile's "config %config:" (and "/ %/:", where there is
#      one) become two rules with the same prerequisites and recipe.
#   2. include/linux/compiler.h stops with #error for gcc > 4: such a gcc
#      gets compiler-gcc4.h, as gcc 4 does.
#   3. arch/i386/kernel/Makefile links the vsyscall DSOs with
#      "$(CC) -m elf_i386", an ld option gcc does not take: -m32 there.
#   4. include/asm-i386/bitops.h gives its read-modify-write bit operations
#      the bitmap word as an output-only operand ("=m"): gcc 12 then deletes
#      the store before it (set_page_zone()'s, and mem_init() hits
#      "kernel BUG at mm/page_alloc.c:289"): "+m", read and written.
#   5. include/asm-i386/posix_types.h: __FD_SET and __FD_CLR, the same
#      pattern (btsl/btrl on an "=m" operand): "+m".
#   6. make >= 4.2 puts a phony prerequisite such as FORCE in $? (the
#      prerequisites newer than the target) whenever it is remade, and
#      scripts/Kbuild.include's if_changed, if_changed_dep and
#      if_changed_rule rebuild whenever $? is not empty: every object was
#      compiled again by every make.  $? there becomes
#      $(filter-out FORCE,$?), as later kernels spell it (newer-prereqs).
#   7. A tree that arrived configured (a vendor's import does: the public
#      2.6.15 one came configured for MIPS) loses that configuration, as
#      make mrproper would: .config, .config.old, include/asm,
#      include/config/ and include/linux/autoconf.h, where there are any.
#   8. A vendor's build hooks, where there are any (the public 2.6.15 tree
#      is the Syabas/Sigma Designs SMP86xx import of 2.6.15; its changes
#      outside the build files are under CONFIG_TANGOX*):
#      a. the top Makefile includes the vendor's kconfig from outside the
#         tree ("include $(RUA_DIR)/..."): the line goes;
#      b. usr/Makefile stops unless gawk is installed (its dev kit's
#         check; the build uses no gawk here): the check goes;
#      c. drivers/char/Kconfig defaults the TANGOX_IR, TANGOX_FIP and
#         TANGOX_SCARD drivers to m on every architecture (built in under
#         allnoconfig without modules, and they do not compile for i386):
#         m only with TANGOX.
#
# Fixes 1-6 must find the text they change (all are looked for before any is
# made), and is checked afterwards; otherwise it stops, naming the file and
# the fix.  Fixes 7 and 8 are made where their text is found, and checked.

set -eu

die() {
	echo "compat: error: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: $0 TREE"
t=$1
[ -f "$t/Makefile" ] || die "$t/Makefile not found"
mk=$t/Makefile
ch=$t/include/linux/compiler.h
err='#error no compiler-gcc.h file for this gcc version'
km=$t/arch/i386/kernel/Makefile

[ "$(grep -c '^config %config:' "$mk")" = 1 ] ||
	die "Makefile: no single 'config %config:' rule (fix 1, make >= 3.82)"
[ -f "$ch" ] && [ "$(grep -cxF "$err" "$ch")" = 1 ] ||
	die "include/linux/compiler.h: no '$err' line (fix 2, gcc > 4)"
[ -f "$km" ] && grep -q '$(CC) -m elf_i386 ' "$km" ||
	die "arch/i386/kernel/Makefile: no '\$(CC) -m elf_i386' (fix 3)"
bo=$t/include/asm-i386/bitops.h
pt=$t/include/asm-i386/posix_types.h
[ -f "$bo" ] && [ "$(grep -c '"=m" (ADDR)' "$bo")" = 12 ] ||
	die "include/asm-i386/bitops.h: not the twelve '\"=m\" (ADDR)' operands (fix 4)"
# the operands of __FD_SET's and __FD_CLR's btsl/btrl (the line after each)
# that read "$1"
fd_operands() {
	grep -A1 -E 'bt[sr]l %1,%0": \\$' "$pt" | grep -c "$1"
}
[ -f "$pt" ] && [ "$(fd_operands '"=m"')" = 2 ] ||
	die "include/asm-i386/posix_types.h: no '\"=m\"' operand after btsl and btrl (fix 5)"

ki=$t/scripts/Kbuild.include
[ -f "$ki" ] && [ "$(grep -c '$(strip $? ' "$ki")" = 3 ] ||
	die "scripts/Kbuild.include: not the three '\$(strip \$? ' of if_changed* (fix 6, make >= 4.2)"

# 1. split the mixed rules; each recipe line (tab-led) is given to both
mixed_dir=$(grep -c '^/ %/:' "$mk" || true)
awk '
function flush() {
	if (!held)
		return
	print a rest; printf "%s", body
	print b rest; printf "%s", body
	held = 0; body = ""
}
held && /^\t/ { body = body $0 "\n"; next }
{ flush() }
/^config %config:/ { held = 1; a = "config:"; b = "%config:"; rest = substr($0, 16); next }
/^\/ %\/:/ { held = 1; a = "/:"; b = "%/:"; rest = substr($0, 6); next }
{ print }
END { flush() }' "$mk" >"$mk.compat"
mv "$mk.compat" "$mk"
grep -q '^config: ' "$mk" && grep -q '^%config: ' "$mk" &&
	! grep -q '^config %config:' "$mk" ||
	die "Makefile: 'config %config:' was not split (fix 1)"
echo "compat: Makefile: 'config %config:' split into 'config:' and '%config:'"
if [ "$mixed_dir" -gt 0 ]; then
	grep -q '^%/: ' "$mk" && ! grep -q '^/ %/:' "$mk" ||
		die "Makefile: '/ %/:' was not split (fix 1)"
	echo "compat: Makefile: '/ %/:' split into '/:' and '%/:'"
else
	echo "compat: Makefile: no '/ %/:' rule, nothing to split"
fi

# 2. gcc > 4 is treated as gcc 4
sed -i "s|^$err\$|# include <linux/compiler-gcc4.h>	/* compat: gcc > 4 */|" "$ch"
grep -qxF "$err" "$ch" && die "include/linux/compiler.h: not changed (fix 2)"
echo "compat: include/linux/compiler.h: gcc > 4 includes compiler-gcc4.h"

# 3. -m elf_i386 given to gcc
sed -i 's/\$(CC) -m elf_i386 /$(CC) -m32 /' "$km"
grep -q '$(CC) -m elf_i386 ' "$km" && die "arch/i386/kernel/Makefile: not changed (fix 3)"
echo "compat: arch/i386/kernel/Makefile: \$(CC) -m elf_i386 -> \$(CC) -m32"

# 4. read-modify-write bitmap operands
sed -i 's/"=m" (ADDR)/"+m" (ADDR)/' "$bo"
[ "$(grep -c '"+m" (ADDR)' "$bo")" = 12 ] && ! grep -q '"=m" (ADDR)' "$bo" ||
	die "include/asm-i386/bitops.h: not changed (fix 4)"
echo "compat: include/asm-i386/bitops.h: the 12 bit operations' \"=m\" (ADDR) -> \"+m\""

# 5. the same in __FD_SET and __FD_CLR
sed -i '/bt[sr]l %1,%0": \\$/{n;s/"=m"/"+m"/}' "$pt"
[ "$(fd_operands '"+m"')" = 2 ] ||
	die "include/asm-i386/posix_types.h: not changed (fix 5)"
echo "compat: include/asm-i386/posix_types.h: __FD_SET, __FD_CLR \"=m\" -> \"+m\""

# 6. FORCE is not a reason to rebuild
sed -i 's/\$(strip \$? /$(strip $(filter-out FORCE,$?) /' "$ki"
[ "$(grep -c '$(strip $(filter-out FORCE,$?) ' "$ki")" = 3 ] && ! grep -q '$(strip $? ' "$ki" ||
	die "scripts/Kbuild.include: not changed (fix 6)"
echo "compat: scripts/Kbuild.include: if_changed* rebuild on \$(filter-out FORCE,\$?), not \$?"

# 7. a configuration the tree arrived with
for f in .config .config.old include/asm include/config include/linux/autoconf.h; do
	if [ -e "$t/$f" ] || [ -L "$t/$f" ]; then
		rm -rf "${t:?}/$f"
		echo "compat: $f: removed (the tree arrived configured)"
	fi
done

# 8a. a vendor's include from outside the tree
if grep -q '^include $(RUA_DIR)/' "$mk"; then
	sed -i '/^include $(RUA_DIR)\//d' "$mk"
	! grep -q '^include $(RUA_DIR)/' "$mk" || die "Makefile: vendor include not removed (fix 8a)"
	echo "compat: Makefile: the vendor's 'include \$(RUA_DIR)/...' removed"
fi

# 8b. a vendor's gawk check: from its first line to the endif closing it
um=$t/usr/Makefile
if [ -f "$um" ] && grep -q '^is_gawk_installed :=' "$um"; then
	awk '/^is_gawk_installed :=/ { skip = 1 } !skip { print } skip && /^endif/ { skip = 0 }' \
		"$um" >"$um.compat"
	mv "$um.compat" "$um"
	! grep -q 'gawk' "$um" || die "usr/Makefile: gawk check not removed (fix 8b)"
	echo "compat: usr/Makefile: the vendor's gawk check removed"
fi

# 8c. a vendor's drivers defaulted on for every architecture
ck=$t/drivers/char/Kconfig
if [ -f "$ck" ] && grep -q '^config TANGOX_' "$ck"; then
	awk '/^config / { tangox = ($2 ~ /^TANGOX_(IR|FIP|SCARD)$/) }
	tangox && $1 == "default" && $2 == "m" && NF == 2 { sub(/default m$/, "default m if TANGOX") }
	{ print }' "$ck" >"$ck.compat"
	mv "$ck.compat" "$ck"
	[ "$(grep -c 'default m if TANGOX$' "$ck")" = 3 ] ||
		die "drivers/char/Kconfig: not the three TANGOX drivers made TANGOX-only (fix 8c)"
	echo "compat: drivers/char/Kconfig: TANGOX_IR, TANGOX_FIP, TANGOX_SCARD default m only with TANGOX"
fi
