// SPDX-License-Identifier: GPL-2.0
/*
 * lockstat_pages - the paths that split, collapse, migrate, move or reclaim
 * pages, each seen taking the page-table locks it must, counted by lock_stat
 * in the class the mode says (ptlock_ptr() with split_ptlocks on,
 * &mm->page_table_lock off), as lockstat_edits counts the range edits.  Each
 * path works on UNITS units, only its call counted, and proves that what it
 * is about happened:
 *   split     a THP's pmd split by an mprotect of its first page:
 *             __split_huge_pmd() under the pmd lock, then change_pte_range()
 *             under the new pte table's; AnonHugePages falls by every THP;
 *   collapse  2 MiB of small pages made one THP by MADV_COLLAPSE:
 *             collapse_huge_page() takes the pmd lock, the replaced table's
 *             lock to isolate its pages, and that table's lock again for each
 *             pte it clears; AnonHugePages grows by every THP;
 *   migrate   a page, one in each pte table, soft-offlined (MADV_SOFT_OFFLINE,
 *             memory-failure's soft_offline_page()): migrate_pages() replaces
 *             its pte by a migration entry and back, each step under the
 *             table's lock (the rmap walks of try_to_migrate() and
 *             remove_migration_ptes()); /proc/self/pagemap shows each page on
 *             another frame;
 *   uffd_move a page, one in each pte table, moved into another table (made
 *             before, by a page beside) by UFFDIO_MOVE (6.8 on):
 *             move_pages_pte() reads the destination's pte and the source's
 *             under their locks, pins the page under the source's, then
 *             double_pt_lock() takes both (one lock in off mode); the pages
 *             read back at the destination, the source empty;
 *   reclaim   a page, one in each pte table, swapped out by MADV_PAGEOUT:
 *             the madvise walk, then reclaim's rmap walks (folio_referenced()
 *             on 6.1, try_to_unmap()), each under the table's lock; VmSwap
 *             grows by every page.
 * THP (PAE cells) is needed for split and collapse, UFFDIO_MOVE for
 * uffd_move, MIGRATION (built with COMPACTION: PAE cells) for migrate:
 * without them the path reads "-" in the figures, unless the cell asked
 * for THP (ptltest.thp=1).  Needs /proc/lock_stat (debug
 * kernels), the series, MEMORY_FAILURE (the debug fragment) and swap;
 * skipped without the first two.
 *
 * Exercises: the locks of the paths that split, collapse, migrate, move and
 *   reclaim pages, counted (debug kernels, with the series): 8 THP pmds split by
 *   mprotect, 8 MADV_COLLAPSE, 64 pages soft-offlined (migrated), moved by
 *   UFFDIO_MOVE (6.12) and swapped out by MADV_PAGEOUT, one per pte table
 * Invariant: lock_stat, in the class the mode says, at least the count per unit
 *   of the table in docs/tests.md for each path; each path proven to have
 *   happened (AnonHugePages, pagemap frames, the moved data, VmSwap) and the
 *   data intact
 */
#include "harness.h"

#define UNITS		64	/* pte tables, one page in each */
#define HUGES		8	/* THPs split, THPs collapsed */
#define STRIDE		(4 * MiB)
#define AREA		(UNITS * STRIDE)
#define HOME		0x10000000UL
#define AWAY		0x50000000UL	/* another pmd table (PAE) */
#define HUGE_HOME	0x20000000UL
#define SEED		0x9a6e5000u
#define MADV_PAGEOUT	21
#define MADV_SOFT_OFFLINE 101

enum path { SPLIT, COLLAPSE, MIGRATE, UFFD_MOVE, RECLAIM, NPATHS };
static const char *const names[NPATHS] = {
	"split", "collapse", "migrate", "uffd_move", "reclaim"
};
/*
 * The least count per unit in the mode's class: the count each path takes
 * (docs/tests.md has the measured figures and what makes them up), so that
 * one lock fewer per unit fails.  Split and collapse count per THP, the
 * others per page.  In off mode one lock serves where on mode takes two:
 * uffd_move's pair.  Reclaim takes 3 on 6.1 (6.12 skips folio_referenced()).
 */
static const long least_on[NPATHS] = { 2, 516, 2, 5, 2 };
static const long least_off[NPATHS] = { 2, 516, 2, 4, 2 };

static unsigned int digest = DIGEST_INIT;

/* n pages, one every stride from at, mapped fresh there and filled */
static unsigned char *populate(unsigned long at, int n, unsigned long stride)
{
	unsigned char *m = mmap((void *)at, n * stride, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int i;

	if (m == MAP_FAILED || (unsigned long)m != at)
		fail("mmap at 0x%lx gave %p (errno %d)", at, m, errno);
	for (i = 0; i < n; i++)
		fill_page((unsigned int *)(m + i * stride), SEED, i);
	return m;
}

/* The n pages one every stride at m hold the pattern */
static void check(const unsigned char *m, int n, unsigned long stride, const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		if (check_page((const unsigned int *)(m + i * stride), SEED, i, &digest) >= 0)
			fail("%s: page %d wrong", what, i);
}

/* The frame of the page at addr, from /proc/self/pagemap (root sees it) */
static unsigned long long frame(const void *addr)
{
	unsigned long long e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY, 0);

	if (fd < 0 || lseek(fd, (unsigned long)addr / PAGE_SIZE * 8, SEEK_SET) < 0 ||
	    read(fd, &e, 8) != 8)
		fail("cannot read /proc/self/pagemap for %p (errno %d)", addr, errno);
	close(fd);
	if (!(e >> 63))
		fail("pagemap: %p not present", addr);
	return e & ((1ULL << 55) - 1);
}

static unsigned long vmswap_kb(void)
{
	return proc_kb("/proc/self/status", "VmSwap");
}

/* Set up path k's subject; returns its area, or 0 when the kernel lacks it */
static unsigned char *prepare(int k, int thp, int uffd, unsigned long long *frames)
{
	unsigned char *m;
	int i;

	switch (k) {
	case SPLIT:
		if (!thp)
			return 0;
		for (i = 0; i < HUGES; i++)
			thp_map_at(HUGE_HOME + i * HPAGE, SEED + i);
		return (unsigned char *)HUGE_HOME;
	case COLLAPSE:
		if (!thp)
			return 0;
		m = map_anon_aligned(HUGES * HPAGE, HPAGE);
		for (i = 0; i < HUGES; i++)
			fill_pages(m + i * HPAGE, HPAGE_PAGES, SEED + i);
		return m;
	case UFFD_MOVE:
		if (uffd < 0)
			return 0;
		m = populate(HOME, UNITS, STRIDE);
		/* the destination's tables made first, by a page beside each */
		if (mmap((void *)AWAY, AREA, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) != (void *)AWAY)
			fail("mmap at 0x%lx: errno %d", AWAY, errno);
		for (i = 0; i < UNITS; i++)
			fill_page((unsigned int *)(AWAY + i * STRIDE + PAGE_SIZE), SEED, i);
		uffd_register(uffd, (void *)AWAY, AREA);
		return m;
	default:
		m = populate(HOME, UNITS, STRIDE);
		for (i = 0; k == MIGRATE && i < UNITS; i++)
			frames[i] = frame(m + i * STRIDE);
		return m;
	}
}

/*
 * Run path k on m, counted; the caller reads the classes after.  0 when the
 * kernel cannot migrate (MIGRATION is built with COMPACTION, which the
 * non-PAE debug kernels leave off: MADV_SOFT_OFFLINE answers ENOSYS).
 */
static int act(int k, unsigned char *m, int uffd)
{
	long r = 0;
	int i;

	switch (k) {
	case SPLIT:
		for (i = 0; i < HUGES && !r; i++)
			r = sys_mprotect(m + i * HPAGE, PAGE_SIZE, PROT_READ);
		break;
	case COLLAPSE:
		r = sys_madvise(m, HUGES * HPAGE, MADV_COLLAPSE);
		break;
	case MIGRATE:
		for (i = 0; i < UNITS && !r; i++)
			r = sys_madvise(m + i * STRIDE, PAGE_SIZE, MADV_SOFT_OFFLINE);
		if (r == -ENOSYS && i == 1)
			return 0;
		break;
	case UFFD_MOVE:
		for (i = 0; i < UNITS; i++)
			uffd_move(uffd, (void *)(AWAY + i * STRIDE), m + i * STRIDE,
				  PAGE_SIZE, "uffd_move");
		break;
	default:
		r = sys_madvise(m, AREA, MADV_PAGEOUT);
		break;
	}
	if (r)	/* MADV_SOFT_OFFLINE: EINVAL without MEMORY_FAILURE */
		fail("%s: %s returned errno %ld", names[k],
		     k == SPLIT ? "mprotect" : "madvise", -r);
	return 1;
}

/* Path k happened, and the data came through it; the areas unmapped */
static void verify(int k, unsigned char *m, unsigned long before_kb,
		   const unsigned long long *frames)
{
	unsigned long huge = HUGES * HPAGE / 1024;
	unsigned int keep;
	int i;

	switch (k) {
	case SPLIT:
		if (thp_anon_kb() + huge > before_kb)
			fail("split: AnonHugePages %lu kB after, %lu kB before: not every pmd split",
			     thp_anon_kb(), before_kb);
		for (i = 0; i < HUGES; i++)
			hpage_check(m + i * HPAGE, SEED + i, "split", &digest);
		break;
	case COLLAPSE:
		if (thp_anon_kb() < before_kb + huge)
			fail("collapse: AnonHugePages %lu kB after, %lu kB before: not %d THPs",
			     thp_anon_kb(), before_kb, HUGES);
		for (i = 0; i < HUGES; i++)
			hpage_check(m + i * HPAGE, SEED + i, "collapse", &digest);
		break;
	case MIGRATE:
		for (i = 0; i < UNITS; i++)
			if (frame(m + i * STRIDE) == frames[i])
				fail("migrate: page %d still on frame 0x%llx", i, frames[i]);
		check(m, UNITS, STRIDE, "migrate");
		break;
	case UFFD_MOVE:
		/* 6.12 alone moves: kept out of the digest, which the report compares */
		keep = digest;
		check((unsigned char *)AWAY, UNITS, STRIDE, "uffd_move");
		check((unsigned char *)(AWAY + PAGE_SIZE), UNITS, STRIDE, "uffd_move, beside");
		digest = keep;
		for (i = 0; i < UNITS; i++)
			if (((unsigned int *)(m + i * STRIDE))[7])
				fail("uffd_move: source page %d still holds data", i);
		if (munmap((void *)AWAY, AREA))
			fail("munmap: errno %d", errno);
		break;
	default:
		if (vmswap_kb() < before_kb + UNITS * PAGE_SIZE / 1024)
			fail("reclaim: VmSwap %lu kB after, %lu kB before: not %d pages out",
			     vmswap_kb(), before_kb, UNITS);
		check(m, UNITS, STRIDE, "reclaim");
		break;
	}
	if (munmap(m, k == SPLIT || k == COLLAPSE ? HUGES * HPAGE : AREA))
		fail("munmap: errno %d", errno);
}

TEST_MAIN()
{
	static unsigned long long frames[UNITS];
	static char short_of[NPATHS * 16];
	struct lock_counts mm, pt;
	long per[NPATHS][2];	/* acquisitions: [0] mode's class, [1] the other */
	int ran[NPATHS];
	unsigned char *m;
	unsigned long before;
	const char *why;
	int on, k, thp, uffd;

	on = lockstat_split_on();
	thp = thp_try_enable();
	uffd = uffd_open_move(&why);
	for (k = 0; k < NPATHS; k++) {
		m = prepare(k, thp, uffd, frames);
		ran[k] = m != 0;
		if (!ran[k])
			continue;
		before = k == RECLAIM ? vmswap_kb() : thp_anon_kb();
		lockstat_class(LOCK_MM, &mm);	/* its buffer faulted in first */
		lockstat_clear();
		ran[k] = act(k, m, uffd);
		lockstat_class(LOCK_MM, &mm);
		lockstat_class(LOCK_PTL, &pt);
		per[k][0] = on ? pt.acq : mm.acq;
		per[k][1] = on ? mm.acq : pt.acq;
		if (ran[k])
			verify(k, m, before, frames);
		else if (munmap(m, AREA))
			fail("munmap: errno %d", errno);
	}

	printf("# %s: mode=%s", test_name, on ? "on" : "off");
	for (k = 0; k < NPATHS; k++)
		if (ran[k])
			printf(" %s=%ld/%ld", names[k], per[k][0], per[k][1]);
		else
			printf(" %s=-", names[k]);
	printf(" digest=%08x\n", digest);
	/* every path short of its count named, one line each, then one FAIL */
	for (k = 0; k < NPATHS; k++) {
		long units = k == SPLIT || k == COLLAPSE ? HUGES : UNITS;
		long want = units * (on ? least_on[k] : least_off[k]);

		if (!ran[k] || per[k][0] >= want)
			continue;
		printf("# %s: %s of %ld units took %s %ld times, not at least %ld\n", test_name,
		       names[k], units, on ? LOCK_PTL ")" : LOCK_MM, per[k][0], want);
		strcpy(short_of + strlen(short_of), short_of[0] ? ", " : "");
		strcpy(short_of + strlen(short_of), names[k]);
	}
	if (short_of[0])
		fail("too few locks taken by: %s", short_of);
	pass();
}
