#!/bin/sh
# testvm/cell.py, the one reader of cell files: a good cell reads back as
# written; a cell without a key, with an unknown key, a line that is not
# KEY=value or a word where a number goes is refused, naming the file and
# line; make's table has every cell of testvm/cells/, with its base.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/cells"
good='KERNEL=6.12-debug\nSMP=4\nMEM=256\nCPU=qemu32\nSWAP_MB=64\nAPPEND=split_ptlocks=on a=b\n'
# shellcheck disable=SC2059  # the cells are printf formats on purpose
{
	printf "# a comment\n$good" >"$T/cells/good"
	printf "${good}MATRIX=full\nMAXCPUS=8\n" >"$T/cells/full"
	printf 'KERNEL=debug\nSMP=1\n' >"$T/cells/short"
	printf "${good}COLOUR=blue\n" >"$T/cells/unknown"
	printf "${good}just words\n" >"$T/cells/words"
	printf "${good}MEM=lots\n" >"$T/cells/nan"
}
python3 - "$ROOT/testvm" "$T/cells" <<'PY' >"$T/out" 2>&1 || { cat "$T/out"; fail "cell.py"; }
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import cell
cell.CELLS = sys.argv[2]
c = cell.load("good")
assert c["KERNEL"] == "6.12-debug" and c["APPEND"] == "split_ptlocks=on a=b", c
assert "MATRIX" not in c
assert cell.load("full")["MATRIX"] == "full"
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
[ "$(wc -l <"$T/table")" = "$(ls "$ROOT/testvm/cells" | wc -l)" ] || fail "table misses cells"
expect_in "$T/table" "6.12-pae-on-smp4=6.12-debug-pae=-=6.12=i386"
expect_in "$T/table" "historical-smp4=historical=-=2.6.14=i386"
expect_in "$T/table" "x86_64-on-smp4=debug-x86_64=full=6.1=x86_64"
expect_fail "$T/out" "$ROOT/testvm/qemu-run.sh" no-such-cell "$T/run"
expect_in "$T/out" "no cell 'no-such-cell'"
exit 0
