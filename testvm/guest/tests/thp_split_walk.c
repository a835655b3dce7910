// SPDX-License-Identifier: GPL-2.0
/*
 * thp_split_walk - THPs split by debugfs's split_huge_pages
 * ("PID,0xSTART,0xEND"), whose walk finds each folio under the lock of the
 * table that maps it (6.12: folio_walk_start(), which takes the pmd lock of
 * a huge pmd and returns holding it; 6.1: follow_page()), while THREADS
 * threads of the same mm fault pages of their own.  Every THP must end
 * split (AnonHugePages back where it was), its data intact, and the
 * threads' pages too.  debugfs is mounted at /sys/kernel/debug when it is
 * not.  Skips without THP, unless the cell asked for it (ptltest.thp=1).
 *
 * Exercises: debugfs `split_huge_pages` for this process's range (6.12
 *   `folio_walk_start()`, 6.1 `follow_page()`: the pmd lock of each huge pmd),
 *   4 THPs split while 4 threads fault in the same mm
 * Invariant: AnonHugePages falls back to its start (every THP split); the data
 *   of the THPs and of the threads' pages intact
 */
#include "harness.h"

#define HUGES		4
#define BASE		0x20000000UL
#define THREADS		4
#define SLICE		(512 * PAGE_SIZE)
#define SEED		0x5b1a1000u
#define DEBUGFS		"/sys/kernel/debug"
#define SPLIT_FILE	DEBUGFS "/split_huge_pages"

static int exists(const char *path)
{
	int fd = open(path, O_RDONLY, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* "0x" and v in hex at p; returns the end */
static char *hex(char *p, unsigned long v)
{
	*p++ = '0';
	*p++ = 'x';
	return p + utoh_r(v, p);
}

TEST_MAIN()
{
	struct slices s = { 0, SLICE / PAGE_SIZE, SEED + HUGES };
	unsigned int digest = DIGEST_INIT;
	unsigned long base_kb;
	struct thread *t;
	char cmd[64], *p;
	int i, bad;

	thp_enable();
	if (!exists(SPLIT_FILE) && mount("debugfs", DEBUGFS, "debugfs", 0, NULL))
		fail("cannot mount debugfs at %s: errno %d", DEBUGFS, errno);
	if (!exists(SPLIT_FILE))
		fail("no %s (DEBUG_FS and THP are built)", SPLIT_FILE);
	base_kb = thp_anon_kb();
	for (i = 0; i < HUGES; i++)
		thp_map_at(BASE + i * HPAGE, SEED + i);

	s.area = map_anon(THREADS * SLICE);
	t = threads_create(THREADS, touch_slice, &s);
	threads_start(t, THREADS);
	/* "PID,0xSTART,0xEND" */
	p = cmd + utoa_r(getpid(), cmd);
	*p++ = ',';
	p = hex(p, BASE);
	*p++ = ',';
	*hex(p, BASE + HUGES * HPAGE) = 0;
	if (write_file(SPLIT_FILE, cmd) < 0)
		fail("write of '%s' to %s: errno %d", cmd, SPLIT_FILE, errno);
	threads_join(t, THREADS);

	if (thp_anon_kb() != base_kb)
		fail("after the split AnonHugePages %lu kB, was %lu kB before the THPs",
		     thp_anon_kb(), base_kb);
	for (i = 0; i < HUGES; i++) {
		corrupt_if_asked((void *)(BASE + i * HPAGE + PAGE_SIZE));
		hpage_check((unsigned char *)(BASE + i * HPAGE), SEED + i, "after the split",
			    &digest);
	}
	if (check_pages(s.area, THREADS * SLICE / PAGE_SIZE, s.seed, &digest, &bad) >= 0)
		fail("a page the threads faulted meanwhile is wrong (word %d)", bad);
	printf("# %s: huges=%d threads=%d digest=%08x\n", test_name, HUGES, THREADS, digest);
	pass();
}
