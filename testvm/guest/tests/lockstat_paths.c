// SPDX-License-Identifier: GPL-2.0
/*
 * lockstat_paths - each path that must lock a page table is seen taking the
 * lock, counted by lock_stat in the class the mode says (ptlock_ptr(page)
 * with split_ptlocks on, &mm->page_table_lock off), so that a path that lost
 * its lock shows as a count too low, not only as a debug warning when it
 * races.  TABLES pte tables are populated, one page each, 4 MiB apart:
 *   fork: copy_pte_range() locks the child's table and the parent's, so the
 *         fork takes the class at least 2 * TABLES times;
 *   swapoff: unuse_pte() locks the table of each swapped-out page it brings
 *         back: after swap pressure pushed out S of the process's pages (its
 *         resident set fell by S; S >= TABLES / 4, or the pressure missed
 *         its subject and the test fails), swapoff takes it at least S
 *         times, and the pages read back right;
 *   zap:  zap_pte_range() locks each table it zaps, so the munmap of the
 *         area takes it at least TABLES times.
 * TABLES is large against what else takes the lock meanwhile (the child's
 * and the parent's own copy-on-write faults, some 50 here), so that a fork
 * that locks only one side, or a zap that locks none, falls below the bound.
 * Needs /proc/lock_stat (debug kernels) and the series, skipped without;
 * and swap, failed without.
 *
 * Exercises: the lock of each path, counted (debug kernels, with the series):
 *   256 pte tables populated one page each, 4 MiB apart (1 GiB of
 *   `MAP_NORESERVE` address space); a fork (`copy_pte_range()`: child's and
 *   parent's table), then a munmap (`zap_pte_range()`)
 * Invariant: lock_stat, in the class the mode says: the fork takes it at least
 *   2 × 256 times, the munmap at least 256 times; the child reads every
 *   inherited page right. In on mode the counts are clean (PAE: 3 per table
 *   with the child's pmd-level `pmd_install()`; non-PAE 2); in off mode every
 *   table lock is the one `page_table_lock`, which other per-table work takes
 *   too (about 3 per table on non-PAE), so there the bound holds but cannot
 *   single out a path
 */
#include "harness.h"

#define TABLES		256
#define STRIDE		(4 * MiB)	/* a pte table, or two with PAE */
#define SEED		0x9a7b5000u
#define PUSH		4096		/* pages of swap pressure */

TEST_MAIN()
{
	struct lock_counts mm, pt;
	long fork_acq, zap_acq, fork_other, zap_other, swap_acq, swapped;
	char dev[64];
	unsigned int digest = DIGEST_INIT;
	volatile int *go;
	unsigned char *area;
	int i, on, status;
	pid_t pid;

	on = lockstat_split_on();
	go = map_shared(PAGE_SIZE);
	/* 1 GiB of address space, a page of it used: not charged to memory */
	area = mmap(NULL, (TABLES + 1) * STRIDE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED)
		fail("mmap of %lu bytes: errno %d", (TABLES + 1) * STRIDE, errno);
	area = (unsigned char *)(((unsigned long)area + STRIDE - 1) & ~(STRIDE - 1));
	for (i = 0; i < TABLES; i++)
		fill_page((unsigned int *)(area + i * STRIDE), SEED, i);
	*go = 0;
	lockstat_class(LOCK_MM, &mm);	/* its buffer faulted in before the count */

	lockstat_clear();
	pid = fork_child();
	if (pid == 0) {
		for (i = 0; i < TABLES; i++)
			if (check_page((unsigned int *)(area + i * STRIDE), SEED, i,
				       &digest) >= 0)
				exit_group(2);
		futex_wait_for(go, 1);
		exit_group(0);
	}
	lockstat_class(LOCK_MM, &mm);
	lockstat_class(LOCK_PTL, &pt);
	fork_acq = on ? pt.acq : mm.acq;
	fork_other = on ? mm.acq : pt.acq;
	futex_add(go, 1);
	status = reap(pid);
	if (status)
		fail("child: status %d (2: a page it inherited was wrong)", status);

	swap_device(dev, sizeof(dev));
	swapped = statm_resident();
	swap_push(PUSH);
	swapped -= statm_resident();
	if (swapped < TABLES / 4)
		fail("swap pressure of %d pages pushed out %ld of ours, not %d",
		     PUSH, swapped, TABLES / 4);
	lockstat_clear();
	if (sys_swapoff(dev) < 0)
		fail("swapoff(%s): errno %d", dev, errno);
	lockstat_class(LOCK_MM, &mm);
	lockstat_class(LOCK_PTL, &pt);
	swap_on_again(dev);
	swap_acq = on ? pt.acq : mm.acq;
	for (i = 0; i < TABLES; i++)
		if (check_page((unsigned int *)(area + i * STRIDE), SEED, i, &digest) >= 0)
			fail("page %d wrong after swapoff", i);

	lockstat_clear();
	if (munmap(area, TABLES * STRIDE))	/* what is left around it is untouched */
		fail("munmap: errno %d", errno);
	lockstat_class(LOCK_MM, &mm);
	lockstat_class(LOCK_PTL, &pt);
	zap_acq = on ? pt.acq : mm.acq;
	zap_other = on ? mm.acq : pt.acq;

	printf("# %s: mode=%s tables=%d fork_acq=%ld fork_other=%ld swapped=%ld swap_acq=%ld zap_acq=%ld zap_other=%ld\n",
	       test_name, on ? "on" : "off", TABLES, fork_acq, fork_other, swapped,
	       swap_acq, zap_acq, zap_other);
	if (fork_acq < 2 * TABLES)
		fail("fork of %d tables took %s %ld times, not at least %d",
		     TABLES, on ? LOCK_PTL ")" : LOCK_MM, fork_acq, 2 * TABLES);
	if (swap_acq < swapped)
		fail("swapoff of %ld of our pages took %s %ld times, not at least %ld",
		     swapped, on ? LOCK_PTL ")" : LOCK_MM, swap_acq, swapped);
	if (zap_acq < TABLES)
		fail("munmap of %d tables took %s %ld times, not at least %d",
		     TABLES, on ? LOCK_PTL ")" : LOCK_MM, zap_acq, TABLES);
	pass();
}
