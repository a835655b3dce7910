// SPDX-License-Identifier: GPL-2.0
/*
 * lockstat_edits - the paths that edit ptes of a whole range, each seen
 * taking the page-table lock once per table it edits, counted by lock_stat
 * in the class the mode says (ptlock_ptr() with split_ptlocks on,
 * &mm->page_table_lock off), as lockstat_paths counts fork, swapoff and
 * munmap.  A path that lost its lock, or took another mm-wide one, shows as
 * a count too low in on mode.  Each path gets a fresh area of TABLES pte
 * tables, one page written in each, 4 MiB apart (a table without PAE, two
 * with it); only the call itself is counted:
 *   mprotect      change_pte_range(): each table's lock;
 *   mremap_ptes   move_ptes(), the area moved by 4 MiB + 1 page, so no
 *                 table moves whole: each old table's lock, twice, and its
 *                 two new tables' (in off mode one lock, taken once per
 *                 move);
 *   mremap_pmds   move_normal_pmd(), the area moved by 1 GiB: the old pmd
 *                 table's lock and the new one's per table moved (the split
 *                 pmd locks where THP is built, i386 with PAE, in on mode:
 *                 two; else page_table_lock, one);
 *   dontneed, free, cold, pageout
 *                 madvise(): zap_pte_range(), madvise_free_pte_range(),
 *                 madvise_cold_or_pageout_pte_range(): each table's lock.
 * After each call the pages read as they must: moved, kept, or zero after
 * DONTNEED (FREE: kept or zero).  Needs /proc/lock_stat (debug kernels) and
 * the series, skipped without.
 *
 * Exercises: the lock of each range edit, counted (debug kernels, with the
 *   series): 64 pte tables populated one page each, 4 MiB apart, for each of
 *   mprotect, mremap by 4 MiB + 1 page (`move_ptes()`), mremap by 1 GiB
 *   (`move_normal_pmd()`), and `MADV_DONTNEED`, `MADV_FREE`, `MADV_COLD`,
 *   `MADV_PAGEOUT`
 * Invariant: lock_stat, in the class the mode says, per table: at least 1
 *   for each path, at least 4 for `move_ptes()` in on mode (the old table
 *   twice, two new tables), for `move_normal_pmd()` at least 2 in on mode
 *   with split pmd locks (old and new pmd table), else 1 of either class; the
 *   pages read back moved, kept, or zero as the call says
 */
#include "harness.h"
#include <linux/mman.h>

#define TABLES		64
#define STRIDE		(4 * MiB)
#define AREA		(TABLES * STRIDE)
#define HOME		0x10000000UL
#define SEED		0xed175000u
#define MADV_COLD	20
#define MADV_PAGEOUT	21

enum path { MPROTECT, MREMAP_PTES, MREMAP_PMDS, DONTNEED, FREE, COLD, PAGEOUT, NPATHS };
static const char *const names[NPATHS] = {
	"mprotect", "mremap_ptes", "mremap_pmds", "dontneed", "free", "cold", "pageout"
};

static unsigned int digest = DIGEST_INIT;

/* A fresh area at HOME, one page written in each of its tables */
static unsigned char *populate(void)
{
	unsigned char *m = mmap((void *)HOME, AREA, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int i;

	if (m == MAP_FAILED || (unsigned long)m != HOME)
		fail("mmap at 0x%lx gave %p (errno %d)", HOME, m, errno);
	for (i = 0; i < TABLES; i++)
		fill_page((unsigned int *)(m + i * STRIDE), SEED, i);
	return m;
}

/* Every table's page at m holds the pattern (zero where zero_ok allows) */
static void check(const unsigned char *m, const char *what, int zero_ok)
{
	const unsigned int *w;
	int i;

	for (i = 0; i < TABLES; i++) {
		w = (const unsigned int *)(m + i * STRIDE);
		if (zero_ok && !w[0] && !w[PAGE_WORDS - 1])
			continue;
		if (check_page(w, SEED, i, &digest) >= 0)
			fail("%s: page of table %d wrong", what, i);
	}
}

static void zero(const unsigned char *m, const char *what)
{
	int i;

	for (i = 0; i < TABLES; i++)
		if (((const unsigned int *)(m + i * STRIDE))[0])
			fail("%s: page of table %d not zero", what, i);
}

TEST_MAIN()
{
	struct lock_counts mm, pt;
	long per[NPATHS][2];	/* acquisitions: [0] mode's class, [1] the other */
	unsigned char *m, *to;
	int on, k, split_pmd;
	long r;

	on = lockstat_split_on();
	split_pmd = thp_built();
	for (k = 0; k < NPATHS; k++) {
		m = populate();
		to = m;
		lockstat_class(LOCK_MM, &mm);	/* its buffer faulted in first */
		lockstat_clear();
		switch (k) {
		case MPROTECT:
			r = sys_mprotect(m, AREA, PROT_READ);
			break;
		case MREMAP_PTES:
			to = m + AREA + STRIDE + PAGE_SIZE;
			r = sys_mremap(m, AREA, AREA, MREMAP_MAYMOVE | MREMAP_FIXED, to);
			break;
		case MREMAP_PMDS:
			to = m + 0x40000000UL;
			r = sys_mremap(m, AREA, AREA, MREMAP_MAYMOVE | MREMAP_FIXED, to);
			break;
		case DONTNEED:
			r = sys_madvise(m, AREA, MADV_DONTNEED);
			break;
		case FREE:
			r = sys_madvise(m, AREA, MADV_FREE);
			break;
		case COLD:
			r = sys_madvise(m, AREA, MADV_COLD);
			break;
		default:
			r = sys_madvise(m, AREA, MADV_PAGEOUT);
			break;
		}
		lockstat_class(LOCK_MM, &mm);
		lockstat_class(LOCK_PTL, &pt);
		if (r < 0 || (r > 0 && r != (long)to))
			fail("%s: returned %ld", names[k], r);
		per[k][0] = on ? pt.acq : mm.acq;
		per[k][1] = on ? mm.acq : pt.acq;
		if (k == DONTNEED)
			zero(to, names[k]);
		else
			check(to, names[k], k == FREE);
		if (munmap(to, AREA))
			fail("munmap after %s: errno %d", names[k], errno);
	}

	printf("# %s: mode=%s tables=%d", test_name, on ? "on" : "off", TABLES);
	for (k = 0; k < NPATHS; k++)
		printf(" %s=%ld/%ld", names[k], per[k][0], per[k][1]);
	printf(" digest=%08x\n", digest);
	for (k = 0; k < NPATHS; k++) {
		const char *class = on ? LOCK_PTL ")" : LOCK_MM;
		long want = TABLES, got = per[k][0];

		if (k == MREMAP_PTES && on)
			want = 4 * TABLES;
		if (k == MREMAP_PMDS && on && split_pmd) {
			want = 2 * TABLES;
		} else if (k == MREMAP_PMDS) {
			got += per[k][1];
			class = "the two classes";
		}
		if (got < want)
			fail("%s of %d tables took %s %ld times, not at least %ld",
			     names[k], TABLES, class, got, want);
	}
	pass();
}
