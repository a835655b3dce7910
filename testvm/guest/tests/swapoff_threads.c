// SPDX-License-Identifier: GPL-2.0
/*
 * swapoff_threads - swapoff while other threads of the same process keep
 * faulting and writing: unuse_pte() and do_swap_page() race for the same
 * ptes under the same pte locks.  4 threads own interleaved pages of an area
 * that was pushed out to swap; each pass a thread checks that every page of
 * its own still holds the generation it wrote last, then writes the next
 * one.  No write may be lost: each page ends with its thread's last
 * generation, and swap is back on for the next test.
 *
 * Exercises: swapoff racing with swap-in faults of 4 threads on interleaved
 *   pages (same pte locks)
 * Invariant: each thread finds on each page the generation it wrote last, then
 *   writes the next (6 generations); no write lost
 */
#include "harness.h"

#define NTHREADS	4
#define GENS		6
#define SEED		0x5a0ff200u

static unsigned char *area;
static unsigned long pages;
static volatile int lost_page = -1, lost_gen;
static volatile int passes_done;

static int writer(struct thread *t)
{
	unsigned int scratch, g;
	unsigned long p;

	gate_wait();
	for (g = 1; g <= GENS; g++) {
		for (p = t->id; p < pages; p += NTHREADS) {
			unsigned int *page = (unsigned int *)(area + p * PAGE_SIZE);

			scratch = 0;
			if (check_page(page, SEED + g - 1, p, &scratch) >= 0) {
				lost_page = p;
				lost_gen = g - 1;
				return 1;
			}
			fill_page(page, SEED + g, p);
		}
		__sync_fetch_and_add(&passes_done, 1);
	}
	return 0;
}

TEST_MAIN()
{
	unsigned long mib = swap_test_mib(), p;
	unsigned int digest = DIGEST_INIT;
	long used, err, ms, out;
	struct thread *t;
	int w, during;
	char dev[64];

	pages = mib * MiB / PAGE_SIZE;
	swap_device(dev, sizeof(dev));
	t = threads_create(NTHREADS, writer, NULL);
	area = swap_out_area(pages, SEED, &out, &used);
	if (out < (long)pages / 4)
		fail("only %ld of %lu pages left RAM (swap in use grew by %ld)", out, pages, used);

	/* the writers start; swapoff runs while they fault their pages in */
	threads_start(t, NTHREADS);
	ms = now_ms();
	err = sys_swapoff(dev);
	ms = now_ms() - ms;
	during = passes_done;
	threads_join(t, NTHREADS);
	if (err < 0)
		fail("swapoff(%s) with %ld pages out: errno %ld", dev, used, -err);
	swap_on_again(dev);
	if (lost_page >= 0)
		fail("page %d lost a write: no longer generation %d", lost_page, lost_gen);

	corrupt_if_asked(area + (pages / 2) * PAGE_SIZE);
	for (p = 0; p < pages; p++) {
		w = check_page((unsigned int *)(area + p * PAGE_SIZE), SEED + GENS, p, &digest);
		if (w >= 0)
			fail("page %lu (thread %lu) word %d: not generation %d after swapoff",
			     p, p % NTHREADS, w, GENS);
	}
	printf("# %s: threads=%d gens=%d pages=%lu out=%ld swapped=%ld "
	       "passes_during_swapoff=%d swapoff_ms=%ld digest=%08x\n",
	       test_name, NTHREADS, GENS, pages, out, used, during, ms, digest);
	pass();
}
