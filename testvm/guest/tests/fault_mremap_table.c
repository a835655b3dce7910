// SPDX-License-Identifier: GPL-2.0
/*
 * fault_mremap_table - mremap of whole page tables: a 4 MiB region of small
 * pages, aligned to 4 MiB (one pte table without PAE, two with it), is moved
 * between 0x20000000 and 0x60000000 (with PAE in different pmd tables) and
 * to 0x20800000 in the first one, so that move_normal_pmd() moves the pte
 * tables themselves under the old and the new pmd locks - the same lock in
 * off mode - instead of moving each pte.  After each move the data must be
 * at the new address, and a child reading the old one must die of SIGSEGV.
 *
 * Exercises: `move_normal_pmd`: whole pte tables moved by mremap (x86
 *   `HAVE_MOVE_PMD`): a 4 MiB region of small pages, 4 MiB aligned, moved
 *   between 0x20000000, 0x60000000 (with PAE another pmd table) and 0x20800000
 * Invariant: the data is intact at the new address after each move; a child
 *   reading the old address dies of SIGSEGV
 */
#include "harness.h"
#include <linux/mman.h>

#define SEED		0x7ab1e000u
#define REGION		(4 * MiB)
#define PAGES		(REGION / PAGE_SIZE)
#define MADV_NOHUGEPAGE	15
static const unsigned long home[] = { 0x20000000UL, 0x60000000UL, 0x20800000UL,
				      0x60000000UL };

TEST_MAIN()
{
	unsigned int digest = DIGEST_INIT;
	unsigned char *m, *to;
	unsigned long p, i;
	int bad, st;
	long ret;

	m = mmap((void *)home[0], REGION, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || (unsigned long)m != home[0])
		fail("mmap at 0x%lx gave %p (errno %d)", home[0], m, errno);
	/* small pages even where THP is on (kernels without THP say EINVAL) */
	sys_madvise(m, REGION, MADV_NOHUGEPAGE);
	for (p = 0; p < PAGES; p++)
		fill_page((unsigned int *)(m + p * PAGE_SIZE), SEED, p);

	for (i = 1; i < sizeof(home) / sizeof(home[0]); i++) {
		to = (unsigned char *)home[i];
		ret = sys_mremap(m, REGION, REGION, MREMAP_MAYMOVE | MREMAP_FIXED, to);
		if (ret != (long)to)
			fail("move %lu: mremap %p to %p returned 0x%lx", i, m, to, ret);
		if (i == 3)
			corrupt_if_asked(to + PAGE_SIZE);
		for (p = 0; p < PAGES; p++) {
			bad = check_page((unsigned int *)(to + p * PAGE_SIZE), SEED, p, &digest);
			if (bad >= 0)
				fail("move %lu: page %lu word %d wrong at %p", i, p, bad, to);
		}
		st = touch_in_child(m + (i * 331 % PAGES) * PAGE_SIZE, 0);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			fail("move %lu: reading the old address: child status 0x%x, not SIGSEGV",
			     i, st);
		m = to;
	}
	if (munmap(m, REGION))
		fail("munmap: errno %d", errno);
	printf("# %s: moves=%lu pages=%lu digest=%08x\n", test_name, i - 1, PAGES, digest);
	pass();
}
