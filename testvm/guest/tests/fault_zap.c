// SPDX-License-Identifier: GPL-2.0
/*
 * fault_zap - three threads fault, verify and zap their own pages, each in a
 * page table of its own, while a fourth empties the table-sized ranges
 * between them again and again: fault pages in, MADV_DONTNEED them
 * (zap_pte_range), fault them in again, munmap the whole range (free_pgtables
 * frees its table) and mmap it back MAP_FIXED, so that the next fault
 * allocates a new table next to the ones the others are faulting in.
 * Zapped and re-mapped ranges read back as zeroes; no thread's pages change
 * under it; at the end every range holds its last pattern.
 *
 * Exercises: `zap_pte_range`, `free_pgtables`, page tables freed and
 *   re-allocated: 3 threads fault, verify and zap their own tables while a 4th
 *   MADV_DONTNEEDs, munmaps and re-mmaps (MAP_FIXED) whole tables between them,
 *   16 times
 * Invariant: zapped and re-mapped ranges read back as zero; no thread's pages
 *   change; every range holds its last pattern at the end
 */
#include "harness.h"

#define NTHREADS	3
#define ROUNDS		16
#define SEED		0x2a900000u
#define FINAL_SEED	0x2a90f1a1u
#define SPAN		(4 * MiB)	/* a page table, non-PAE (PAE: two) */
#define TPAGES		128		/* per faulting thread */
#define ZSTRIDE		16		/* the zapper touches every 16th page */
#define ZPAGES		(SPAN / PAGE_SIZE / ZSTRIDE)

static unsigned char *res;		/* tables 0, 2, 4: threads; 1, 3: zapper */
static volatile int zaps_done;

static unsigned int *zpage(int z, unsigned long i)
{
	return (unsigned int *)(res + (2 * z + 1) * SPAN + i * ZSTRIDE * PAGE_SIZE);
}

static void check_zero(const unsigned int *page, const char *what, int r, unsigned long p)
{
	unsigned long w;

	for (w = 0; w < PAGE_WORDS; w++)
		if (page[w])
			fail("round %d: %s page %lu word %lu not zero", r, what, p, w);
}

static int faulter(struct thread *t)
{
	unsigned char *mine = res + 2 * t->id * SPAN + MiB;
	unsigned int seed = SEED + t->id * 0x1000, digest = DIGEST_INIT;
	unsigned long p;
	int r, bad;

	gate_wait();
	for (r = 0; !zaps_done; r++, seed++) {
		for (p = 0; p < TPAGES; p++)
			fill_page((unsigned int *)(mine + p * PAGE_SIZE), seed, p);
		for (p = 0; p < TPAGES; p++) {
			bad = check_page((unsigned int *)(mine + p * PAGE_SIZE), seed, p, &digest);
			if (bad >= 0)
				fail("thread %d page %lu word %d changed under it", t->id, p, bad);
		}
		sys_madvise(mine, TPAGES * PAGE_SIZE, MADV_DONTNEED);
		p = r % TPAGES;
		check_zero((unsigned int *)(mine + p * PAGE_SIZE), "thread's", r, p);
	}
	for (p = 0; p < TPAGES; p++)
		fill_page((unsigned int *)(mine + p * PAGE_SIZE), FINAL_SEED + t->id, p);
	return 0;
}

static void zfill(int z, unsigned int seed, int r)
{
	unsigned int digest = DIGEST_INIT;
	unsigned long i;
	int bad;

	for (i = 0; i < ZPAGES; i++)
		fill_page(zpage(z, i), seed, i);
	for (i = 0; i < ZPAGES; i++) {
		bad = check_page(zpage(z, i), seed, i, &digest);
		if (bad >= 0)
			fail("round %d: zapper page %lu word %d wrong", r, i, bad);
	}
}

static int zapper(struct thread *t)
{
	unsigned char *range;
	unsigned long i;
	int r, z;

	gate_wait();
	for (r = 0; r < ROUNDS; r++) {
		z = r % 2;
		range = (unsigned char *)zpage(z, 0);
		zfill(z, SEED + 0x800 + r, r);
		if (sys_madvise(range, SPAN, MADV_DONTNEED))
			fail("round %d: MADV_DONTNEED of %p failed", r, range);
		for (i = 0; i < ZPAGES; i++)
			check_zero(zpage(z, i), "zapped", r, i);
		zfill(z, SEED + 0x900 + r, r);
		if (munmap(range, SPAN))
			fail("round %d: munmap of %p: errno %d", r, range, errno);
		if (mmap(range, SPAN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != range)
			fail("round %d: mmap MAP_FIXED at %p: errno %d", r, range, errno);
		for (i = 0; i < ZPAGES; i++)
			check_zero(zpage(z, i), "re-mapped", r, i);
	}
	zfill(0, FINAL_SEED + 0x10, r);
	zfill(1, FINAL_SEED + 0x11, r);
	zaps_done = 1;
	return 0;
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	unsigned long p;
	long ms;
	int i, bad;

	need_mem_mib(64);
	res = map_anon_aligned(5 * SPAN, SPAN);
	ms = threads_run_with(NTHREADS, faulter, zapper);

	corrupt_if_asked(zpage(1, ZPAGES / 2));
	for (i = 0; i < NTHREADS; i++) {
		long q = check_pages(res + 2 * i * SPAN + MiB, TPAGES, FINAL_SEED + i,
				     &digest, &bad);

		if (q >= 0)
			fail("thread %d page %ld word %d wrong at the end", i, q, bad);
	}
	for (i = 0; i < 2; i++) {
		for (p = 0; p < ZPAGES; p++) {
			bad = check_page(zpage(i, p), FINAL_SEED + 0x10 + i, p, &digest);
			if (bad >= 0)
				fail("zapper range %d page %lu word %d wrong at the end",
				     i, p, bad);
		}
	}
	printf("# %s: threads=%d rounds=%d pages=%lu ms=%ld digest=%08x\n",
	       test_name, NTHREADS, ROUNDS, NTHREADS * TPAGES + 2 * ZPAGES, ms, digest);
	pass();
}
