#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the user's own test programs (make EXTRA=...) and pack-list them.

extra.py check [ARCH...]
    Check EXTRA and RUN, and that EXTRA has programs for each ARCH (the
    arches of the cells to boot); silent when they are fine.
extra.py cpio ARCH BASE_LIST GEN_INIT_CPIO OUT
    Check, then write the initramfs OUT of one arch: the gen_init_cpio list
    BASE_LIST (ours) plus EXTRA's programs of that arch at /extra/PROG and
    their command lines in /etc/extra.  The programs are copied to OUT.d/
    first, the list written to OUT.list.

  EXTRA  a static ELF program, i386 or x86_64, or a directory of them: its
         regular files, and those of its subdirectories i386/ and x86_64/
         (a program there must be of that arch).  Each program runs in the
         cells of its arch; one name in both arches is one test on both.
  RUN    'PROG ARG...': the command line of one of them; the others, and
         PROG without RUN, run with no arguments

The guest's init runs each line of /etc/extra after its own tests, as the
test extra.PROG (testvm/guest/init.c).  Anything that would not run there
is refused here, naming the file, before a guest boots: no such path, not
an ELF file, neither i386 nor x86_64, not an executable, dynamically linked.
"""
import os
import re
import shutil
import struct
import subprocess
import sys

NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,39}$")


def init_define(name):
    """A #define of the guest runner (init.c): its limits are its own."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "guest", "init.c")) as f:
        return int(re.search(r"^#define %s\s+(\d+)" % name, f.read(), re.M).group(1))


MAX_PROGS = init_define("MAX_EXTRA")
MAX_ARGS = init_define("MAX_ARGS")	# the program's name included
MAX_SIZE = 32 << 20	# the initramfs lives in the guest's RAM
PT_INTERP = 3
# ELF class and machine of each guest arch
ARCHES = {(1, 3): "i386", (2, 62): "x86_64"}


class Bad(Exception):
    pass


def elf_arch(path):
    """(arch, None) for a static i386 or x86_64 executable, else (None, why)."""
    with open(path, "rb") as f:
        head = f.read(64)
        if len(head) < 52 or head[:4] != b"\x7fELF":
            what = head[:2] == b"#!" and "a script" or "not an ELF file"
            return None, what + ": a static i386 or x86_64 program is needed"
        if head[5] != 1:
            return None, "a big-endian ELF file, not i386 or x86_64"
        e_type, e_machine = struct.unpack_from("<HH", head, 16)
        arch = ARCHES.get((head[4], e_machine))
        if not arch:
            return None, "ELF class %d, machine %d: neither i386 (1, 3) nor x86_64 (2, 62)" % (
                head[4], e_machine)
        if e_type not in (2, 3):
            return None, "ELF type %d: not an executable (an object file?)" % e_type
        if arch == "i386":
            phoff, = struct.unpack_from("<I", head, 28)
            phentsize, phnum = struct.unpack_from("<HH", head, 42)
            fmt, size = "<II", 32		# p_type, p_offset
        else:
            if len(head) < 64:
                return None, "truncated ELF header"
            phoff, = struct.unpack_from("<Q", head, 32)
            phentsize, phnum = struct.unpack_from("<HH", head, 54)
            fmt, size = "<I4xQ", 56
        if phnum == 0 or phentsize < size:
            return None, "no program headers: not an executable"
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = f.read(size)
            if len(ph) < size:
                return None, "truncated program headers"
            p_type, p_offset = struct.unpack_from(fmt, ph, 0)
            if p_type == PT_INTERP:
                f.seek(p_offset)
                interp = f.read(64).split(b"\0")[0].decode(errors="replace")
                return None, "dynamically linked (needs %s): link it with -static" % interp
    return arch, None


def program_paths(extra):
    """EXTRA's files, [(path, the arch its subdirectory names or None)]."""
    if not os.path.exists(extra):
        raise Bad("EXTRA=%s: no such file or directory" % extra)
    if os.path.isfile(extra):
        return [(extra, None)]
    if not os.path.isdir(extra):
        raise Bad("EXTRA=%s: not a file or a directory" % extra)
    paths = []
    for sub, want in [("", None)] + [(a, a) for a in sorted(ARCHES.values())]:
        d = os.path.join(extra, sub)
        if sub and not os.path.isdir(d):
            continue
        for n in sorted(os.listdir(d)):
            if os.path.isfile(os.path.join(d, n)):
                paths.append((os.path.join(d, n), want))
    if not paths:
        raise Bad("EXTRA=%s: no files in this directory" % extra)
    return paths


def programs(extra):
    """EXTRA's programs, [(name, path, arch)], checked."""
    paths = program_paths(extra)
    progs, seen = [], {}
    for p, want in paths:
        name = os.path.basename(p)
        if not NAME.match(name):
            raise Bad("%s: name not usable as a test name (letters, digits, _.+-, "
                      "at most 40)" % p)
        if os.path.getsize(p) > MAX_SIZE:
            raise Bad("%s: larger than %d MiB" % (p, MAX_SIZE >> 20))
        try:
            arch, why = elf_arch(p)
        except OSError as e:
            raise Bad("%s: %s" % (p, e.strerror))
        if why:
            raise Bad("%s: %s" % (p, why))
        if want and arch != want:
            raise Bad("%s: an %s program in the directory %s/" % (p, arch, want))
        if (name, arch) in seen:
            raise Bad("%s: a second %s program named %s (%s)" % (p, arch, name, seen[name, arch]))
        seen[name, arch] = p
        progs.append((name, p, arch))
    for arch in ARCHES.values():
        n = sum(1 for q in progs if q[2] == arch)
        if n > MAX_PROGS:
            raise Bad("EXTRA=%s: %d %s programs, at most %d" % (extra, n, arch, MAX_PROGS))
    return progs


def command_lines(progs, run):
    """The /etc/extra lines: RUN for its program, the bare name for the rest."""
    lines = {name: name for name, _p, _a in progs}
    if run.strip():
        if any(c < " " or c > "~" for c in run):
            raise Bad("RUN='%s': only printable ASCII on one line" % run)
        words = run.split()
        if words[0] not in lines:
            raise Bad("RUN='%s': '%s' is not one of EXTRA's programs (%s)" %
                      (run, words[0], " ".join(sorted(lines))))
        if len(words) > MAX_ARGS:
            raise Bad("RUN='%s': more than %d words" % (run, MAX_ARGS))
        lines[words[0]] = " ".join(words)
    return [lines[name] for name, _p, _a in progs]


def write_cpio(progs, lines, base, gen, out):
    work = out + ".d"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(base) as f:
        lst = f.read()
    lst += "dir /extra 0755 0 0\n"
    for name, path, _ in progs:
        shutil.copyfile(path, os.path.join(work, name))
        lst += "file /extra/%s %s 0755 0 0\n" % (name, os.path.join(work, name))
    with open(os.path.join(work, "etc-extra"), "w") as f:
        f.write("".join(l + "\n" for l in lines))
    lst += "file /etc/extra %s 0644 0 0\n" % os.path.join(work, "etc-extra")
    with open(out + ".list", "w") as f:
        f.write(lst)
    with open(out + ".tmp", "wb") as f:
        subprocess.run([gen, out + ".list"], stdout=f, check=True)
    os.replace(out + ".tmp", out)


def main():
    args = sys.argv[1:]
    if (args[:1] not in (["check"], ["cpio"]) or (args[0] == "cpio" and len(args) != 5) or
            any(a not in ARCHES.values() for a in args[1:2 if args[0] == "cpio" else None])):
        print(__doc__, file=sys.stderr)
        return 2
    arches = args[1:] if args[0] == "check" else args[1:2]
    extra = os.environ.get("EXTRA", "")
    run = os.environ.get("RUN", "")
    try:
        if not extra:
            raise Bad("RUN='%s' given without EXTRA=program or directory" % run)
        progs = programs(extra)
        command_lines(progs, run)
        for arch in arches:
            if not any(a == arch for _n, _p, a in progs):
                raise Bad("EXTRA=%s: no %s program, and a cell to boot is %s: add one "
                          "(static, %s) or leave those cells out of CELLS" %
                          (extra, arch, arch, "-m32" if arch == "i386" else "-m64"))
        if args[0] == "cpio":	# RUN is for its program's arches
            progs = [q for q in progs if q[2] == arches[0]]
            if not any(n == (run.split() or [""])[0] for n, _p, _a in progs):
                run = ""
        lines = command_lines(progs, run)
    except Bad as e:
        print("extra: error: %s" % e, file=sys.stderr)
        return 1
    if args[0] == "cpio":
        write_cpio(progs, lines, *[os.path.abspath(a) for a in args[2:]])
        print("extra: %s: %s" % (args[4], "; ".join(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
