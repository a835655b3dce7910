// SPDX-License-Identifier: GPL-2.0
/*
 * fault_mprotect - one thread flips a different part of a 128-page range
 * read-only and back each round (change_pte_range, splitting and merging the
 * area's one vma), the range straddling a page-table boundary, while three
 * threads fault, write, verify and zap their own pages in the same vma, two
 * of them in the tables the range lies in.  While read-only, a child that
 * writes inside the part must die of SIGSEGV and leave the page unchanged,
 * and children that write just outside it must not; after each round's
 * rewrite, and at the end, every page holds its last write (none lost).
 *
 * Exercises: `change_pte_range` with vma split and merge: parts of a 128-page
 *   range across a table boundary flipped read-only and back, 16 rounds, while
 *   3 threads fault and write in the same vma
 * Invariant: a child writing inside the read-only part dies of SIGSEGV and the
 *   page is unchanged; writes just outside it succeed; no write is lost
 */
#include "harness.h"

#define NTHREADS	3
#define ROUNDS		16
#define SEED		0x3b070000u
#define WSEED		0x3b07a000u
#define SPAN		(4 * MiB)	/* a page table, non-PAE (PAE: 2 MiB) */
#define PAGES		128		/* the flipped range */
#define TPAGES		256		/* per writing thread */

static unsigned char *res;
static volatile int flips_done;

/* the flipped range around 4 MiB; thread pages in tables 0, 1, 2 */
#define RANGE		(res + SPAN - PAGES / 2 * PAGE_SIZE)
static const unsigned long thread_off[NTHREADS] = { 2 * MiB, 5 * MiB, 9 * MiB };

static unsigned int *rpage(unsigned long p)
{
	return (unsigned int *)(RANGE + p * PAGE_SIZE);
}

static int writer(struct thread *t)
{
	unsigned char *mine = res + thread_off[t->id];
	unsigned int seed = WSEED + t->id * 0x100, digest = DIGEST_INIT;
	long p;
	int bad;

	gate_wait();
	for (; !flips_done; seed++) {
		fill_pages(mine, TPAGES, seed);
		p = check_pages(mine, TPAGES, seed, &digest, &bad);
		if (p >= 0)
			fail("thread %d page %ld word %d: write lost", t->id, p, bad);
		sys_madvise(mine, TPAGES * PAGE_SIZE, MADV_DONTNEED);
	}
	fill_pages(mine, TPAGES, WSEED + t->id);
	return 0;
}

static int flipper(struct thread *t)
{
	unsigned int digest = DIGEST_INIT;
	unsigned long s, n, p;
	int r, st, bad;

	gate_wait();
	for (r = 0; r < ROUNDS; r++) {
		s = 1 + (r * 13) % 64;		/* pages [s, s + n): read-only */
		n = 8 + (r * 7) % 48;
		if (sys_mprotect(rpage(s), n * PAGE_SIZE, PROT_READ))
			fail("round %d: mprotect read-only failed", r);
		p = s + r % n;
		st = touch_in_child(rpage(p), 1);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			fail("round %d: write to read-only page %lu: status 0x%x, not SIGSEGV",
			     r, p, st);
		st = touch_in_child(rpage(s - 1), 1) | touch_in_child(rpage(s + n), 1);
		if (st)
			fail("round %d: write next to read-only pages %lu-%lu: child status 0x%x",
			     r, s, s + n - 1, st);
		for (p = 0; p < PAGES; p++) {
			bad = check_page(rpage(p), SEED + r, p, &digest);
			if (bad >= 0)
				fail("round %d: page %lu word %d changed", r, p, bad);
		}
		if (sys_mprotect(rpage(s), n * PAGE_SIZE, PROT_READ | PROT_WRITE))
			fail("round %d: mprotect read-write failed", r);
		for (p = 0; p < PAGES; p++)
			fill_page(rpage(p), SEED + r + 1, p);
	}
	flips_done = 1;
	return 0;
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	unsigned long p;
	long ms;
	int i, bad;

	need_mem_mib(64);
	res = map_anon_aligned(3 * SPAN, SPAN);
	for (p = 0; p < PAGES; p++)
		fill_page(rpage(p), SEED, p);
	ms = threads_run_with(NTHREADS, writer, flipper);

	corrupt_if_asked(rpage(PAGES / 2));
	for (p = 0; p < PAGES; p++) {
		bad = check_page(rpage(p), SEED + ROUNDS, p, &digest);
		if (bad >= 0)
			fail("page %lu word %d: last write lost", p, bad);
	}
	for (i = 0; i < NTHREADS; i++) {
		long q = check_pages(res + thread_off[i], TPAGES, WSEED + i, &digest, &bad);

		if (q >= 0)
			fail("thread %d page %ld word %d: last write lost", i, q, bad);
	}
	printf("# %s: threads=%d rounds=%d pages=%d ms=%ld digest=%08x\n",
	       test_name, NTHREADS, ROUNDS, PAGES + NTHREADS * TPAGES, ms, digest);
	pass();
}
