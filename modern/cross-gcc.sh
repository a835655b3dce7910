#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cross-gcc.sh TRIPLE: print the directory that holds TRIPLE-gcc, Debian's
# cross compiler for TRIPLE (s390x-linux-gnu, sparc64-linux-gnu), for
# lint.sh to put first in PATH.
#
# The compiler is unpacked under $BUILD/cross/TRIPLE, not installed:
# gcc-multilib, which the guest programs need (-m32 libgcc, static i386
# glibc for the mm selftests), Conflicts with every gcc-*-linux-gnu, so
# apt-get cannot install both.  apt-get download fetches the compiler's
# three packages (gcc-N-TRIPLE, cpp-N-TRIPLE, gcc-N-TRIPLE-base, N the
# host gcc's major version: the libraries cc1 links are the host gcc's);
# dpkg-deb -x unpacks them.  binutils-TRIPLE, which conflicts with
# nothing, is installed (make deps); gcc finds it through its tool
# directory, $BUILD/cross/TRIPLE/usr/TRIPLE -> /usr/TRIPLE.

set -eu

die() { echo "cross-gcc: error: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: cross-gcc.sh TRIPLE"
t=$1
case $t in *-linux-gnu) ;; *) die "$t: not a Debian triple (ARCH-linux-gnu)" ;; esac
: "${BUILD:?BUILD is not set}"
root=$BUILD/cross/$t
bin=$root/usr/bin

if [ -x "$bin/$t-gcc" ] && "$bin/$t-gcc" -dumpversion >/dev/null 2>&1; then
	echo "$bin"
	exit 0
fi
[ -x "/usr/bin/$t-as" ] || die "/usr/bin/$t-as missing: install binutils-$t (make deps)"
n=$(gcc -dumpversion | cut -d. -f1)
pkgs="gcc-$n-$t cpp-$n-$t gcc-$n-$t-base"
rm -rf "$root"
mkdir -p "$root/debs"
# apt-get download writes to the current directory, as _apt where it can
chmod 777 "$root/debs"
get() { (cd "$root/debs" && apt-get download $pkgs) >"$root/download.log" 2>&1; }
if ! get; then
	[ "$(id -u)" = 0 ] || die "cannot download $pkgs ($root/download.log); as root, run: apt-get update"
	apt-get update >>"$root/download.log" 2>&1 || die "apt-get update failed ($root/download.log)"
	get || die "cannot download $pkgs ($root/download.log)"
fi
for d in "$root"/debs/*.deb; do
	dpkg-deb -x "$d" "$root" || die "cannot unpack $d"
done
rm -rf "$root/debs"
ln -s "/usr/$t" "$root/usr/$t"
# the kernel's CROSS_COMPILE wants TRIPLE-gcc; the packages have TRIPLE-gcc-N
for f in "$bin/$t"-*-"$n"; do
	ln -sf "${f##*/}" "${f%-"$n"}"
done
"$bin/$t-gcc" -dumpversion >/dev/null 2>&1 || die "$bin/$t-gcc does not run"
echo "$bin"
