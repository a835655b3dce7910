// SPDX-License-Identifier: GPL-2.0
/*
 * thp_retract_race - pte tables retracted by a collapse, and others unmapped,
 * while threads fault through them.  A memfd of UNITS 2 MiB units is written
 * by write(2), so its page cache holds small pages.  A child maps it
 * MAP_SHARED and reads every page: it has a pte table per unit.  Its
 * FAULTERS threads then read every page over and over, checking the words
 * they read, and its churner maps a second view of the file, reads it and
 * unmaps it, over and over (tables made, then freed by munmap).  Meanwhile
 * the test maps the file too and collapses it a unit at a time with
 * MADV_COLLAPSE: collapse_file() makes the huge page and retracts the pte
 * tables that map the unit, its own at once (VmPTE falls) and, in 6.12,
 * every mapping's, the child's and the churner's view among them
 * (retract_page_tables(): the pmd cleared under the pmd lock, the table's
 * lock nested unless it is the same lock, the table freed by
 * pte_free_defer(), i.e. after an RCU grace period), while the threads
 * fault through the other units' tables and the churner unmaps.  The unit
 * being collapsed is left alone by the threads for that time: a fault
 * waiting on one of its pages' locks holds a reference, and the collapse
 * fails (EAGAIN).  After each unit the child's main thread asks
 * MADV_COLLAPSE of its own mapping of it while the threads read it again,
 * which retracts its table where it is still there (6.1 leaves other
 * processes' tables to them).  Either way the faulters lose tables they
 * walk.
 *
 * Exercises: `retract_page_tables()` and `collapse_pte_mapped_thp()` under
 *   concurrent faults and munmaps: an 8 MiB memfd written by write(2), read by
 *   three threads of a child, mapped and unmapped by a fourth, collapsed a
 *   2 MiB unit at a time by `MADV_COLLAPSE` in the test (the threads in the
 *   other units meanwhile) and then in the child (the threads in it too);
 *   in 6.12 the retracted tables freed by `pte_free_defer()` (`call_rcu()`)
 * Invariant: each collapse succeeds and ShmemHugePages grows by 2048 kB a
 *   unit; the test's VmPTE falls by a table a unit; every word the faulters
 *   and the churner read, all through, is the one written; each faulter
 *   made passes while the collapses ran (how often they faulted is printed:
 *   in 6.12 the child's MADV_COLLAPSE may map the huge page before they
 *   fault); the child has pte tables fewer at the end, at least one (its
 *   tables retracted while its threads ran; a fault may map a unit by ptes
 *   again afterwards, so not always one a unit); the churner mapped and
 *   unmapped its view during the collapses; every page reads back right in the test's
 *   and the child's mapping at the end; ShmemHugePages back to its start
 *   once the file is closed.  Skip and `ptltest.thp=1` as `thp_mremap`
 */
#include "harness.h"

#define SEED		0x7e7a0000u
#define UNITS		4
#define FAULTERS	3
#define MINE		0x20000000UL	/* 2 MiB-aligned, UNITS units */
#define CHILDS		0x40000000UL
#define VIEW		0x60000000UL	/* the churner's */
#ifndef RUSAGE_THREAD
#define RUSAGE_THREAD	1
#endif

/* the page shared with the child: who waits for what */
enum { READY, ROUND, ACK, STOP, COLLAPSED, FAULTS, CHURNS, RETRACTED, BAD, BUSY,
       PASSES, AT = PASSES + FAULTERS };	/* AT: the unit each thread reads, +1 */

static volatile int *sh;
static int fd;
static unsigned int digest = DIGEST_INIT;

/* mmap of the file (inlined: out of line, gcc hands mmap2's number over in
 * %ebp, which syscalls.sh cannot read) */
static inline __attribute__((always_inline)) unsigned char *
map_file(unsigned long addr, unsigned long len)
{
	return mmap((void *)addr, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
}

/*
 * The first and last word of every page at m: 0, else 1 (noted in sh[BAD]).
 * Thread who (-1: none) leaves alone the unit the test is collapsing
 * (sh[BUSY]): a fault of its waiting on a page's lock would hold a
 * reference, and the collapse would fail (EAGAIN).  It says in sh[AT + who]
 * which unit it is in, then looks at sh[BUSY] again; the test sets sh[BUSY],
 * then waits for no thread to be in that unit.
 */
static int read_words(const unsigned char *m, int who)
{
	const unsigned int *w;
	unsigned int u, p;

	for (u = 0; u < UNITS; u++) {
		if (who >= 0) {
			sh[AT + who] = (int)u + 1;
			__sync_synchronize();
			if (sh[BUSY] == (int)u + 1)
				continue;
		}
		for (p = 0; p < HPAGE_PAGES; p++) {
			w = (const unsigned int *)(m + (u * HPAGE_PAGES + p) * PAGE_SIZE);
			if (w[0] != pattern(SEED + u, p, 0) ||
			    w[PAGE_WORDS - 1] != pattern(SEED + u, p, PAGE_WORDS - 1)) {
				sh[BAD] = (int)(u * HPAGE_PAGES + p) + 1;
				return 1;
			}
		}
	}
	if (who >= 0)
		sh[AT + who] = 0;
	return 0;
}

static long thread_minflt(void)
{
	struct rusage ru;

	if (my_syscall2(__NR_getrusage, RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_minflt;
}

/* A faulter: passes over the child's mapping until told to stop; its faults
 * (every page was mapped before it started) go to sh[FAULTS] */
static int faulter(struct thread *t)
{
	long before;

	gate_wait();
	before = thread_minflt();
	while (!sh[STOP]) {
		if (read_words((const unsigned char *)CHILDS, t->id))
			return 1;
		futex_add(&sh[PASSES + t->id], 1);
	}
	futex_add(&sh[FAULTS], (int)(thread_minflt() - before));
	return 0;
}

/* The churner: a second view of the file, mapped, read and unmapped */
static int churner(struct thread *t)
{
	unsigned char *v;

	gate_wait();
	while (!sh[STOP]) {
		v = map_file(VIEW, UNITS * HPAGE);
		if (v != (unsigned char *)VIEW) {
			sh[BAD] = -1;
			return 1;
		}
		if (read_words(v, t->id))
			return 1;
		if (munmap(v, UNITS * HPAGE)) {
			sh[BAD] = -2;
			return 1;
		}
		if (sh[ROUND] && sh[ROUND] <= UNITS)
			futex_add(&sh[CHURNS], 1);
	}
	return 0;
}

/* MADV_COLLAPSE of one unit, again while EAGAIN: 51 tries, 20 ms apart */
static long collapse(unsigned char *m)
{
	return shmem_collapse(m, 51, 20);
}

static void child(void)
{
	struct thread *t;
	unsigned char *m;
	unsigned long pte;
	int u;
	long r;

	m = map_file(CHILDS, UNITS * HPAGE);
	if (m != (unsigned char *)CHILDS)
		fail("child: mmap at 0x%lx gave %p (errno %d)", CHILDS, m, errno);
	if (read_words(m, -1))
		fail("child: page %d reads wrong before any collapse", sh[BAD] - 1);
	t = threads_create(FAULTERS + 1, faulter, NULL);
	t[FAULTERS].fn = churner;
	pte = proc_kb("/proc/self/status", "VmPTE");	/* a table a unit */
	threads_start(t, FAULTERS + 1);
	futex_add(&sh[READY], 1);
	for (u = 0; u < UNITS; u++) {
		futex_wait_for(&sh[ROUND], u + 1);
		r = collapse(m + u * HPAGE);
		if (r)
			sh[COLLAPSED] = (int)r;
		futex_add(&sh[ACK], 1);
	}
	futex_wait_for(&sh[STOP], 1);
	threads_join(t, FAULTERS + 1);
	if (sh[BAD])
		exit_group(1);	/* the test says what went wrong */
	/* the churner's view is unmapped: the tables gone are the units' */
	sh[RETRACTED] = (int)((long)(pte - proc_kb("/proc/self/status", "VmPTE")) /
			      (long)(PAGE_SIZE / 1024));
	for (u = 0; u < UNITS; u++)
		hpage_check(m + u * HPAGE, SEED + u, "child, at the end", &digest);
	exit_group(0);
}

TEST_MAIN()
{
	unsigned long base, pte;
	unsigned char *m;
	int u, i, st, passes[FAULTERS], started[FAULTERS];
	long r;
	pid_t pid;

	thp_enable();
	fd = shmem_memfd("thp_retract_race", UNITS, SEED, &base);

	sh = map_shared(PAGE_SIZE);
	pid = fork_child();
	if (pid == 0)
		child();
	m = map_file(MINE, UNITS * HPAGE);
	if (m != (unsigned char *)MINE)
		fail("mmap at 0x%lx gave %p (errno %d)", MINE, m, errno);
	if (read_words(m, -1))
		fail("page %d reads wrong before any collapse", sh[BAD] - 1);
	futex_wait_for(&sh[READY], 1);
	for (u = 0; u < FAULTERS; u++) {
		futex_wait_for(&sh[PASSES + u], 1);	/* every faulter under way */
		started[u] = sh[PASSES + u];
	}

	for (u = 0; u < UNITS; u++) {
		pte = proc_kb("/proc/self/status", "VmPTE");
		sh[BUSY] = u + 1;
		__sync_synchronize();
		for (i = 0; i <= FAULTERS; i++)
			while (sh[AT + i] == u + 1 && !sh[BAD])
				sleep_ms(1);
		r = collapse(m + u * HPAGE);
		sh[BUSY] = 0;
		if (r)
			fail("unit %d: madvise(MADV_COLLAPSE): %ld", u, r);
		if (meminfo_kb("ShmemHugePages") < base + (u + 1) * HPAGE / 1024)
			fail("unit %d: no collapse: ShmemHugePages %lu kB, was %lu kB",
			     u, meminfo_kb("ShmemHugePages"), base);
		if (proc_kb("/proc/self/status", "VmPTE") + PAGE_SIZE / 1024 > pte)
			fail("unit %d: our pte table was not retracted: VmPTE %lu kB, was %lu kB",
			     u, proc_kb("/proc/self/status", "VmPTE"), pte);
		futex_add(&sh[ROUND], 1);
		futex_wait_for(&sh[ACK], u + 1);
		if (sh[COLLAPSED])
			fail("unit %d: the child's MADV_COLLAPSE: %d", u, sh[COLLAPSED]);
	}
	/* each faulter makes two more passes, all of them after the last round */
	for (u = 0; u < FAULTERS; u++) {
		passes[u] = sh[PASSES + u];
		if (passes[u] == started[u] && !sh[BAD])
			fail("faulter %d made no pass while the tables were retracted", u);
	}
	for (u = 0; u < FAULTERS && !sh[BAD]; u++)
		while (sh[PASSES + u] < passes[u] + 2 && !sh[BAD])
			sleep_ms(5);
	futex_add(&sh[STOP], 1);
	st = reap(pid);
	if (sh[BAD] > 0)
		fail("file page %d read wrong in the child while collapsing", sh[BAD] - 1);
	if (sh[BAD] < 0)
		fail("the churner's %s failed", sh[BAD] == -1 ? "mmap" : "munmap");
	if (st)
		fail("child: status %d (its FAIL line says why)", st);
	if (!sh[CHURNS])
		fail("the churner mapped and unmapped no view during the collapses");
	/* a unit's table may come back: a fault can map the huge page by ptes
	 * again after the retraction (seen once on 6.1 x86_64: 3 of 4) */
	if (sh[RETRACTED] < 1)
		fail("the child has %d pte tables fewer after the collapses: none was retracted",
		     sh[RETRACTED]);
	corrupt_if_asked(m + PAGE_SIZE);
	for (u = 0; u < UNITS; u++)
		hpage_check(m + u * HPAGE, SEED + u, "after the collapses", &digest);
	printf("# %s: units=%d faulters=%d passes_during=%d faults=%d churns=%d child_tables_retracted=%d shmem_huge_kb=%lu digest=%08x\n",
	       test_name, UNITS, FAULTERS,
	       passes[0] - started[0] + passes[1] - started[1] + passes[2] - started[2],
	       sh[FAULTS], sh[CHURNS], sh[RETRACTED],
	       meminfo_kb("ShmemHugePages") - base, digest);
	if (munmap(m, UNITS * HPAGE))
		fail("munmap: errno %d", errno);
	shmem_memfd_close(fd, base);
	pass();
}
