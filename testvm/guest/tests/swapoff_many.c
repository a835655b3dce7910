// SPDX-License-Identifier: GPL-2.0
/*
 * swapoff_many - one swapoff walks many mms: 8 processes each fill an area
 * of their own, a hog pushes them out, and one swapoff must bring every
 * process's pages back (try_to_unuse() following init_mm.mmlist).  Each
 * process then verifies its own pages and hands its digest back in a shared
 * page; a child reports a broken page by its exit status.
 *
 * Exercises: one swapoff walks 8 processes' mms
 * Invariant: every process's pages verify after swapoff
 */
#include "harness.h"

#define NPROC	8
#define SEED	0x5a0ff400u

struct shared {
	volatile int filled;		/* children that have filled their area */
	volatile int swapped_off;	/* 1 once swapoff returned */
	unsigned int digest[NPROC];
	int bad_page[NPROC];
};

static int child(struct shared *sh, int id, unsigned long pages)
{
	unsigned char *area = map_anon(pages * PAGE_SIZE);
	unsigned int digest = DIGEST_INIT;
	unsigned long p;

	for (p = 0; p < pages; p++)
		fill_page((unsigned int *)(area + p * PAGE_SIZE), SEED + id, p);
	futex_add(&sh->filled, 1);
	futex_wait_for(&sh->swapped_off, 1);
	if (id == NPROC / 2)
		corrupt_if_asked(area + (pages / 2) * PAGE_SIZE);
	for (p = 0; p < pages; p++) {
		if (check_page((unsigned int *)(area + p * PAGE_SIZE), SEED + id, p, &digest) >= 0) {
			sh->bad_page[id] = p;
			return 1;
		}
	}
	sh->digest[id] = digest;
	return 0;
}

TEST_MAIN()
{
	unsigned long mib = swap_test_mib(), pages = mib * MiB / PAGE_SIZE / NPROC;
	unsigned int digest = DIGEST_INIT;
	struct shared *sh;
	long used0, used, err, ms;
	pid_t pid[NPROC];
	int i, st, bad = 0;
	char dev[64];

	swap_device(dev, sizeof(dev));
	sh = map_shared(PAGE_SIZE);
	used0 = swap_used_pages();
	for (i = 0; i < NPROC; i++) {
		pid[i] = fork_child();
		if (pid[i] == 0)
			exit_group(child(sh, i, pages));
	}
	futex_wait_for(&sh->filled, NPROC);
	used = swap_push(pages * NPROC) - used0;

	ms = now_ms();
	err = sys_swapoff(dev);
	ms = now_ms() - ms;
	futex_add(&sh->swapped_off, 1);
	if (!err)
		swap_on_again(dev);
	for (i = 0; i < NPROC; i++) {
		st = reap(pid[i]);
		if (st) {
			printf("# %s: process %d: exit status %d, bad page %d\n",
			       test_name, i, st, sh->bad_page[i]);
			bad++;
		}
		digest = digest_word(digest, sh->digest[i]);
	}
	if (used < (long)(pages * NPROC) / 4)
		fail("only %ld of %lu pages reached swap", used, pages * NPROC);
	if (err < 0)
		fail("swapoff(%s) with %ld pages out: errno %ld", dev, used, -err);
	if (bad)
		fail("%d of %d processes found a corrupt page after swapoff", bad, NPROC);
	printf("# %s: procs=%d pages_each=%lu swapped=%ld swapoff_ms=%ld digest=%08x\n",
	       test_name, NPROC, pages, used, ms, digest);
	pass();
}
