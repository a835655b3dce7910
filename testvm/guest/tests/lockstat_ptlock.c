// SPDX-License-Identifier: GPL-2.0
/*
 * lockstat_ptlock - under a multi-threaded fault load, lock_stat shows the
 * lock the mode says: acquisitions of the per-table class ptlock_ptr(page)
 * (ptlock_ptr(ptdesc) in 6.12)
 * with split_ptlocks on, of &mm->page_table_lock with it off.  Needs
 * /proc/lock_stat (debug kernels) and /sys/kernel/mm/split_ptlocks (the
 * series); skipped without them.  Reports both classes' acquisitions and
 * contentions as figures.
 *
 * Exercises: which lock faults take (debug kernels)
 * Invariant: after clearing `/proc/lock_stat`, 4 threads fault 8 MiB: with the
 *   split on, class `ptlock_ptr(page)` is acquired at least once per page and
 *   `&mm->page_table_lock` at most for 1/8 of them; off, the reverse.
 *   Acquisitions and contentions of both are figures. Skipped without lock_stat
 *   or the series
 */
#include "harness.h"

#define NTHREADS	4
#define MIB_PER_THREAD	2
#define SEED		0x10c55a7u

TEST_MAIN()
{
	struct lock_counts mm, pt;
	long pages;
	struct slices sl = { .seed = SEED };
	struct thread *t;
	int on;

	on = lockstat_split_on();
	sl.pages = MIB_PER_THREAD * MiB / PAGE_SIZE;
	pages = NTHREADS * sl.pages;
	sl.area = map_anon(pages * PAGE_SIZE);
	/* one fault per page, one pte lock each: no THP (older kernels: EINVAL) */
	sys_madvise(sl.area, pages * PAGE_SIZE, MADV_NOHUGEPAGE);
	t = threads_create(NTHREADS, touch_slice, &sl);

	lockstat_clear();
	threads_run(t, NTHREADS);
	lockstat_class(LOCK_MM, &mm);
	lockstat_class(LOCK_PTL, &pt);
	printf("# %s: mode=%s pages=%ld mm_acq=%ld mm_con=%ld ptl_acq=%ld ptl_con=%ld\n",
	       test_name, on ? "on" : "off", pages, mm.acq, mm.con, pt.acq, pt.con);
	if (on) {
		if (pt.acq < pages)
			fail("split on, but ptlock_ptr() taken %ld times for %ld faults",
			     pt.acq, pages);
		if (mm.acq > pages / 8)
			fail("split on, but page_table_lock still taken %ld times", mm.acq);
	} else {
		if (mm.acq < pages)
			fail("split off, but page_table_lock taken %ld times for %ld faults",
			     mm.acq, pages);
		if (pt.acq > pages / 8)
			fail("split off, but ptlock_ptr() taken %ld times", pt.acq);
	}
	pass();
}
