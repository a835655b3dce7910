// SPDX-License-Identifier: GPL-2.0
/*
 * fault_shared_file - a 4 MiB file on tmpfs (or on the initramfs root, ramfs,
 * where tmpfs cannot be mounted), truncated to size and mapped MAP_SHARED:
 * four threads fault and write half of its pages, a forked process the other
 * half through its own mm, interleaved page by page (do_shared_fault on page
 * cache pages from two mms).  Both must then see the same contents, every
 * page its pattern; msync(MS_SYNC) and munmap succeed, and the file read back
 * through read(2) holds the same pages.
 *
 * Exercises: shared file faults from two mms: a 4 MiB tmpfs file, MAP_SHARED,
 *   written page-interleaved by 4 threads and a forked process
 * Invariant: both processes' digests of the mapping are equal; msync and munmap
 *   succeed; `read(2)` of the file gives the same pages
 */
#include "harness.h"

#define NTHREADS	4
#define SEED		0x5f11e000u
#define DIR		"/ptlshm"
#define FILE		DIR "/file"
#define PAGES		1024UL
#define SIZE		(PAGES * PAGE_SIZE)

struct handshake {
	volatile int parent_wrote;
	volatile unsigned int child_digest;
};

static unsigned char *map;

static inline long sys_msync(void *addr, unsigned long len, int flags)
{
	return my_syscall3(__NR_msync, addr, len, flags);
}

/* pages p with p % 8 == first ... first + count - 1 */
static void write_pages(unsigned long first, unsigned long count)
{
	unsigned long p, k;

	for (p = 0; p < PAGES; p += 8)
		for (k = first; k < first + count; k++)
			fill_page((unsigned int *)(map + (p + k) * PAGE_SIZE), SEED, p + k);
}

static int writer(struct thread *t)
{
	gate_wait();
	write_pages(t->id, 1);
	return 0;
}

static unsigned int check_map(const char *who)
{
	unsigned int digest = DIGEST_INIT;
	unsigned long p;
	int bad;

	for (p = 0; p < PAGES; p++) {
		bad = check_page((unsigned int *)(map + p * PAGE_SIZE), SEED, p, &digest);
		if (bad >= 0)
			fail("%s: page %lu (written by the %s) word %d wrong", who, p,
			     p % 8 < NTHREADS ? "parent" : "child", bad);
	}
	return digest;
}

TEST_MAIN()
{
	static unsigned int buf[PAGE_WORDS];
	unsigned int digest, rdigest = DIGEST_INIT;
	struct handshake *hs;
	int fd, mounted, status, bad;
	unsigned long p;
	struct thread *t;
	pid_t pid;
	long ms;

	need_mem_mib(64);
	mkdir(DIR, 0755);
	mounted = mount("tmpfs", DIR, "tmpfs", 0, "size=8m") == 0;
	fd = open(FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail("open %s: errno %d", FILE, errno);
	if (sys_ftruncate(fd, SIZE))
		fail("ftruncate %s to %lu", FILE, SIZE);
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fail("mmap MAP_SHARED: errno %d", errno);
	hs = map_shared(PAGE_SIZE);
	t = threads_create(NTHREADS, writer, NULL);

	ms = now_ms();
	pid = fork_child();
	if (pid == 0) {
		write_pages(NTHREADS, 8 - NTHREADS);
		futex_wait_for(&hs->parent_wrote, 1);
		hs->child_digest = check_map("child");
		if (sys_msync(map, SIZE, MS_SYNC) || munmap(map, SIZE))
			fail("child: msync or munmap failed");
		exit_group(0);
	}
	threads_run(t, NTHREADS);
	futex_add(&hs->parent_wrote, 1);
	status = reap(pid);
	if (status)
		fail("child ended with status %d", status);
	digest = check_map("parent");
	if (hs->child_digest != digest)
		fail("child saw digest %08x, parent %08x", hs->child_digest, digest);
	if (sys_msync(map, SIZE, MS_SYNC))
		fail("msync(MS_SYNC) failed");
	if (munmap(map, SIZE))
		fail("munmap: errno %d", errno);
	ms = now_ms() - ms;

	lseek(fd, 0, SEEK_SET);
	for (p = 0; p < PAGES; p++) {
		if (read(fd, buf, PAGE_SIZE) != (ssize_t)PAGE_SIZE)
			fail("read(2) of page %lu: errno %d", p, errno);
		if (p == PAGES / 2)
			corrupt_if_asked(buf);
		bad = check_page(buf, SEED, p, &rdigest);
		if (bad >= 0)
			fail("read(2): page %lu word %d wrong", p, bad);
	}
	close(fd);
	unlink(FILE);
	if (mounted)
		umount2(DIR, 0);
	if (rdigest != digest)
		fail("read(2) digest %08x, mapping %08x", rdigest, digest);
	printf("# %s: fs=%s threads=%d pages=%lu ms=%ld digest=%08x\n",
	       test_name, mounted ? "tmpfs" : "rootfs", NTHREADS, PAGES, ms, digest);
	pass();
}
