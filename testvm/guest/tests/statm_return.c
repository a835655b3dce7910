// SPDX-License-Identifier: GPL-2.0
/*
 * statm_return - /proc/self/statm's resident and shared figures follow what
 * is mapped: a thread reads every page of a 1 MiB file mapped MAP_SHARED and
 * writes every page of a 1 MiB private anonymous area; then the file and the
 * area are unmapped in turn.  Shared must grow by the file's pages and by
 * nothing else, resident by both regions, and each must come back to its
 * baseline when the region that raised it is unmapped.  On 2.6.14 shared is
 * rss - anon_rss before the port and file_rss after it (the port's "mm: rss =
 * file_rss + anon_rss"); a page counted in the wrong counter, or lowered in
 * one and not the other, shows here.
 *
 * The counters are read exactly: the faults are taken by a thread, whose
 * exit folds 6.1's per-thread counts (SPLIT_RSS_COUNTING) into the mm; the
 * process is bound to one CPU and a first round maps and unmaps the same
 * sizes before the measured one, so that 6.12's per-CPU counters have no
 * remainder left on that CPU when the baseline is read (every size is a
 * multiple of their batch of 32).
 *
 * Exercises: file and anonymous faults counted in rss, then zapped by munmap;
 *   a 1 MiB file (tmpfs, or the initramfs root) and a 1 MiB anonymous area
 * Invariant: statm's shared grows by exactly the file pages mapped, resident
 *   by the file and anonymous pages; both return to their baseline after
 *   each munmap
 */
#include "harness.h"

#define DIR		"/ptlstatm"
#define FILE		DIR "/file"
#define FILE_PAGES	256UL
#define ANON_PAGES	256UL
#define SEED		0x57a70000u

struct regions {
	volatile unsigned char *file;
	unsigned char *anon;
	volatile unsigned long sum;
};

struct statm {
	long resident, shared;
};

static char statm_buf[128];

/* past one field of statm and the spaces after it */
static char *statm_next(char *p)
{
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	return p;
}

/* statm: size resident shared text lib data dt, in pages */
static void statm_read(struct statm *s)
{
	char *p;

	if (read_file("/proc/self/statm", statm_buf, sizeof(statm_buf)) < 0)
		fail("cannot read /proc/self/statm");
	p = statm_next(statm_buf);
	s->resident = atol(p);
	p = statm_next(p);
	s->shared = atol(p);
}

/* the thread: read each file page, write each anonymous page, exit */
static int touch_regions(struct thread *t)
{
	struct regions *r = t->arg;
	unsigned long p, sum = 0;

	for (p = 0; p < FILE_PAGES; p++)
		sum += r->file[p * PAGE_SIZE];
	for (p = 0; p < ANON_PAGES; p++)
		fill_page((unsigned int *)(r->anon + p * PAGE_SIZE), SEED, p);
	r->sum = sum;
	return 0;
}

static void expect(const char *when, const char *what, long got, long want)
{
	if (got != want)
		fail("%s: %s is %ld pages, expected %ld", when, what, got, want);
}

/* one round, checked if check; its figures are left in d[] */
static void round_trip(struct thread *t, int fd, int check, long d[4])
{
	struct regions *r = t->arg;
	struct statm s0, s1, s2, s3;
	void *map;

	statm_read(&s0);
	map = mmap(NULL, FILE_PAGES * PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fail("mmap of the file: errno %d", errno);
	r->file = map;
	r->anon = map_anon(ANON_PAGES * PAGE_SIZE);
	thread_start(t);
	thread_join(t);
	statm_read(&s1);
	if (munmap((void *)r->file, FILE_PAGES * PAGE_SIZE))
		fail("munmap of the file: errno %d", errno);
	statm_read(&s2);
	if (munmap(r->anon, ANON_PAGES * PAGE_SIZE))
		fail("munmap of the anonymous area: errno %d", errno);
	statm_read(&s3);

	d[0] = s1.shared - s0.shared;
	d[1] = s1.resident - s0.resident;
	d[2] = s2.resident - s0.resident;
	d[3] = s3.resident - s0.resident;
	if (!check)
		return;
	expect("both mapped", "shared's growth", d[0], FILE_PAGES);
	expect("both mapped", "resident's growth", d[1], FILE_PAGES + ANON_PAGES);
	expect("file unmapped", "shared", s2.shared, s0.shared);
	expect("file unmapped", "resident's growth", d[2], ANON_PAGES);
	expect("both unmapped", "shared", s3.shared, s0.shared);
	expect("both unmapped", "resident", s3.resident, s0.resident);
}

TEST_MAIN()
{
	static struct regions r;
	static unsigned int page[PAGE_WORDS];
	unsigned long cpu0 = 1, p;
	struct thread *t;
	struct statm warm;
	int fd, mounted, bound;
	long d[4];

	/* one CPU for every fault and zap: 6.12's remainders stay on it */
	bound = my_syscall3(__NR_sched_setaffinity, 0, sizeof(cpu0), &cpu0) == 0;
	t = threads_create(1, touch_regions, &r);
	statm_read(&warm);		/* statm_buf and this stack touched */

	mkdir(DIR, 0755);
	mounted = mount("tmpfs", DIR, "tmpfs", 0, "size=4m") == 0;
	fd = open(FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail("cannot create %s: errno %d", FILE, errno);
	for (p = 0; p < FILE_PAGES; p++) {
		fill_page(page, SEED ^ 0xf11e, p);
		if (write(fd, page, PAGE_SIZE) != (ssize_t)PAGE_SIZE)
			fail("write of page %lu: errno %d", p, errno);
	}

	round_trip(t, fd, 0, d);	/* settles the counters, unchecked */
	round_trip(t, fd, 1, d);	/* the measured round */

	close(fd);
	unlink(FILE);
	if (mounted)
		umount2(DIR, 0);
	printf("# %s: fs=%s bound=%d file_pages=%lu anon_pages=%lu "
	       "shared_delta=%ld resident_delta=%ld after_file=%ld after_both=%ld\n",
	       test_name, mounted ? "tmpfs" : "rootfs", bound, FILE_PAGES, ANON_PAGES,
	       d[0], d[1], d[2], d[3]);
	pass();
}
