// SPDX-License-Identifier: GPL-2.0
/*
 * fault_shared_file - a 4 MiB file on tmpfs (or on the initramfs root, ramfs,
 * where tmpfs cannot be mounted), truncated to size and mapped MAP_SHARED:
 * four threads fault and write half of its pages, a forked process the other
 * half through its own mm, interleaved page by page (do_shared_fault on page
 * cache pages from two mms).  Both must then see the same contents, every
 * page its pattern; msync(MS_SYNC) and munmap succeed, and the file read back
 * through read(2) holds the same pages.
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

static void await(volatile int *flag)
{
	while (!*flag)
		sys_futex(flag, FUTEX_WAIT, 0);
}

static void post(volatile int *flag)
{
	*flag = 1;
	sys_futex(flag, FUTEX_WAKE, 1);
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

	if (meminfo_kb("MemTotal") < 64 * 1024)
		skip("guest has less than 64 MiB");
	mkdir(DIR, 0755);
	mounted = mount("tmpfs", DIR, "tmpfs", 0, "size=8m") == 0;
	fd = open(FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail("open %s: errno %d", FILE, errno);
	if (sys_ftruncate(fd, SIZE))
		fail("ftruncate %s to %lu", FILE, SIZE);
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	hs = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || hs == MAP_FAILED)
		fail("mmap MAP_SHARED: errno %d", errno);
	t = threads_create(NTHREADS, writer, NULL);

	ms = now_ms();
	pid = fork();
	if (pid == 0) {
		write_pages(NTHREADS, 8 - NTHREADS);
		await(&hs->parent_wrote);
		hs->child_digest = check_map("child");
		if (sys_msync(map, SIZE, MS_SYNC) || munmap(map, SIZE))
			fail("child: msync or munmap failed");
		exit_group(0);
	}
	if (pid < 0)
		fail("fork: errno %d", errno);
	threads_run(t, NTHREADS);
	post(&hs->parent_wrote);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid: errno %d", errno);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("child ended with status 0x%x", status);
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
