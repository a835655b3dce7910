// SPDX-License-Identifier: GPL-2.0
/*
 * uffd_move - userfaultfd's UFFDIO_MOVE (6.8 on) moves anonymous pages from
 * one part of the address space to another by remapping them.  It locks the
 * source's and the destination's page table together with double_pt_lock(),
 * which takes one lock when both are the same (a table with itself, or every
 * table with split_ptlocks=off), and a whole THP moves as one pmd entry
 * with its deposited pte table (move_pages_huge_pmd()).  Pages move between
 * pte tables and within one; with THP (PAE cells) a huge page moves between
 * pmd tables and within one, stays huge, and is unmapped.  The data must be
 * at the destination, the source empty.  Kernels without UFFDIO_MOVE skip
 * (testvm/base-differences.txt says which).
 *
 * Exercises: userfaultfd's UFFDIO_MOVE (6.8 on, so 6.12 here):
 *   `double_pt_lock()` over the source's and destination's page table locks
 *   (one lock when they are the same: a table with itself, or every table in
 *   off mode) and `move_pages_huge_pmd()`, which moves a THP with its deposited
 *   table
 * Invariant: 64 pages moved into another pte table and 64 within one; with THP,
 *   a huge page moved into another pmd table and within one, still huge, then
 *   unmapped (AnonHugePages back); data at the destination, the source empty.
 *   Skips where userfaultfd has no MOVE (6.1, 2.6.14: declared in
 *   `testvm/base-differences.txt`)
 */
#include "harness.h"

#define SEED		0x0ff5e700u
#define PAGES		64
#define SPAN		(4 * MiB)	/* a pte table's span without PAE; 2 with */
#define LOW		0x20000000UL	/* pmd table 0 (PAE) */
#define LOW2		0x20400000UL	/* pmd table 0, another entry */
#define HIGH		0x60000000UL	/* pmd table 1 */

static unsigned int digest = DIGEST_INIT;
static int uffd;

/* src's pages, moved to dst, hold the pattern; src reads as zero-filled */
static void check_moved(unsigned char *dst, unsigned char *src, unsigned long pages,
			unsigned int seed, const char *what)
{
	unsigned long p;
	int bad;

	corrupt_if_asked(dst + PAGE_SIZE);
	for (p = 0; p < pages; p++) {
		bad = check_page((unsigned int *)(dst + p * PAGE_SIZE), seed, p, &digest);
		if (bad >= 0)
			fail("%s: page %lu word %d wrong at %p", what, p, bad, dst);
		if (((unsigned int *)(src + p * PAGE_SIZE))[7])
			fail("%s: source page %lu still holds data after the move", what, p);
	}
}

/*
 * PAGES small pages from the start of a fresh source area to a registered
 * destination at dst_off from it: another pte table when dst_off is SPAN,
 * the same one when it is a few pages.
 */
static void small_move(unsigned long dst_off, unsigned int seed, const char *what)
{
	unsigned char *src = map_anon_aligned(2 * SPAN, SPAN);
	unsigned char *dst = src + dst_off;
	unsigned long p;

	for (p = 0; p < PAGES; p++)
		fill_page((unsigned int *)(src + p * PAGE_SIZE), seed, p);
	uffd_register(uffd, dst, PAGES * PAGE_SIZE);
	uffd_move(uffd, dst, src, PAGES * PAGE_SIZE, what);
	check_moved(dst, src, PAGES, seed, what);
}

/* a THP at from, moved whole to to (a registered, empty area), unmapped */
static void thp_uffd_move(unsigned long from, unsigned long to, unsigned int seed,
			  const char *what)
{
	unsigned long base = thp_anon_kb(), huge;
	unsigned char *m = thp_map_at(from, seed);
	void *d = mmap((void *)to, HPAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (d != (void *)to)
		fail("%s: mmap at 0x%lx gave %p (errno %d)", what, to, d, errno);
	huge = thp_anon_kb();
	uffd_register(uffd, d, HPAGE);
	uffd_move(uffd, d, m, HPAGE, what);
	if (thp_anon_kb() != huge)
		fail("%s: AnonHugePages %lu kB, not %lu kB: the move split the THP",
		     what, thp_anon_kb(), huge);
	check_moved(d, m, HPAGE_PAGES, seed, what);
	if (munmap(d, HPAGE) || munmap(m, HPAGE))
		fail("%s: munmap: errno %d", what, errno);
	if (thp_anon_kb() != base)
		fail("%s: after munmap AnonHugePages %lu kB, was %lu kB",
		     what, thp_anon_kb(), base);
}

TEST_MAIN()
{
	const char *why;
	long ms = now_ms();
	int thp;

	thp = thp_try_enable();
	uffd = uffd_open_move(&why);
	if (uffd < 0)
		skip("kernel without %s", why);

	small_move(SPAN, SEED, "pages across pte tables");
	small_move(PAGES * PAGE_SIZE, SEED + 1, "pages within a pte table");
	if (thp) {
		thp_uffd_move(LOW, HIGH, SEED + 2, "a THP across pmd tables");
		thp_uffd_move(LOW, LOW2, SEED + 3, "a THP within a pmd table");
	}
	printf("# %s: pages=%d thp_moves=%d ms=%ld digest=%08x\n",
	       test_name, 2 * PAGES, thp ? 2 : 0, now_ms() - ms, digest);
	pass();
}
