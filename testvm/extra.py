#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the user's own test programs (make EXTRA=...) and pack-list them.

extra.py check
    Check EXTRA and RUN; silent when they are fine.
extra.py cpio BASE_LIST GEN_INIT_CPIO OUT
    Check, then write the initramfs OUT: the gen_init_cpio list BASE_LIST
    (ours) plus the programs at /extra/PROG and their command lines in
    /etc/extra.  The programs are copied to OUT.d/ first, the list written
    to OUT.list.

  EXTRA  a static i386 ELF program, or a directory of them (its regular
         files; subdirectories are not looked into)
  RUN    'PROG ARG...': the command line of one of them; the others, and
         PROG without RUN, run with no arguments

The guest's init runs each line of /etc/extra after its own tests, as the
test extra.PROG (testvm/guest/init.c).  Anything that would not run there
is refused here, naming the file, before a guest boots: no such path, not
an ELF file, not 32-bit, not i386, not an executable, dynamically linked.
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


class Bad(Exception):
    pass


def elf_problem(path):
    """Why path is not a static i386 executable, or None."""
    with open(path, "rb") as f:
        head = f.read(52)
        if len(head) < 52 or head[:4] != b"\x7fELF":
            what = head[:2] == b"#!" and "a script" or "not an ELF file"
            return what + ": a static i386 program is needed"
        if head[4] != 1:
            return "a %s ELF file, not 32-bit (build with -m32)" % (
                "64-bit" if head[4] == 2 else "class %d" % head[4])
        if head[5] != 1:
            return "a big-endian ELF file, not i386"
        e_type, e_machine = struct.unpack_from("<HH", head, 16)
        if e_machine != 3:
            return "ELF machine %d, not i386 (3)" % e_machine
        if e_type not in (2, 3):
            return "ELF type %d: not an executable (an object file?)" % e_type
        phoff, = struct.unpack_from("<I", head, 28)
        phentsize, phnum = struct.unpack_from("<HH", head, 42)
        if phnum == 0 or phentsize < 32:
            return "no program headers: not an executable"
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = f.read(32)
            if len(ph) < 32:
                return "truncated program headers"
            p_type, p_offset = struct.unpack_from("<II", ph, 0)
            if p_type == PT_INTERP:
                f.seek(p_offset)
                interp = f.read(64).split(b"\0")[0].decode(errors="replace")
                return "dynamically linked (needs %s): link it with -static" % interp
    return None


def programs(extra):
    """EXTRA's programs, [(name, path)], checked."""
    if not os.path.exists(extra):
        raise Bad("EXTRA=%s: no such file or directory" % extra)
    if os.path.isdir(extra):
        paths = [os.path.join(extra, n) for n in sorted(os.listdir(extra))]
        paths = [p for p in paths if os.path.isfile(p)]
        if not paths:
            raise Bad("EXTRA=%s: no files in this directory" % extra)
    elif os.path.isfile(extra):
        paths = [extra]
    else:
        raise Bad("EXTRA=%s: not a file or a directory" % extra)
    if len(paths) > MAX_PROGS:
        raise Bad("EXTRA=%s: %d files, at most %d programs" % (extra, len(paths), MAX_PROGS))
    progs = []
    for p in paths:
        name = os.path.basename(p)
        if not NAME.match(name):
            raise Bad("%s: name not usable as a test name (letters, digits, _.+-, "
                      "at most 40)" % p)
        if os.path.getsize(p) > MAX_SIZE:
            raise Bad("%s: larger than %d MiB" % (p, MAX_SIZE >> 20))
        try:
            why = elf_problem(p)
        except OSError as e:
            raise Bad("%s: %s" % (p, e.strerror))
        if why:
            raise Bad("%s: %s" % (p, why))
        progs.append((name, p))
    return progs


def command_lines(progs, run):
    """The /etc/extra lines: RUN for its program, the bare name for the rest."""
    lines = {name: name for name, _ in progs}
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
    return [lines[name] for name, _ in progs]


def write_cpio(progs, lines, base, gen, out):
    work = out + ".d"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(base) as f:
        lst = f.read()
    lst += "dir /extra 0755 0 0\n"
    for name, path in progs:
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
    if args[:1] not in (["check"], ["cpio"]) or len(args) != (4 if args[0] == "cpio" else 1):
        print(__doc__, file=sys.stderr)
        return 2
    extra = os.environ.get("EXTRA", "")
    run = os.environ.get("RUN", "")
    try:
        if not extra:
            raise Bad("RUN='%s' given without EXTRA=program or directory" % run)
        progs = programs(extra)
        lines = command_lines(progs, run)
    except Bad as e:
        print("extra: error: %s" % e, file=sys.stderr)
        return 1
    if args[0] == "cpio":
        write_cpio(progs, lines, *[os.path.abspath(a) for a in args[1:]])
        print("extra: %s: %s" % (args[3], "; ".join(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
