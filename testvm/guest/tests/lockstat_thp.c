// SPDX-License-Identifier: GPL-2.0
/*
 * lockstat_thp - the pmd-level lock the mode says, counted by lock_stat:
 * HUGES transparent huge pages are faulted in and unmapped, each fault and
 * each zap taking the pmd lock once (__do_huge_pmd_anonymous_page(),
 * zap_huge_pmd()).  With split_ptlocks on and split pmd locks built in
 * (PAE), that is the pmd table's own lock, class ptlock_ptr(page); with it
 * off, &mm->page_table_lock.  So: at least 2 * HUGES acquisitions of the one
 * class and fewer than HUGES of the other.  A pmd_lockptr() that ignored
 * the mode would be seen here.  Needs lock_stat (debug kernels), the series
 * and THP: skipped without them, unless the cell says ptltest.thp=1.
 *
 * Exercises: the pmd-level lock (`pmd_lockptr()`, PAE with the series and
 *   lock_stat): 8 THPs faulted (`__do_huge_pmd_anonymous_page()`) and unmapped
 *   (`zap_huge_pmd()`) in one pmd table
 * Invariant: at least 16 acquisitions of the mode's class (`ptlock_ptr(page)`
 *   on, `&mm->page_table_lock` off) and fewer than 8 of the other; data intact;
 *   AnonHugePages back after munmap
 */
#include "harness.h"

#define HUGES		8
#define BASE		0x20000000UL	/* HUGES huge pages in pmd table 0 */
#define SEED		0x10c5f7a0u

TEST_MAIN()
{
	struct lock_counts mm, pt, want, other;
	unsigned int digest = DIGEST_INIT;
	unsigned char *m[HUGES];
	unsigned long base_kb;
	int i, on;

	on = lockstat_split_on();
	thp_enable();
	base_kb = thp_anon_kb();

	lockstat_clear();
	for (i = 0; i < HUGES; i++)
		m[i] = thp_map_at(BASE + i * HPAGE, SEED + i);
	for (i = 0; i < HUGES; i++) {
		hpage_check(m[i], SEED + i, "before munmap", &digest);
		if (munmap(m[i], HPAGE))
			fail("munmap: errno %d", errno);
	}
	lockstat_class(LOCK_MM, &mm);
	lockstat_class(LOCK_PTL, &pt);
	if (thp_anon_kb() != base_kb)
		fail("after munmap AnonHugePages %lu kB, was %lu kB", thp_anon_kb(), base_kb);

	printf("# %s: mode=%s huges=%d mm_acq=%ld ptl_acq=%ld digest=%08x\n",
	       test_name, on ? "on" : "off", HUGES, mm.acq, pt.acq, digest);
	want = on ? pt : mm;
	other = on ? mm : pt;
	if (want.acq < 2 * HUGES)
		fail("split %s, but %s taken %ld times for %d huge faults and zaps",
		     on ? "on" : "off", on ? LOCK_PTL ")" : LOCK_MM, want.acq, 2 * HUGES);
	if (other.acq >= HUGES)
		fail("split %s, but %s taken %ld times", on ? "on" : "off",
		     on ? LOCK_MM : LOCK_PTL ")", other.acq);
	pass();
}
