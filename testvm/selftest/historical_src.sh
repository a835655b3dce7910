#!/bin/sh
# historical/build.sh tree on bad HISTORICAL_SRC (unset, missing, a file, no
# Makefile, no version, 2.6.15, 6.1.0, 2.6.14-rc4, -rc4-mm2, -mm1, -git3, no
# mm/memory.c, holding the build dir): named, nothing copied, the tree
# unchanged.  On a fake 2.6.14-rc4-mm1 (the series' pre-images + the lines
# compat.sh edits): base, compat (its six fixes, bitops' "+m" and
# Kbuild.include's $(filter-out FORCE,$?) among them)
# and Hugh Dickins' nine commits in order in the copy, the before worktree at
# compat, three kernels; the source byte-for-byte unchanged (also as a git
# tree), reuse on a second run, make 4.3 refusing the mixed rule and taking
# the split one, the compat flags giving i386 non-PIE gnu89-inline code on
# this gcc, config stopping with "not a complete kernel tree"; compat.sh not
# finding its text; a damaged pre-image aborting git am at 0004, named with
# its failing hunk.  A vanilla 2.6.14 (-hsc0, the port's pre-images) is
# taken: compat, then the port's patches (its own, then Hugh Dickins' 9),
# three kernels; with historical/port/ empty, compat only and
# historical-before its only kernel.
# The config step on a make that plays 2.6.14's kconfig: the fragments
# written into .config survive oldconfig (fed yes ''), a second run does
# nothing, build names the image, and a symbol the kconfig lacks is named.
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
# fake_tree DIR [--port]: the pre-images of the series (of the port) and a
# 2.6.14-like top Makefile, compiler.h and arch/i386/kernel/Makefile
fake_tree() {
	# shellcheck disable=SC2086  # $2 is one word or none
	python3 "$ROOT/historical/check.py" ${2:-} --pre-images "$1" || fail "check.py --pre-images"
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
	mkdir -p "$1/include/asm-i386"
	for op in set clear change; do
		printf '%s\n' "static inline void ${op}_bit(int nr, volatile unsigned long * addr)" '{' \
			'	__asm__ __volatile__( LOCK_PREFIX "btsl %1,%0"' '		:"=m" (ADDR)' \
			'		:"Ir" (nr));' '}' '' "static inline void __${op}_bit(int nr, volatile unsigned long * addr)" \
			'{' '	__asm__ __volatile__( "btsl %1,%0"' '		:"=m" (ADDR)' '		:"Ir" (nr));' '}'
	done >"$1/include/asm-i386/bitops.h"
	for op in test_and_set test_and_clear test_and_change; do
		printf '%s\n' "static inline int ${op}_bit(int nr, volatile unsigned long * addr)" '{' \
			'	__asm__ __volatile__( LOCK_PREFIX "btsl %2,%1\n\tsbbl %0,%0"' \
			'		:"=r" (oldbit),"=m" (ADDR)' '		:"Ir" (nr) : "memory");' '}' \
			"static inline int __${op}_bit(int nr, volatile unsigned long * addr)" '{' \
			'	__asm__( "btsl %2,%1\n\tsbbl %0,%0"' \
			'		:"=r" (oldbit),"=m" (ADDR)' '		:"Ir" (nr));' '}'
	done >>"$1/include/asm-i386/bitops.h"
	printf '%s\n' '#define __FD_SET(fd,fdsetp) \' '		__asm__ __volatile__("btsl %1,%0": \' \
		'			"=m" (*(__kernel_fd_set *) (fdsetp)):"r" ((int) (fd)))' \
		'#define __FD_CLR(fd,fdsetp) \' '		__asm__ __volatile__("btrl %1,%0": \' \
		'			"=m" (*(__kernel_fd_set *) (fdsetp)):"r" ((int) (fd)))' \
		'#define __FD_ZERO(fdsetp) \' '			:"=m" (*(__kernel_fd_set *) (fdsetp)), \' \
		>"$1/include/asm-i386/posix_types.h"
	mkdir -p "$1/scripts"
	for f in if_changed if_changed_dep if_changed_rule; do
		printf '%s = $(if $(strip $? $(call arg-check, $(cmd_$(1)), $(cmd_$@)) ), \\\n' "$f"
	done >"$1/scripts/Kbuild.include"
}

# (a) no tree
expect_fail "$T/out" hist tree
expect_in "$T/out" "historical: error: neither HISTORICAL_SRC nor HISTORICAL_2615_SRC is set: make historical HISTORICAL_SRC="
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
expect_in "$T/out" "HISTORICAL_SRC=$T/src is linux 2.6.15, expected 2.6.14-rc4-mm1 (the posted series) or 2.6.14 (the port)"
sed -i 's/^VERSION = 2$/VERSION = 6/; s/^PATCHLEVEL = 6$/PATCHLEVEL = 1/; s/^SUBLEVEL = 15$/SUBLEVEL = 0/' "$T/src/Makefile"
expect_fail "$T/out" hist tree "$T/src"
expect_in "$T/out" "is linux 6.1.0, expected 2.6.14-rc4-mm1"
sed -i 's/^VERSION = 6$/VERSION = 2/; s/^PATCHLEVEL = 1$/PATCHLEVEL = 6/; s/^SUBLEVEL = 0$/SUBLEVEL = 14/' "$T/src/Makefile"
for e in -rc4 -rc4-mm2 -mm1 -git3; do
	sed -i "s/^EXTRAVERSION =.*/EXTRAVERSION =$e/" "$T/src/Makefile"
	expect_fail "$T/out" hist tree "$T/src"
	expect_in "$T/out" "is linux 2.6.14$e, expected 2.6.14-rc4-mm1"
done
sed -i 's/^EXTRAVERSION =.*/EXTRAVERSION =-rc4-mm1/' "$T/src/Makefile"
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
  "Makefile arch/i386/kernel/Makefile include/asm-i386/bitops.h include/asm-i386/posix_types.h include/linux/compiler.h scripts/Kbuild.include " ] ||
	fail "the compat commit touches other files than its six"
[ "$(git -C "$c" show compat:scripts/Kbuild.include | grep -c '$(strip $(filter-out FORCE,$?) ')" = 3 ] ||
	fail "Kbuild.include: not the three if_changed* without FORCE"
git -C "$c" diff --name-only compat HEAD | grep -qxE 'Makefile|include/linux/compiler.h|arch/i386/kernel/Makefile|include/asm-i386/(bitops|posix_types).h|scripts/Kbuild.include' &&
	fail "the series touches a file of the compat step"
git -C "$c" show compat:include/asm-i386/bitops.h | grep -q '"=m" (ADDR)' && fail "bitops.h: an \"=m\" (ADDR) left"
[ "$(git -C "$c" show compat:include/asm-i386/bitops.h | grep -c '"+m" (ADDR)')" = 12 ] || fail "bitops.h: not 12 \"+m\""
[ "$(git -C "$c" show compat:include/asm-i386/posix_types.h | grep -c '"+m"')" = 2 ] || fail "posix_types.h: not 2 \"+m\""
git -C "$c" show compat:include/asm-i386/posix_types.h | grep -q ':"=m" (\*(__kernel_fd_set' ||
	fail "posix_types.h: __FD_ZERO's output-only operand was changed"
# the kernels of an mm tree with its series, and the before worktree at compat
[ "$(BUILD=$T/build "$ROOT/historical/build.sh" kernels)" = "historical-before historical historical-off" ] ||
	fail "kernels of the mm tree: $(BUILD=$T/build "$ROOT/historical/build.sh" kernels)"
[ "$(git -C "$T/build/historical/before" rev-parse HEAD)" = "$(git -C "$c" rev-parse compat)" ] ||
	fail "the before worktree is not at compat"
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
expect_in "$T/out" "usage: "
expect_fail "$T/out" env BUILD="$T/build" "$ROOT/historical/build.sh" config historical-after
expect_in "$T/out" "no kernel 'historical-after'"
expect_fail "$T/out" env BUILD="$T/build" "$ROOT/historical/build.sh" config historical
expect_in "$T/out" "has no scripts/kconfig/Makefile: HISTORICAL_SRC is not a complete kernel tree"
[ ! -e "$T/build/kernel/historical/.config" ] || fail "a .config was written"
expect_fail "$T/out" env BUILD="$T/build" "$ROOT/historical/build.sh" build historical-before
expect_in "$T/out" "historical-before is not configured"

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
expect_in "$T/out" "every hunk that does not apply:"
grep -q '^  arch/cris/arch-v32/mm/tlb.c  @@ ' "$T/out" || { cat "$T/out"; fail "the failing hunk is not listed"; }
expect_in "$T/out" "plus the 3 patches before it"
[ ! -d "$c/.git/rebase-apply" ] || fail "git am was not aborted"
[ "$(git -C "$c" log --format=%an compat.. | grep -c 'Hugh Dickins')" = 3 ] ||
	fail "the copy does not hold the three patches before the failing one"
[ "$(sums "$T/src")" = "$before" ] || fail "HISTORICAL_SRC was modified by a failed run"
expect_fail "$T/out" env BUILD="$T/build" "$ROOT/historical/build.sh" config historical
expect_in "$T/out" "no prepared tree"

# (e) vanilla 2.6.14 (a vendor's EXTRAVERSION): taken, compat, then the
# port (not its cover letter), three kernels
rm -rf "$T/src" "$T/build"
fake_tree "$T/src" --port
sed -i 's/^EXTRAVERSION =.*/EXTRAVERSION = -hsc0/' "$T/src/Makefile"
hist tree "$T/src" >"$T/out" 2>&1 || { cat "$T/out"; fail "tree stage on a vanilla 2.6.14"; }
nport=0
for p in "$ROOT"/historical/port/*.patch; do
	case $p in */0000-*) ;; *) nport=$((nport + 1)) ;; esac
done
expect_in "$T/out" "linux 2.6.14-hsc0 (vanilla 2.6.14) + compat + $nport patches of the port"
c=$T/build/historical/linux
[ "$(git -C "$c" log --reverse --format=%an compat.. | uniq -c | awk '{print $1}' | tr '\n' ' ')" = "$((nport - 9)) 9 " ] ||
	fail "the copy does not hold the port's $((nport - 9)) patches, then Hugh Dickins' 9"
[ "$(git -C "$c" log -1 --format=%an)" = "Hugh Dickins" ] || fail "the port does not end with Hugh Dickins' patch"
[ "$(BUILD=$T/build "$ROOT/historical/build.sh" kernels)" = "historical-before historical historical-off" ] ||
	fail "a vanilla tree with the port does not give the three kernels"
# ... and with historical/port/ empty: compat only, historical-before only
mkdir -p "$T/proj"
cp -r "$ROOT/historical" "$ROOT/lib" "$T/proj/"
rm -f "$T/proj/historical/port/"*.patch
rm -rf "$T/build"
BUILD=$T/build HISTORICAL_SRC=$T/src "$T/proj/historical/build.sh" tree >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "tree stage on a vanilla 2.6.14 without the port"; }
expect_in "$T/out" "linux 2.6.14-hsc0 (vanilla 2.6.14) + compat; historical/port/ holds no series yet"
[ "$(BUILD=$T/build "$T/proj/historical/build.sh" kernels)" = historical-before ] ||
	fail "a vanilla tree without the port gives more than historical-before"
expect_fail "$T/out" env BUILD="$T/build" "$T/proj/historical/build.sh" config historical
expect_in "$T/out" "historical: no series for vanilla 2.6.14 yet (historical/port/)"
[ "$(BUILD=$T/build "$T/proj/historical/build.sh" hint historical-off)" = \
  "no series for vanilla 2.6.14 yet (historical/port/): only historical-before builds" ] ||
	fail "the hint of historical-off"

# (f) the config step, with a make that plays 2.6.14's kconfig: allnoconfig
# writes every symbol it knows off, oldconfig keeps each known symbol's last
# line (with yes '' on its input) and drops the unknown; bzImage makes a file;
# mm/memory.i copies $T/memory.i, from which the ptl step reads the fault
# path's lock: handle_pte_fault's ptl (spread over lines, a ';' inside), or
# __handle_mm_fault's spin_lock before the series, or an error
mkdir -p "$T/src/scripts/kconfig" "$T/src/arch/i386"
: >"$T/src/scripts/kconfig/Makefile"
: >"$T/src/arch/i386/Kconfig"
rm -rf "$T/build"
hist tree "$T/src" >"$T/out" 2>&1 || { cat "$T/out"; fail "tree stage for the config test"; }
known=$(grep -hoE '^(# )?CONFIG_[A-Za-z0-9_]+' "$ROOT"/historical/configs/*.config | sed 's/^# //' | sort -u)
cat >"$T/make" <<MAKE
#!/bin/sh
for a; do case \$a in O=*) o=\${a#O=} ;; allnoconfig|oldconfig|bzImage|mm/memory.i) t=\$a ;; esac; done
case \$t in
allnoconfig) for k in \$(cat "$T/known"); do echo "# \$k is not set"; done >"\$o/.config" ;;
oldconfig)
	IFS= read -r l && [ -z "\$l" ] || { echo "oldconfig without yes '' on its input" >&2; exit 1; }
	awk 'NR == FNR { k[\$1] = 1; next }
	     /^CONFIG_/ { s = \$0; sub(/=.*/, "", s); if (s in k) v[s] = \$0; next }
	     /^# CONFIG_/ { if (\$2 in k) v[\$2] = \$0 }
	     END { for (s in v) print v[s] }' "$T/known" "\$o/.config" >"\$o/.config.new"
	mv "\$o/.config.new" "\$o/.config" ;;
bzImage) mkdir -p "\$o/arch/i386/boot" && echo image >"\$o/arch/i386/boot/bzImage" ;;
mm/memory.i) mkdir -p "\$o/mm" && cp "$T/memory.i" "\$o/mm/memory.i" ;;
esac
MAKE
chmod +x "$T/make"
echo "$known" >"$T/known"
cfg() {
	env BUILD="$T/build" HISTORICAL_MAKE="$T/make" "$ROOT/historical/build.sh" "$@"
}
cfg config historical-before >"$T/out" 2>&1 || { cat "$T/out"; fail "config on the fake kconfig"; }
o=$T/build/kernel/historical-before/.config
for l in CONFIG_SMP=y CONFIG_NR_CPUS=8 CONFIG_SYSCTL=y CONFIG_SWAP=y '# CONFIG_MODULES is not set'; do
	grep -qxF "$l" "$o" || { cat "$o"; fail "'$l' not in the .config"; }
done
grep -q '^CONFIG_SPLIT_PTLOCK_CPUS=' "$o" && fail "the before kernel was given the series' option"
cfg config historical-before >"$T/out" 2>&1 && expect_in "$T/out" "config of historical-before up to date"
[ "$(cfg build historical-before)" = "$T/build/kernel/historical-before/arch/i386/boot/bzImage" ] ||
	fail "build does not name the image"
# the lock of the fault path, split and before the series
printf '%s\n' 'static inline int handle_pte_fault(struct mm_struct *mm,' ' pte_t *pte, pmd_t *pmd)' '{' \
	' spinlock_t *ptl;' ' ptl = ({(void)(mm); ((spinlock_t *)&((((mem_map +' \
	'   ((*(pmd)).pmd >> 12))))->private));});' ' spin_lock(ptl);' '}' >"$T/memory.i"
[ "$(cfg ptl historical-before)" = \
  "historical-before: handle_pte_fault: ptl = ({(void)(mm); ((spinlock_t *)&((((mem_map + ((*(pmd)).pmd >> 12))))->private));});" ] ||
	fail "ptl: the split lock of handle_pte_fault"
printf '%s\n' 'static inline int handle_pte_fault(struct mm_struct *mm)' '{' ' return 0;' '}' \
	'int __handle_mm_fault(struct mm_struct *mm, struct vm_area_struct * vma,' \
	'  unsigned long address, int write_access)' '{' ' pgd = pgd_offset(mm, address);' \
	' _spin_lock(&mm->page_table_lock);' '}' >"$T/memory.i"
[ "$(cfg ptl historical-before)" = "historical-before: __handle_mm_fault: _spin_lock(&mm->page_table_lock);" ] ||
	fail "ptl: the lock of __handle_mm_fault"
printf '%s\n' 'int other(void)' '{' ' return 0;' '}' >"$T/memory.i"
expect_fail "$T/out" cfg ptl historical-before
expect_in "$T/out" "no lock found in the fault path of historical-before"
# a symbol this kconfig does not know: named, the config not taken
grep -vx CONFIG_SYSCTL "$T/known" >"$T/known.new" && mv "$T/known.new" "$T/known"
rm -rf "$T/build/kernel"
expect_fail "$T/out" cfg config historical-before
expect_in "$T/out" "asked for 'CONFIG_SYSCTL=y', got 'CONFIG_SYSCTL absent' (fragments: guest-2.6.14.config )"
expect_in "$T/out" "did not survive allnoconfig + oldconfig"
[ ! -f "$T/build/kernel/historical-before/.ptlock-config" ] || fail "a failed config was stamped"
# (g) 2.6.15, the mainline reference, from HISTORICAL_2615_SRC: the wrong
# variable or version named; a tree that arrived configured, with a vendor's
# build hooks (as the public one): copy, compat with fixes 6 and 7 and no
# series, the source unchanged, historical-2.6.15 among the kernels; its
# config with a kconfig that keeps a symbol's first line (2.6.15's)
rm -rf "$T/build" "$T/s15"
fake_tree "$T/s15" --port
sed -i 's/^SUBLEVEL = 14$/SUBLEVEL = 15/; s/^EXTRAVERSION =.*/EXTRAVERSION =/' "$T/s15/Makefile"
h15() {	# STEP: build.sh with HISTORICAL_2615_SRC=$T/s15 alone
	env BUILD="$T/build" HISTORICAL_2615_SRC="$T/s15" HISTORICAL_MAKE="$T/make" \
		"$ROOT/historical/build.sh" "$@"
}
expect_fail "$T/out" hist tree "$T/s15"
expect_in "$T/out" "HISTORICAL_SRC=$T/s15 is linux 2.6.15, expected 2.6.14-rc4-mm1 (the posted series) or 2.6.14 (the port); a 2.6.15 tree is HISTORICAL_2615_SRC"
expect_fail "$T/out" env BUILD="$T/build" HISTORICAL_2615_SRC="$T/src" "$ROOT/historical/build.sh" tree
expect_in "$T/out" "HISTORICAL_2615_SRC=$T/src is linux 2.6.14-hsc0, expected 2.6.15 (the mainline reference); a 2.6.14 tree is HISTORICAL_SRC"
sed -i 's/^EXTRAVERSION =.*/EXTRAVERSION =-rc7/' "$T/s15/Makefile"
expect_fail "$T/out" h15 tree
expect_in "$T/out" "is linux 2.6.15-rc7, expected 2.6.15"
sed -i 's/^EXTRAVERSION =.*/EXTRAVERSION =/' "$T/s15/Makefile"
expect_fail "$T/out" env BUILD="$T/build" "$ROOT/historical/build.sh" tree
expect_in "$T/out" "neither HISTORICAL_SRC nor HISTORICAL_2615_SRC is set"
[ ! -e "$T/build/historical/linux-2.6.15" ] || fail "a copy was made for a bad HISTORICAL_2615_SRC"
echo 'include $(RUA_DIR)/../../vendor/customer/$(customer)/kconfig' >>"$T/s15/Makefile"
mkdir -p "$T/s15/usr" "$T/s15/drivers/char" "$T/s15/include/config" "$T/s15/include/asm-mips"
printf '%s\n' 'obj-y := initramfs_data.o' \
	'is_gawk_installed := $(shell if gawk --version > /dev/null 2>& 1; then echo yes; fi)' \
	"ifneq '\$(is_gawk_installed)' 'yes'" '$(error Error: gawk not installed.)' 'endif' \
	'targets += initramfs_data.cpio.gz' >"$T/s15/usr/Makefile"
for d in IR FIP SCARD; do
	printf '%s\n' "config TANGOX_$d" "	tristate \"$d\" if TANGOX" '	default m' '	help' '	  x' ''
done >"$T/s15/drivers/char/Kconfig"
printf '%s\n' 'config OTHER' '	tristate "other"' '	default m' >>"$T/s15/drivers/char/Kconfig"
echo 'CONFIG_MIPS=y' >"$T/s15/.config"
echo '#define CONFIG_MIPS 1' >"$T/s15/include/linux/autoconf.h"
: >"$T/s15/include/config/tangox.h"
ln -s asm-mips "$T/s15/include/asm"
before=$(sums "$T/s15")
h15 tree >"$T/out" 2>&1 || { cat "$T/out"; fail "tree stage on the fake 2.6.15"; }
for l in "compat: .config: removed (the tree arrived configured)" \
	 "compat: include/asm: removed" "compat: include/config: removed" \
	 "compat: include/linux/autoconf.h: removed" \
	 "compat: Makefile: the vendor's 'include \$(RUA_DIR)/...' removed" \
	 "compat: usr/Makefile: the vendor's gawk check removed" \
	 "compat: drivers/char/Kconfig: TANGOX_IR, TANGOX_FIP, TANGOX_SCARD default m only with TANGOX" \
	 "linux 2.6.15 (the 2.6.15 reference) + compat"; do
	expect_in "$T/out" "$l"
done
[ "$(sums "$T/s15")" = "$before" ] || fail "HISTORICAL_2615_SRC was modified"
c=$T/build/historical/linux-2.6.15
[ "$(git -C "$c" rev-parse HEAD)" = "$(git -C "$c" rev-parse compat)" ] || fail "2.6.15 got commits after compat"
for f in .config include/asm include/config/tangox.h include/linux/autoconf.h; do
	git -C "$c" cat-file -e "compat:$f" 2>/dev/null && fail "$f still in the 2.6.15 copy"
	[ ! -e "$c/$f" ] && [ ! -L "$c/$f" ] || fail "$f still in the 2.6.15 worktree"
done
git -C "$c" show compat:Makefile | grep -q 'RUA_DIR' && fail "the vendor include is left"
git -C "$c" show compat:usr/Makefile | grep -q gawk && fail "the gawk check is left"
[ "$(git -C "$c" show compat:usr/Makefile | tr '\n' '|')" = 'obj-y := initramfs_data.o|targets += initramfs_data.cpio.gz|' ] ||
	fail "usr/Makefile: more than the gawk check went"
[ "$(git -C "$c" show compat:drivers/char/Kconfig | grep -c '^	default m if TANGOX$')" = 3 ] ||
	fail "the TANGOX drivers are not TANGOX-only"
git -C "$c" show compat:drivers/char/Kconfig | grep -A2 '^config OTHER' | grep -qx '	default m' ||
	fail "another driver's default was changed"
[ "$(h15 kernels)" = historical-2.6.15 ] || fail "kernels of a 2.6.15 copy alone: $(h15 kernels)"
[ ! -e "$T/build/historical/before" ] || fail "a before worktree for 2.6.15"
expect_fail "$T/out" h15 config historical-before
expect_in "$T/out" "no prepared tree at $T/build/historical/linux "
[ "$(h15 hint historical-2.6.15)" = "make historical HISTORICAL_2615_SRC=/path/to/linux-2.6.15" ] ||
	fail "the hint of historical-2.6.15"
# 2.6.15's kconfig keeps a symbol's first line: the fragments' must replace
# allnoconfig's, not follow them
mkdir -p "$T/s15/scripts/kconfig" "$T/s15/arch/i386"
: >"$T/s15/scripts/kconfig/Makefile"
: >"$T/s15/arch/i386/Kconfig"
h15 tree >"$T/out" 2>&1 || { cat "$T/out"; fail "second tree stage on the fake 2.6.15"; }
sed -i 's/if (s in k) v\[s\] = \$0; next/if ((s in k) \&\& !(s in v)) v[s] = $0; next/; s/if (\$2 in k) v\[\$2\] = \$0/if ((\$2 in k) \&\& !(\$2 in v)) v[$2] = $0/' "$T/make"
grep -q '!(s in v)' "$T/make" || fail "the fake kconfig does not keep the first line"
echo CONFIG_SYSCTL >>"$T/known"
h15 config historical-2.6.15 >"$T/out" 2>&1 || { cat "$T/out"; fail "config of historical-2.6.15"; }
o=$T/build/kernel/historical-2.6.15/.config
for l in CONFIG_SMP=y CONFIG_NR_CPUS=8 CONFIG_SPLIT_PTLOCK_CPUS=4 CONFIG_SWAP=y; do
	grep -qxF "$l" "$o" || { cat "$o"; fail "historical-2.6.15: '$l' not in the .config"; }
done
# with both trees, the four kernels
hist tree "$T/src" >"$T/out" 2>&1 || { cat "$T/out"; fail "tree stage on 2.6.14 beside 2.6.15"; }
[ "$(BUILD=$T/build "$ROOT/historical/build.sh" kernels)" = "historical-before historical historical-off historical-2.6.15" ] ||
	fail "kernels of both trees: $(BUILD=$T/build "$ROOT/historical/build.sh" kernels)"
exit 0
