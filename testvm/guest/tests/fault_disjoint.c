// SPDX-License-Identifier: GPL-2.0
/*
 * fault_disjoint - threads first-touch disjoint slices of one anonymous area
 * that spans many page tables (Christoph Lameter's SGI case, the load the
 * 2005 split was made for).  Every page must hold its pattern afterwards, and
 * the RSS the kernel reports, read once the threads have exited (so that
 * SPLIT_RSS_COUNTING's per-thread batches are folded in), must have grown by
 * exactly the pages touched.
 *
 * Exercises: anonymous first-touch faults, 4 threads, disjoint slices of one
 *   area spanning 8+ page tables (Lameter's case)
 * Invariant: every page holds its pattern; RSS from `/proc/self/statm`, read
 *   after the threads exited, grew by exactly the pages touched
 */
#include "harness.h"

#define NTHREADS	4
#define SEED		0xd15a0001u
#define TABLE_SPAN	(4 * MiB)	/* one page table, non-PAE (PAE: 2 MiB) */

TEST_MAIN()
{
	unsigned long total_mib = meminfo_kb("MemTotal") / 1024;
	unsigned long mib, pages, p;
	unsigned int digest = DIGEST_INIT;
	struct slices sl = { .seed = SEED };
	unsigned char *area;
	struct thread *t;
	long rss0, rss1, ms;
	int w;

	/* a size from a fixed ladder, so that it is the same on every kernel */
	for (mib = 64; mib > 8 && mib > total_mib / 4; mib /= 2)
		;
	if (mib > total_mib / 4)
		skip("guest has only %lu MiB", total_mib);
	pages = mib * MiB / PAGE_SIZE;
	sl.pages = pages / NTHREADS;

	t = threads_create(NTHREADS, touch_slice, &sl);
	area = map_anon_aligned(mib * MiB, TABLE_SPAN);
	sl.area = area;

	rss0 = statm_resident();
	ms = now_ms();
	threads_run(t, NTHREADS);
	ms = now_ms() - ms;
	rss1 = statm_resident();
	corrupt_if_asked(area + (pages / 2) * PAGE_SIZE);

	for (p = 0; p < pages; p++) {
		w = check_page((unsigned int *)(area + p * PAGE_SIZE), SEED, p, &digest);
		if (w >= 0)
			fail("page %lu (thread %lu) word %d corrupt", p, p / sl.pages, w);
	}
	printf("# %s: threads=%d mib=%lu pages=%lu rss_delta=%ld ms=%ld digest=%08x\n",
	       test_name, NTHREADS, mib, pages, rss1 - rss0, ms, digest);
	if (rss1 - rss0 != (long)pages)
		fail("rss grew by %ld pages, %lu were touched", rss1 - rss0, pages);
	pass();
}
