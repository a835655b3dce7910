#!/bin/sh
# The project's own scripts pass their checkers: shellcheck -S warning on
# every shell script, pyflakes3 on every Python file.  Each checker is first
# shown to fail on a file with a fault it must see.
. "$(dirname "$0")/lib.sh"

cd "$ROOT" || fail "no $ROOT"
for c in shellcheck pyflakes3; do
	command -v $c >/dev/null || fail "$c not installed (make deps installs it)"
done

printf '#!/bin/sh\nrm -rf "$1/$2"\n[ $x = done ]\n' >"$T/bad.sh"
expect_fail "$T/out" shellcheck -S warning "$T/bad.sh"
printf 'import os\nprint(undefined_name)\n' >"$T/bad.py"
expect_fail "$T/out" pyflakes3 "$T/bad.py"

sh_files=$(git ls-files '*.sh' lib/stage .ci/run)
[ -n "$sh_files" ] || fail "no shell scripts found (not a git checkout?)"
# shellcheck disable=SC2086
shellcheck -S warning $sh_files >"$T/out" 2>&1 || { cat "$T/out"; fail "shellcheck"; }
# shellcheck disable=SC2046
pyflakes3 $(git ls-files '*.py') >"$T/out" 2>&1 || { cat "$T/out"; fail "pyflakes3"; }
exit 0
