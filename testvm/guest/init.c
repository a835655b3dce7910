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
 * log is kept in BOOT_LOG for the tests that check what the kernel said.  Then it
 * reboots, which with QEMU's -no-reboot ends the guest.
 *
 * Kernel command line (read from /proc/cmdline, works on 2.6.14 too):
 *   ptltest.only=a,b     run only these tests
 *   ptltest.timeout=S    per-test bound in seconds (default 300)
 *   ptltest.bench=NAME   instead of the tests, run /bin/NAME T once for each
 *                        T of ptlbench.threads=T1,T2,... (default 1)
 */
#include "harness.h"

#define MAX_TESTS	32
#define LINUX_REBOOT_CMD_RESTART	0x01234567
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CONSOLE_LEVEL	8

static char klog[1 << 17];

/*
 * Read and clear the kernel log; print and count the lines that mean a bug.
 * With save, keep a copy there for the tests (the boot log: /tmp/boot.log).
 */
static int klog_check(const char *save)
{
	int len = sys_syslog(SYSLOG_ACTION_READ_CLEAR, klog, sizeof(klog) - 1);
	char *line = klog, *end;
	int i, fd, bad = 0;

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
		for (i = 0; klog_bad[i]; i++) {
			if (strstr(line, klog_bad[i])) {
				printf("# klog: %s\n", line);
				bad++;
				break;
			}
		}
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

int main(int argc, char **argv)
{
	static char list[2048], bench[32], threads[64] = "1";
	const char *tests[MAX_TESTS], *args[MAX_TESTS] = { NULL };
	char only[256], tbuf[16], *name, *p;
	int ntests = 0, timeout = 300, i, bad, l;

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
		name = p;
		while (*p && *p != '\n')
			p++;
		if (*p)
			*p++ = 0;
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

	printf("KTAP version 1\n1..%d\n", ntests + 1);
	swap_setup();
	bad = klog_check(BOOT_LOG);
	if (bad)
		printf("# boot_log: FAIL kernel log has %d bad line(s)\n", bad);
	result(1, "boot_log", !bad, NULL);
	for (i = 0; i < ntests; i++)
		run_test(i + 2, tests[i], args[i], timeout);
	printf("# ptltest: done\n");
	sync();
	reboot(LINUX_REBOOT_CMD_RESTART);
	return 0;
}
