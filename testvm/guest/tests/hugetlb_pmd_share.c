// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlb_pmd_share - two processes map one 1 GiB hugetlbfs file (a memfd,
 * MFD_HUGETLB), MAP_SHARED, each at a 1 GiB-aligned address: on x86_64
 * (ARCH_WANT_HUGE_PMD_SHARE) the second to fault then shares the first's pmd
 * table (huge_pmd_share()), whose lock both take.  With split_ptlocks off
 * each mm's table lock is its own page_table_lock, which would not exclude
 * the other, so want_pmd_share() refuses sharing in off mode.
 *
 * The proof is in the faults of the reader, A.  B maps the file and writes
 * huge page 0; A maps it and reads page 0 (sharing B's table, if it may);
 * B writes pages 1..NHUGE-1; A reads them.  Through a shared table their
 * entries are already there: A takes no fault.  With a table of its own A
 * takes one fault for each.  Then the unshare paths, with the data checked
 * in every process after each: A's mprotect() of its last 2 MiB splits its
 * vma, which unshares (A faults every page again where it shared), and A
 * writes page 1 anew; B unmaps its last 2 MiB (split, unshare); a child of
 * A (fork) reads all and writes page 2 anew; B exits; A unmaps all, and the
 * pool's pages are all free again.  i386 has no pmd sharing: skipped there.
 *
 * Exercises: hugetlb pmd sharing (x86_64 `ARCH_WANT_HUGE_PMD_SHARE`):
 *   `want_pmd_share()`, `huge_pmd_share()`, and the unshare paths
 *   (`hugetlb_split()` on mprotect and partial munmap, fork, exit): two
 *   processes map one 1 GiB `MFD_HUGETLB` memfd at 1 GiB-aligned addresses;
 *   8 of its 2 MiB pages are written by one, read by the other
 * Invariant: A's reads of the pages B wrote take no fault where sharing is
 *   allowed (split on, or a kernel without the series) and one fault each in
 *   off mode (mutant `pmd-share-in-off-mode`); after the mprotect split, A
 *   faults each again where it had shared (unshared); every page holds what
 *   was last written to it, in A, B and A's child, after each step; all pool
 *   pages are free at the end. Skipped on i386; without hugetlb pages it
 *   fails where the cell says `ptltest.hugetlb=1` (mutant `hugetlb-pool-empty`)
 */
#include "harness.h"
#include <linux/mman.h>

#define SEED		0x5a4ed000u
#define GiB		(1024UL * MiB)
#define NHUGE		8
#define A_AT		0x40000000UL	/* 1 GiB: a pmd table of its own */
#define B_AT		0x80000000UL	/* 2 GiB */
#define MFD_HUGETLB	4U

struct ctl {
	volatile int step;
	unsigned int seed[NHUGE];	/* what each huge page holds */
};

static struct ctl *c;
static unsigned int digest = DIGEST_INIT;

static unsigned char *map_file(int fd, unsigned long at, const char *who)
{
	unsigned char *m = mmap((void *)at, GiB, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_NORESERVE | MAP_FIXED, fd, 0);

	if (m != (unsigned char *)at)
		fail("%s: mmap of the 1 GiB file at 0x%lx gave %p (errno %d)", who, at, m,
		     errno);
	return m;
}

static void write_huge(unsigned char *m, int i, unsigned int seed)
{
	fill_pages(m + i * HPAGE, HPAGE_PAGES, seed);
	c->seed[i] = seed;
}

static void check_huge(const unsigned char *m, int from, int to, const char *what)
{
	unsigned long p;
	int i, bad;

	for (i = from; i < to; i++)
		for (p = 0; p < HPAGE_PAGES; p++) {
			bad = check_page((const unsigned int *)(m + i * HPAGE + p * PAGE_SIZE),
					 c->seed[i], p, &digest);
			if (bad >= 0)
				fail("%s: huge page %d, page %lu, word %d wrong", what, i, p, bad);
		}
}

static void step_to(int from, int to)
{
	futex_wait_for(&c->step, from);
	futex_add(&c->step, to - from);
}

/* B: writes the pages A reads, then unmaps part of its mapping, exits */
static void process_b(int fd)
{
	unsigned char *m = map_file(fd, B_AT, "B");
	int i;

	write_huge(m, 0, SEED);
	step_to(0, 1);
	futex_wait_for(&c->step, 2);
	for (i = 1; i < NHUGE; i++)
		write_huge(m, i, SEED + i);
	step_to(2, 3);
	futex_wait_for(&c->step, 4);
	check_huge(m, 0, NHUGE, "B, after A's split and write");
	if (munmap(m + GiB - HPAGE, HPAGE))
		fail("B: munmap of its last 2 MiB: errno %d", errno);
	check_huge(m, 0, NHUGE, "B, after its partial munmap");
	step_to(4, 5);
	futex_wait_for(&c->step, 6);
	exit_group(0);
}

TEST_MAIN()
{
	long faults, split_faults, f0;
	unsigned char *m;
	char mode[8];
	int fd, share, series, st;
	pid_t b, child;

	if (sizeof(long) < 8)
		skip("i386: no hugetlb pmd sharing (ARCH_WANT_HUGE_PMD_SHARE is x86_64's)");
	hugetlb_reserve(NHUGE);
	series = read_file("/sys/kernel/mm/split_ptlocks", mode, sizeof(mode)) >= 0;
	share = !series || !strncmp(mode, "on", 2);
	fd = sys_memfd_create("hugetlb_pmd_share", MFD_HUGETLB);
	if (fd < 0)
		fail("memfd_create(MFD_HUGETLB): errno %d", -fd);
	if (sys_ftruncate(fd, GiB))
		fail("ftruncate of the hugetlb memfd to 1 GiB: errno %d", errno);
	c = map_shared(sizeof(*c));

	b = fork_child();
	if (b == 0)
		process_b(fd);
	futex_wait_for(&c->step, 1);
	m = map_file(fd, A_AT, "A");
	check_huge(m, 0, 1, "A, first read");
	step_to(1, 2);
	futex_wait_for(&c->step, 3);

	/* A's reads of what B wrote: through B's table, or faults of its own */
	f0 = minor_faults();
	check_huge(m, 1, NHUGE, "A, reading B's writes");
	faults = minor_faults() - f0;
	if (share && faults > 1)
		fail("sharing allowed (%s), but A took %ld faults reading %d huge pages B had mapped: the pmd table was not shared",
		     series ? "split_ptlocks on" : "no series", faults, NHUGE - 1);
	if (!share && faults < NHUGE - 1)
		fail("split_ptlocks off, but A took %ld faults for %d huge pages B had mapped: the pmd table was shared",
		     faults, NHUGE - 1);

	/* mprotect of the last 2 MiB splits A's vma: unshare */
	if (sys_mprotect(m + GiB - HPAGE, HPAGE, PROT_READ))
		fail("A: mprotect of its last 2 MiB: errno %d", errno);
	f0 = minor_faults();
	check_huge(m, 0, NHUGE, "A, after its mprotect split");
	split_faults = minor_faults() - f0;
	if (share && split_faults < NHUGE)
		fail("A's vma split, but A read %d huge pages with %ld faults: the shared table was not unshared",
		     NHUGE, split_faults);
	if (sys_mprotect(m + GiB - HPAGE, HPAGE, PROT_READ | PROT_WRITE))
		fail("A: mprotect back: errno %d", errno);
	write_huge(m, 1, SEED + 0x100);
	step_to(3, 4);
	futex_wait_for(&c->step, 5);		/* B unmapped part, checked */
	check_huge(m, 0, NHUGE, "A, after B's partial munmap");

	child = fork_child();
	if (child == 0) {
		check_huge(m, 0, NHUGE, "A's child");
		write_huge(m, 2, SEED + 0x200);
		exit_group(0);
	}
	st = reap(child);
	if (st)
		fail("A's child ended with 0x%x", st);
	corrupt_if_asked(m + 2 * HPAGE);
	check_huge(m, 0, NHUGE, "A, after its child's write");
	step_to(5, 6);
	st = reap(b);
	if (st)
		fail("B ended with 0x%x", st);
	check_huge(m, 0, NHUGE, "A, after B's exit");
	if (munmap(m, GiB))
		fail("A: munmap: errno %d", errno);
	close(fd);
	hugetlb_release(NHUGE);
	printf("# %s: share=%s faults_reading=%ld faults_after_split=%ld digest=%08x\n",
	       test_name, share ? "yes" : "no", faults, split_faults, digest);
	pass();
}
