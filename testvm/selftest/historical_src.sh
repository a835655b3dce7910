#!/bin/sh
# historical/build.sh tree on bad HISTORICAL_SRC (unset, missing, a file, no
# Makefile, no version, 2.6.15, 6.1.0, 2.6.14 without -rc4-mm1, no
# mm/memory.c, holding the build dir): named, nothing copied, the tree
# unchanged. On a fake 2.6.14-rc4-mm1 (the series' pre-images + the lines
# compat.sh edits): base, compat and Hugh Dickins' nine commits in order in
# the copy, the source byte-for-byte unchanged (also as a git tree), reuse on
# a second run, make 4.3 refusing the mixed rule and taking the split one, the
# compat flags giving i386 non-PIE gnu89-inline code on this gcc, config
# stopping with "not a complete kernel tree"; compat.sh not finding its text;
# a damaged pre-image aborting git am at 0004, named
. "$(dirname "$0")/lib.sh"

hist() {	# STEP [HISTORICAL_SRC]
	BUILD=$T/build HISTORICAL_SRC=${2-} "$ROOT/historical/build.sh" "$1"
}
# every path and every file's contents under $1, .git included
sums() {
	(cd "$1" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs sha256sum)
}
no_copy() {
	[ ! -e "$T/build/historical/linux" ] || fail "a copy was made for a bad HISTORICAL_SRC"
}
# fake_tree DIR: the pre-images of the series and a 2.6.14-like top Makefile,
# compiler.h and arch/i386/kernel/Makefile
fake_tree() {
	python3 "$ROOT/historical/check.py" --pre-images "$1" || fail "check.py --pre-images"
	mkdir -p "$1/include/linux" "$1/arch/i386/kernel"
	printf '%s\n' 'VERSION = 2' 'PATCHLEVEL = 6' 'SUBLEVEL = 14' 'EXTRAVERSION =-rc4-mm1' \
		'NAME=Affluent Albatross' '' \
		'config %config: scripts_basic outputmakefile FORCE' \
		'	$(Q)mkdir -p include/linux' \
		'	$(Q)$(MAKE) $(build)=scripts/kconfig $@' '' \
		'/ %/: prepare scripts FORCE' \
		'	$(Q)$(MAKE) KBUILD_MODULES=$(if $(CONFIG_MODULES),1) \' \
		'	$(build)=$(build-dir)' >"$1/Makefile"
	printf '%s\n' '#if __GNUC__ > 4' '#error no compiler-gcc.h file for this gcc version' \
		'#elif __GNUC__ == 4' '# include <linux/compiler-gcc4.h>' '#endif' \
		>"$1/include/linux/compiler.h"
	printf '%s\n' 'quiet_cmd_syscall = SYSCALL $@' \
		'      cmd_syscall = $(CC) -m elf_i386 -nostdlib $(SYSCFLAGS_$(@F)) \' \
		'	          -Wl,-T,$(filter-out FORCE,$^) -o $@' >"$1/arch/i386/kernel/Makefile"
}

# (a) no tree
expect_fail "$T/out" hist tree
expect_in "$T/out" "historical: error: HISTORICAL_SRC is not set: make historical HISTORICAL_SRC="
expect_fail "$T/out" hist tree "$T/nowhere"
expect_in "$T/out" "HISTORICAL_SRC=$T/nowhere does not exist"
echo x >"$T/file"
expect_fail "$T/out" hist tree "$T/file"
expect_in "$T/out" "HISTORICAL_SRC=$T/file is not a directory"
mkdir -p "$T/empty/mm"
expect_fail "$T/out" hist tree "$T/empty"
expect_in "$T/out" "HISTORICAL_SRC=$T/empty has no top-level Makefile: not a kernel tree"
echo 'all:' >"$T/empty/Makefile"
expect_fail "$T/out" hist tree "$T/empty"
expect_in "$T/out" "names no VERSION/PATCHLEVEL: not a kernel tree"
no_copy

# (b) the wrong version, or the right one with a part missing
fake_tree "$T/src"
before=$(sums "$T/src")
sed -i 's/^SUBLEVEL = 14$/SUBLEVEL = 15/; s/^EXTRAVERSION =.*/EXTRAVERSION =/' "$T/src/Makefile"
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "HISTORICAL_SRC=$T/src is linux 2.6.15, expected 2.6.14-rc4-mm1"
sed -i 's/^VERSION = 2$/VERSION = 6/; s/^PATCHLEVEL = 6$/PATCHLEVEL = 1/; s/^SUBLEVEL = 15$/SUBLEVEL = 0/' "$T/src/Makefile"
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "is linux 6.1.0, expected 2.6.14-rc4-mm1"
sed -i 's/^VERSION = 6$/VERSION = 2/; s/^PATCHLEVEL = 1$/PATCHLEVEL = 6/; s/^SUBLEVEL = 0$/SUBLEVEL = 14/' "$T/src/Makefile"
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "is linux 2.6.14, expected 2.6.14-rc4-mm1"
sed -i 's/^EXTRAVERSION =$/EXTRAVERSION =-rc4-mm1/' "$T/src/Makefile"
[ "$(sums "$T/src")" = "$before" ] || fail "could not restore the fake tree"
mv "$T/src/mm/memory.c" "$T/memory.c"
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "(linux 2.6.14-rc4-mm1) has no mm/memory.c"
mv "$T/memory.c" "$T/src/mm/memory.c"
expect_fail "$T/out" env BUILD="$T/src/build" HISTORICAL_SRC="$T/src" "$ROOT/historical/build.sh" tree
expect_in "$T/out" "holds the build directory"
rmdir "$T/src/build"
no_copy
[ "$(sums "$T/src")" = "$before" ] || fail "a bad run changed HISTORICAL_SRC"

# (c) the fake tree: copy, compat, nine patches, then no Kconfig
hist tree "$T/src" >"$T/out" 2>&1 || { cat "$T/out"; fail "tree stage on the fake 2.6.14-rc4-mm1"; }
expect_in "$T/out" "compat: Makefile: 'config %config:' split"
expect_in "$T/out" "compat: Makefile: '/ %/:' split"
expect_in "$T/out" "linux 2.6.14-rc4-mm1 + compat + 9 patches of the 2005 series"
[ "$(sums "$T/src")" = "$before" ] || fail "HISTORICAL_SRC was modified"
[ ! -e "$T/src/.git" ] || fail "a .git was made in HISTORICAL_SRC"
c=$T/build/historical/linux
git -C "$c" log --reverse --format='%an|%s' >"$T/log"
[ "$(wc -l <"$T/log")" = 11 ] || { cat "$T/log"; fail "not base + compat + 9 commits"; }
sed -n 1p "$T/log" | grep -q "^ptlock build|linux 2.6.14-rc4-mm1 as found in $T/src$" ||
	{ cat "$T/log"; fail "first commit is not the base"; }
sed -n 2p "$T/log" | grep -q '^ptlock build|compat: .*(not part of the 2005 series)$' ||
	{ cat "$T/log"; fail "second commit is not the compat step"; }
[ "$(sed -n '3,$p' "$T/log" | grep -c '^Hugh Dickins|')" = 9 ] ||
	{ cat "$T/log"; fail "the nine patches are not Hugh Dickins'"; }
grep -h '^Subject:' "$ROOT"/historical/patches/000[1-9]-*.patch |
	sed 's/^Subject: \[PATCH [0-9]*\/9\] //' >"$T/subjects"
sed -n '3,$s/^Hugh Dickins|//p' "$T/log" | diff - "$T/subjects" >/dev/null ||
	{ diff - "$T/subjects" <"$T/log"; fail "the commits are not the series in order"; }
[ "$(git -C "$c" diff --name-only base compat | tr '\n' ' ')" = \
  "Makefile arch/i386/kernel/Makefile include/linux/compiler.h " ] ||
	fail "the compat commit touches other files than its three"
git -C "$c" diff --name-only compat HEAD | grep -qxE 'Makefile|include/linux/compiler.h|arch/i386/kernel/Makefile' &&
	fail "the series touches a file of the compat step"
git -C "$c" show compat:Makefile >"$T/mk"
for r in 'config: scripts_basic outputmakefile FORCE' '%config: scripts_basic outputmakefile FORCE' \
	 '/: prepare scripts FORCE' '%/: prepare scripts FORCE'; do
	[ "$(grep -A2 -xF "$r" "$T/mk" | grep -c '^	')" = 2 ] ||
		{ cat "$T/mk"; fail "no rule '$r' with the two recipe lines after compat"; }
done
git -C "$c" show compat:arch/i386/kernel/Makefile | grep -qF '$(CC) -m32 -nostdlib' ||
	fail "-m elf_i386 not replaced"
# make (4.3 here) finds no rule for allnoconfig in the mixed rule, and
# takes the split one
make -n -C "$T/src" allnoconfig >"$T/out" 2>&1 && fail "this make takes 'config %config:'"
expect_in "$T/out" "No rule to make target 'allnoconfig'"
make -n -C "$c" allnoconfig >"$T/out" 2>&1 && fail "make -n allnoconfig ran"
expect_in "$T/out" "No rule to make target 'scripts_basic', needed by 'allnoconfig'"
# the compat flags on this gcc: i386, no PIE, gnu89 inline (an extern
# inline function is never emitted)
printf 'extern inline int f(void) { return 1; }\nint g(void) { return f(); }\n' >"$T/inl.c"
$("$ROOT/historical/build.sh" cc) -O0 -c -o "$T/inl.o" "$T/inl.c" || fail "compat flags rejected"
objdump -f "$T/inl.o" | grep -q 'file format elf32-i386' || fail "not i386 code"
nm "$T/inl.o" >"$T/nm"
grep -q ' T f$' "$T/nm" && fail "extern inline emitted: not gnu89 inline semantics"
grep -q '_GLOBAL_OFFSET_TABLE_' "$T/nm" && fail "position-independent code"

# a second run reuses the copy; a changed source makes it again
head=$(git -C "$c" rev-parse HEAD)
hist tree "$T/src" >"$T/out" 2>&1 || { cat "$T/out"; fail "second tree stage"; }
expect_in "$T/out" "compat step and series up to date"
[ "$(git -C "$c" rev-parse HEAD)" = "$head" ] || fail "an up-to-date copy was redone"
expect_fail "$T/out" hist config
expect_in "$T/out" "has no scripts/kconfig/Makefile: HISTORICAL_SRC is not a complete kernel tree"
[ ! -e "$T/build/kernel/historical/.config" ] || fail "a .config was written"
expect_fail "$T/out" hist build
expect_in "$T/out" "historical is not configured"

# a git tree: its .git is not copied, not touched
git -C "$T/src" init -q && git -C "$T/src" add -A &&
	git -C "$T/src" -c user.name=u -c user.email=u@u commit -q -m "user's tree"
before=$(sums "$T/src")
rm -rf "$T/build"
hist tree "$T/src" >"$T/out" 2>&1 || { cat "$T/out"; fail "tree stage on a git tree"; }
[ "$(sums "$T/src")" = "$before" ] || fail "the user's git tree was modified"
git -C "$c" log -1 --format=%s base | grep -q "(a git tree at $(git -C "$T/src" rev-parse HEAD))" ||
	fail "the base does not say which commit it came from"
rm -rf "$T/src/.git"

# the compat step does not find what it fixes
sed -i 's/^#error no compiler-gcc.h.*/#error gcc 5?/' "$T/src/include/linux/compiler.h"
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "compat: error: include/linux/compiler.h: no '#error no compiler-gcc.h file for this gcc version' line (fix 2, gcc > 4)"
expect_in "$T/out" "historical: error: the compat step failed"
sed -i 's/^#error gcc 5?$/#error no compiler-gcc.h file for this gcc version/' "$T/src/include/linux/compiler.h"

# (d) a damaged pre-image line: git am aborted, the patch named
f=$T/src/arch/cris/arch-v32/mm/tlb.c
n=$(grep -n -m1 -v 'not in any hunk' "$f" | cut -d: -f1)
sed -i "${n}s/.*/damaged by the selftest/" "$f"
before=$(sums "$T/src")
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "historical: error: historical/patches/0004-mm-cris-v32-mmu-context-lock.patch does not apply"
expect_in "$T/out" "patch failed: arch/cris/arch-v32/mm/tlb.c"
expect_in "$T/out" "plus the 3 patches before it"
[ ! -d "$c/.git/rebase-apply" ] || fail "git am was not aborted"
[ "$(git -C "$c" log --format=%an compat.. | grep -c 'Hugh Dickins')" = 3 ] ||
	fail "the copy does not hold the three patches before the failing one"
[ "$(sums "$T/src")" = "$before" ] || fail "HISTORICAL_SRC was modified by a failed run"
expect_fail "$T/out" hist config
expect_in "$T/out" "no prepared tree"
exit 0
