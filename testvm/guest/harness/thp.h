/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/thp.h - huge pages: THP on, made and proven; 2 MiB checks and moves.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- transparent huge pages ----------------------------------------------
 * A THP test maps HPAGE bytes at a fixed, HPAGE-aligned address with
 * MADV_HUGEPAGE and proves the huge page formed (AnonHugePages grew) before
 * it tests anything: a test whose subject never happened fails.  Kernels
 * without THP (i386 without PAE, 2.6.14) skip, unless the cell asked for
 * THP with ptltest.thp=1.
 */
#define HPAGE		(2 * MiB)	/* PMD_SIZE with PAE */
#define HPAGE_PAGES	(HPAGE / PAGE_SIZE)
#define MADV_HUGEPAGE	14
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_DEFRAG	"/sys/kernel/mm/transparent_hugepage/defrag"

/*
 * THP for MADV_HUGEPAGE areas: the kernel turns THP off by default below
 * 512 MiB of RAM, which a 512 MiB guest is, so say "madvise" (other tests
 * keep small pages) and let the fault compact memory for the huge page.
 * Returns 1; 0 on a kernel without THP, unless the cell asked for THP
 * (ptltest.thp=1): then the test fails.
 */
static int thp_try_enable(void)
{
	char want[8];

	if (write_file(THP_ENABLED, "madvise") < 0) {
		if (cmdline_arg("ptltest.thp", want, sizeof(want)))
			fail("ptltest.thp=%s asked, but no THP: cannot write %s",
			     want, THP_ENABLED);
		return 0;
	}
	if (write_file(THP_DEFRAG, "madvise") < 0)
		fail("cannot write %s", THP_DEFRAG);
	return 1;
}

/*
 * Whether the kernel has THP at all (its sysfs file is there), whatever the
 * cell asked: on i386 only with PAE, and on x86 the split pmd locks are
 * built wherever THP is.
 */
static int thp_built(void)
{
	char mode[64];

	return read_file(THP_ENABLED, mode, sizeof(mode)) >= 0;
}

/* The same for a test about huge pages alone: it skips without THP. */
static void thp_enable(void)
{
	if (!thp_try_enable())
		skip("kernel without transparent huge pages");
}

/* AnonHugePages of /proc/meminfo, in kB */
static unsigned long thp_anon_kb(void)
{
	return meminfo_kb("AnonHugePages");
}

/*
 * Map HPAGE bytes of anonymous memory exactly at addr (not MAP_FIXED: it
 * must be free), as a THP, filled with the pattern of seed; fails unless
 * AnonHugePages grew by the huge page.
 */
static unsigned char *thp_map_at(unsigned long addr, unsigned int seed)
{
	unsigned long before = thp_anon_kb(), p;
	unsigned char *m = mmap((void *)addr, HPAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || (unsigned long)m != addr)
		fail("mmap at 0x%lx gave %p (errno %d)", addr, m, errno);
	if (sys_madvise(m, HPAGE, MADV_HUGEPAGE))
		fail("madvise(MADV_HUGEPAGE): errno %d", errno);
	for (p = 0; p < HPAGE_PAGES; p++)
		fill_page((unsigned int *)(m + p * PAGE_SIZE), seed, p);
	if (thp_anon_kb() < before + HPAGE / 1024)
		fail("no huge page at 0x%lx: AnonHugePages %lu kB, was %lu kB",
		     addr, thp_anon_kb(), before);
	return m;
}

/* Check the HPAGE_PAGES pages at m (a THP or a hugetlb page) against seed */
static void hpage_check(const unsigned char *m, unsigned int seed, const char *what,
		      unsigned int *digest)
{
	unsigned long p;
	int bad;

	for (p = 0; p < HPAGE_PAGES; p++) {
		bad = check_page((const unsigned int *)(m + p * PAGE_SIZE), seed, p, digest);
		if (bad >= 0)
			fail("%s: page %lu word %d wrong at %p", what, p, bad, m);
	}
}

/*
 * Move the HPAGE bytes at *m to to by mremap, then check them against seed and that AnonHugePages reads huge_kb
 * (a whole THP moves as one huge pmd).  what names the step in a failure.
 */
static void thp_move(unsigned char **m, unsigned long to, unsigned int seed,
		     unsigned long huge_kb, const char *what, unsigned int *digest)
{
	long ret = sys_mremap(*m, HPAGE, HPAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
			      (void *)to);

	if (ret != (long)to)
		fail("%s: mremap %p to 0x%lx returned 0x%lx", what, *m, to, ret);
	*m = (unsigned char *)to;
	corrupt_if_asked(*m + PAGE_SIZE);
	hpage_check(*m, seed, what, digest);
	if (thp_anon_kb() != huge_kb)
		fail("%s: AnonHugePages %lu kB, not %lu kB: the move split the THP",
		     what, thp_anon_kb(), huge_kb);
}

/* --- shmem huge pages: a memfd of small pages, collapsed -----------------
 * The file is written by write(2), so its page cache holds small pages
 * until MADV_COLLAPSE makes them one huge page (collapse_file()).
 */
#define MADV_COLLAPSE	25

/*
 * A memfd of units * HPAGE bytes, page p of unit u filled with the pattern
 * of seed + u, all small pages: ShmemHugePages (its value before, in *base)
 * must not have grown.  Skips on a kernel without memfd_create() (2.6.14,
 * which has no THP either) unless the cell asked for THP.
 */
static int shmem_memfd(const char *name, int units, unsigned int seed, unsigned long *base)
{
	static unsigned int buf[PAGE_WORDS];
	char want[8];
	unsigned long p;
	int fd, u;

	fd = sys_memfd_create(name, 0);
	if (fd == -ENOSYS && !cmdline_arg("ptltest.thp", want, sizeof(want)))
		skip("kernel without memfd_create");
	if (fd < 0)
		fail("memfd_create: errno %ld", -(long)fd);
	*base = meminfo_kb("ShmemHugePages");
	for (u = 0; u < units; u++)
		for (p = 0; p < HPAGE_PAGES; p++) {
			fill_page(buf, seed + u, p);
			if (write(fd, buf, PAGE_SIZE) != (ssize_t)PAGE_SIZE)
				fail("write(2) of unit %d page %lu: errno %d", u, p, errno);
		}
	if (meminfo_kb("ShmemHugePages") != *base)
		fail("written as huge pages already: ShmemHugePages %lu kB, was %lu kB",
		     meminfo_kb("ShmemHugePages"), *base);
	return fd;
}

/* MADV_COLLAPSE of HPAGE at m, again while EAGAIN (a page busy for a
 * moment), tries times at most, ms apart */
static long shmem_collapse(void *m, int tries, int ms)
{
	long r;
	int i;

	for (i = 1; (r = sys_madvise(m, HPAGE, MADV_COLLAPSE)) == -EAGAIN && i < tries; i++)
		sleep_ms(ms);
	return r;
}

/* Close the memfd: ShmemHugePages must be back to base */
static void shmem_memfd_close(int fd, unsigned long base)
{
	close(fd);
	if (meminfo_kb("ShmemHugePages") != base)
		fail("file closed, ShmemHugePages %lu kB, was %lu kB",
		     meminfo_kb("ShmemHugePages"), base);
}

/* --- hugetlb: 2 MiB pages reserved through sysfs --------------------------
 * A hugetlb test reserves the pages it needs and gives them back after.
 * Kernels without HUGETLBFS skip, unless the cell asked for hugetlb with
 * ptltest.hugetlb=1 (the PAE and x86_64 cells): then the test fails.
 */
#define NR_HUGE		"/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
#define FREE_HUGE	"/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"

/* Reserve n 2 MiB hugetlb pages, all of them, or skip or fail (above) */
static void hugetlb_reserve(int n)
{
	char want[8], num[12];

	utoa_r(n, num);
	if (write_file(NR_HUGE, num) < 0) {
		if (cmdline_arg("ptltest.hugetlb", want, sizeof(want)))
			fail("ptltest.hugetlb=%s asked, but cannot write %s", want, NR_HUGE);
		skip("kernel without 2 MiB hugetlb pages");
	}
	if (read_long(NR_HUGE) != n)
		fail("asked for %d huge pages, got %ld", n, read_long(NR_HUGE));
}

/* Give the reserved pages back: every one must be free by now */
static void hugetlb_release(int n)
{
	if (read_long(FREE_HUGE) != n)
		fail("at the end %ld huge pages free, not %d", read_long(FREE_HUGE), n);
	if (write_file(NR_HUGE, "0") < 0 || read_long(NR_HUGE) != 0)
		fail("cannot give the huge pages back");
}
