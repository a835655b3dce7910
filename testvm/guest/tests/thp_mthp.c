// SPDX-License-Identifier: GPL-2.0
/*
 * thp_mthp - multi-size THP: 64 KiB anonymous folios, each mapped by one
 * fault (do_anonymous_page() allocating the folio, one set_ptes() of its 16
 * ptes), then forked, mprotected and unmapped in part.  hugepages-64kB is
 * set to "madvise" (restored at the end) and the area, 1 MiB of 16 folios
 * in a mapping with no 2 MiB range in it (no pmd-sized THP), gets
 * MADV_HUGEPAGE.  That the folios are there is proven before anything
 * else: the size's anon_fault_alloc and nr_anon grow by one a folio, and
 * writing all 256 pages takes one fault a folio, not one a page.  A forked
 * child reads all of it; the parent then writes folios 8-15, each write
 * faulting (fork write-protected the ptes of the shared folios), the child
 * checks that it still sees the old data and writes folios 0-3; each
 * checks the other's writes did not reach it.  Folios 4-7 stay whole in
 * the parent: mprotect of 4 pages in folio 4 splits the vma across the
 * folio (a child's write there gets SIGSEGV, one to the folio's other
 * pages does not), munmap of the second half of folio 5 leaves the first
 * half and queues the folio for a deferred split (split_deferred grows).
 * Data is checked after each step; at the end munmap frees every folio
 * (nr_anon back to its start).  Kernels without mTHP (before 6.8: 6.1, no
 * hugepages-64kB) skip; from 6.8 on (/proc/sys/kernel/osrelease says so) a
 * kernel with THP must have it, else the test fails.  Kernels without THP
 * skip, unless the cell says ptltest.thp=1.
 *
 * Exercises: multi-size THP (6.8 on): 16 folios of 64 KiB faulted with
 *   hugepages-64kB "madvise" and `MADV_HUGEPAGE` (`alloc_anon_folio()`,
 *   `set_ptes()` of 16 ptes); fork (`copy_present_ptes()` of large folios,
 *   copy-on-write of 8 in the parent, 4 in the child), `mprotect` of 4 pages
 *   of a folio and back, munmap of half a folio (`deferred_split_folio()`),
 *   munmap of all
 * Invariant: anon_fault_alloc and nr_anon of hugepages-64kB grow by 16 and
 *   writing the 256 pages takes at most 18 faults; the child reads the
 *   parent's data, neither sees the other's later writes, the parent's 8
 *   folios' writes after fork take at least 8 faults; a write to the
 *   mprotected pages gets SIGSEGV, one to the folio's other pages does not;
 *   after the partial munmap the other half is intact, the unmapped half gets
 *   SIGSEGV and split_deferred grew; every page holds its last pattern after
 *   each step; nr_anon back to its start after munmap. Skipped before 6.8
 *   (no `hugepages-64kB`: 6.1; from 6.8 on its absence fails); skip and
 *   `ptltest.thp=1` as `thp_mremap`
 */
#include "harness.h"

#define MTHP		"/sys/kernel/mm/transparent_hugepage/hugepages-64kB"
#define FOLIO		(64 * 1024UL)
#define FOLIO_PAGES	(FOLIO / PAGE_SIZE)
#define FOLIOS		16
#define SEED		0x3e7f0000u	/* folio f: SEED + f */
#define PARENT_SEED	0x3e7f1000u	/* the parent's writes after fork */
#define CHILD_SEED	0x3e7f2000u
#define PROT_SEED	0x3e7f3000u
#define CHILD_FOLIOS	4		/* the child writes folios 0..3 */
#define PROT_FOLIO	4		/* pages 4..7 of it mprotected */
#define CUT_FOLIO	5		/* its second half unmapped */

static unsigned char *area;
static unsigned int seed_of[FOLIOS];
static unsigned int digest = DIGEST_INIT;

static unsigned char *folio(int f)
{
	return area + f * FOLIO;
}

static long mthp_stat(const char *name)
{
	char path[128];
	int n = strlen(MTHP "/stats/");

	memcpy(path, MTHP "/stats/", n);
	memcpy(path + n, name, strlen(name) + 1);
	return read_long(path);
}

/* fill folio f with seed: page p of it as page f * 16 + p */
static void fill_folio(int f, unsigned int seed)
{
	unsigned long p;

	for (p = 0; p < FOLIO_PAGES; p++)
		fill_page((unsigned int *)(folio(f) + p * PAGE_SIZE), seed,
			  f * FOLIO_PAGES + p);
	seed_of[f] = seed;
}

/* check pages from .. to - 1 of folio f against its seed */
static void check_folio_pages(int f, unsigned long from, unsigned long to,
			      const char *what, unsigned int *d)
{
	unsigned long p;
	int bad;

	for (p = from; p < to; p++) {
		bad = check_page((unsigned int *)(folio(f) + p * PAGE_SIZE), seed_of[f],
				 f * FOLIO_PAGES + p, d);
		if (bad >= 0)
			fail("%s: folio %d page %lu word %d wrong", what, f, p, bad);
	}
}

static void check_all(const char *what, unsigned int *d)
{
	int f;

	for (f = 0; f < FOLIOS; f++)
		check_folio_pages(f, 0, FOLIO_PAGES, what, d);
}

/* "major.minor" of the running kernel, as major * 1000 + minor */
static long kernel_release(void)
{
	char rel[64], *p = rel;
	long major, minor;

	if (read_file("/proc/sys/kernel/osrelease", rel, sizeof(rel)) < 0)
		fail("cannot read /proc/sys/kernel/osrelease");
	major = atol(p);
	while (*p && *p != '.')
		p++;
	minor = *p ? atol(p + 1) : 0;
	return major * 1000 + minor;
}

/* the bracketed word of a sysfs choice ("always inherit [madvise] never") */
static void chosen(const char *text, char *out, int size)
{
	const char *b = strstr(text, "[");
	int i = 0;

	if (b)
		for (b++; *b && *b != ']' && i < size - 1; b++)
			out[i++] = *b;
	out[i] = 0;
}

static void child(volatile int *sh)
{
	unsigned int d = DIGEST_INIT;
	int f;

	check_all("child, before any write", &d);
	futex_add(&sh[0], 1);			/* the parent writes now */
	futex_wait_for(&sh[1], 1);
	check_all("child, after the parent's writes", &d);
	for (f = 0; f < CHILD_FOLIOS; f++)
		fill_folio(f, CHILD_SEED + f);
	check_all("child, after its writes", &d);
	exit_group(0);
}

static void expect_signal(void *addr, int write, int sig, const char *what)
{
	int st = touch_in_child(addr, write);

	if (sig && !(WIFSIGNALED(st) && WTERMSIG(st) == sig))
		fail("%s: a child's %s at %p: status 0x%x, not signal %d", what,
		     write ? "write" : "read", addr, st, sig);
	if (!sig && st)
		fail("%s: a child's %s at %p: status 0x%x, not 0", what,
		     write ? "write" : "read", addr, st);
}

TEST_MAIN()
{
	static unsigned int scratch[PAGE_WORDS];
	char text[96], old[16], want[8];
	long alloc0, nr0, deferred0, faults, cow_faults, alloc, nr;
	volatile int *sh;
	int f, st;
	pid_t pid;

	if (!thp_try_enable())
		skip("kernel without transparent huge pages");
	if (read_file(MTHP "/enabled", text, sizeof(text)) < 0) {
		if (kernel_release() < 6008)
			skip("kernel without multi-size THP (6.8): no %s", MTHP);
		fail("kernel %ld.%ld with THP (ptltest.thp=%s), but no %s",
		     kernel_release() / 1000, kernel_release() % 1000,
		     cmdline_arg("ptltest.thp", want, sizeof(want)) ? want : "unset", MTHP);
	}
	chosen(text, old, sizeof(old));
	if (write_file(MTHP "/enabled", "madvise"))
		fail("cannot write %s/enabled", MTHP);

	/* 1 MiB in a mapping of 1 MiB + 64 KiB: no 2 MiB range for a pmd THP */
	area = map_anon_aligned(FOLIOS * FOLIO, FOLIO);
	if (sys_madvise(area, FOLIOS * FOLIO, MADV_HUGEPAGE))
		fail("madvise(MADV_HUGEPAGE): errno %d", errno);
	sh = map_shared(PAGE_SIZE);
	fill_page(scratch, SEED, 0);		/* the code and stack faulted in */
	alloc0 = mthp_stat("anon_fault_alloc");
	nr0 = mthp_stat("nr_anon");
	faults = minor_faults();
	for (f = 0; f < FOLIOS; f++)
		fill_folio(f, SEED + f);
	faults = minor_faults() - faults;
	alloc = mthp_stat("anon_fault_alloc") - alloc0;
	nr = mthp_stat("nr_anon") - nr0;
	if (alloc != FOLIOS || nr != FOLIOS)
		fail("%d folios written: anon_fault_alloc grew by %ld, nr_anon by %ld "
		     "(fallbacks %ld): no 64 KiB folios", FOLIOS, alloc, nr,
		     mthp_stat("anon_fault_fallback"));
	if (faults > FOLIOS + 2)
		fail("%lu pages of %d 64 KiB folios took %ld faults: not one a folio",
		     FOLIOS * FOLIO_PAGES, FOLIOS, faults);
	check_all("after the faults", &digest);

	/*
	 * fork: the child reads all, the parent writes folios 8..15, the child
	 * 0..3; 4..7 stay whole 64 KiB folios in the parent for what follows
	 */
	pid = fork_child();
	if (pid == 0)
		child(sh);
	futex_wait_for(&sh[0], 1);
	cow_faults = minor_faults();
	for (f = FOLIOS / 2; f < FOLIOS; f++)
		fill_folio(f, PARENT_SEED + f);
	cow_faults = minor_faults() - cow_faults;
	futex_add(&sh[1], 1);
	st = reap(pid);
	if (st)
		fail("child: status %d (its FAIL line says why)", st);
	if (cow_faults < FOLIOS / 2)
		fail("the parent's writes to %d shared folios took %ld faults: "
		     "fork left them writable", FOLIOS / 2, cow_faults);
	check_all("parent, after the child's writes", &digest);

	/* mprotect of pages 4..7 of a folio: the vma split across it */
	if (sys_mprotect(folio(PROT_FOLIO) + 4 * PAGE_SIZE, 4 * PAGE_SIZE, PROT_READ))
		fail("mprotect: errno %d", errno);
	check_all("after mprotect", &digest);
	expect_signal(folio(PROT_FOLIO) + 5 * PAGE_SIZE, 1, SIGSEGV, "mprotected page");
	expect_signal(folio(PROT_FOLIO) + 1 * PAGE_SIZE, 1, 0, "the folio's page before");
	expect_signal(folio(PROT_FOLIO) + 9 * PAGE_SIZE, 1, 0, "the folio's page after");
	if (sys_mprotect(folio(PROT_FOLIO) + 4 * PAGE_SIZE, 4 * PAGE_SIZE,
			 PROT_READ | PROT_WRITE))
		fail("mprotect back: errno %d", errno);
	fill_folio(PROT_FOLIO, PROT_SEED);
	check_all("after mprotect back and a write", &digest);

	/* munmap of the second half of a folio nobody wrote since the faults */
	deferred0 = mthp_stat("split_deferred");
	if (munmap(folio(CUT_FOLIO) + FOLIO / 2, FOLIO / 2))
		fail("munmap of half a folio: errno %d", errno);
	for (f = 0; f < FOLIOS; f++)
		if (f != CUT_FOLIO)
			check_folio_pages(f, 0, FOLIO_PAGES, "after the partial munmap", &digest);
	corrupt_if_asked(folio(CUT_FOLIO) + PAGE_SIZE);
	check_folio_pages(CUT_FOLIO, 0, FOLIO_PAGES / 2, "the half left", &digest);
	expect_signal(folio(CUT_FOLIO) + FOLIO / 2 + PAGE_SIZE, 0, SIGSEGV, "unmapped half");
	if (mthp_stat("split_deferred") <= deferred0)
		fail("half a folio unmapped, but split_deferred %ld, was %ld: "
		     "no 64 KiB folio was cut", mthp_stat("split_deferred"), deferred0);

	if (munmap(area, CUT_FOLIO * FOLIO + FOLIO / 2) ||
	    munmap(folio(CUT_FOLIO + 1), (FOLIOS - CUT_FOLIO - 1) * FOLIO))
		fail("munmap: errno %d", errno);
	nr = mthp_stat("nr_anon");
	if (write_file(MTHP "/enabled", old))
		fail("cannot restore %s/enabled to %s", MTHP, old);
	if (nr != nr0)
		fail("all unmapped, nr_anon %ld, was %ld", nr, nr0);
	printf("# %s: folios=%d fault_faults=%ld cow_faults=%ld split_deferred=%ld "
	       "digest=%08x\n", test_name, FOLIOS, faults, cow_faults,
	       mthp_stat("split_deferred") - deferred0, digest);
	pass();
}
