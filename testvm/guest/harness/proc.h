/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/proc.h - /proc and /sys readers, time, anonymous mappings.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- /proc ---------------------------------------------------------------- */

/* Read a small file into buf (NUL-terminated); returns its length or -1. */
static int read_file(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY, 0);
	int len = 0, n;

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

/*
 * Value of "key=" on the kernel command line (/proc/cmdline, which 2.6.14
 * has too), copied into buf; NULL if absent.  The last one wins, as for the
 * kernel's own parameters: what a run adds after a cell's arguments (make
 * torture's time bound) overrides them.
 */
static const char *cmdline_arg(const char *key, char *buf, int size)
{
	static char cmdline[1024];
	int klen = strlen(key);
	char *p = cmdline;
	const char *found = NULL;
	int i;

	if (!cmdline[0] && read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return NULL;
	while (*p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			p += klen + 1;
			for (i = 0; i < size - 1 && p[i] > ' '; i++)
				buf[i] = p[i];
			buf[i] = 0;
			found = buf;
		}
		while (*p > ' ')		/* to the next blank (space, tab, newline) */
			p++;
		while (*p && *p <= ' ')
			p++;
	}
	return found;
}

/* The number given as "key=" on the kernel command line, or def. */
static unsigned long cmdline_ulong(const char *key, unsigned long def)
{
	char buf[24];

	return cmdline_arg(key, buf, sizeof(buf)) ? (unsigned long)atol(buf) : def;
}

/*
 * The text after "key" and sep on a line of path, read into buf (blanks
 * skipped), or NULL when no line has it.
 */
static const char *proc_value(const char *path, const char *key, char sep,
			      char *buf, int size)
{
	char *p = buf;
	int klen = strlen(key);

	if (read_file(path, buf, size) < 0)
		return NULL;
	while (*p) {
		if (!strncmp(p, key, klen) && p[klen] == sep) {
			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		while (*p && *p++ != '\n')
			;
	}
	return NULL;
}

/*
 * The value in kB of one "Key: N kB" line of path ("MemFree" of
 * /proc/meminfo, "VmPTE" of /proc/PID/status), or 0.
 */
static unsigned long proc_kb(const char *path, const char *key)
{
	static char buf[2048];
	const char *v = proc_value(path, key, ':', buf, sizeof(buf));

	return v ? (unsigned long)atol(v) : 0;
}

static unsigned long meminfo_kb(const char *key)
{
	return proc_kb("/proc/meminfo", key);
}

/*
 * A counter or event of /proc/vmstat ("name value" lines); -1 when the
 * kernel has no such line (built without the option that counts it).
 */
static long vmstat_count(const char *name)
{
	static char buf[16384];
	const char *v = proc_value("/proc/vmstat", name, ' ', buf, sizeof(buf));

	return v ? atol(v) : -1;
}

/* The number a small file holds (a sysfs count); fails when unreadable. */
static long read_long(const char *path)
{
	char buf[32];

	if (read_file(path, buf, sizeof(buf)) < 0)
		fail("cannot read %s", path);
	return atol(buf);
}

/* Skip the test in a guest with less than mib MiB of memory. */
static void need_mem_mib(unsigned long mib)
{
	if (meminfo_kb("MemTotal") < mib * 1024)
		skip("guest has less than %lu MiB", mib);
}

/* Resident pages of this process, from /proc/self/statm (second field). */
static long statm_resident(void)
{
	char buf[128], *p = buf;

	if (read_file("/proc/self/statm", buf, sizeof(buf)) < 0)
		return -1;
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	return atol(p);
}

/* microseconds, in 64 bits on i386 too */
static long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

/* milliseconds; on i386 the low 32 bits, as differences want */
static long now_ms(void)
{
	return now_us() / 1000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	my_syscall2(__NR_nanosleep, &ts, NULL);
}

/*
 * Major faults (a page read in: from swap, for anonymous memory) of this
 * process and of the children it has reaped.
 */
static long major_faults(void)
{
	struct rusage self, children;

	if (my_syscall2(__NR_getrusage, RUSAGE_SELF, &self) ||
	    my_syscall2(__NR_getrusage, RUSAGE_CHILDREN, &children))
		return -1;
	return self.ru_majflt + children.ru_majflt;
}

/* Minor faults of this process alone (RUSAGE_SELF). */
static long minor_faults(void)
{
	struct rusage self;

	if (my_syscall2(__NR_getrusage, RUSAGE_SELF, &self))
		return -1;
	return self.ru_minflt;
}

/* len bytes of anonymous memory, MAP_PRIVATE or MAP_SHARED; else fail */
static void *map_anon_as(unsigned long len, int share)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, share | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap%s of %lu bytes: errno %d",
		     share == MAP_SHARED ? " shared" : "", len, errno);
	return p;
}

static void *map_anon(unsigned long len)
{
	return map_anon_as(len, MAP_PRIVATE);
}

/*
 * An anonymous mapping with room for len bytes from an align boundary (a
 * page table's span, say): returns that aligned start.
 */
static void *map_anon_aligned(unsigned long len, unsigned long align)
{
	unsigned long p = (unsigned long)map_anon(len + align);

	return (void *)((p + align - 1) & ~(align - 1));
}

/* Write text to a /proc or /sys file; 0 when all of it was taken. */
static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY, 0);
	int n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (int)strlen(text) ? 0 : -1;
}
