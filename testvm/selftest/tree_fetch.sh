#!/bin/sh
# A base of another suite (7.3: trixie-backports) is fetched through a private
# apt list under BUILD: with an apt that reaches nothing, tree.sh says in one
# line that the base is left out and why, exits 0, and leaves no tree, no
# tarball and no half-written list; kbuild.sh, qemu-run.sh and lint.sh then
# skip that base's kernel, cell and lint saying so.  With an apt that serves
# the package, fetch.sh writes the private list from the machine's own
# mirror, extracts the tarball and imports it; the machine's apt state is
# never named.  (Fake apt-get/apt-cache in PATH; no network.)
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin"
# the machine's mirror, as apt-get indextargets reports it, for its release
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
cat >"$T/bin/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$T/apt.calls"
for a; do
	case \$a in
	indextargets) echo "$release deb http://mirror.invalid/debian/"; exit 0 ;;
	update)
		if [ -f "$T/reachable" ]; then echo "Hit:1 http://mirror.invalid/debian trixie-backports InRelease"; exit 0; fi
		echo "Err:1 http://mirror.invalid/debian trixie-backports InRelease"
		echo "W: Failed to fetch http://mirror.invalid/debian/dists/trixie-backports/InRelease  Could not resolve 'mirror.invalid'" >&2
		exit 0 ;;
	download) cp "$T/pkg.deb" ./linux-source-7.3_7.3.999-1_all.deb; exit 0 ;;
	esac
done
exit 0
EOF
cat >"$T/bin/apt-cache" <<EOF
#!/bin/sh
echo "Package: linux-source-7.3"
echo "Version: 7.3.999-1"
EOF
chmod +x "$T/bin/apt-get" "$T/bin/apt-cache"

fetch_tree() {
	PATH=$T/bin:$PATH BUILD=$T/build BASE=7.3 PATCHES=$T/patches "$ROOT/modern/tree.sh"
}

# unreachable: left out, in one line, nothing half-written
fetch_tree >"$T/out" 2>&1 || { cat "$T/out"; fail "tree.sh failed where the base should be left out"; }
expect_in "$T/out" "tree: base 7.3 left out: linux-source-7.3: http://mirror.invalid/debian trixie-backports cannot be reached: W: Failed to fetch"
[ "$(grep -c . "$T/out")" -eq 1 ] || { cat "$T/out"; fail "more than one line for a base left out"; }
[ -e "$T/build/linux-7.3" ] || [ -e "$T/build/src/linux-source-7.3.tar.xz" ] &&
	fail "a tree or tarball was left behind"
grep -q 'Dir::Etc::SourceList=/dev/null' "$T/apt.calls" &&
	grep -q "Dir::State::Lists=$T/build/apt/lists" "$T/apt.calls" ||
	{ cat "$T/apt.calls"; fail "apt was not run with the private list alone"; }
grep -qx "URIs: http://mirror.invalid/debian/" "$T/build/apt/sources/ptlock.sources" &&
	grep -qx "Suites: trixie-backports" "$T/build/apt/sources/ptlock.sources" ||
	fail "the private list does not name the machine's mirror and trixie-backports"

# the rest of the base skips, saying why
BUILD=$T/build "$ROOT/modern/kbuild.sh" config 7.3-debug-x86_64 >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "kbuild.sh failed on a base left out"; }
expect_in "$T/out" "note: 7.3-debug-x86_64 not built: base 7.3 left out (linux-source-7.3:"
BUILD=$T/build BASE=7.3 "$ROOT/modern/lint.sh" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "lint.sh failed on a base left out"; }
expect_in "$T/out" "lint: base 7.3 left out, skipped"
BUILD=$T/build TIMEOUT=5 INITRAMFS=/dev/null INITRAMFS_X86_64=/dev/null \
	"$ROOT/testvm/qemu-run.sh" 7.3-x86_64-on-smp4 "$T/runs/7.3-x86_64-on-smp4" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "qemu-run.sh failed on a base left out"; }
expect_in "$T/runs/7.3-x86_64-on-smp4/skip" "no 7.3 kernel: base left out (linux-source-7.3:"

# reachable: the tarball extracted from the package and imported
fake_source "$T/src.tar.xz" 7 3
mkdir -p "$T/deb/usr/src" "$T/deb/DEBIAN"
mv "$T/src.tar.xz" "$T/deb/usr/src/linux-source-7.3.tar.xz"
printf 'Package: linux-source-7.3\nVersion: 7.3.999-1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' \
	>"$T/deb/DEBIAN/control"
dpkg-deb -b -Zxz "$T/deb" "$T/pkg.deb" >/dev/null
cp "$T/deb/usr/src/linux-source-7.3.tar.xz" "$T/src.tar.xz"
series "$T/patches"
: >"$T/reachable"
fetch_tree >"$T/out" 2>&1 || { cat "$T/out"; fail "tree.sh failed with the package reachable"; }
expect_in "$T/out" "fetch: linux-source-7.3 7.3.999-1 from http://mirror.invalid/debian trixie-backports"
expect_in "$T/out" "applied 2 patches"
[ ! -e "$T/build/tree-7.3.unavailable" ] || fail "the left-out marker outlived a fetch"
git -C "$T/build/linux-7.3" log -1 --format=%s debian-7.3.999 | grep -q "linux-source 7.3.999-1" ||
	fail "the import does not name the fetched package's version"
# a second run fetches nothing
: >"$T/apt.calls"
fetch_tree >"$T/out" 2>&1 || { cat "$T/out"; fail "a second run failed"; }
[ ! -s "$T/apt.calls" ] || { cat "$T/apt.calls"; fail "a second run ran apt again"; }
expect_in "$T/out" "series up to date"
exit 0
