// SPDX-License-Identifier: GPL-2.0
/*
 * fault_fork_cow - three threads rewrite their own pages, one generation
 * after another, while a fourth forks 8 times: copy_pte_range write-protects
 * the parent's ptes under the writers' feet, holding the source and the
 * destination pte locks.  A child sees the parent as of one instant, so each
 * writer's pages are a prefix of what it wrote: with G the generation number
 * the writer had set, its pages hold generation G up to one cut and G - 1
 * after it (the page at the cut may have a G head and a G - 1 tail).  A page
 * of any other make-up (torn elsewhere, stale, foreign) fails the child, and
 * the parent fails on the child's exit status.  The parent, once every child
 * is reaped and the writers have made one last pass, must read back exactly
 * its own last writes.  Figures: cuts, the snapshots caught in the middle of
 * a generation; torn, those with the cut inside a page.
 *
 * thp_fork_cow.c builds this file with FORK_COW_THP: each writer's pages are
 * then one transparent huge page of its own pmd table (PAE), proven huge
 * before the threads start.  The fork copies huge pmds (copy_huge_pmd(),
 * under both pmd locks, depositing a pte table for the child), and the
 * writers' next stores split them (do_huge_pmd_wp_page()) while the other
 * writers and the next fork run.
 *
 * Exercises: `copy_pte_range` (source and destination pte locks): 3 threads
 *   rewrite their pages generation after generation across a 4 MiB table
 *   boundary while a 4th forks 8 times mid-generation
 * Invariant: each child sees each writer's pages as a prefix of its writes
 *   (generation G up to one cut, G−1 after; only the cut page may mix them);
 *   the parent reads back exactly its own last writes
 */
#include "harness.h"

#define NWRITERS	3
#define FINAL_SEED	0xf04cf1a1u
#ifdef FORK_COW_THP
#define TEST		"thp_fork_cow"
#define FORKS		6
#define SEED		0x7f0c0000u
#define PAGES		HPAGE_PAGES	/* per writer: a THP */
/* one huge page in each of the three user pmd tables of PAE */
static const unsigned long thp_at[NWRITERS] = {
	0x20000000UL, 0x60000000UL, 0xa0000000UL
};
#else
#define TEST		"fault_fork_cow"
#define FORKS		8
#define SEED		0xf04c0000u
#define SPAN		(4 * MiB)	/* a page table, non-PAE */
#define PAGES		256		/* per writer: 1 MiB across a table boundary */
#endif

/* a child's exit status: CHILD_OK | cuts << 2 | torn (fail() exits 1) */
#define CHILD_OK	0x40

struct writer {
	volatile unsigned int gen;
	unsigned char *pages;
};

static struct writer wr[NWRITERS];
static volatile int forks_done;
static int cuts, torn;

static unsigned int gen_seed(unsigned int g)
{
	return SEED + g * 0x10001u;
}

static unsigned int *page_of(int i, unsigned int p)
{
	return (unsigned int *)(wr[i].pages + p * PAGE_SIZE);
}

static int writer(struct thread *t)
{
	struct writer *w = &wr[t->id];
	unsigned int g, p;

	gate_wait();
	for (g = 1; !forks_done; g++) {
		w->gen = g;
		__asm__ volatile("" ::: "memory");	/* gen first, then the pages */
		for (p = 0; p < PAGES; p++)
			fill_page(page_of(t->id, p), gen_seed(g), p);
	}
	for (p = 0; p < PAGES; p++)
		fill_page(page_of(t->id, p), FINAL_SEED, p);
	return 0;
}

/* In the child of fork f: every writer's pages are generation G, then G - 1. */
static void check_snapshot(int f)
{
	unsigned int digest = DIGEST_INIT, g, p, seed, w;
	const unsigned int *pg;
	int i, bad, cut = 0, tear = 0;

	for (i = 0; i < NWRITERS; i++) {
		g = wr[i].gen;
		seed = gen_seed(g);
		for (p = 0; p < PAGES; p++) {
			pg = page_of(i, p);
			bad = check_page(pg, seed, p, &digest);
			if (bad < 0)
				continue;
			if (seed != gen_seed(g) || g == 0)
				fail("fork %d: writer %d page %u word %d is not generation %u",
				     f, i, p, bad, seed == gen_seed(g) ? g : g - 1);
			seed = gen_seed(g - 1);		/* the cut */
			cut += p || bad;
			tear += bad > 0;
			for (w = bad; w < PAGE_WORDS; w++)
				if (pg[w] != pattern(seed, p, w))
					fail("fork %d: writer %d page %u torn at word %u",
					     f, i, p, w);
		}
	}
	exit_group(CHILD_OK | cut << 2 | tear);
}

static int forker(struct thread *t)
{
	unsigned int g0;
	int f, status;
	pid_t pid;

	gate_wait();
	for (f = 0; f < FORKS; f++) {
		/* fork while writer f % NWRITERS is in a new generation */
		g0 = wr[f % NWRITERS].gen;
		while (wr[f % NWRITERS].gen == g0)
			sched_yield();
		pid = fork();
		if (pid == 0)
			check_snapshot(f);
		if (pid < 0)
			fail("fork %d: errno %d", f, errno);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				fail("waitpid %d: errno %d", pid, errno);
		if (!WIFEXITED(status) || !(WEXITSTATUS(status) & CHILD_OK))
			fail("fork %d: child ended with status 0x%x", f, status);
		cuts += (WEXITSTATUS(status) >> 2) & 3;
		torn += WEXITSTATUS(status) & 3;
	}
	forks_done = 1;
	return 0;
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT, gens = 0, p;
	unsigned long thp_kb = 0;
	struct thread *t;
	long ms;
	int i, bad;
#ifndef FORK_COW_THP
	unsigned char *area;
#endif

	need_mem_mib(64);
#ifdef FORK_COW_THP
	thp_enable();
	for (i = 0; i < NWRITERS; i++)		/* fails unless each is huge */
		wr[i].pages = thp_map_at(thp_at[i], gen_seed(0));
	thp_kb = thp_anon_kb();
#else
	area = map_anon_aligned((NWRITERS + 1) * SPAN, SPAN);
	for (i = 0; i < NWRITERS; i++) {
		/* writer i: the last 512 KiB of table i, the first of table i + 1 */
		wr[i].pages = area + (i + 1) * SPAN - PAGES / 2 * PAGE_SIZE;
		for (p = 0; p < PAGES; p++)
			fill_page(page_of(i, p), gen_seed(0), p);
	}
#endif
	t = threads_create(NWRITERS + 1, writer, NULL);
	t[NWRITERS].fn = forker;

	ms = now_ms();
	threads_run(t, NWRITERS + 1);
	ms = now_ms() - ms;

	corrupt_if_asked(page_of(1, PAGES / 2));
	for (i = 0; i < NWRITERS; i++) {
		gens += wr[i].gen;
		for (p = 0; p < PAGES; p++) {
			bad = check_page(page_of(i, p), FINAL_SEED, p, &digest);
			if (bad >= 0)
				fail("parent: writer %d page %u word %d is not its last write",
				     i, p, bad);
		}
	}
	if (thp_kb)
		printf("# %s: thp_kb=%lu\n", test_name, thp_kb);
	printf("# %s: writers=%d forks=%d pages=%d gens=%u cuts=%d torn=%d ms=%ld digest=%08x\n",
	       test_name, NWRITERS, FORKS, (int)(NWRITERS * PAGES), gens, cuts, torn, ms, digest);
	pass();
}
