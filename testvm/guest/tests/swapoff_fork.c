// SPDX-License-Identifier: GPL-2.0
/*
 * swapoff_fork - fork with swapped-out pages, then swapoff.  fork copies the
 * swap entries (copy_one_pte()'s swap path: swap_duplicate() and the child's
 * mm put on init_mm.mmlist, which the 2005 split had to redo under
 * mmlist_lock); parent and 3 children then each write a quarter of the
 * pages with their own pattern (do_swap_page() and COW of a swap entry
 * that 4 mms share), and one swapoff must bring back every process's view
 * of the rest, still in swap: the parent's original pages.  Each
 * process verifies its own view; children report by exit status and hand
 * their digest back in a shared page.
 *
 * Exercises: fork with swapped-out pages (`copy_one_pte`'s swap-entry path and
 *   the mmlist insertion patch 8/9 redid under `mmlist_lock`); parent and 3
 *   children copy-on-write a quarter each, then one swapoff
 * Invariant: every process's view is intact after swapoff: its own quarter with
 *   its own pattern, the parent's elsewhere
 */
#include "harness.h"

#define NPROC	4		/* the parent is process 0 */
#define SEED	0x5a0ff300u

struct shared {
	volatile int written;		/* processes done writing */
	volatile int swapped_off;	/* 1 once swapoff returned */
	unsigned int digest[NPROC];
	int bad_page[NPROC];
};

static unsigned char *area;
static unsigned long pages;

/* Process id's view: its quarter of the pages is its own, the rest the parent's. */
static unsigned int seed_of(int id, unsigned long p)
{
	return (int)(p % NPROC) == id ? SEED + 1 + id : SEED;
}

static void write_quarter(int id)
{
	unsigned long p;

	for (p = id; p < pages; p += NPROC)
		fill_page((unsigned int *)(area + p * PAGE_SIZE), SEED + 1 + id, p);
}

/* Verify process id's view; returns the first bad page or -1. */
static long verify(struct shared *sh, int id)
{
	unsigned int digest = DIGEST_INIT;
	unsigned long p;

	if (id == NPROC - 1)
		corrupt_if_asked(area + (pages / 2) * PAGE_SIZE);
	for (p = 0; p < pages; p++)
		if (check_page((unsigned int *)(area + p * PAGE_SIZE), seed_of(id, p), p,
			       &digest) >= 0)
			return sh->bad_page[id] = p;
	sh->digest[id] = digest;
	return -1;
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	long used0, used1, used, out, err, ms, bad0;
	unsigned long mib = swap_test_mib();
	struct shared *sh;
	pid_t pid[NPROC];
	int i, st, bad = 0;
	char dev[64];

	pages = mib * MiB / PAGE_SIZE;
	swap_device(dev, sizeof(dev));
	sh = map_shared(PAGE_SIZE);
	used0 = swap_used_pages();
	area = swap_out_area(pages, SEED, &out, &used1);
	if (used1 < (long)pages / 4)
		fail("only %ld of %lu pages reached swap before fork", used1, pages);

	for (i = 1; i < NPROC; i++) {
		pid[i] = fork_child();
		if (pid[i] == 0) {
			write_quarter(i);
			futex_add(&sh->written, 1);
			futex_wait_for(&sh->swapped_off, 1);
			exit_group(verify(sh, i) >= 0);
		}
	}
	write_quarter(0);
	futex_add(&sh->written, 1);
	futex_wait_for(&sh->written, NPROC);
	used = swap_used_pages() - used0;
	if (used < (long)pages / 4)
		fail("only %ld swap pages in use after the writes", used);

	ms = now_ms();
	err = sys_swapoff(dev);
	ms = now_ms() - ms;
	futex_add(&sh->swapped_off, 1);
	if (!err)
		swap_on_again(dev);
	bad0 = verify(sh, 0);
	for (i = 1; i < NPROC; i++) {
		st = reap(pid[i]);
		if (st) {
			printf("# %s: child %d: exit status %d, bad page %d\n",
			       test_name, i, st, sh->bad_page[i]);
			bad++;
		}
	}
	if (err < 0)
		fail("swapoff(%s) with %ld pages out: errno %ld", dev, used, -err);
	if (bad0 >= 0)
		fail("parent: page %ld corrupt after swapoff", bad0);
	if (bad)
		fail("%d of %d children found a corrupt page after swapoff", bad, NPROC - 1);
	for (i = 0; i < NPROC; i++)
		digest = digest_word(digest, sh->digest[i]);
	printf("# %s: procs=%d pages=%lu swapped_at_fork=%ld swapped_at_swapoff=%ld "
	       "swapoff_ms=%ld digest=%08x\n",
	       test_name, NPROC, pages, used1, used, ms, digest);
	pass();
}
