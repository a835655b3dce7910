#!/bin/sh
# docs/tests.md's tables of guest tests, host tests and cells are what
# docs/tables.py makes of the sources (each test's header comment, each cell
# file): a page that differs is named with its table, a test without its
# Exercises/Invariant paragraphs is an error; and no page names an issue
# number, which means nothing to a reader of the repository.
. "$(dirname "$0")/lib.sh"

"$ROOT/docs/tables.py" --check >"$T/out" 2>&1 || { cat "$T/out"; fail "docs/tests.md drifted: make docs"; }
# a changed row, a missing table
sed 's/^| `fault_zap` | /| `fault_zap` | changed /' "$ROOT/docs/tests.md" >"$T/row.md"
expect_fail "$T/out" "$ROOT/docs/tables.py" --check "$T/row.md"
expect_in "$T/out" "the guest tests table is not what the sources say"
grep -v 'make docs: cells' "$ROOT/docs/tests.md" >"$T/gone.md"
expect_fail "$T/out" "$ROOT/docs/tables.py" --check "$T/gone.md"
expect_in "$T/out" "has no '<!-- make docs: cells -->' line"
# no issue numbers in the docs or the code's comments
if grep -rnIiE '\bissues? #?[0-9]+\b' "$ROOT/README.md" "$ROOT/docs" "$ROOT/modern"/*.sh \
	"$ROOT/testvm" "$ROOT/historical/README.md" --exclude='*.patch' >"$T/issues"; then
	cat "$T/issues"
	fail "text names an issue number"
fi
exit 0
