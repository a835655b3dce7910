#!/bin/sh
# testvm/cell.py, the one reader of cell files: a good cell reads back as
# written; a cell without a key, with an unknown key, a line that is not
# KEY=value or a word where a number goes is refused, naming the file and
# line; a file with BASES gives one cell per base; make's table has every
# cell of testvm/cells/, with its base; and a third base in modern/base.sh
# is one entry: a copy of the tree with one more base lists its cells, and
# make plans its kernels (a dry run).
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/cells"
good='KERNEL=6.12-debug\nSMP=4\nMEM=256\nCPU=qemu32\nSWAP_MB=64\nAPPEND=split_ptlocks=on a=b\n'
# shellcheck disable=SC2059  # the cells are printf formats on purpose
{
	printf "# a comment\n$good" >"$T/cells/good"
	printf "${good}MATRIX=full\nMAXCPUS=8\nCHECK_ONLY=boot_log,ptlock_mode\n" >"$T/cells/full"
	printf 'KERNEL=debug\nSMP=1\n' >"$T/cells/short"
	printf "${good}COLOUR=blue\n" >"$T/cells/unknown"
	printf "${good}just words\n" >"$T/cells/words"
	printf "${good}MEM=lots\n" >"$T/cells/nan"
	printf "${good}BASES=all\nMATRIX=6.12\nAPPEND_6.12=x=1\n" | sed 's/=6.12-debug/=debug/' >"$T/cells/both"
	printf "${good}BASES=6.1 7.0\n" >"$T/cells/nobase"
}
python3 - "$ROOT/testvm" "$T/cells" "$BASES" <<'PY' >"$T/out" 2>&1 || { cat "$T/out"; fail "cell.py"; }
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import cell
cell.CELLS = sys.argv[2]
c = cell.load("good")
assert c["KERNEL"] == "6.12-debug" and c["APPEND"] == "split_ptlocks=on a=b", c
assert "MATRIX" not in c
assert cell.load("full")["MATRIX"] == "full"
assert cell.load("full")["CHECK_ONLY"] == "boot_log,ptlock_mode"
both = cell.expand("both", cell.read_file(sys.argv[2] + "/both"))
assert sorted(both) == sorted(["both"] + [b + "-both" for b in sys.argv[3].split()[1:]]), both
assert both["both"][1]["KERNEL"] == "debug" and "MATRIX" not in both["both"][1], both
b = both["6.12-both"][1]
assert b["KERNEL"] == "6.12-debug" and b["MATRIX"] == "full" and b["APPEND"].endswith(" x=1"), b
try:
    cell.expand("nobase", cell.read_file(sys.argv[2] + "/nobase"))
except cell.CellError as e:
    assert "no base '7.0'" in str(e), str(e)
else:
    raise AssertionError("a file naming an unknown base was read")
for name, words in (("short", "no MEM, CPU, SWAP_MB, APPEND"),
                    ("unknown", "short/unknown:7: 'COLOUR=blue' is not KEY=value"),
                    ("words", "words:7: 'just words' is not KEY=value"),
                    ("nan", "nan:7: MEM wants a number, not 'lots'"),
                    ("missing", "no cell 'missing'")):
    try:
        cell.load(name)
    except cell.CellError as e:
        assert words.split("/")[-1] in str(e), (name, str(e))
    else:
        raise AssertionError("%s was read" % name)
assert cell.bases(["6.12-stock-debug-pae", "debug", "historical", "6.12-debug-x86_64"]) == [
    ("6.12", "i386"), ("6.1", "i386"), ("2.6.14", "i386"), ("6.12", "x86_64")]
PY
"$ROOT/testvm/cell.py" table >"$T/table" || fail "cell.py table"
for f in "$ROOT"/testvm/cells/*; do
	f=${f##*/}
	grep -q -e "^$f=" -e "^[0-9.]*-$f=" "$T/table" || fail "the table has no cell of $f"
done
expect_in "$T/table" "6.12-pae-on-smp4=6.12-debug-pae=full=6.12=i386"
expect_in "$T/table" "historical-smp4=historical=-=2.6.14=i386"
expect_in "$T/table" "x86_64-on-smp4=debug-x86_64=-=6.1=x86_64"
expect_in "$T/table" "x86_64-stock-smp4=stock-debug-x86_64=full=6.1=x86_64"
expect_in "$T/table" "6.12-x86_64-stock-smp4=6.12-stock-debug-x86_64=-=6.12=x86_64"

# a third base: one word in modern/base.sh's BASES, in a copy of the tree
mkdir -p "$T/tree"
git -C "$ROOT" archive HEAD | tar -x -C "$T/tree"
rm -rf "$T/tree/testvm/cells"	# the working tree's, committed or not
cp -r "$ROOT/testvm/cells" "$ROOT/testvm/cell.py" "$T/tree/testvm/"
cp "$ROOT/modern/base.sh" "$T/tree/modern/"
sed -i "s/^BASES=\"$BASES\"\$/BASES=\"$BASES 6.99\"/" "$T/tree/modern/base.sh"
grep -q "^BASES=\"$BASES 6.99\"\$" "$T/tree/modern/base.sh" || fail "modern/base.sh: no BASES line to add to"
"$T/tree/testvm/cell.py" table | tr ' ' '\n' >"$T/table3" || fail "cell.py table with a third base"
expect_in "$T/table3" "6.99-pae-on-smp4=6.99-debug-pae=-=6.99=i386"
expect_in "$T/table3" "6.99-debug-on-smp4=6.99-debug=-=6.99=i386"
expect_in "$T/table3" "6.99-x86_64-on-smp4=6.99-debug-x86_64=-=6.99=x86_64"
expect_in "$T/table3" "6.12-pae-on-smp4=6.12-debug-pae=full=6.12=i386"
make -n -s -C "$T/tree" BUILD="$T/build3" BASE=6.99 kernels >"$T/make3" 2>&1 ||
	{ cat "$T/make3"; fail "make -n BASE=6.99 kernels"; }
expect_in "$T/make3" "kbuild.sh build 6.99-debug-pae"
expect_in "$T/make3" "kbuild.sh build 6.99-stock-debug-pae"
expect_in "$T/make3" "kbuild.sh build 6.99-debug-x86_64"
expect_fail "$T/out" "$ROOT/testvm/qemu-run.sh" no-such-cell "$T/run"
expect_in "$T/out" "no cell 'no-such-cell'"
exit 0
