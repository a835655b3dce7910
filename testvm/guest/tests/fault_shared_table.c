// SPDX-License-Identifier: GPL-2.0
/*
 * fault_shared_table - threads fault interleaved pages of a region that lies
 * inside one page table (2 MiB: one table with or without PAE), so that all
 * of them contend for the same pte lock.  Each round the pages must hold the
 * round's pattern; then MADV_DONTNEED zaps the region and it must read back
 * as zeroes before the next round faults it again.
 *
 * Exercises: 4 threads fault interleaved pages of one 2 MiB region (one page
 *   table with or without PAE: one pte lock), 16 rounds, `MADV_DONTNEED`
 *   between
 * Invariant: every page holds the round's pattern; zapped region reads back as
 *   zeroes
 */
#include "harness.h"

#define NTHREADS	4
#define ROUNDS		16
#define SEED		0x5ab1e000u
#define REGION		(2 * MiB)
#define PAGES		(REGION / PAGE_SIZE)

static unsigned char *region;
static unsigned int round_seed;

static int toucher(struct thread *t)
{
	unsigned long p;

	gate_wait();
	for (p = t->id; p < PAGES; p += NTHREADS)
		fill_page((unsigned int *)(region + p * PAGE_SIZE), round_seed, p);
	return 0;
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	struct thread *t;
	unsigned long p, w;
	long ms = 0, t0;
	long err;
	int r, bad;

	t = threads_create(NTHREADS, toucher, NULL);
	region = map_anon_aligned(REGION, REGION);

	for (r = 0; r < ROUNDS; r++) {
		round_seed = SEED + r;
		t0 = now_ms();
		threads_run(t, NTHREADS);
		ms += now_ms() - t0;
		if (r == ROUNDS - 1)
			corrupt_if_asked(region + PAGE_SIZE);
		for (p = 0; p < PAGES; p++) {
			bad = check_page((unsigned int *)(region + p * PAGE_SIZE),
					 round_seed, p, &digest);
			if (bad >= 0)
				fail("round %d page %lu word %d corrupt", r, p, bad);
		}
		err = sys_madvise(region, REGION, MADV_DONTNEED);
		if (err)
			fail("madvise(MADV_DONTNEED) of %p: error %ld", region, err);
		for (w = 0; w < REGION / sizeof(unsigned int); w += PAGE_WORDS / 4)
			if (((unsigned int *)region)[w])
				fail("round %d: word %lu not zero after MADV_DONTNEED", r, w);
	}
	printf("# %s: threads=%d rounds=%d pages=%lu ms=%ld digest=%08x\n",
	       test_name, NTHREADS, ROUNDS, PAGES, ms, digest);
	pass();
}
