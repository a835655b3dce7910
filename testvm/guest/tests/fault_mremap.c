// SPDX-License-Identifier: GPL-2.0
/*
 * fault_mremap - a 2 MiB region is moved back and forth by mremap between
 * two places that each straddle a page-table boundary, in other tables than
 * each other and aligned to no table, so that move_ptes moves every pte
 * under the old and the new table's pte locks (no whole-table move), while
 * three threads fault, fill and zap their own pages next to it, in the same
 * tables.  After each move the region must hold at the new address what was
 * written before the move, and a child that reads the old address must die
 * of SIGSEGV.  The faulting threads must find their own patterns throughout.
 *
 * Exercises: `move_ptes` with old and new pte locks: a 2 MiB region moved 16
 *   times between two homes that straddle table boundaries, while 3 threads
 *   fault in the same tables
 * Invariant: the data is intact at the new address after each move; a child
 *   reading the old address dies of SIGSEGV; the other threads' pages keep
 *   their patterns
 */
#include "harness.h"
#include <linux/mman.h>

#define NTHREADS	3
#define MOVES		16
#define SEED		0x3e3a0000u
#define FAULT_SEED	0x3e3af000u
#define SPAN		(4 * MiB)	/* a page table, non-PAE (PAE: 2 MiB) */
#define REGION		(2 * MiB)
#define PAGES		(REGION / PAGE_SIZE)
#define TPAGES		128		/* per faulting thread */

static unsigned char *res;
static volatile int moves_done;

/* the two homes of the region, and the faulting threads' pages */
#define HOME_A		(res + 3 * MiB + 64 * 1024)	/* across 4 MiB */
#define HOME_B		(res + 11 * MiB + 128 * 1024)	/* across 12 MiB */
static const unsigned long fault_off[NTHREADS] = { 2 * MiB, 6 * MiB, 14 * MiB };

static int faulter(struct thread *t)
{
	unsigned char *mine = res + fault_off[t->id];
	unsigned int seed = FAULT_SEED + t->id, digest = DIGEST_INIT;
	long p;
	int bad;

	gate_wait();
	for (; !moves_done; seed += 0x100) {
		fill_pages(mine, TPAGES, seed);
		p = check_pages(mine, TPAGES, seed, &digest, &bad);
		if (p >= 0)
			fail("thread %d page %ld word %d lost its pattern", t->id, p, bad);
		sys_madvise(mine, TPAGES * PAGE_SIZE, MADV_DONTNEED);
	}
	fill_pages(mine, TPAGES, FAULT_SEED + t->id);
	return 0;
}

static unsigned int digest = DIGEST_INIT;

static int mover(struct thread *t)
{
	unsigned char *from, *to;
	unsigned long p;
	int r, bad, st;
	long ret;

	gate_wait();
	for (r = 0; r < MOVES; r++) {
		from = r % 2 ? HOME_B : HOME_A;
		to = r % 2 ? HOME_A : HOME_B;
		ret = sys_mremap(from, REGION, REGION, MREMAP_MAYMOVE | MREMAP_FIXED, to);
		if (ret != (long)to)
			fail("move %d: mremap %p to %p returned 0x%lx", r, from, to, ret);
		if (r == MOVES - 1)
			corrupt_if_asked(to + PAGE_SIZE);
		for (p = 0; p < PAGES; p++) {
			bad = check_page((unsigned int *)(to + p * PAGE_SIZE), SEED + r, p,
					 &digest);
			if (bad >= 0)
				fail("move %d: page %lu word %d wrong at the new address",
				     r, p, bad);
			fill_page((unsigned int *)(to + p * PAGE_SIZE), SEED + r + 1, p);
		}
		p = (r * 97) % PAGES;
		st = touch_in_child(from + p * PAGE_SIZE, 0);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			fail("move %d: reading old page %lu: child status 0x%x, not SIGSEGV",
			     r, p, st);
	}
	moves_done = 1;
	return 0;
}

TEST_MAIN()
{
	unsigned long p;
	long ms;
	int i, bad;

	need_mem_mib(64);
	res = map_anon_aligned(4 * SPAN, SPAN);
	for (p = 0; p < PAGES; p++)
		fill_page((unsigned int *)(HOME_A + p * PAGE_SIZE), SEED, p);
	ms = threads_run_with(NTHREADS, faulter, mover);

	for (i = 0; i < NTHREADS; i++) {
		for (p = 0; p < TPAGES; p++) {
			bad = check_page((unsigned int *)(res + fault_off[i] + p * PAGE_SIZE),
					 FAULT_SEED + i, p, &digest);
			if (bad >= 0)
				fail("thread %d page %lu word %d wrong at the end", i, p, bad);
		}
	}
	printf("# %s: threads=%d moves=%d pages=%lu ms=%ld digest=%08x\n",
	       test_name, NTHREADS, MOVES, PAGES, ms, digest);
	pass();
}
