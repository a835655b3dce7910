// SPDX-License-Identifier: GPL-2.0
/*
 * init - the test runner, /init of the guest's initramfs.
 *
 * Mounts /proc and /sys, makes its own device nodes, puts a swap header on the swap
 * disk (the first of /dev/sda, /dev/hda that opens) and swaps on it, then
 * runs each test program listed in /etc/tests (one name a line, programs in
 * /bin; written by testvm/guest.mk) in a child under a time bound and prints KTAP on
 * the console.  After boot and after every test it reads and clears the
 * kernel log (syslog(2)); a line from klog_bad[] fails that test.  The boot
 * log is kept in BOOT_LOG for the tests that check what the kernel said.
 * Then the user's own programs, if the initramfs has them (make EXTRA=...:
 * /etc/extra lists their command lines, the programs are in /extra), each as
 * a test "extra.PROG" (run_extra()).  Then the kernel's own mm selftests, if
 * the initramfs has them (make mm-selftests: /etc/mm-selftests lists them,
 * "SET NAME PROG ARG..." or "skip NAME REASON", one blank between words, the
 * programs are in /kselftest), each as a test "mm.NAME", after mm_setup().
 * Then it reboots, which with QEMU's -no-reboot ends the guest.
 *
 * Kernel command line (read from /proc/cmdline, works on 2.6.14 too):
 *   ptltest.only=a,b     run only these tests (the user's programs always
 *                        run: ptltest.only=none runs only them)
 *   ptltest.timeout=S    per-test bound in seconds (default 300)
 *   ptltest.bench=NAME   instead of the tests, run /bin/NAME T once for each
 *                        T of ptlbench.threads=T1,T2,... (default 1)
 *   ptltest.mm=SET       the mm selftests of SET (a word of the list's first
 *                        column; "full": all of them; default: none)
 *
 * Test: boot_log
 * Exercises: boot
 * Invariant: kernel log after boot has no line from `testvm/klog-bad.txt`
 */
#include "harness.h"

#define MAX_TESTS	40
#define MAX_EXTRA	16
#define MAX_MM		48
#define MM_TAIL		30	/* last lines of a selftest's output echoed */
#define NR_HUGEPAGES	"/proc/sys/vm/nr_hugepages"
#define MAX_ARGS	16
#define EXTRA_LINES	50	/* lines of a user program's output echoed */
#define LINUX_REBOOT_CMD_RESTART	0x01234567
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CONSOLE_LEVEL	8

static char klog[1 << 17];

/*
 * Read and clear the kernel log; print and count the lines that mean a bug,
 * each with the KLOG_CONTEXT lines after it (its trace), KLOG_SHOWN lines
 * at most.  With save, keep a copy there for the tests (the boot log:
 * /tmp/boot.log).
 */
#define KLOG_CONTEXT	30
#define KLOG_SHOWN	120

/* a line of klog_bad[] and of none of klog_not_bad[] (testvm/klog-bad.txt) */
static int klog_is_bad(const char *line)
{
	int i, bad = 0;

	for (i = 0; klog_bad[i] && !bad; i++)
		bad = strstr(line, klog_bad[i]) != NULL;
	for (i = 0; klog_not_bad[i] && bad; i++)
		bad = strstr(line, klog_not_bad[i]) == NULL;
	return bad;
}

static int klog_check(const char *save)
{
	int len = sys_syslog(SYSLOG_ACTION_READ_CLEAR, klog, sizeof(klog) - 1);
	char *line = klog, *end;
	int fd, bad = 0, context = 0, shown = 0;

	if (len < 0) {
		printf("# klog: syslog(2) failed: errno %d\n", -len);
		return 1;
	}
	klog[len] = 0;
	if (save) {
		fd = open(save, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			write(fd, klog, len);
			close(fd);
		}
	}
	while (*line) {
		end = line;
		while (*end && *end != '\n')
			end++;
		if (*end)
			*end++ = 0;
		if (klog_is_bad(line)) {
			bad++;
			context = KLOG_CONTEXT + 1;
		}
		if (context > 0 && shown < KLOG_SHOWN) {
			printf("# klog: %s\n", line);
			shown++;
		}
		if (context > 0)
			context--;
		line = end;
	}
	return bad;
}

static void write_swap_header(int fd, unsigned long pages)
{
	static unsigned int hdr[PAGE_WORDS];
	char *magic = (char *)hdr + PAGE_SIZE - 10;

	memset(hdr, 0, sizeof(hdr));
	hdr[1024 / 4] = 1;		/* version */
	hdr[1028 / 4] = pages - 1;	/* last_page */
	memcpy(magic, "SWAPSPACE2", 10);
	lseek(fd, 0, SEEK_SET);
	write(fd, hdr, sizeof(hdr));
	fsync(fd);
}

static void swap_setup(void)
{
	static const struct { const char *path; int major; } disks[] = {
		{ "/dev/sda", 8 }, { "/dev/hda", 3 },
	};
	unsigned int i;
	long size, err;
	int fd;

	for (i = 0; i < sizeof(disks) / sizeof(disks[0]); i++)
		mknod(disks[i].path, S_IFBLK | 0600, disks[i].major << 8);
	for (i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		fd = open(disks[i].path, O_RDWR, 0);
		if (fd < 0)
			continue;
		size = lseek(fd, 0, SEEK_END);
		if (size < (long)MiB) {
			close(fd);
			continue;
		}
		write_swap_header(fd, size / PAGE_SIZE);
		close(fd);
		err = sys_swapon(disks[i].path, 0);
		if (err < 0) {
			printf("# swap: swapon %s failed: errno %ld\n", disks[i].path, -err);
			return;
		}
		printf("# swap: %s pages=%ld\n", disks[i].path, size / PAGE_SIZE);
		return;
	}
	printf("# swap: none (no disk at /dev/sda or /dev/hda)\n");
}

static void result(int n, const char *name, int ok, const char *directive)
{
	printf("%s %d %s%s%s\n", ok ? "ok" : "not ok", n, name,
	       directive ? " # " : "", directive ? directive : "");
}

static void run_test(int n, const char *name, const char *arg, int timeout)
{
	static char path[64], reason[160];
	char *argv[] = { (char *)name, (char *)arg, NULL };
	char *envp[] = { NULL };
	int status = 0, bad, ok = 0, len;
	const char *directive = NULL;
	pid_t pid;

	unlink(SKIP_FILE);
	pid = fork();
	if (pid == 0) {
		strcpy(path, "/bin/");
		strcpy(path + 5, name);
		sys_alarm(timeout);
		execve(path, argv, envp);
		printf("# %s: FAIL cannot exec %s: errno %d\n", name, path, errno);
		exit_group(127);
	}
	if (pid < 0) {
		printf("# %s: fork failed: errno %d\n", name, errno);
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		while (waitpid(-1, NULL, WNOHANG) > 0)	/* orphans of the test */
			;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
			printf("# %s: FAIL timeout after %d s\n", name, timeout);
		} else if (WIFSIGNALED(status)) {
			printf("# %s: FAIL killed by signal %d\n", name, WTERMSIG(status));
		} else if (WEXITSTATUS(status) == 0) {
			ok = 1;
		} else if (WEXITSTATUS(status) == EXIT_SKIP) {
			len = read_file(SKIP_FILE, reason + 5, sizeof(reason) - 5);
			memcpy(reason, "SKIP ", 5);
			if (len <= 0)
				strcpy(reason, "SKIP (no reason given)");
			directive = reason;
			ok = 1;
		}
	}
	bad = klog_check(NULL);
	if (bad) {
		printf("# %s: FAIL kernel log has %d bad line(s)\n", name, bad);
		ok = 0;
		directive = NULL;
	}
	result(n, name, ok, directive);
}

static inline long sys_pipe(int fds[2])
{
	return my_syscall1(__NR_pipe, fds);
}

/* v as exactly 8 hex digits (nolibc's printf ignores widths) */
static const char *hex8(unsigned int v)
{
	static char s[9];
	int i;

	for (i = 7; i >= 0; i--, v >>= 4)
		s[i] = "0123456789abcdef"[v & 15];
	return s;
}

/* Echo one line of a user program's output, made printable. */
static void echo_line(const char *name, char *line, int len)
{
	int i;

	for (i = 0; i < len; i++)
		if (line[i] < ' ' || line[i] > '~')
			line[i] = '?';
	line[len] = 0;
	printf("# %s: out: %s\n", name, line);
}

/* The line at *p, NUL-terminated in place; *p moves to the next one. */
static char *next_line(char **p)
{
	char *line = *p;

	while (**p && **p != '\n')
		(*p)++;
	if (**p)
		*(*p)++ = 0;
	return line;
}

/* The first word at s skipped, and the blanks after it. */
static char *skip_word(char *s)
{
	while (*s && *s != ' ')
		s++;
	while (*s == ' ')
		s++;
	return s;
}

static char mm_tail[MM_TAIL][161];	/* a selftest's last lines of output */

/*
 * Line n (len bytes at line) of a program's output: echoed if among the
 * first EXTRA_LINES of a user's program, kept in mm_tail[] for a selftest.
 */
static void out_line(const char *name, char *line, int len, int n, int ksft)
{
	line[len] = 0;
	if (ksft)
		strcpy(mm_tail[n % MM_TAIL], line);
	else if (n < EXTRA_LINES)
		echo_line(name, line, len);
}

/*
 * Run one of the user's programs as test n: cmd is its /etc/extra line,
 * "PROG ARG...", split on blanks; the program is /extra/PROG, its stdin
 * /dev/null, its stdout and stderr one pipe that we read.  The first
 * EXTRA_LINES lines are echoed ("# extra.PROG: out: ..."), all of it is
 * hashed (FNV-1a over the bytes, the host compares it across kernels), and
 * "# extra.PROG: exit=N bytes=B lines=L digest=D" sums it up; a signal is
 * exit=128+SIG.  ok iff it exits 0 within the time bound and the kernel log
 * stays clean.  Past the bound its process group is killed; a program that
 * leaves a child holding the pipe open runs into that bound too.
 *
 * With ksft (a kernel mm selftest, "mm.NAME" from /kselftest): the last
 * MM_TAIL lines are echoed instead of the first, no digest is printed (the
 * output holds addresses and timings) but the time it took, in ms, and exit
 * status 4 (KSFT_SKIP) is a SKIP whose reason is the last line of output.
 */
static void run_prog(int n, const char *name, const char *dir, char *cmd,
		     int timeout, int ksft)
{
	static char path[64], line[161], buf[512];
	char *argv[MAX_ARGS + 1], *envp[] = { "PATH=/extra:/bin", NULL };
	unsigned int digest = DIGEST_INIT;
	unsigned long bytes = 0;
	int fds[2], argc = 0, status = 0, timed_out = 0, lines = 0, len = 0;
	int i, r, code, bad, fd;
	const char *directive = NULL;
	struct pollfd pfd;
	long start, deadline;
	pid_t pid;

	while (*cmd && argc < MAX_ARGS) {
		while (*cmd == ' ' || *cmd == '\t')
			*cmd++ = 0;
		if (!*cmd)
			break;
		argv[argc++] = cmd;
		while (*cmd && *cmd != ' ' && *cmd != '\t')
			cmd++;
	}
	argv[argc] = NULL;
	if (!argc || strlen(argv[0]) > 40) {
		printf("# %s: FAIL bad command line\n", name);
		result(n, name, 0, NULL);
		return;
	}
	strcpy(path, dir);
	strcpy(path + strlen(dir), "/");
	strcpy(path + strlen(dir) + 1, argv[0]);

	mknod("/dev/null", S_IFCHR | 0666, (1 << 8) | 3);
	if (sys_pipe(fds) < 0) {
		printf("# %s: FAIL pipe: errno %d\n", name, errno);
		result(n, name, 0, NULL);
		return;
	}
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		fd = open("/dev/null", O_RDONLY, 0);
		if (fd > 0) {
			dup2(fd, 0);
			close(fd);
		}
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execve(path, argv, envp);
		printf("cannot exec %s: errno %d\n", path, errno);
		exit_group(127);
	}
	close(fds[1]);
	if (pid > 0)
		setpgid(pid, pid);	/* as the child does: no race with kill() */
	if (pid < 0) {
		close(fds[0]);
		printf("# %s: FAIL fork: errno %d\n", name, errno);
		result(n, name, 0, NULL);
		return;
	}
	start = now_ms();
	deadline = start + timeout * 1000L;
	for (;;) {
		long left = deadline - now_ms();

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		pfd.fd = fds[0];
		pfd.events = POLLIN;
		pfd.revents = 0;
		r = poll(&pfd, 1, left > 1000 ? 1000 : left);
		if (r == 0 || (r < 0 && errno == EINTR))
			continue;
		if (r > 0)
			r = read(fds[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (i = 0; i < r; i++) {
			digest = digest_word(digest, (unsigned char)buf[i]);
			if (buf[i] == '\n') {
				out_line(name, line, len, lines++, ksft);
				len = 0;
			} else if (len < (int)sizeof(line) - 1) {
				line[len++] = buf[i];
			}
		}
		bytes += r;
	}
	if (len)				/* no newline at the end */
		out_line(name, line, len, lines++, ksft);
	if (ksft) {
		if (lines > MM_TAIL)
			printf("# %s: out: (%d lines before these not shown)\n", name,
			       lines - MM_TAIL);
		for (i = lines > MM_TAIL ? lines - MM_TAIL : 0; i < lines; i++)
			echo_line(name, mm_tail[i % MM_TAIL], strlen(mm_tail[i % MM_TAIL]));
	} else if (lines > EXTRA_LINES) {
		printf("# %s: out: (%d more lines not shown)\n", name, lines - EXTRA_LINES);
	}
	if (timed_out)
		kill(-pid, SIGKILL);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);			/* what it left behind */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	if (timed_out)
		strcpy(buf, "timeout");
	else
		utoa_r(code, buf);
	if (ksft)
		printf("# %s: exit=%s bytes=%lu lines=%d ms=%ld\n", name, buf, bytes,
		       lines, now_ms() - start);
	else
		printf("# %s: exit=%s bytes=%lu lines=%d digest=%s\n", name, buf,
		       bytes, lines, hex8(digest));
	if (timed_out) {
		printf("# %s: FAIL timeout after %d s\n", name, timeout);
	} else if (WIFSIGNALED(status)) {
		printf("# %s: FAIL killed by signal %d\n", name, WTERMSIG(status));
	} else if (ksft && code == EXIT_SKIP) {
		strcpy(buf, "SKIP ");
		strcpy(buf + 5, lines ? mm_tail[(lines - 1) % MM_TAIL] : "(no output)");
		directive = buf;
		code = 0;
	} else if (code) {
		printf("# %s: FAIL exit status %d\n", name, code);
	}
	bad = klog_check(NULL);
	if (bad) {
		printf("# %s: FAIL kernel log has %d bad line(s)\n", name, bad);
		directive = NULL;
	}
	result(n, name, !timed_out && !code && !bad, directive);
}

/* prefix and the first word of s (at most 40 bytes of it) into name[64] */
static const char *prog_name(char *name, const char *prefix, const char *s)
{
	int l = strlen(prefix), i = 0;

	strcpy(name, prefix);
	while (*s == ' ' || *s == '\t')
		s++;
	while (s[i] && s[i] != ' ' && s[i] != '\t' && i < 40) {
		name[l + i] = s[i];
		i++;
	}
	name[l + i] = 0;
	return name;
}

static void run_extra(int n, char *cmd, int timeout)
{
	static char name[64];

	run_prog(n, prog_name(name, "extra.", cmd), "/extra", cmd, timeout, 0);
}

/*
 * What the mm selftests expect of the machine run_vmtests.sh runs them on:
 * hugetlbfs at /huge (hugepage-mmap opens "huge/hugepagefile" from /),
 * debugfs (gup_test, split_huge_pages), /dev/zero (gup_test maps it) and
 * THP on: hugepage_init() turns it off below 512 MiB of RAM.  What could
 * not be done is said; the tests that need it then fail or skip themselves.
 * hugetlb pages are reserved test by test (run_mm()).
 */
static void mm_setup(void)
{
	static const char *const fs[][2] = {
		{ "/huge", "hugetlbfs" }, { "/sys/kernel/debug", "debugfs" },
	};
	unsigned int i;
	int err;

	mknod("/dev/zero", S_IFCHR | 0666, (1 << 8) | 5);
	mknod("/dev/null", S_IFCHR | 0666, (1 << 8) | 3);
	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		mkdir(fs[i][0], 0755);
		if (mount(fs[i][1], fs[i][0], fs[i][1], 0, NULL) < 0)
			printf("# mm: %s at %s: errno %d\n", fs[i][1], fs[i][0], errno);
		else
			printf("# mm: %s at %s\n", fs[i][1], fs[i][0]);
	}
	err = write_file(THP_ENABLED, "always");
	printf("# mm: THP: %s\n", err < 0 ? "not in this kernel" : "always");
}

/*
 * Load the mm selftests of SET from /etc/mm-selftests into lines[] (their
 * "NAME PROG ARG..." part), and those the list marks skip ("NAME REASON"),
 * with skip[] set; returns how many.
 */
static int mm_tests(char *list, const char *set, char **lines, char *skip)
{
	int n = 0, l = strlen(set), s;
	char *p = list, *line;

	while (*p && n < MAX_MM) {
		line = next_line(&p);
		if (!*line || *line == '#')
			continue;
		s = !strncmp(line, "skip ", 5);
		if (!s && strcmp(set, "full") &&
		    (strncmp(line, set, l) || line[l] != ' '))
			continue;
		line = skip_word(line);
		if (*line) {
			skip[n] = s;
			lines[n++] = line;
		}
	}
	return n;
}

/*
 * mm selftest n: line is "NAME [hugepages=N] PROG ARG...", or with skip
 * "NAME REASON".  With hugepages=N, N hugetlb pages are reserved for the
 * test (vm.nr_hugepages) and released after it: reserved for all of them,
 * they would leave the THP tests no free 2 MiB block.  A kernel without
 * hugetlb pages skips such a test.
 */
static void run_mm(int n, char *line, int skip, int timeout)
{
	static char name[64], reason[160], nr[16];
	char *cmd = skip_word(line), *hp = NULL;

	prog_name(name, "mm.", line);
	if (skip) {
		strcpy(reason, "SKIP ");
		strncpy(reason + 5, cmd, sizeof(reason) - 6);
		result(n, name, 1, reason);
		return;
	}
	if (!strncmp(cmd, "hugepages=", 10)) {
		hp = cmd + 10;
		cmd = skip_word(cmd);
		if (*cmd)
			cmd[-1] = 0;	/* ends hp: one blank between words */
		if (write_file(NR_HUGEPAGES, hp) < 0 ||
		    read_file(NR_HUGEPAGES, nr, sizeof(nr)) < 0) {
			result(n, name, 1, "SKIP no hugetlb pages: cannot write "
			       NR_HUGEPAGES " (kernel without HUGETLBFS)");
			return;
		}
		printf("# %s: nr_hugepages=%ld asked=%s\n", name, atol(nr), hp);
	}
	run_prog(n, name, "/kselftest", cmd, timeout, 1);
	if (hp)
		write_file(NR_HUGEPAGES, "0");
}

int main(int argc, char **argv)
{
	static char list[2048], extra[4096], mm[4096], bench[32], threads[64] = "1";
	const char *tests[MAX_TESTS], *args[MAX_TESTS] = { NULL };
	char only[256], tbuf[16], mmset[16], *name, *p, *extras[MAX_EXTRA];
	char *mms[MAX_MM], mmskip[MAX_MM];
	int ntests = 0, nextra = 0, nmm = 0, timeout = 300, i, bad, l;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/tmp", 01777);
	if (mount("proc", "/proc", "proc", 0, NULL) < 0)
		printf("# init: mount /proc failed: errno %d\n", errno);
	if (mount("sysfs", "/sys", "sysfs", 0, NULL) < 0)
		printf("# init: mount /sys failed: errno %d\n", errno);
	if (cmdline_arg("ptltest.timeout", tbuf, sizeof(tbuf)))
		timeout = atoi(tbuf);
	/*
	 * From here on only emergencies (panic, oops) reach the console: a
	 * kernel line printed there in the middle of one of ours cuts a KTAP
	 * line in two.  The rest stays in the log, which klog_check() reads.
	 */
	sys_syslog(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, 2);
	if (read_file("/etc/tests", list, sizeof(list)) < 0)
		printf("# init: no /etc/tests: nothing to run\n");
	if (cmdline_arg("ptltest.bench", bench, sizeof(bench))) {
		cmdline_arg("ptlbench.threads", threads, sizeof(threads));
		list[0] = 0;
		for (p = threads; *p && ntests < MAX_TESTS; ntests++) {
			tests[ntests] = bench;
			args[ntests] = p;
			while (*p && *p != ',')
				p++;
			if (*p)
				*p++ = 0;
		}
	}
	for (p = list; *p && ntests < MAX_TESTS; ) {
		name = next_line(&p);
		if (!*name)
			continue;
		if (cmdline_arg("ptltest.only", only, sizeof(only))) {
			char *m = strstr(only, name);

			l = strlen(name);
			if (!m || (m != only && m[-1] != ',') || (m[l] && m[l] != ','))
				continue;
		}
		tests[ntests++] = name;
	}

	/* the user's programs (make EXTRA=...), not in bench mode */
	if (!bench[0] && read_file("/etc/extra", extra, sizeof(extra)) > 0) {
		for (p = extra; *p && nextra < MAX_EXTRA; ) {
			name = next_line(&p);
			if (*name)
				extras[nextra++] = name;
		}
	}

	/* the kernel's mm selftests (make mm-selftests), not in bench mode */
	if (!bench[0] && cmdline_arg("ptltest.mm", mmset, sizeof(mmset)) &&
	    read_file("/etc/mm-selftests", mm, sizeof(mm)) > 0)
		nmm = mm_tests(mm, mmset, mms, mmskip);

	printf("KTAP version 1\n1..%d\n", ntests + nextra + nmm + 1);
	swap_setup();
	bad = klog_check(BOOT_LOG);
	if (bad)
		printf("# boot_log: FAIL kernel log has %d bad line(s)\n", bad);
	result(1, "boot_log", !bad, NULL);
	for (i = 0; i < ntests; i++)
		run_test(i + 2, tests[i], args[i], timeout);
	for (i = 0; i < nextra; i++)
		run_extra(ntests + i + 2, extras[i], timeout);
	if (nmm)
		mm_setup();
	for (i = 0; i < nmm; i++)
		run_mm(ntests + nextra + i + 2, mms[i], mmskip[i], timeout);
	printf("# ptltest: done\n");
	sync();
	reboot(LINUX_REBOOT_CMD_RESTART);
	return 0;
}
