#!/bin/sh
# needs: guest (the guest headers, from a prepared tree; not in make selftest-host)
# Bad EXTRA= and RUN= values stop before anything is built or booted, each
# with an error naming the file: no such path, an empty directory, a shell
# script, a dynamically linked x86_64 or i386 program, an i386 one in the
# directory x86_64/, a RUN naming no program of EXTRA's, RUN without EXTRA,
# no program for an arch of the cells to boot.  A good program passes.
# And the report fails clearly without gnuplot.
. "$(dirname "$0")/lib.sh"

check() {	# EXTRA RUN: testvm/extra.py check must fail; output in $T/out
	expect_fail "$T/out" env EXTRA="$1" RUN="$2" "$ROOT/testvm/extra.py" check
}

check "$T/nothing" ""
expect_in "$T/out" "extra: error: EXTRA=$T/nothing: no such file or directory"
mkdir "$T/empty"
check "$T/empty" ""
expect_in "$T/out" "extra: error: EXTRA=$T/empty: no files in this directory"

mkdir "$T/progs"
printf '#!/bin/sh\necho hello\n' >"$T/progs/hello.sh"
check "$T/progs" ""
expect_in "$T/out" "extra: error: $T/progs/hello.sh: a script: a static i386 or x86_64 program is needed"
rm "$T/progs/hello.sh"

cp "$(command -v gcc)" "$T/progs/true64"
check "$T/progs/true64" ""
expect_in "$T/out" "extra: error: $T/progs/true64: dynamically linked (needs /lib64/ld-linux-x86-64.so.2): link it with -static"
rm "$T/progs/true64"

printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' >"$T/hi.c"
gcc -m32 -o "$T/progs/dyn" "$T/hi.c" || fail "gcc -m32 (gcc-multilib) cannot build"
check "$T/progs" ""
expect_in "$T/out" "extra: error: $T/progs/dyn: dynamically linked (needs /lib/ld-linux.so.2): link it with -static"
rm "$T/progs/dyn"

# shellcheck disable=SC2046
gcc $(make -s -C "$ROOT" BUILD="$BUILD" guest-cflags) -o "$T/progs/hi" "$T/hi.c" -lgcc ||
	fail "cannot build hi with the guest's flags"
EXTRA=$T/progs RUN='hi x y' "$ROOT/testvm/extra.py" check >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "a static i386 program was refused"; }
expect_fail "$T/out" env EXTRA="$T/progs" "$ROOT/testvm/extra.py" check i386 x86_64
expect_in "$T/out" "extra: error: EXTRA=$T/progs: no x86_64 program, and a cell to boot is x86_64"
mkdir "$T/progs/x86_64"
cp "$T/progs/hi" "$T/progs/x86_64/hi"
check "$T/progs" ""
expect_in "$T/out" "extra: error: $T/progs/x86_64/hi: an i386 program in the directory x86_64/"
rm -r "$T/progs/x86_64"
check "$T/progs" "hello x"
expect_in "$T/out" "extra: error: RUN='hello x': 'hello' is not one of EXTRA's programs (hi)"
check "" "hi"
expect_in "$T/out" "extra: error: RUN='hi' given without EXTRA=program or directory"

# through make (run and report make extra-check first): nothing is written
expect_fail "$T/out" make -s -C "$ROOT" BUILD="$T/build" EXTRA="$T/nothing" extra-check
expect_in "$T/out" "extra: error: EXTRA=$T/nothing: no such file or directory"
[ ! -e "$T/build" ] || fail "make extra-check wrote $T/build"

# the report without gnuplot
mkdir "$T/bin"
ln -s "$(python3 -c "import sys; print(sys.executable)")" "$T/bin/python3"
expect_fail "$T/out" env PATH="$T/bin" BUILD="$T" "$ROOT/testvm/report.py"
expect_in "$T/out" "report: error: gnuplot not found (apt-get install gnuplot-nox)"
exit 0
