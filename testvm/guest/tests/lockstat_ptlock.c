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
 * Where faults take the per-VMA lock instead of mmap_lock (PER_VMA_LOCK:
 * 6.12 on x86_64), the page-table lock is the one lock the threads still
 * share: with PER_VMA_LOCK_STATS, /proc/vmstat's vma_lock_success must have
 * counted (nearly) every fault, lock_stat the VMA lock's acquisitions, and
 * mmap_lock must have stayed out of it.  ptltest.vma_lock=1 (the cells of
 * such kernels) fails the test when /proc/vmstat has no vma_lock_success.
 *
 * Exercises: which lock faults take (debug kernels)
 * Invariant: after clearing `/proc/lock_stat`, 4 threads fault 8 MiB: with the
 *   split on, class `ptlock_ptr(page)` is acquired at least once per page and
 *   `&mm->page_table_lock` at most for 1/8 of them; off, the reverse.
 *   Acquisitions and contentions of both are figures. Where faults take the
 *   per-VMA lock (6.12 and 7.3 x86_64; `PER_VMA_LOCK_STATS`), `vma_lock_success` in
 *   /proc/vmstat counts at least 63/64 of the faults, `&vma->vm_lock->lock` (7.3: `vm_lock`) is
 *   acquired as often, and `&mm->mmap_lock` at most for 1/8 of them: the
 *   threads met only in the page-table lock (`ptltest.vma_lock=1`: no counter
 *   fails). Skipped without lock_stat or the series
 */
#include "harness.h"

#define NTHREADS	4
#define MIB_PER_THREAD	2
#define SEED		0x10c55a7u

TEST_MAIN()
{
	struct lock_counts mm, pt, mmap, vma;
	long pages, vma_ok0, vma_ok, vma_retry0, bad;
	unsigned int digest = DIGEST_INIT;
	struct slices sl = { .seed = SEED };
	struct thread *t;
	int on, word;

	on = lockstat_split_on();
	sl.pages = MIB_PER_THREAD * MiB / PAGE_SIZE;
	pages = NTHREADS * sl.pages;
	sl.area = map_anon(pages * PAGE_SIZE);
	/* one fault per page, one pte lock each: no THP (older kernels: EINVAL) */
	sys_madvise(sl.area, pages * PAGE_SIZE, MADV_NOHUGEPAGE);
	t = threads_create(NTHREADS, touch_slice, &sl);

	vma_ok0 = vmstat_count("vma_lock_success");
	vma_retry0 = vmstat_count("vma_lock_retry");
	if (vma_ok0 < 0 && cmdline_ulong("ptltest.vma_lock", 0))
		fail("ptltest.vma_lock=1, but /proc/vmstat has no vma_lock_success: kernel without PER_VMA_LOCK_STATS (or VM_EVENT_COUNTERS)");
	lockstat_clear();
	threads_run(t, NTHREADS);
	lockstat_class(LOCK_MM, &mm);
	lockstat_class(LOCK_PTL, &pt);
	lockstat_class(LOCK_MMAP, &mmap);
	lockstat_class(LOCK_VMA, &vma);
	if (!vma.acq)
		lockstat_class(LOCK_VMA_REF, &vma);
	vma_ok = vma_ok0 < 0 ? -1 : vmstat_count("vma_lock_success") - vma_ok0;
	printf("# %s: mode=%s pages=%ld mm_acq=%ld mm_con=%ld ptl_acq=%ld ptl_con=%ld",
	       test_name, on ? "on" : "off", pages, mm.acq, mm.con, pt.acq, pt.con);
	if (vma_ok0 >= 0)
		printf(" vma_lock_success=%ld vma_lock_retry=%ld vma_acq=%ld mmap_acq=%ld",
		       vma_ok, vmstat_count("vma_lock_retry") - vma_retry0, vma.acq, mmap.acq);
	bad = check_pages(sl.area, pages, SEED, &digest, &word);
	printf(" digest=%08x\n", digest);
	if (bad >= 0)
		fail("page %ld, word %d: not what its thread wrote", bad, word);
	if (vma_ok0 >= 0) {
		if (vma_ok < pages - pages / 64)
			fail("per-VMA locks: vma_lock_success counted %ld of %ld faults", vma_ok, pages);
		if (vma.acq < vma_ok)
			fail("per-VMA locks: &vma->vm_lock->lock acquired %ld times for %ld faults under it",
			     vma.acq, vma_ok);
		if (mmap.acq > pages / 8)
			fail("per-VMA locks: mmap_lock still acquired %ld times for %ld faults",
			     mmap.acq, pages);
	}
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
