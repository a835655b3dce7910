// SPDX-License-Identifier: GPL-2.0
/*
 * pt_reclaim - empty pte tables freed by MADV_DONTNEED (PT_RECLAIM, 6.14 on:
 * the 7.3 base; x86 frees page tables by RCU in every paging mode):
 * zap_pte_range() frees the table when the zap covered all of it
 * (zap_empty_pte_table() with the pte lock held, trylocking the pmd lock
 * where it is another lock, i.e. with split_ptlocks on; else
 * zap_pte_table_if_empty(), under the pmd lock, the pte lock nested).
 * VmPTE of /proc/self/status shows it: a table is 4 kB on every x86
 * paging mode.  The span a table maps is measured first (two faults 2 MiB
 * apart in a fresh 4 MiB: one table or two), so the test needs no arch
 * knowledge.  Single-threaded: a zap of all of a table but its last page
 * frees nothing; a zap of a whole table frees it; a zap from the middle of
 * one table to the middle of another three tables on frees the two it
 * covers.  Then three threads race in three adjacent tables: the zapper
 * fills its table's pages and zaps the whole table, round after round,
 * while the two neighbours fault, check and zap (part of) their own tables
 * on either side; VmPTE must fall by the zapper's table every round.
 * Last, a fourth thread writes the other pages of the zapper's table while
 * the zapper zaps it: each word it reads back is its pattern or zero (its
 * page zapped), never anything else, and once it stops one last zap frees
 * the table.  A kernel without PT_RECLAIM (6.1, 6.12, 2.6.14) leaves the
 * table: the test skips, unless the cell says ptltest.pt_reclaim=1 (the
 * 7.3 cells): then it fails.
 *
 * Exercises: `zap_pte_range()`'s table reclaim (`zap_empty_pte_table()`,
 *   `zap_pte_table_if_empty()`, `pte_free_tlb()`; PT_RECLAIM, 6.14 on) by
 *   `MADV_DONTNEED`: single-threaded, a zap of a table but one page, of a
 *   whole table, of the middle of one table to the middle of another (two
 *   whole tables between); then 32 rounds of fill and zap of a whole table
 *   while 2 threads fault and zap in the tables on either side, then 32 more
 *   while a 3rd writes the same table's other pages
 * Invariant: the partial zap frees no table (VmPTE unchanged), the whole-table
 *   zap frees exactly one (VmPTE falls by 4 kB), the cross-table zap exactly
 *   the two covered; every zapped page reads 0, every other page its pattern;
 *   in the race with the neighbours VmPTE falls by one table each round and
 *   their pages never change under them; in the race in the same table every
 *   word the 3rd thread reads is its pattern or 0 and the zapper's pages read 0
 *   after each zap; a last zap frees the table; every page holds its last
 *   pattern at the end. Skipped where the table is not freed (kernels without
 *   PT_RECLAIM: 6.1, 6.12), unless the cell says `ptltest.pt_reclaim=1` (the
 *   7.3 cells)
 */
#include "harness.h"

#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE	15
#endif
#define SEED		0x97ec1a00u
#define SPANS		9		/* tables 1-5 single-threaded, 6-8 the races */
#define MAX_SPAN	(4 * MiB)	/* a pte table's span, i386 without PAE */
#define NPAGES		64		/* pages a thread uses in a table */
#define ROUNDS		32
#define TABLE_KB	(PAGE_SIZE / 1024)

static unsigned char *area;		/* 4 MiB for measure_span(), then SPANS spans */
static unsigned long span;		/* what one pte table maps */
static unsigned long stride;		/* span / NPAGES: a thread's pages */
static volatile int zapper_done, bad_word;
static volatile long sharer_passes, sharer_zapped;

static unsigned char *tbl(int i)
{
	return area + MAX_SPAN + (unsigned long)i * span;	/* after the probe's 4 MiB */
}

/* VmPTE in kB; a kernel without the line (none of ours) cannot be measured */
static unsigned long vm_pte(void)
{
	static char buf[2048];

	if (!proc_value("/proc/self/status", "VmPTE", ':', buf, sizeof(buf)))
		fail("no VmPTE line in /proc/self/status");
	return proc_kb("/proc/self/status", "VmPTE");
}

/* page p (0 .. NPAGES - 1) of table t, offset by off pages (0 .. stride - 1) */
static unsigned int *page_of(int t, unsigned long p, unsigned long off)
{
	return (unsigned int *)(tbl(t) + (p * stride + off) * PAGE_SIZE);
}

/* the last page of table t (pattern page NPAGES) */
static unsigned int *last_page(int t)
{
	return (unsigned int *)(tbl(t) + span - PAGE_SIZE);
}

static void fill_table(int t, unsigned long off, unsigned int seed)
{
	unsigned long p;

	for (p = 0; p < NPAGES; p++)
		fill_page(page_of(t, p, off), seed, p);
}

/* the NPAGES pages of table t at off hold seed's pattern (or, seed 0, zeroes) */
static void check_table(int t, unsigned long off, unsigned int seed, const char *what,
			unsigned int *digest)
{
	unsigned long p, w;
	int bad;

	for (p = 0; p < NPAGES; p++) {
		const unsigned int *pg = page_of(t, p, off);

		if (seed) {
			bad = check_page(pg, seed, p, digest);
			if (bad >= 0)
				fail("%s: table %d page %lu word %d wrong", what, t, p, bad);
			continue;
		}
		for (w = 0; w < PAGE_WORDS; w++)
			if (pg[w])
				fail("%s: table %d page %lu word %lu reads 0x%x, not 0",
				     what, t, p, w, pg[w]);
	}
}

static void zap(void *from, unsigned long len, const char *what)
{
	if (sys_madvise(from, len, MADV_DONTNEED))
		fail("%s: madvise(MADV_DONTNEED) of %p: errno %d", what, from, errno);
}

/* VmPTE is want kB, or the test fails naming the step */
static void expect_pte(unsigned long want, const char *what)
{
	unsigned long now = vm_pte();

	if (now != want)
		fail("%s: VmPTE %lu kB, expected %lu kB", what, now, want);
}

/*
 * The table span: two pages 2 MiB apart in the area's first 4 MiB (4 MiB-
 * aligned, fresh) are one table (i386 without PAE: 4 MiB) or two (PAE, x86_64).
 * Returns VmPTE after it.
 */
static unsigned long measure_span(void)
{
	unsigned long v0 = vm_pte(), v1, v2;

	fill_page((unsigned int *)area, SEED, 0);
	v1 = vm_pte();
	fill_page((unsigned int *)(area + 2 * MiB), SEED, 1);
	v2 = vm_pte();
	if (v1 <= v0)
		fail("a first fault in a fresh 4 MiB made no table: VmPTE %lu kB, was %lu kB",
		     v1, v0);
	if (v2 == v1)
		span = 4 * MiB;
	else if (v2 == v1 + TABLE_KB)
		span = 2 * MiB;
	else
		fail("a fault 2 MiB on: VmPTE %lu kB, was %lu kB", v2, v1);
	stride = span / PAGE_SIZE / NPAGES;
	return v2;
}

/* the whole page at pg reads zero */
static void check_zero(const unsigned int *pg, const char *what, unsigned long p)
{
	unsigned long w;

	for (w = 0; w < PAGE_WORDS; w++)
		if (pg[w])
			fail("%s: page %lu word %lu reads 0x%x, not 0", what, p, w, pg[w]);
}

/*
 * The single-threaded part, tables 1 to 5, from VmPTE v: skips where the
 * whole-table zap leaves the table and the cell did not ask for PT_RECLAIM.
 */
static void deterministic(unsigned long v, unsigned int *digest)
{
	unsigned long p;
	char want[8];
	int t, bad;

	for (t = 1; t <= 5; t++) {
		fill_table(t, 0, SEED + t);
		fill_page(last_page(t), SEED + 0x100 + t, NPAGES);
	}
	expect_pte(v + 5 * TABLE_KB, "tables 1-5 filled");
	v += 5 * TABLE_KB;

	/* all of table 1 but its last page: nothing freed */
	zap(tbl(1), span - PAGE_SIZE, "table 1 but a page");
	expect_pte(v, "table 1 zapped but its last page");
	check_table(1, 0, 0, "table 1 but a page", digest);
	bad = check_page(last_page(1), SEED + 0x101, NPAGES, digest);
	if (bad >= 0)
		fail("table 1's last page, out of the zap: word %d wrong", bad);

	/* all of table 1: freed, the subject */
	zap(tbl(1), span, "table 1");
	if (vm_pte() != v - TABLE_KB) {
		if (!cmdline_arg("ptltest.pt_reclaim", want, sizeof(want)))
			skip("kernel without PT_RECLAIM (6.14): MADV_DONTNEED of a whole pte "
			     "table left it (VmPTE %lu kB, %lu kB before)", vm_pte(), v);
		fail("ptltest.pt_reclaim=%s, but MADV_DONTNEED of a whole pte table left "
		     "it: VmPTE %lu kB, expected %lu kB", want, vm_pte(), v - TABLE_KB);
	}
	/* read back: zeroes, mapped by read faults into a new table */
	check_table(1, 0, 0, "table 1 after it was freed", digest);
	check_zero(last_page(1), "table 1 after it was freed, last", NPAGES);
	expect_pte(v, "table 1 read after it was freed");

	/* the middle of table 2 to the middle of table 5: 3 and 4 freed */
	zap(tbl(2) + span / 2, 3 * span, "table 2.5 to 5.5");
	expect_pte(v - 2 * TABLE_KB, "table 2.5 to 5.5 zapped");
	for (p = 0; p < NPAGES; p++) {
		const unsigned int *two = page_of(2, p, 0), *five = page_of(5, p, 0);

		if (p < NPAGES / 2) {	/* before the range, in it */
			bad = check_page(two, SEED + 2, p, digest);
			if (bad >= 0)
				fail("table 2 page %lu word %d wrong: zapped short of the range",
				     p, bad);
			check_zero(five, "table 5, zapped", p);
		} else {		/* in the range, after it */
			check_zero(two, "table 2, zapped", p);
			bad = check_page(five, SEED + 5, p, digest);
			if (bad >= 0)
				fail("table 5 page %lu word %d wrong: zapped past the range",
				     p, bad);
		}
	}
	check_zero(last_page(2), "table 2's last page", NPAGES);
	check_table(3, 0, 0, "table 3", digest);
	check_zero(last_page(3), "table 3's last page", NPAGES);
	check_table(4, 0, 0, "table 4", digest);
	check_zero(last_page(4), "table 4's last page", NPAGES);
	bad = check_page(last_page(5), SEED + 0x105, NPAGES, digest);
	if (bad >= 0)
		fail("table 5's last page, past the zap: word %d wrong", bad);
}

/* --- the races: tables 6 (neighbour), 7 (zapper, sharer), 8 (neighbour) --- */

#define ZAPPER_T	7
#define SHARER_OFF	1	/* the sharer's pages: offset 1 in the zapper's table */

static unsigned long race_base;		/* VmPTE without the zapper's table */
static volatile int phase;		/* 1: neighbours, 2: the sharer */
static volatile int rounds_freed;

static int neighbour(struct thread *t)
{
	int tb = t->id ? ZAPPER_T + 1 : ZAPPER_T - 1;
	unsigned long off = t->id ? 0 : stride - 1;	/* next to the zapper's table */
	unsigned int seed = SEED + 0x1000 * (t->id + 1), digest = DIGEST_INIT;
	unsigned long p;
	int r, bad;

	gate_wait();
	for (r = 0; !zapper_done; r++, seed++) {
		fill_table(tb, off, seed);
		for (p = 0; p < NPAGES; p++) {
			bad = check_page(page_of(tb, p, off), seed, p, &digest);
			if (bad >= 0)
				fail("neighbour %d: table %d page %lu word %d changed under it",
				     t->id, tb, p, bad);
		}
		/* half its pages, not the whole table: the table stays */
		for (p = r % 2; p < NPAGES; p += 2)
			zap(page_of(tb, p, off), PAGE_SIZE, "neighbour's page");
	}
	fill_table(tb, off, SEED + 0x2000 + t->id);
	return 0;
}

/* the sharer: writes and reads back its pages in the zapper's table */
static int sharer(struct thread *t)
{
	unsigned int seed = SEED + 0x3000;
	unsigned long p, w;
	int zapped;

	gate_wait();
	for (; !zapper_done; seed++) {
		zapped = 0;
		for (p = 0; p < NPAGES; p++)
			fill_page(page_of(ZAPPER_T, p, SHARER_OFF), seed, p);
		for (p = 0; p < NPAGES; p++) {
			const unsigned int *pg = page_of(ZAPPER_T, p, SHARER_OFF);

			for (w = 0; w < PAGE_WORDS; w++) {
				unsigned int v = pg[w];

				if (!v) {
					zapped = 1;
				} else if (v != pattern(seed, p, w)) {
					bad_word = (int)(p * PAGE_WORDS + w) + 1;
					return 1;
				}
			}
		}
		sharer_zapped += zapped;
		sharer_passes++;
	}
	fill_table(ZAPPER_T, SHARER_OFF, SEED + 0x3fff);
	return 0;
}

static int zapper(struct thread *t)
{
	unsigned int unused = DIGEST_INIT;
	unsigned long v;
	int r;

	gate_wait();
	for (r = 0; r < ROUNDS; r++) {
		fill_table(ZAPPER_T, 0, SEED + 0x4000 + r);
		check_table(ZAPPER_T, 0, SEED + 0x4000 + r, "zapper's pages", &unused);
		if (phase == 1)
			expect_pte(race_base + TABLE_KB, "zapper's table filled");
		zap(tbl(ZAPPER_T), span, "the zapper's table");
		v = vm_pte();
		if (phase == 1 && v != race_base)
			fail("round %d: the zapper's table not freed with neighbours faulting: "
			     "VmPTE %lu kB, expected %lu kB", r, v, race_base);
		/* the sharer may have faulted a table back in already */
		if (phase == 2 && v != race_base && v != race_base + TABLE_KB)
			fail("round %d: VmPTE %lu kB, expected %lu or %lu kB", r, v,
			     race_base, race_base + TABLE_KB);
		rounds_freed += v == race_base;
		check_table(ZAPPER_T, 0, 0, "zapper's pages after the zap", &unused);
	}
	fill_table(ZAPPER_T, 0, SEED + 0x4fff);
	zapper_done = 1;
	return 0;
}

/* the zapper with threads t[0 .. n - 1], all let go at once */
static void race(struct thread *t, int n, int ph, long *ms)
{
	zapper_done = 0;
	phase = ph;
	rounds_freed = 0;
	*ms = now_ms();
	threads_run(t, n + 1);
	*ms = now_ms() - *ms;
	if (bad_word)
		fail("the sharer's page %d word %d read neither its pattern nor 0",
		     (bad_word - 1) / (int)PAGE_WORDS, (bad_word - 1) % (int)PAGE_WORDS);
}

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	struct thread *nb, *sh;
	long ms1, ms2;
	int freed1, freed2;

	need_mem_mib(64);
	area = map_anon_aligned((SPANS + 1) * MAX_SPAN, MAX_SPAN);
	/* small pages only: a THP (or an mTHP) would map no pte table */
	sys_madvise(area, (SPANS + 1) * MAX_SPAN, MADV_NOHUGEPAGE);
	/* the threads made first: their stacks' tables are there before VmPTE is read */
	nb = threads_create(3, neighbour, NULL);
	nb[2].fn = zapper;
	sh = threads_create(2, sharer, NULL);
	sh[1].fn = zapper;

	deterministic(measure_span(), &digest);

	/* the races: tables 6 and 8 made first, so that VmPTE moves only by 7 */
	fill_table(ZAPPER_T - 1, stride - 1, SEED + 0x1000);
	fill_table(ZAPPER_T + 1, 0, SEED + 0x2000);
	race_base = vm_pte();
	race(nb, 2, 1, &ms1);
	freed1 = rounds_freed;
	if (freed1 != ROUNDS)
		fail("the zapper's table freed in %d rounds of %d", freed1, ROUNDS);

	race(sh, 1, 2, &ms2);
	freed2 = rounds_freed;
	if (!sharer_passes)
		fail("the sharer made no pass while the zapper zapped its table");
	expect_pte(race_base + TABLE_KB, "after the race in the same table");

	corrupt_if_asked(page_of(ZAPPER_T, NPAGES / 2, 0));
	check_table(ZAPPER_T - 1, stride - 1, SEED + 0x2000, "neighbour 0 at the end", &digest);
	check_table(ZAPPER_T + 1, 0, SEED + 0x2001, "neighbour 1 at the end", &digest);
	check_table(ZAPPER_T, 0, SEED + 0x4fff, "zapper at the end", &digest);
	check_table(ZAPPER_T, SHARER_OFF, SEED + 0x3fff, "sharer at the end", &digest);

	/* nobody else in it: the last zap frees it */
	zap(tbl(ZAPPER_T), span, "the zapper's table, last");
	expect_pte(race_base, "the last zap of the zapper's table");

	printf("# %s: span_kb=%lu rounds=%d freed_with_neighbours=%d freed_with_sharer=%d "
	       "sharer_passes=%ld sharer_saw_zaps=%ld ms=%ld,%ld digest=%08x\n",
	       test_name, span / 1024, ROUNDS, freed1, freed2, sharer_passes,
	       sharer_zapped, ms1, ms2, digest);
	pass();
}
