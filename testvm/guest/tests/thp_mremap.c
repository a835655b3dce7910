// SPDX-License-Identifier: GPL-2.0
/*
 * thp_mremap - a transparent huge page moved by mremap, whole (one pmd
 * entry, no pte), between pmd tables and within one, then unmapped.  With
 * PAE a pmd table spans 1 GiB: 0x20000000 and 0x20400000 lie in one table,
 * 0x60000000 in another.  The pte table deposited for the THP must follow
 * it into the other table's deposit list, or the munmap withdraws from an
 * empty list (the split_ptlocks=off oops this test was written for, when
 * the move was decided by comparing the tables' locks).  After each move
 * the data must be at the new address and still one huge page; after the
 * munmap, AnonHugePages must be back where it was.
 *
 * Exercises: `move_huge_pmd` and `pmd_move_must_withdraw` (THP kernels: PAE): a
 *   THP made at 0x20000000 (`MADV_HUGEPAGE`, THP set to `madvise` through
 *   sysfs) is moved by mremap into another pmd table (0x60000000) and unmapped
 *   - the case that oopsed with `split_ptlocks=off` before the series' first
 *   patch - then mapped again and moved within a table, across, back and across
 *   again, and unmapped
 * Invariant: AnonHugePages grew by 2048 kB when the THP was made (else FAIL: no
 *   huge page, the test's subject, formed); after each move the data is at the
 *   new address and AnonHugePages is unchanged (still one huge pmd); after
 *   munmap AnonHugePages is back where it was. Skipped on kernels without THP,
 *   unless the cell says `ptltest.thp=1` (the PAE cells): then it fails
 */
#include "harness.h"

#define SEED		0x7a9e0000u
#define LOW		0x20000000UL	/* pmd table 0 (PAE) */
#define LOW2		0x20400000UL	/* pmd table 0, another entry */
#define HIGH		0x60000000UL	/* pmd table 1 */

static unsigned int digest = DIGEST_INIT;

TEST_MAIN()
{
	unsigned long base, huge;
	unsigned char *m;
	long ms = now_ms();

	thp_enable();
	base = thp_anon_kb();

	/* the case as found: across pmd tables, then munmap */
	m = thp_map_at(LOW, SEED);
	huge = thp_anon_kb();
	thp_move(&m, HIGH, SEED, huge, "across tables", &digest);
	if (munmap(m, HPAGE))
		fail("munmap: errno %d", errno);
	if (thp_anon_kb() != base)
		fail("after munmap AnonHugePages %lu kB, was %lu kB", thp_anon_kb(), base);

	/* within a table, across, back, and across again */
	m = thp_map_at(LOW, SEED);
	thp_move(&m, LOW2, SEED, huge, "within a table", &digest);
	thp_move(&m, HIGH, SEED, huge, "across, from the second entry", &digest);
	thp_move(&m, LOW, SEED, huge, "back across", &digest);
	thp_move(&m, HIGH, SEED, huge, "across again", &digest);
	if (munmap(m, HPAGE))
		fail("munmap: errno %d", errno);
	if (thp_anon_kb() != base)
		fail("after munmap AnonHugePages %lu kB, was %lu kB", thp_anon_kb(), base);

	printf("# %s: moves=5 huge_kb=%lu ms=%ld digest=%08x\n",
	       test_name, huge - base, now_ms() - ms, digest);
	pass();
}
