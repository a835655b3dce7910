// SPDX-License-Identifier: GPL-2.0
/*
 * thp_shmem_collapse - a shmem file's small pages collapsed into a huge
 * page, and the page tables that mapped them retracted, in this process and
 * in another.  A 2 MiB memfd is written through write(2), so its page cache
 * holds small pages; a child and this process each map it MAP_SHARED at a
 * 2 MiB-aligned address and read every page: each has a pte table for it.
 * Then MADV_COLLAPSE here: collapse_file() makes the huge page
 * (ShmemHugePages grows by it) and retracts pte tables that map the range:
 * this process's at once (VmPTE falls by a table).  6.12's
 * retract_page_tables() clears every mapping's pmd, under the pmd lock with
 * the table's lock nested unless they are one lock (split_ptlocks=off), so
 * the child's table goes too; 6.1's leaves other processes to khugepaged.
 * The child then calls MADV_COLLAPSE itself, which finds the huge page and,
 * where its table is still there, retracts it (collapse_pte_mapped_thp()):
 * its VmPTE must then have fallen by a table.  The child also maps the file
 * MAP_PRIVATE twice, one only read (no anon_vma: its table may be
 * retracted) and one with a page written (an anon_vma and a COW page: the
 * re-check under the locks must leave that table alone): after the
 * collapses both read what they must, the written page its own data.  Then
 * the child asks MADV_COLLAPSE of the written mapping: the folio is huge
 * already, so collapse_pte_mapped_thp() scans the table under its lock,
 * meets the COW page and aborts (EINVAL), releasing the one lock it holds
 * (the abort path that in off mode finds ptl equal to pml); where lock_stat
 * is built, the call must have taken a table lock (it reached the scan).  MADV_COLLAPSE collapses
 * shmem whatever shmem_enabled says, and no mapping is MADV_HUGEPAGE until
 * then, so khugepaged never races it.  Last, with shmem THP on for
 * MADV_HUGEPAGE areas (shmem_enabled "advise", restored after), the file
 * grows by 2 MiB, mapped MADV_HUGEPAGE and written: the first write fault
 * must make a huge page (ShmemHugePages grows by it again).  Every page
 * reads right in every view.
 *
 * Exercises: shmem collapse (`collapse_file()`, `retract_page_tables()`,
 *   `collapse_pte_mapped_thp()`): a 2 MiB memfd written by write(2), mapped
 *   MAP_SHARED and read by a child and by the test, and MAP_PRIVATE twice by the
 *   child (one page of one written), `MADV_COLLAPSE` in the test, then in the
 *   child, then of the written private mapping (the abort of
 *   `collapse_pte_mapped_thp()`); then with `shmem_enabled` "advise" the file
 *   grown by 2 MiB, mapped `MADV_HUGEPAGE` and written
 * Invariant: ShmemHugePages grows by 2048 kB; VmPTE of the test falls by at
 *   least one page table at once, the child's once it has called
 *   `MADV_COLLAPSE` too (how many of its tables went at once is printed:
 *   6.12 retracts them, 6.1 leaves them to the child); the write faults of the grown part raise
 *   ShmemHugePages by another 2048 kB;
 *   every page reads back the pattern in every mapping, the child's written
 *   private page its own data, also after the aborted collapse, which returns
 *   EINVAL having taken a table lock (lock_stat); ShmemHugePages back
 *   to its start once the file is closed.  Skip and `ptltest.thp=1` as
 *   `thp_mremap`; a kernel with THP but no shmem THP (a page cache without
 *   PMD-size folios) fails
 */
#include "harness.h"

#define SEED		0x5c011a00u
#define MINE		0x20000000UL	/* 2 MiB-aligned */
#define CHILDS		0x60000000UL
#define THIRD		0x90000000UL
#define CLEAN		0x70000000UL	/* the child's MAP_PRIVATE, only read */
#define DIRTY		0x80000000UL	/* the child's MAP_PRIVATE, one page written */
#define SHMEM_ENABLED	"/sys/kernel/mm/transparent_hugepage/shmem_enabled"

static unsigned int digest = DIGEST_INIT;

/*
 * Map the file at addr (MADV_HUGEPAGE if huge), and read and check every
 * page (inlined: out of line, gcc hands mmap2's number over in %ebp, which
 * syscalls.sh cannot read)
 */
static inline __attribute__((always_inline)) unsigned char *
map_and_read(int fd, unsigned long addr, int flags, int huge, const char *who)
{
	unsigned char *m = mmap((void *)addr, HPAGE, PROT_READ | PROT_WRITE, flags, fd, 0);

	if (m == MAP_FAILED || (unsigned long)m != addr)
		fail("%s: mmap at 0x%lx gave %p (errno %d)", who, addr, m, errno);
	if (huge && sys_madvise(m, HPAGE, MADV_HUGEPAGE))
		fail("%s: madvise(MADV_HUGEPAGE): errno %d", who, errno);
	hpage_check(m, SEED, who, &digest);
	return m;
}

/* The child's private mappings: the file's data, the written page its own */
static void check_private(unsigned char *clean, unsigned char *dirty, const char *when)
{
	unsigned long p;

	hpage_check(clean, SEED, "child, private", &digest);
	if (check_page((unsigned int *)dirty, SEED + 2, 0, &digest) >= 0)
		fail("child, %s: the private page written before lost its data", when);
	for (p = 1; p < HPAGE_PAGES; p++)
		if (check_page((unsigned int *)(dirty + p * PAGE_SIZE), SEED, p, &digest) >= 0)
			fail("child, %s: private page %lu, not written, reads wrong", when, p);
}

/* MADV_COLLAPSE, again while EAGAIN: 6 tries, 100 ms apart */
static long collapse(void *m)
{
	return shmem_collapse(m, 6, 100);
}

/* The word in brackets of a sysfs choice ("always [advise] never") */
static void sysfs_choice(const char *path, char *out, int size)
{
	char buf[128], *b, *e;

	if (read_file(path, buf, sizeof(buf)) < 0)
		fail("cannot read %s", path);
	b = strchr(buf, '[');
	e = b ? strchr(b, ']') : NULL;
	if (!e || e - b - 1 >= size)
		fail("%s: no [choice] in \"%s\"", path, buf);
	memcpy(out, b + 1, e - b - 1);
	out[e - b - 1] = 0;
}

TEST_MAIN()
{
	char was[16], status[32];
	unsigned long base, mine_pte, child_pte, huge;
	/* [0] mapped, [1] go, [2] collapsed, [3] its result, [4] the aborted
	 * one's, [5] the table locks that took (-1: no lock_stat) */
	volatile int *sh;
	unsigned char *m, *third, *clean, *dirty;
	struct lock_counts mm = { 0, 0, 0 }, pt = { 0, 0, 0 };
	int fd, st, at_once, lockstat;
	long r;
	pid_t pid;

	thp_enable();
	fd = shmem_memfd("thp_shmem_collapse", 1, SEED, &base);
	sysfs_choice(SHMEM_ENABLED, was, sizeof(was));

	sh = map_shared(PAGE_SIZE);
	pid = fork_child();
	if (pid == 0) {
		m = map_and_read(fd, CHILDS, MAP_SHARED, 0, "child");
		clean = map_and_read(fd, CLEAN, MAP_PRIVATE, 0, "child, private");
		dirty = map_and_read(fd, DIRTY, MAP_PRIVATE, 0, "child, private written");
		fill_page((unsigned int *)dirty, SEED + 2, 0);	/* an anon_vma, a COW page */
		futex_add(&sh[0], 1);
		futex_wait_for(&sh[1], 1);
		sh[3] = collapse(m);
		hpage_check(m, SEED, "child, after the collapse", &digest);
		check_private(clean, dirty, "after the collapse");
		/*
		 * The file's folio is huge now: MADV_COLLAPSE of the written
		 * mapping goes to collapse_pte_mapped_thp(), whose first scan,
		 * under the table's lock, meets the COW page and aborts
		 */
		lockstat = lockstat_clear();
		sh[4] = collapse(dirty);
		if (lockstat) {
			lockstat_class(LOCK_MM, &mm);
			lockstat_class(LOCK_PTL, &pt);
		}
		sh[5] = lockstat ? mm.acq + pt.acq : -1;
		if (sh[4] != -EINVAL)
			fail("child: MADV_COLLAPSE of the written private mapping: %d, not -EINVAL",
			     sh[4]);
		if (!sh[5])
			fail("child: MADV_COLLAPSE of the written private mapping took no table lock: collapse_pte_mapped_thp() did not scan it");
		check_private(clean, dirty, "after the aborted collapse");
		futex_add(&sh[2], 1);
		futex_wait_for(&sh[1], 2);
		exit_group(0);
	}
	futex_wait_for(&sh[0], 1);
	m = map_and_read(fd, MINE, MAP_SHARED, 0, "test");
	strcpy(status, "/proc/");
	utoa_r(pid, status + strlen(status));
	strcpy(status + strlen(status), "/status");
	mine_pte = proc_kb("/proc/self/status", "VmPTE");
	child_pte = proc_kb(status, "VmPTE");
	if (!mine_pte || !child_pte)
		fail("no VmPTE in /proc/self/status or %s", status);

	r = collapse(m);
	if (r)
		fail("madvise(MADV_COLLAPSE): %ld", r);
	if (meminfo_kb("ShmemHugePages") < base + HPAGE / 1024)
		fail("no collapse: ShmemHugePages %lu kB, was %lu kB",
		     meminfo_kb("ShmemHugePages"), base);
	if (proc_kb("/proc/self/status", "VmPTE") + PAGE_SIZE / 1024 > mine_pte)
		fail("our pte table was not retracted: VmPTE %lu kB, was %lu kB",
		     proc_kb("/proc/self/status", "VmPTE"), mine_pte);
	/* tables of the child's gone at once (6.12: its shared and clean private) */
	at_once = (long)(child_pte - proc_kb(status, "VmPTE")) / (PAGE_SIZE / 1024);
	futex_add(&sh[1], 1);
	futex_wait_for(&sh[2], 1);
	if (proc_kb(status, "VmPTE") + PAGE_SIZE / 1024 > child_pte)
		fail("the child's pte table was not retracted (its MADV_COLLAPSE: %d): VmPTE %lu kB, was %lu kB",
		     sh[3], proc_kb(status, "VmPTE"), child_pte);
	corrupt_if_asked(m + PAGE_SIZE);
	hpage_check(m, SEED, "after the collapse", &digest);
	futex_add(&sh[1], 1);
	st = reap(pid);
	if (st)
		fail("child: status %d (its FAIL line says why)", st);

	/* shmem THP for MADV_HUGEPAGE areas: a write fault in a hole makes one */
	if (write_file(SHMEM_ENABLED, "advise") < 0)
		fail("cannot write advise to %s", SHMEM_ENABLED);
	huge = meminfo_kb("ShmemHugePages");
	if (sys_ftruncate(fd, 2 * HPAGE))
		fail("ftruncate to %lu: errno %d", 2 * HPAGE, errno);
	third = mmap((void *)THIRD, HPAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, HPAGE);
	if (third == MAP_FAILED || (unsigned long)third != THIRD)
		fail("mmap at 0x%lx gave %p (errno %d)", THIRD, third, errno);
	if (sys_madvise(third, HPAGE, MADV_HUGEPAGE))
		fail("madvise(MADV_HUGEPAGE): errno %d", errno);
	fill_pages(third, HPAGE_PAGES, SEED + 1);
	if (meminfo_kb("ShmemHugePages") < huge + HPAGE / 1024)
		fail("shmem_enabled advise, MADV_HUGEPAGE: no huge page faulted, ShmemHugePages %lu kB, was %lu kB",
		     meminfo_kb("ShmemHugePages"), huge);
	hpage_check(third, SEED + 1, "the huge page faulted", &digest);
	if (write_file(SHMEM_ENABLED, was) < 0)
		fail("cannot write %s back to %s", was, SHMEM_ENABLED);
	printf("# %s: shmem_huge_kb=%lu child_tables_at_once=%d child_collapse=%d abort=%d abort_locks=%d digest=%08x\n",
	       test_name, huge - base, at_once, sh[3], sh[4], sh[5], digest);
	if (munmap(m, HPAGE) || munmap(third, HPAGE))
		fail("munmap: errno %d", errno);
	shmem_memfd_close(fd, base);
	pass();
}
