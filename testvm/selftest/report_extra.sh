#!/bin/sh
# needs: kernels (the built kernels and initramfs; not in make selftest-host)
# Bring your own test, end to end on the perf kernel: four static programs
# built here with the guest's flags go into the initramfs (testvm/extra.py)
# and run after ours (none of ours: ptltest.only=none) as extra.PROG.  One
# prints 60 known lines and exits 0: ok, 50 lines echoed, the digest of all
# of them the one computed here.  One gets RUN's arguments and exits 3, one
# dies of SIGSEGV, one never ends (ptltest.timeout=3): each not ok, saying
# why; and the report names the three as ok nowhere.  Then the first built
# for x86_64 too, in EXTRA's x86_64/: the x86_64 initramfs holds it alone,
# and an x86_64 cell runs it to the same digest.
. "$(dirname "$0")/lib.sh"

cflags=$(make -s -C "$ROOT" BUILD="$BUILD" guest-cflags) || fail "make guest-cflags"
mkdir -p "$T/progs"
cat >"$T/hello.c" <<'C'
#include <stdio.h>
int main(void)
{
	int i;

	for (i = 1; i <= 60; i++)
		printf("hello %d from a user program\n", i);
	return 0;
}
C
cat >"$T/three.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	return 3;
}
C
cat >"$T/segv.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
	return *(volatile int *)(long)(argc - 1);
}
C
cat >"$T/hang.c" <<'C'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	printf("sleeping\n");
	for (;;)
		sleep(100);
}
C
for p in hello three segv hang; do
	# shellcheck disable=SC2086
	gcc $cflags -o "$T/progs/$p" "$T/$p.c" -lgcc || fail "cannot build $p"
done
EXTRA=$T/progs RUN='three a b' "$ROOT/testvm/extra.py" cpio i386 "$BUILD/guest/initramfs.list" \
	"$BUILD/guest/gen_init_cpio" "$T/initramfs-extra.cpio" >"$T/cpio.out" 2>&1 ||
	{ cat "$T/cpio.out"; fail "extra.py cpio"; }

INITRAMFS=$T/initramfs-extra.cpio expect_fail "$T/out" boot_perf 'ptltest.only=none ptltest.timeout=3'
con=$T/runs/perf-smp2/console.log
digest=$(python3 -c '
d = 2166136261
for b in "".join("hello %d from a user program\n" % i for i in range(1, 61)).encode():
    d = (d ^ b) * 16777619 & 0xffffffff
print("%08x" % d)')
expect_in "$con" "1..5"
expect_in "$con" "# extra.hang: out: sleeping"
expect_in "$con" "# extra.hang: exit=timeout"
expect_in "$con" "# extra.hang: FAIL timeout after 3 s"
expect_in "$con" "not ok 2 extra.hang"
expect_in "$con" "# extra.hello: out: hello 50 from a user program"
! grep -q "hello 51 from" "$con" || fail "more than 50 lines echoed"
expect_in "$con" "# extra.hello: out: (10 more lines not shown)"
expect_in "$con" "# extra.hello: exit=0 bytes=1731 lines=60 digest=$digest"
expect_in "$con" "ok 3 extra.hello"
expect_in "$con" "# extra.segv: exit=139 "
expect_in "$con" "# extra.segv: FAIL killed by signal 11"
expect_in "$con" "not ok 4 extra.segv"
expect_in "$con" "# extra.three: out: argv[0]=three"
expect_in "$con" "# extra.three: out: argv[2]=b"
expect_in "$con" "# extra.three: exit=3 "
expect_in "$con" "# extra.three: FAIL exit status 3"
expect_in "$con" "not ok 5 extra.three"
expect_in "$con" "# ptltest: done"
grep -q '^ok [0-9]* fault_' "$con" && fail "ptltest.only=none ran our tests"
expect_in "$T/out" "extra.hello         ok         $digest"

expect_fail "$T/report.out" env BUILD="$T" "$ROOT/testvm/report.py"
expect_in "$T/report.out" "report: extra.three fails, ok in no cell"
expect_in "$T/report.out" "report: 0 difference(s), 3 test(s) ok nowhere, 0 broken cell(s)"
expect_in "$T/report/report.md" "| extra.hello | ok | \`$digest\` |"

# x86_64: hello built again for it, in EXTRA's x86_64/ (one test on both
# arches), booted in an x86_64 cell of the debug kernel; the i386 programs
# stay out of its initramfs
mkdir -p "$T/progs/x86_64"
cflags64=$(make -s -C "$ROOT" BUILD="$BUILD" GUEST_ARCH=x86_64 guest-cflags) || fail "make guest-cflags (x86_64)"
# shellcheck disable=SC2086
gcc $cflags64 -o "$T/progs/x86_64/hello" "$T/hello.c" -lgcc || fail "cannot build hello for x86_64"
EXTRA=$T/progs "$ROOT/testvm/extra.py" check i386 x86_64 >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "EXTRA with i386 and x86_64 programs refused"; }
EXTRA=$T/progs RUN='three a b' "$ROOT/testvm/extra.py" cpio x86_64 "$BUILD/guest-x86_64/initramfs.list" \
	"$BUILD/guest-x86_64/gen_init_cpio" "$T/initramfs-extra-x86_64.cpio" >"$T/cpio.out" 2>&1 ||
	{ cat "$T/cpio.out"; fail "extra.py cpio x86_64"; }
expect_in "$T/cpio.out" "initramfs-extra-x86_64.cpio: hello"
grep -q "three" "$T/cpio.out" && { cat "$T/cpio.out"; fail "an i386 program went into the x86_64 initramfs"; }
INITRAMFS_X86_64=$T/initramfs-extra-x86_64.cpio boot_cell x86_64-on-smp4 'ptltest.only=none' >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "the x86_64 program failed"; }
con=$T/runs/x86_64-on-smp4/console.log
expect_in "$con" "1..2"
expect_in "$con" "# extra.hello: exit=0 bytes=1731 lines=60 digest=$digest"
expect_in "$con" "ok 2 extra.hello"
exit 0
