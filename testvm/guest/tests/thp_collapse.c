// SPDX-License-Identifier: GPL-2.0
/*
 * thp_collapse - khugepaged makes a huge page of a range faulted as small
 * pages: 2 MiB at 0x20000000 are written page by page while THP is only for
 * MADV_HUGEPAGE areas, then madvised, and khugepaged (scanning every 10 ms
 * for this test) must collapse them: collapse_huge_page() takes the pmd
 * lock and then the pte lock of the table it replaces, and deposits that
 * table.  The data must survive, AnonHugePages must grow by the huge page
 * within COLLAPSE_MS, khugepaged's pages_collapsed must count it.  Then the
 * result is moved within its pmd table, then into another (PAE: 0x60000000),
 * and unmapped there: AnonHugePages must be where it was.  The unmap
 * withdraws the table the collapse deposited from the new pmd table's list.
 *
 * Exercises: khugepaged's `collapse_huge_page()` (pmd lock, then the replaced
 *   table's pte lock, the table deposited): 2 MiB written as small pages, then
 *   `MADV_HUGEPAGE` with khugepaged scanning every 10 ms (its sysfs knobs,
 *   restored after), then the result moved into another pmd table and back, and
 *   unmapped
 * Invariant: no huge page before the madvise; AnonHugePages grows by 2048 kB
 *   within 60 s and khugepaged's `pages_collapsed` counts it; the data survives
 *   the collapse and both moves; AnonHugePages back to its start after munmap.
 *   Skip and `ptltest.thp=1` as `thp_mremap`
 */
#include "harness.h"

#define SEED		0xc011a000u
#define LOW		0x20000000UL	/* pmd table 0 (PAE) */
#define LOW2		0x20400000UL	/* pmd table 0, another entry */
#define HIGH		0x60000000UL	/* pmd table 1 */
#define COLLAPSE_MS	60000
#define KHUGEPAGED	"/sys/kernel/mm/transparent_hugepage/khugepaged/"

static unsigned int digest = DIGEST_INIT;

/* khugepaged's sysfs file named knob */
static const char *khugepaged_path(const char *knob)
{
	static char path[96];

	strcpy(path, KHUGEPAGED);
	strcpy(path + strlen(KHUGEPAGED), knob);
	return path;
}

static unsigned long khugepaged_read(const char *knob)
{
	const char *path = khugepaged_path(knob);
	static char buf[32];

	if (read_file(path, buf, sizeof(buf)) < 0)
		fail("cannot read %s", path);
	return atol(buf);
}

static void khugepaged_write(const char *knob, unsigned long v)
{
	const char *path = khugepaged_path(knob);
	static char buf[16];

	utoa_r(v, buf);
	if (write_file(path, buf) < 0)
		fail("cannot write %s to %s", buf, path);
}

TEST_MAIN()
{
	unsigned long base, collapsed, scan_sleep, alloc_sleep, p;
	unsigned char *m;
	long ms, waited;

	thp_enable();
	base = thp_anon_kb();
	collapsed = khugepaged_read("pages_collapsed");
	scan_sleep = khugepaged_read("scan_sleep_millisecs");
	alloc_sleep = khugepaged_read("alloc_sleep_millisecs");

	/* small pages first: no MADV_HUGEPAGE yet, and THP is madvise-only */
	m = mmap((void *)LOW, HPAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || (unsigned long)m != LOW)
		fail("mmap at 0x%lx gave %p (errno %d)", LOW, m, errno);
	for (p = 0; p < HPAGE_PAGES; p++)
		fill_page((unsigned int *)(m + p * PAGE_SIZE), SEED, p);
	if (thp_anon_kb() != base)
		fail("faulted as a huge page already: AnonHugePages %lu kB, was %lu kB",
		     thp_anon_kb(), base);

	khugepaged_write("scan_sleep_millisecs", 10);
	khugepaged_write("alloc_sleep_millisecs", 10);
	if (sys_madvise(m, HPAGE, MADV_HUGEPAGE))
		fail("madvise(MADV_HUGEPAGE): errno %d", errno);
	/* a write of the knob also ends the sleep khugepaged is in now */
	khugepaged_write("scan_sleep_millisecs", 10);
	ms = now_ms();
	while (thp_anon_kb() < base + HPAGE / 1024 && now_ms() - ms < COLLAPSE_MS)
		sleep_ms(20);
	waited = now_ms() - ms;
	khugepaged_write("scan_sleep_millisecs", scan_sleep);
	khugepaged_write("alloc_sleep_millisecs", alloc_sleep);
	if (thp_anon_kb() < base + HPAGE / 1024)
		fail("no collapse in %d ms: AnonHugePages %lu kB, was %lu kB",
		     COLLAPSE_MS, thp_anon_kb(), base);
	if (khugepaged_read("pages_collapsed") <= collapsed)
		fail("AnonHugePages grew but khugepaged's pages_collapsed did not");
	corrupt_if_asked(m + PAGE_SIZE);
	hpage_check(m, SEED, "after the collapse", &digest);

	thp_move(&m, LOW2, SEED, base + HPAGE / 1024, "collapsed THP moved within its table",
		 &digest);
	thp_move(&m, HIGH, SEED, base + HPAGE / 1024, "moved across tables", &digest);
	if (munmap(m, HPAGE))
		fail("munmap: errno %d", errno);
	if (thp_anon_kb() != base)
		fail("after munmap AnonHugePages %lu kB, was %lu kB", thp_anon_kb(), base);

	printf("# %s: collapse_ms=%ld moves=2 digest=%08x\n", test_name, waited, digest);
	pass();
}
