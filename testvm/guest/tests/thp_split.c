// SPDX-License-Identifier: GPL-2.0
/*
 * thp_split - what withdraws a moved THP's deposited pte table: a THP is
 * moved by mremap into another pmd table (PAE: 0x20000000 to 0x60000000),
 * then a forked child writes to all of it (copy-on-write of the huge pmd,
 * which deposits a table for the child), mprotect of one page splits the
 * parent's huge pmd (withdrawing the table from the new pmd table's list),
 * MADV_DONTNEED zaps 16 of its pages, and munmap frees the rest.  The
 * child must see the parent's data and the parent must keep it through
 * the child's writes; the zapped pages must read zero, the others intact.
 *
 * Exercises: what withdraws a moved THP's deposited table: a THP moved into
 *   another pmd table, then fork and a child's writes (huge pmd copy and
 *   copy-on-write), `mprotect` of one page (split of the parent's huge pmd:
 *   withdraw from the new table's list), `MADV_DONTNEED` of 16 pages, munmap
 * Invariant: the child sees the parent's data, the parent keeps it through the
 *   child's writes; the split leaves the THP no longer pmd-mapped and the data
 *   intact; the zapped pages read 0, the rest intact; AnonHugePages back to its
 *   start. Skip and `ptltest.thp=1` as `thp_mremap`
 */
#include "harness.h"
#include <linux/mman.h>

#define SEED		0x5b117000u
#define CHILD_SEED	0x5b11c000u
#define LOW		0x20000000UL	/* pmd table 0 (PAE) */
#define HIGH		0x60000000UL	/* pmd table 1 */
#define ZAP_FIRST	64		/* pages zapped: [64, 80) */
#define ZAP_PAGES	16

static unsigned int digest = DIGEST_INIT;

/* the child: the parent's data, then its own copy everywhere */
static void child(unsigned char *m)
{
	unsigned int d = DIGEST_INIT;
	unsigned long p;

	hpage_check(m, SEED, "child before its writes", &d);
	for (p = 0; p < HPAGE_PAGES; p++)
		fill_page((unsigned int *)(m + p * PAGE_SIZE), CHILD_SEED, p);
	hpage_check(m, CHILD_SEED, "child after its writes", &d);
	exit_group(0);
}

TEST_MAIN()
{
	unsigned long base, p, w;
	unsigned char *m;
	long ret, ms = now_ms();
	int status;
	pid_t pid;

	thp_enable();
	base = thp_anon_kb();
	m = thp_map_at(LOW, SEED);
	ret = sys_mremap(m, HPAGE, HPAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)HIGH);
	if (ret != (long)HIGH)
		fail("mremap to 0x%lx returned 0x%lx", HIGH, ret);
	m = (unsigned char *)HIGH;
	if (thp_anon_kb() < base + HPAGE / 1024)
		fail("the moved THP is gone: AnonHugePages %lu kB", thp_anon_kb());

	pid = fork_child();
	if (pid == 0)
		child(m);
	status = reap(pid);
	if (status)
		fail("child: status 0x%x", status);
	corrupt_if_asked(m + PAGE_SIZE);
	hpage_check(m, SEED, "parent after the child's writes", &digest);

	if (sys_mprotect(m, PAGE_SIZE, PROT_READ))
		fail("mprotect: errno %d", errno);
	if (thp_anon_kb() >= base + HPAGE / 1024)
		fail("mprotect of one page left the THP whole (AnonHugePages %lu kB)",
		     thp_anon_kb());
	hpage_check(m, SEED, "after the split", &digest);

	if (sys_madvise(m + ZAP_FIRST * PAGE_SIZE, ZAP_PAGES * PAGE_SIZE, MADV_DONTNEED))
		fail("madvise(MADV_DONTNEED): errno %d", errno);
	for (p = 0; p < HPAGE_PAGES; p++) {
		const unsigned int *pg = (const unsigned int *)(m + p * PAGE_SIZE);
		int bad;

		if (p < ZAP_FIRST || p >= ZAP_FIRST + ZAP_PAGES) {
			bad = check_page(pg, SEED, p, &digest);
			if (bad >= 0)
				fail("after the zap: page %lu word %d wrong", p, bad);
			continue;
		}
		for (w = 0; w < PAGE_WORDS; w++)
			if (pg[w])
				fail("zapped page %lu word %lu reads 0x%x, not 0", p, w, pg[w]);
	}
	if (munmap(m, HPAGE))
		fail("munmap: errno %d", errno);
	if (thp_anon_kb() != base)
		fail("after munmap AnonHugePages %lu kB, was %lu kB", thp_anon_kb(), base);

	printf("# %s: zapped=%d ms=%ld digest=%08x\n", test_name, ZAP_PAGES,
	       now_ms() - ms, digest);
	pass();
}
