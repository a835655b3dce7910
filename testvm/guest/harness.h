/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - what every guest program shares, on top of the kernel's nolibc.
 *
 * The same static i386 binaries run on 6.1 and on 2.6.14-rc4-mm1, so only
 * system calls that 2.6.14 has (i386 numbers <= 293) may be used: the newer
 * *at() calls that nolibc would prefer are hidden below, and the build scans
 * the binaries for any syscall number above 293 (testvm/syscalls.sh).
 *
 * A test is one program checking one invariant.  It prints its figures as one
 * KTAP diagnostic line, "# NAME: key=value ...", and ends with
 *   pass()          exit 0: the runner prints "ok N NAME"
 *   fail(fmt, ...)  exit 1 after "# NAME: FAIL reason"
 *   ASSERT(cond)    fail() naming the file, line and condition
 *   skip(fmt, ...)  exit 4, the reason left in SKIP_FILE for the runner
 *
 * Adding a test is adding one file, testvm/guest/NAME.c: a header comment
 * saying what it proves, then TEST_MAIN() { ... } (the name comes from the
 * file, through argv[0]), and a row in docs/tests.md (the host test
 * docs_drift checks it).  The build picks it up and the runner runs it in
 * every cell, in name order.  Taken names: init (the runner), idle (a guest
 * that never ends, for the hang test) and bench_* (run only when asked);
 * at most MAX_TESTS (init.c) tests, which the build checks.
 * The runner (init.c) owns the KTAP plan and result lines, the time bound and
 * the kernel-log check after every test.
 *
 * Helpers: threads (clone + futex join), the page pattern and its digest,
 * /proc readers, huge pages (THP on, made and proven, 2 MiB checks), the
 * mremap/mprotect calls nolibc lacks, and the kernel-log scan.
 */
#ifndef PTLTEST_HARNESS_H
#define PTLTEST_HARNESS_H

#include <asm/unistd.h>
#undef __NR_openat
#undef __NR_mkdirat
#undef __NR_mknodat
#undef __NR_fchownat
#undef __NR_fchmodat
#undef __NR_unlinkat
#undef __NR_linkat
#undef __NR_symlinkat
#undef __NR_dup3
#undef __NR_pselect6
#undef __NR_ppoll
#undef __NR_newfstatat
#include <nolibc.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <linux/mman.h>
#ifndef RUSAGE_SELF		/* nolibc 6.1 lacks them; <linux/resource.h> clashes */
#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#endif

/* a header of static helpers: each program uses some of them */
#pragma GCC diagnostic ignored "-Wunused-function"

#define PAGE_SIZE	4096UL
#define PAGE_WORDS	(PAGE_SIZE / sizeof(unsigned int))
#define MiB		(1024UL * 1024UL)
#define SKIP_FILE	"/tmp/skip-reason"
#define BOOT_LOG	"/tmp/boot.log"	/* the kernel log up to the first test */
#define EXIT_SKIP	4

static const char *test_name = "?";

/* --- what nolibc (6.1) lacks ------------------------------------------- */

/* ours, also where nolibc has them: 6.12's WIFSIGNALED() is true for exit 0 */
#undef WTERMSIG
#undef WIFSIGNALED
#define WTERMSIG(status)	((status) & 0x7f)
#define WIFSIGNALED(status)	(WTERMSIG(status) && WTERMSIG(status) != 0x7f)

static char *strstr(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncmp(s, needle, n))
			return (char *)s;
	return NULL;
}

static inline void sync(void)
{
	my_syscall0(__NR_sync);
}

static inline long sys_madvise(void *addr, unsigned long len, int advice)
{
	return my_syscall3(__NR_madvise, addr, len, advice);
}

static inline long sys_futex(volatile int *uaddr, int op, int val)
{
	return my_syscall4(__NR_futex, uaddr, op, val, 0);
}

static inline long sys_syslog(int type, char *buf, int len)
{
	return my_syscall3(__NR_syslog, type, buf, len);
}

static inline long sys_ftruncate(int fd, unsigned long len)
{
	return my_syscall2(__NR_ftruncate, fd, len);
}

static inline long sys_swapon(const char *path, int flags)
{
	return my_syscall2(__NR_swapon, path, flags);
}

static inline long sys_alarm(unsigned int secs)
{
	return my_syscall1(__NR_alarm, secs);
}

static __attribute__((noreturn)) void exit_group(int status)
{
	my_syscall1(__NR_exit_group, status);
	for (;;)
		;
}

/* --- results ------------------------------------------------------------- */

/*
 * TEST_MAIN() opens a test's main function.  The runner (init.c) starts a
 * test with its name as argv[0], so the name is written once, as the file's
 * name, and never typed in the test.
 */
#define TEST_MAIN()						\
	static int test_main(void);				\
	int main(int argc, char **argv)				\
	{							\
		const char *n = argc ? argv[0] : "?", *s;	\
								\
		for (s = n; *s; s++)				\
			if (*s == '/')				\
				n = s + 1;			\
		test_name = n;					\
		return test_main();				\
	}							\
	static int test_main(void)

static __attribute__((noreturn)) void pass(void)
{
	exit_group(0);
}

static __attribute__((noreturn, format(printf, 1, 2))) void fail(const char *fmt, ...)
{
	va_list ap;

	printf("# %s: FAIL ", test_name);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	printf("\n");
	exit_group(1);
}

/* ASSERT(cond): fail, naming the file, line and condition, unless cond holds */
#define ASSERT(cond)							\
	do {								\
		if (!(cond))						\
			fail("%s:%d: %s", __FILE__, __LINE__, #cond);	\
	} while (0)

static __attribute__((noreturn, format(printf, 1, 2))) void skip(const char *fmt, ...)
{
	va_list ap;
	int fd = open(SKIP_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	/* nolibc (6.1) prints only to the std streams: make stdout the file */
	if (fd >= 0)
		dup2(fd, 1);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	exit_group(EXIT_SKIP);
}

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
 * has too), copied into buf; NULL if absent.
 */
static const char *cmdline_arg(const char *key, char *buf, int size)
{
	static char cmdline[1024];
	int klen = strlen(key);
	char *p = cmdline;
	int i;

	if (!cmdline[0] && read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return NULL;
	while (*p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			p += klen + 1;
			for (i = 0; i < size - 1 && p[i] > ' '; i++)
				buf[i] = p[i];
			buf[i] = 0;
			return buf;
		}
		while (*p > ' ')		/* to the next blank (space, tab, newline) */
			p++;
		while (*p && *p <= ' ')
			p++;
	}
	return NULL;
}

/* The value in kB of one /proc/meminfo line ("MemFree"), or 0. */
static unsigned long meminfo_kb(const char *key)
{
	static char buf[2048];
	char *p = buf;
	int klen = strlen(key);

	if (read_file("/proc/meminfo", buf, sizeof(buf)) < 0)
		return 0;
	while (*p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			p += klen + 1;
			while (*p == ' ')
				p++;
			return atol(p);
		}
		while (*p && *p++ != '\n')
			;
	}
	return 0;
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

static long now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000L + tv.tv_usec / 1000;
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

static void *map_anon(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap of %lu bytes: errno %d", len, errno);
	return p;
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

/* --- the page pattern ------------------------------------------------------
 * Word w of page p of a test seeded with s; a page full of it can't be
 * mistaken for another page's, another test's, or zeroes.
 */
static inline unsigned int pattern(unsigned int s, unsigned int p, unsigned int w)
{
	unsigned int x = s ^ (p * 0x9e3779b1u) ^ (w * 0x85ebca6bu);

	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

static void fill_page(unsigned int *page, unsigned int seed, unsigned int p)
{
	unsigned int w;

	for (w = 0; w < PAGE_WORDS; w++)
		page[w] = pattern(seed, p, w);
}

/*
 * Test-only: ptltest.corrupt=NAME on the kernel command line makes test NAME
 * (every test, with "all") flip one byte of the data it is about to verify,
 * to show that its verification can fail (testvm/selftest/qemu_corrupt.sh).
 */
static void corrupt_if_asked(void *data)
{
	char want[32];

	if (cmdline_arg("ptltest.corrupt", want, sizeof(want)) &&
	    (!strcmp(want, test_name) || !strcmp(want, "all")))
		((volatile unsigned char *)data)[123] ^= 0x5a;
}

/* FNV-1a over 32-bit words: the digest the host compares across kernels. */
#define DIGEST_INIT	2166136261u
static inline unsigned int digest_word(unsigned int d, unsigned int v)
{
	return (d ^ v) * 16777619u;
}

/*
 * Check page p against the pattern and fold it into *digest.  Returns the
 * index of the first wrong word, or -1 when the page is intact.
 */
static int check_page(const unsigned int *page, unsigned int seed,
		      unsigned int p, unsigned int *digest)
{
	unsigned int w, d = *digest;

	for (w = 0; w < PAGE_WORDS; w++) {
		if (page[w] != pattern(seed, p, w))
			return w;
		d = digest_word(d, page[w]);
	}
	*digest = d;
	return -1;
}

/* --- transparent huge pages ----------------------------------------------
 * A THP test maps HPAGE bytes at a fixed, HPAGE-aligned address with
 * MADV_HUGEPAGE and proves the huge page formed (AnonHugePages grew) before
 * it tests anything: a test whose subject never happened fails.  Kernels
 * without THP (i386 without PAE, 2.6.14) skip, unless the cell asked for
 * THP with ptltest.thp=1.
 */
#define HPAGE		(2 * MiB)	/* PMD_SIZE with PAE */
#define HPAGE_PAGES	(HPAGE / PAGE_SIZE)
#define MADV_HUGEPAGE	14
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_DEFRAG	"/sys/kernel/mm/transparent_hugepage/defrag"

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

/*
 * THP for MADV_HUGEPAGE areas: the kernel turns THP off by default below
 * 512 MiB of RAM, which a 512 MiB guest is, so say "madvise" (other tests
 * keep small pages) and let the fault compact memory for the huge page.
 * Returns 1; 0 on a kernel without THP, unless the cell asked for THP
 * (ptltest.thp=1): then the test fails.
 */
static int thp_try_enable(void)
{
	char want[8];

	if (write_file(THP_ENABLED, "madvise") < 0) {
		if (cmdline_arg("ptltest.thp", want, sizeof(want)))
			fail("ptltest.thp=%s asked, but no THP: cannot write %s",
			     want, THP_ENABLED);
		return 0;
	}
	if (write_file(THP_DEFRAG, "madvise") < 0)
		fail("cannot write %s", THP_DEFRAG);
	return 1;
}

/* The same for a test about huge pages alone: it skips without THP. */
static void thp_enable(void)
{
	if (!thp_try_enable())
		skip("kernel without transparent huge pages");
}

/* AnonHugePages of /proc/meminfo, in kB */
static unsigned long thp_anon_kb(void)
{
	return meminfo_kb("AnonHugePages");
}

/*
 * Map HPAGE bytes of anonymous memory exactly at addr (not MAP_FIXED: it
 * must be free), as a THP, filled with the pattern of seed; fails unless
 * AnonHugePages grew by the huge page.
 */
static unsigned char *thp_map_at(unsigned long addr, unsigned int seed)
{
	unsigned long before = thp_anon_kb(), p;
	unsigned char *m = mmap((void *)addr, HPAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || (unsigned long)m != addr)
		fail("mmap at 0x%lx gave %p (errno %d)", addr, m, errno);
	if (sys_madvise(m, HPAGE, MADV_HUGEPAGE))
		fail("madvise(MADV_HUGEPAGE): errno %d", errno);
	for (p = 0; p < HPAGE_PAGES; p++)
		fill_page((unsigned int *)(m + p * PAGE_SIZE), seed, p);
	if (thp_anon_kb() < before + HPAGE / 1024)
		fail("no huge page at 0x%lx: AnonHugePages %lu kB, was %lu kB",
		     addr, thp_anon_kb(), before);
	return m;
}

/* Check the HPAGE_PAGES pages at m (a THP or a hugetlb page) against seed */
static void hpage_check(const unsigned char *m, unsigned int seed, const char *what,
		      unsigned int *digest)
{
	unsigned long p;
	int bad;

	for (p = 0; p < HPAGE_PAGES; p++) {
		bad = check_page((const unsigned int *)(m + p * PAGE_SIZE), seed, p, digest);
		if (bad >= 0)
			fail("%s: page %lu word %d wrong at %p", what, p, bad, m);
	}
}

static inline long sys_mremap(void *old, unsigned long old_len, unsigned long new_len,
			      int flags, void *new)
{
	return my_syscall5(__NR_mremap, old, old_len, new_len, flags, new);
}

static inline long sys_mprotect(void *addr, unsigned long len, int prot)
{
	return my_syscall3(__NR_mprotect, addr, len, prot);
}

/*
 * Move the HPAGE bytes at *m to to by mremap, then check them against seed and that AnonHugePages reads huge_kb
 * (a whole THP moves as one huge pmd).  what names the step in a failure.
 */
static void thp_move(unsigned char **m, unsigned long to, unsigned int seed,
		     unsigned long huge_kb, const char *what, unsigned int *digest)
{
	long ret = sys_mremap(*m, HPAGE, HPAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
			      (void *)to);

	if (ret != (long)to)
		fail("%s: mremap %p to 0x%lx returned 0x%lx", what, *m, to, ret);
	*m = (unsigned char *)to;
	corrupt_if_asked(*m + PAGE_SIZE);
	hpage_check(*m, seed, what, digest);
	if (thp_anon_kb() != huge_kb)
		fail("%s: AnonHugePages %lu kB, not %lu kB: the move split the THP",
		     what, thp_anon_kb(), huge_kb);
}

/* --- threads ---------------------------------------------------------------
 * clone(CLONE_VM|...|CLONE_THREAD) on a stack of our own; the kernel writes
 * the tid at start and clears it (and wakes the futex) at exit: that is the
 * join.
 */
#define THREAD_STACK	(64 * 1024)
#define CLONE_THREAD_FLAGS	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
				 CLONE_THREAD | CLONE_SYSVSEM | \
				 CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

struct thread {
	int (*fn)(struct thread *t);
	volatile int tid;
	int id;
	void *arg;
	char *stack;
};

static void thread_start(struct thread *t)
{
	unsigned long top = ((unsigned long)t->stack + THREAD_STACK) & ~15UL;
	unsigned long *sp = (unsigned long *)(top - 16);
	long ret;

	/* fn(t) is called with t at a 16-byte aligned stack slot */
	sp[0] = (unsigned long)t;
	*--sp = (unsigned long)t->fn;
	__asm__ volatile(
		"int $0x80\n\t"
		"test %%eax, %%eax\n\t"
		"jnz 1f\n\t"
		"popl %%eax\n\t"
		"call *%%eax\n\t"
		"movl %%eax, %%ebx\n\t"
		"movl %[nr_exit], %%eax\n\t"
		"int $0x80\n\t"
		"hlt\n"
		"1:\n\t"
		: "=a"(ret)
		: "0"(__NR_clone), "b"(CLONE_THREAD_FLAGS), "c"(sp),
		  "d"(&t->tid), "S"(0), "D"(&t->tid), [nr_exit] "i"(__NR_exit)
		: "memory", "cc");
	if (ret < 0)
		fail("clone: errno %ld", -ret);
}

static void thread_join(struct thread *t)
{
	int tid;

	while ((tid = t->tid) != 0)
		sys_futex(&t->tid, FUTEX_WAIT, tid);
}

/*
 * Start n threads running fn, each with its own pre-touched stack (so that
 * stacks do not show up in RSS figures taken after this).
 */
static struct thread *threads_create(int n, int (*fn)(struct thread *), void *arg)
{
	struct thread *t = map_anon(n * sizeof(*t));
	char *stacks = map_anon((unsigned long)n * THREAD_STACK);
	int i;

	memset(stacks, 0, (unsigned long)n * THREAD_STACK);
	for (i = 0; i < n; i++) {
		t[i].fn = fn;
		t[i].id = i;
		t[i].arg = arg;
		t[i].stack = stacks + (unsigned long)i * THREAD_STACK;
	}
	return t;
}

/* A start line: threads wait on it so that their faults overlap. */
static volatile int start_gate;

static void gate_wait(void)
{
	while (!start_gate)
		sys_futex(&start_gate, FUTEX_WAIT, 0);
}

/* Start all n threads, let them go at once, wait for all of them. */
static void threads_run(struct thread *t, int n)
{
	int i;

	start_gate = 0;
	for (i = 0; i < n; i++)
		thread_start(&t[i]);
	start_gate = 1;
	sys_futex(&start_gate, FUTEX_WAKE, 0x7fffffff);
	for (i = 0; i < n; i++)
		thread_join(&t[i]);
}

/*
 * touch_slice - thread body for Lameter's case: thread i first-touches its
 * own slice of one area, pages [i * pages, (i + 1) * pages), with the
 * pattern.  The struct slices is the threads' arg.
 */
struct slices {
	unsigned char *area;
	unsigned long pages;	/* per thread */
	unsigned int seed;
};

static int touch_slice(struct thread *t)
{
	const struct slices *s = t->arg;
	unsigned long p = t->id * s->pages, end = p + s->pages;

	gate_wait();
	for (; p < end; p++)
		fill_page((unsigned int *)(s->area + p * PAGE_SIZE), s->seed, p);
	return 0;
}

/*
 * Fork a child that reads (write == 0) or writes one word at addr and then
 * exits 0; return its wait status, for the tests that expect SIGSEGV there.
 */
static int touch_in_child(void *addr, int write)
{
	volatile unsigned int *w = addr;
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		if (write)
			*w = 0x5e95e95eu;
		else
			(void)*w;
		exit_group(0);
	}
	if (pid < 0)
		fail("fork: errno %d", errno);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid %d: errno %d", pid, errno);
	return status;
}

/* --- processes ------------------------------------------------------------ */

#define PR_SET_PDEATHSIG	1

/*
 * fork(), the child set to be killed when the test process ends first (a
 * failing test leaves no child behind, waiting for a parent that is gone).
 */
static pid_t fork_child(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		fail("fork: errno %d", errno);
	if (pid == 0) {
		my_syscall2(__NR_prctl, PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			exit_group(1);
	}
	return pid;
}

/* A page shared by the test's processes, for futex words and results. */
static void *map_shared(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap shared of %lu bytes: errno %d", len, errno);
	return p;
}

/* Add to a futex word in shared memory and wake its waiters. */
static void futex_add(volatile int *word, int n)
{
	__sync_fetch_and_add(word, n);
	sys_futex(word, FUTEX_WAKE, 0x7fffffff);
}

/* Wait until a futex word in shared memory reaches at least v. */
static void futex_wait_for(volatile int *word, int v)
{
	int cur;

	while ((cur = *word) < v)
		sys_futex(word, FUTEX_WAIT, cur);
}

/* Reap child pid; returns its exit status, or 128 + signal when killed. */
static int reap(pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* --- lock_stat ---------------------------------------------------------------
 * /proc/lock_stat (CONFIG_LOCK_STAT, the debug kernels): writing "0" clears
 * it; a class line reads "NAME: con-bounces contentions waittime-min
 * waittime-max waittime-total waittime-avg acq-bounces acquisitions ...",
 * times in microseconds.
 */
struct lock_counts {
	long acq, con, wait_us;
};

/* Clear the statistics; 0 when the kernel has none. */
static int lockstat_clear(void)
{
	int fd = open("/proc/lock_stat", O_WRONLY, 0);

	if (fd < 0)
		return 0;
	write(fd, "0", 1);
	close(fd);
	return 1;
}

/* The number at *pp (an integer, or the integer part); *pp moves past it. */
static long lockstat_field(char **pp)
{
	char *p = *pp;
	long v;

	while (*p == ' ')
		p++;
	v = atol(p);
	while (*p && *p != ' ' && *p != '\n')
		p++;
	*pp = p;
	return v;
}

/*
 * Sum the figures of the lock classes whose name starts with prefix, from
 * the /proc/lock_stat read now.  Fails the test when it cannot be read.
 */
static void lockstat_class(const char *prefix, struct lock_counts *c)
{
	static char text[1 << 20];
	char *p = text;
	int n, plen = strlen(prefix);
	long v[8];

	if (read_file("/proc/lock_stat", text, sizeof(text)) < 0)
		fail("cannot read /proc/lock_stat");
	c->acq = c->con = c->wait_us = 0;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, prefix, plen)) {
			while (*p && *p != ':' && *p != '\n')
				p++;
			if (*p == ':') {
				p++;
				for (n = 0; n < 8 && *p && *p != '\n'; n++)
					v[n] = lockstat_field(&p);
				if (n == 8) {
					c->con += v[1];
					c->wait_us += v[4];
					c->acq += v[7];
				}
			}
		}
		while (*p && *p++ != '\n')
			;
	}
}

/*
 * The classes of the two page-table locks, split and not.  The split one is
 * named after ptlock_ptr()'s argument: ptlock_ptr(page) in 6.1,
 * ptlock_ptr(ptdesc) in 6.12; lockstat_class() matches the prefix.
 */
#define LOCK_MM		"&mm->page_table_lock"
#define LOCK_PTL	"ptlock_ptr("

/*
 * For a lock_stat test of the series: 1 when split_ptlocks is on, 0 off,
 * with the statistics cleared.  Skips on a kernel without the series
 * (/sys/kernel/mm/split_ptlocks) or without LOCK_STAT.
 */
static int lockstat_split_on(void)
{
	char mode[8];

	if (read_file("/sys/kernel/mm/split_ptlocks", mode, sizeof(mode)) < 0)
		skip("no /sys/kernel/mm/split_ptlocks: kernel without the series");
	if (!lockstat_clear())
		skip("no /proc/lock_stat: kernel without LOCK_STAT");
	return !strncmp(mode, "on", 2);
}

/* --- swap --------------------------------------------------------------------
 * The runner swaps on its disk before the tests (init.c: swap_setup()).  A
 * swap test fails, never skips, when no swap is active.  swap_push() forces
 * the caller's pages out without exceeding RAM + swap: a forked hog touches
 * fresh memory a MiB at a time until the swap in use has grown by the pages
 * asked for, and exits.  Reclaim writes out the oldest pages first: those the
 * caller filled before.
 */
static inline long sys_swapoff(const char *path)
{
	return my_syscall1(__NR_swapoff, path);
}

static long swap_used_pages(void)
{
	return (long)(meminfo_kb("SwapTotal") - meminfo_kb("SwapFree")) / (PAGE_SIZE / 1024);
}

/*
 * The swap area the runner swapped on: the first one in /proc/swaps, copied
 * into path (size bytes).  Fails the test when swap is off.
 */
static void swap_device(char *path, int size)
{
	static char buf[1024];
	char *p = buf;
	int i;

	if (!meminfo_kb("SwapTotal"))
		fail("no swap active: SwapTotal 0 kB (did the runner's swapon fail?)");
	if (read_file("/proc/swaps", buf, sizeof(buf)) < 0)
		fail("cannot read /proc/swaps");
	while (*p && *p != '\n')	/* the header line */
		p++;
	if (*p)
		p++;
	if (*p != '/')
		fail("no swap area in /proc/swaps");
	for (i = 0; i < size - 1 && p[i] && p[i] != ' ' && p[i] != '\t'; i++)
		path[i] = p[i];
	path[i] = 0;
}

/* Whether /proc/swaps lists path. */
static int swap_listed(const char *path)
{
	static char buf[1024];

	return read_file("/proc/swaps", buf, sizeof(buf)) > 0 && strstr(buf, path);
}

/* Swap back on after a swapoff, for the next test. */
static void swap_on_again(const char *path)
{
	long err = sys_swapon(path, 0);

	if (err < 0)
		fail("swapon(%s) after swapoff: errno %ld", path, -err);
}

/*
 * Size of a swap test's data from a fixed ladder: 32 MiB halved until it is
 * at most half the swap and an eighth of RAM, so that it is the same on every
 * kernel booted with the same memory and swap.
 */
static unsigned long swap_test_mib(void)
{
	unsigned long mem = meminfo_kb("MemTotal") / 1024;
	unsigned long swap = (meminfo_kb("SwapTotal") + 1023) / 1024;
	unsigned long mib;

	for (mib = 32; mib > 2 && (mib > swap / 2 || mib > mem / 8); mib /= 2)
		;
	return mib;
}

/*
 * Fork a hog that touches fresh memory until the swap in use has grown by
 * want pages (or 7/8 of the swap is in use), then exits.  Returns the swap
 * in use once the hog is gone.
 */
static long swap_push(long want)
{
	unsigned long limit = meminfo_kb("MemTotal") / 1024 + meminfo_kb("SwapTotal") / 1024;
	long used0 = swap_used_pages(), floor = meminfo_kb("SwapTotal") / 8;
	unsigned long mib, p;
	unsigned char *hog;
	int status = 0;
	pid_t pid;

	pid = fork_child();
	if (pid == 0) {
		hog = map_anon(limit * MiB);
		for (mib = 0; mib < limit; mib++) {
			for (p = 0; p < MiB; p += PAGE_SIZE)
				hog[mib * MiB + p] = 1;
			if (swap_used_pages() >= used0 + want ||
			    (long)meminfo_kb("SwapFree") < floor)
				exit_group(0);
		}
		exit_group(3);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		fail("the swap hog was killed by signal %d", WTERMSIG(status));
	if (WEXITSTATUS(status))
		fail("the swap hog ended with status %d (touched RAM + swap, swap used %ld pages)",
		     WEXITSTATUS(status), swap_used_pages());
	return swap_used_pages();
}

/* --- the kernel log --------------------------------------------------------
 * klog_bad[]: lines that mean the kernel found a bug, whatever the test's
 * verdict; generated from testvm/klog-bad.txt, which the host parser reads too.
 */
#include "klog_bad.h"

#endif /* PTLTEST_HARNESS_H */
