// SPDX-License-Identifier: GPL-2.0
/*
 * truncate_unmap - truncation racing munmap and exit over the same page
 * tables.  A 4 MiB file on tmpfs (ramfs where tmpfs cannot be mounted) has
 * its lower half written with the pattern.  Six processes map the whole file,
 * over and over, touch the lower half and then let the mapping go: three by
 * munmap(), three by a child that exits with the mapping in place.  Two map
 * it MAP_SHARED and write each page's first word back; four map it
 * MAP_PRIVATE and write every eighth word of each page with a pattern of
 * their own (copy-on-write: anonymous pages among the file's).  Between map
 * and unmap their page table is freed (free_pgtables()), while the parent
 * shrinks the file to its lower half and grows it back, again and again:
 * each shrink walks every mapping's page table for the upper half
 * (unmap_mapping_range() through i_mmap, with no mmap_sem), and must never
 * meet a table that munmap or exit is freeing.  In 2.6.14 that order was
 * kept by page_table_lock; after the split, by unlinking the vma from
 * i_mmap before its tables are freed.  A freed table that truncation still
 * zaps shows in the data: reused as another mapper's page table, its
 * private pages are unmapped and read back as the file's; reused as one of
 * their private pages, words of it are cleared.
 *
 * Exercises: truncation against munmap and exit: 6 processes map a 4 MiB
 *   tmpfs file (2 shared, 4 private with copy-on-write pages), touch its
 *   lower half and unmap it or exit, in a loop, while the parent shrinks the
 *   file to that half and grows it back
 * Invariant: every page of the lower half holds the file's pattern, and a
 *   private mapper's own words, in every view, every round; every mapper ends
 *   with status 0; the file read back holds the lower half and zeroes above
 */
#include "harness.h"

#define SEED		0x7a0c0000u
#define DIR		"/ptltrunc"
#define FILE		DIR "/file"
#define PAGES		1024UL
#define KEEP		(PAGES / 2)	/* never truncated */
#define SIZE		(PAGES * PAGE_SIZE)
#define NMAPPERS	6		/* even: munmap, odd: exit */
#define NSHARED		2		/* mappers 0, 1: MAP_SHARED; the rest private */
#define STRIDE		8		/* a private mapper writes word 0 of each 8 */
#define DEF_MS		5000

struct shared {
	volatile int stop;
	volatile int ready;
	unsigned long rounds[NMAPPERS];
	long bad_page[NMAPPERS];
	int bad_word[NMAPPERS];
};

static struct shared *sh;
static int fd;

/* Note the first bad word of the lower half: page p, word w. */
static int bad(int id, unsigned long p, int w)
{
	sh->bad_page[id] = p;
	sh->bad_word[id] = w;
	return 1;
}

/*
 * What word w of page p holds in mapper id's view: a private mapper's own
 * pattern (seeded by its id) on every STRIDE-th word, the file's elsewhere.
 */
static unsigned int expect(int id, unsigned long p, unsigned int w)
{
	if (id >= NSHARED && w % STRIDE == 0)
		return pattern(SEED ^ (0x100u * (id + 1)), p, w);
	return pattern(SEED, p, w);
}

/*
 * Map the file, check and touch its lower half: the shared mappers write
 * each page's first word back, the private ones their own words (a
 * copy-on-write fault on each page); then every page is checked, on every
 * STRIDE-th word and the word after it, and one page a round, turning, whole.
 * Returns the mapping, or NULL with the bad page noted.
 */
static unsigned char *map_and_touch(int id, unsigned long round)
{
	int share = id < NSHARED ? MAP_SHARED : MAP_PRIVATE;
	unsigned char *map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, share, fd, 0);
	unsigned long p, whole = round % KEEP;
	unsigned int *page, w;

	if (map == MAP_FAILED)
		fail("mapper %d: mmap: errno %d", id, errno);
	for (p = 0; p < KEEP; p++) {
		page = (unsigned int *)(map + p * PAGE_SIZE);
		if (page[0] != pattern(SEED, p, 0) && bad(id, p, 0))
			return NULL;
		for (w = 0; w < (share == MAP_SHARED ? 1 : PAGE_WORDS); w += STRIDE)
			page[w] = expect(id, p, w);
	}
	for (p = 0; p < KEEP; p++) {
		page = (unsigned int *)(map + p * PAGE_SIZE);
		for (w = 0; w < PAGE_WORDS; w += p == whole ? 1 : STRIDE / 2)
			if (page[w] != expect(id, p, w) && bad(id, p, w))
				return NULL;
	}
	return map;
}

/* Mapper id: until told to stop, map, touch, and unmap or exit. */
static void mapper(int id)
{
	unsigned long round;
	unsigned char *map;
	pid_t pid;
	int st;

	futex_add(&sh->ready, 1);
	for (round = 0; !sh->stop; round++) {
		if (id % 2 == 0) {
			map = map_and_touch(id, round);
			if (!map)
				exit_group(2);
			if (munmap(map, SIZE))
				fail("mapper %d: munmap: errno %d", id, errno);
		} else {
			pid = fork_child();
			if (pid == 0)
				exit_group(map_and_touch(id, round) ? 0 : 2);
			st = reap(pid);
			if (st)
				exit_group(st);
		}
		sh->rounds[id] = round + 1;
	}
	exit_group(0);
}

TEST_MAIN()
{
	static unsigned int buf[PAGE_WORDS];
	unsigned long p, shrinks = 0, maps = 0, ms_max;
	unsigned int digest = DIGEST_INIT;
	pid_t pid[NMAPPERS];
	int i, w, st, mounted;
	long t0, ms;

	need_mem_mib(64);
	ms_max = cmdline_ulong("ptltest.truncate_ms", DEF_MS);
	mkdir(DIR, 0755);
	mounted = mount("tmpfs", DIR, "tmpfs", 0, "size=8m") == 0;
	fd = open(FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail("open %s: errno %d", FILE, errno);
	for (p = 0; p < KEEP; p++) {
		fill_page(buf, SEED, p);
		if (write(fd, buf, PAGE_SIZE) != (ssize_t)PAGE_SIZE)
			fail("write(2) of page %lu: errno %d", p, errno);
	}
	if (sys_ftruncate(fd, SIZE))
		fail("ftruncate to %lu: errno %d", SIZE, errno);
	sh = map_shared(sizeof(*sh));

	for (i = 0; i < NMAPPERS; i++) {
		sh->bad_page[i] = -1;
		pid[i] = fork_child();
		if (pid[i] == 0)
			mapper(i);
	}
	futex_wait_for(&sh->ready, NMAPPERS);
	t0 = now_ms();
	do {
		if (sys_ftruncate(fd, KEEP * PAGE_SIZE) || sys_ftruncate(fd, SIZE))
			fail("ftruncate round %lu: errno %d", shrinks, errno);
		shrinks++;
		ms = now_ms() - t0;
	} while (ms < (long)ms_max);
	sh->stop = 1;
	for (i = 0; i < NMAPPERS; i++) {
		const char *how = i % 2 ? "exit" : "munmap";

		st = reap(pid[i]);
		maps += sh->rounds[i];
		if (sh->bad_page[i] >= 0)
			fail("mapper %d (%s, %s): page %ld word %d wrong in round %lu", i,
			     i < NSHARED ? "shared" : "private", how,
			     sh->bad_page[i], sh->bad_word[i], sh->rounds[i] + 1);
		if (st)
			fail("mapper %d (%s) ended with status %d after %lu rounds", i,
			     how, st, sh->rounds[i]);
		if (!sh->rounds[i])
			fail("mapper %d (%s) did not finish one round in %ld ms", i, how, ms);
	}

	lseek(fd, 0, SEEK_SET);
	for (p = 0; p < PAGES; p++) {
		if (read(fd, buf, PAGE_SIZE) != (ssize_t)PAGE_SIZE)
			fail("read(2) of page %lu: errno %d", p, errno);
		if (p == KEEP / 2)
			corrupt_if_asked(buf);
		if (p < KEEP && (w = check_page(buf, SEED, p, &digest)) >= 0)
			fail("read(2): page %lu word %d wrong", p, w);
		for (w = 0; p >= KEEP && w < (int)PAGE_WORDS; w++)
			if (buf[w])
				fail("read(2): page %lu word %d past the kept half is not 0",
				     p, w);
	}
	close(fd);
	unlink(FILE);
	if (mounted)
		umount2(DIR, 0);
	printf("# %s: fs=%s mappers=%d ms=%ld shrinks=%lu maps=%lu digest=%08x\n",
	       test_name, mounted ? "tmpfs" : "rootfs", NMAPPERS, ms, shrinks, maps,
	       digest);
	pass();
}
