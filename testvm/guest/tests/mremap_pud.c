// SPDX-License-Identifier: GPL-2.0
/*
 * mremap_pud - mremap of a whole pmd table: on x86_64 (four levels) a 1 GiB
 * region, aligned to 1 GiB (one pud entry), with a page written in each of
 * NPOP of its 2 MiB pmd entries, is moved to another 1 GiB-aligned address
 * and then to a third.  move_page_tables() then moves the pud entry itself
 * (move_normal_pud(), HAVE_MOVE_PUD) under pud_lock(), which is the mm's
 * page_table_lock in both modes: one table-lock acquisition for the whole
 * region, and without it none.  Had it fallen back to move_normal_pmd() or move_ptes(), each
 * populated pmd entry would have cost at least one (the pmd lock or the pte
 * lock), NPOP in all, so lock_stat proves which ran.  After each move the
 * data must be at the new address, and a child reading the old one must die
 * of SIGSEGV.  i386 has no pud table to move (two or three levels): skipped
 * there; so are kernels without lock_stat.
 *
 * Exercises: `move_normal_pud`: a whole pmd table moved by mremap (x86_64,
 *   `HAVE_MOVE_PUD`): a 1 GiB region, 1 GiB aligned, a page written in 64 of
 *   its 2 MiB pmd entries, moved twice to other 1 GiB-aligned addresses
 * Invariant: each move takes `&mm->page_table_lock` (`pud_lock()`) and at
 *   most 8 table-lock acquisitions in all (with `ptlock_ptr(`, lock_stat),
 *   where a move by pmd entries or ptes would take at least 64 (mutants
 *   `move-normal-pud-skipped`, `move-normal-pud-no-lock`); the data is intact at the new
 *   address; a child reading the old address dies of SIGSEGV. Skipped on i386
 *   and without lock_stat
 */
#include "harness.h"
#include <linux/mman.h>

#define SEED		0x90d0c7edu
#define GiB		(1024UL * MiB)
#define NPOP		64			/* pmd entries with a page */
#define STEP		(GiB / NPOP)		/* 16 MiB */
#define MOVES		2
#define MAX_LOCKS	8
#define MADV_NOHUGEPAGE	15

/* the page written in pmd entry i: at 16 MiB * i plus a page each */
static unsigned long offset(unsigned long i)
{
	return i * STEP + i % 512 * PAGE_SIZE;
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	struct lock_counts mm, pt;
	unsigned char *base, *m, *to;
	unsigned long i, n;
	long ret;
	int bad, st;

	if (sizeof(long) < 8)
		skip("i386: no pud table to move (two or three levels)");
	if (!lockstat_clear())
		skip("no /proc/lock_stat: kernel without LOCK_STAT");
	/* room for 1 + MOVES regions of 1 GiB, 1 GiB aligned: reserved, not backed */
	base = mmap(NULL, (MOVES + 2) * GiB, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		fail("reserving %d GiB: errno %d", MOVES + 2, errno);
	base = (unsigned char *)(((unsigned long)base + GiB - 1) & ~(GiB - 1));
	m = mmap(base, GiB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	if (m != base)
		fail("mmap of 1 GiB at %p gave %p (errno %d)", base, m, errno);
	/* pte tables under the pmd entries, not huge pmds */
	sys_madvise(m, GiB, MADV_NOHUGEPAGE);
	for (i = 0; i < NPOP; i++)
		fill_page((unsigned int *)(m + offset(i)), SEED, i);

	for (n = 1; n <= MOVES; n++) {
		to = base + n * GiB;
		lockstat_clear();
		ret = sys_mremap(m, GiB, GiB, MREMAP_MAYMOVE | MREMAP_FIXED, to);
		lockstat_class(LOCK_MM, &mm);
		lockstat_class(LOCK_PTL, &pt);
		if (ret != (long)to)
			fail("move %lu: mremap %p to %p returned 0x%lx", n, m, to, ret);
		printf("# %s: move%lu_mm_acq=%ld move%lu_ptl_acq=%ld\n",
		       test_name, n, mm.acq, n, pt.acq);
		if (mm.acq < 1)
			fail("move %lu: page_table_lock not taken: move_normal_pud() moved the pud entry under no lock (pud_lock() is page_table_lock)",
			     n);
		if (mm.acq + pt.acq > MAX_LOCKS)
			fail("move %lu: %ld page_table_lock + %ld split lock acquisitions for one 1 GiB move: not move_normal_pud() (a move by pmd entries takes one or more for each of the %d populated)",
			     n, mm.acq, pt.acq, NPOP);
		if (n == MOVES)
			corrupt_if_asked(to + offset(1));
		for (i = 0; i < NPOP; i++) {
			bad = check_page((unsigned int *)(to + offset(i)), SEED, i, &digest);
			if (bad >= 0)
				fail("move %lu: page %lu word %d wrong at %p", n, i, bad,
				     to + offset(i));
		}
		st = touch_in_child(m + offset(n * 7 % NPOP), 0);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			fail("move %lu: reading the old address: child status 0x%x, not SIGSEGV",
			     n, st);
		m = to;
	}
	printf("# %s: populated_pmds=%d moves=%d digest=%08x\n", test_name, NPOP, MOVES,
	       digest);
	pass();
}
