// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlb_mremap - a 2 MiB hugetlb page (PAE: one pmd entry, locked by
 * huge_pte_lock(), which is the pmd table's lock or page_table_lock as the
 * mode says) is mapped at 0x20000000, moved by mremap into another pmd
 * table (0x60000000), back, and across again, inherited by
 * a forked child that writes it (copy-on-write of a huge page), and
 * unmapped.  Data must follow every move; the child's writes must not
 * reach the parent; every huge page must be free again at the end.  Two
 * pages are reserved for the test through sysfs and given back after.
 *
 * Exercises: `huge_pte_lockptr()` (`pmd_lockptr()` for 2 MiB pages),
 *   `move_huge_pte`, `copy_hugetlb_page_range` (PAE with `HUGETLBFS`): two 2
 *   MiB hugetlb pages reserved through sysfs; one mapped at 0x20000000, moved
 *   to 0x60000000, back into the first table, across again; a forked child
 *   writes all of it
 * Invariant: data follows every move; the child's copy-on-write does not reach
 *   the parent; both pages are free after munmap and are given back. Skipped
 *   without 2 MiB hugetlb pages, unless the cell says `ptltest.hugetlb=1` (the
 *   PAE cells)
 */
#include "harness.h"
#include <linux/mman.h>

#define SEED		0x4e7b0000u
#define CHILD_SEED	0x4e7bc000u
#define LOW		0x20000000UL	/* pmd table 0 (PAE) */
#define LOW2		0x20400000UL	/* pmd table 0, another entry */
#define HIGH		0x60000000UL	/* pmd table 1 */
#ifndef MAP_HUGETLB
#define MAP_HUGETLB	0x40000
#endif

static unsigned int digest = DIGEST_INIT;

static void move(unsigned char **m, unsigned long to, const char *what)
{
	long ret = sys_mremap(*m, HPAGE, HPAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
			      (void *)to);

	if (ret != (long)to)
		fail("%s: mremap %p to 0x%lx returned 0x%lx (errno %d)", what, *m,
		     to, ret, errno);
	*m = (unsigned char *)to;
	hpage_check(*m, SEED, what, &digest);
}

TEST_MAIN()
{
	unsigned char *m;
	unsigned long p;
	int status;
	pid_t pid;

	hugetlb_reserve(2);

	m = mmap((void *)LOW, HPAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (m == MAP_FAILED || (unsigned long)m != LOW)
		fail("hugetlb mmap at 0x%lx gave %p (errno %d)", LOW, m, errno);
	for (p = 0; p < HPAGE_PAGES; p++)
		fill_page((unsigned int *)(m + p * PAGE_SIZE), SEED, p);
	if (read_long(FREE_HUGE) != 1)
		fail("after the first touch %ld huge pages free, not 1", read_long(FREE_HUGE));

	move(&m, HIGH, "across tables");
	move(&m, LOW2, "back across");
	move(&m, HIGH, "across again");

	pid = fork_child();
	if (pid == 0) {
		unsigned int d = DIGEST_INIT;

		hpage_check(m, SEED, "child before its writes", &d);
		for (p = 0; p < HPAGE_PAGES; p++)
			fill_page((unsigned int *)(m + p * PAGE_SIZE), CHILD_SEED, p);
		hpage_check(m, CHILD_SEED, "child after its writes", &d);
		exit_group(0);
	}
	status = reap(pid);
	if (status)
		fail("child: status 0x%x", status);
	corrupt_if_asked(m + PAGE_SIZE);
	hpage_check(m, SEED, "parent after the child's writes", &digest);

	if (munmap(m, HPAGE))
		fail("munmap: errno %d", errno);
	hugetlb_release(2);
	printf("# %s: moves=3 digest=%08x\n", test_name, digest);
	pass();
}
