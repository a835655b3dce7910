// SPDX-License-Identifier: GPL-2.0
/*
 * access_phys - a PCI memory BAR mapped from sysfs (resource0 of QEMU's VGA,
 * 00:02.0 on the pc machine: its 16 MiB of video memory), then read and
 * written through /proc/self/mem.  The mapping is VM_IO | VM_PFNMAP, which
 * get_user_pages() refuses, so /proc/self/mem can reach it only through its
 * vm_ops->access, generic_access_phys(): that walks to the pte and holds
 * the table's lock while it reads it (follow_pte() in 6.1,
 * follow_pfnmap_start() in 6.12), twice per access.  While THREADS threads
 * fault pages of their own in the same mm, each page of PAGES is written
 * through the mapping and read back through /proc/self/mem, then written
 * through /proc/self/mem and read back through the mapping.  A read that
 * did not go through the access hook fails (EIO), so the test cannot pass
 * without it.  Kernels before vm_ops->access (2.6.27) skip.
 *
 * Exercises: `generic_access_phys()` (6.1 `follow_pte()`, 6.12
 *   `follow_pfnmap_start()`: the pte table's lock): /proc/self/mem reads and
 *   writes of 16 pages of a sysfs-mapped PCI memory BAR (QEMU VGA, 00:02.0)
 *   while 4 threads fault
 * Invariant: each byte read through /proc/self/mem is the one written through
 *   the mapping, and each written through /proc/self/mem reads back through
 *   the mapping
 */
#include "harness.h"

#define BAR		"/sys/bus/pci/devices/0000:00:02.0/resource0"
#define PAGES		16
#define THREADS		4
#define SLICE		(256 * PAGE_SIZE)
#define SEED		0xacce5500u
#define AT		0x30000000UL

static unsigned int digest = DIGEST_INIT;

/* One page at at, read into buf (wr 0) or written from it through fd */
static long mem_rw(int fd, void *buf, const unsigned char *at, int wr)
{
	if (lseek(fd, (unsigned long)at, SEEK_SET) < 0)
		return -1;
	return wr ? write(fd, buf, PAGE_SIZE) : read(fd, buf, PAGE_SIZE);
}

TEST_MAIN()
{
	static unsigned int page[PAGE_WORDS];
	struct slices s = { 0, SLICE / PAGE_SIZE, SEED + 2 };
	struct thread *t;
	unsigned char *bar;
	char release[16];
	int fd, mem, p, bad;
	long n;

	if (read_file("/proc/sys/kernel/osrelease", release, sizeof(release)) < 0)
		fail("cannot read /proc/sys/kernel/osrelease");
	if (!strncmp(release, "2.", 2))
		skip("kernel %.6s: no vm_ops->access before 2.6.27", release);
	fd = open(BAR, O_RDWR, 0);
	if (fd < 0)
		fail("cannot open %s (errno %d): QEMU's pc machine puts its VGA there", BAR, errno);
	/* below 2 GiB: lseek() of /proc/self/mem takes a signed 32-bit offset */
	bar = mmap((void *)AT, PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (bar != (void *)AT)
		fail("mmap of %s at 0x%lx gave %p (errno %d)", BAR, AT, bar, errno);
	mem = open("/proc/self/mem", O_RDWR, 0);
	if (mem < 0)
		fail("cannot open /proc/self/mem: errno %d", errno);

	s.area = map_anon(THREADS * SLICE);
	t = threads_create(THREADS, touch_slice, &s);
	threads_start(t, THREADS);
	for (p = 0; p < PAGES; p++) {
		unsigned int *w = (unsigned int *)(bar + p * PAGE_SIZE);
		unsigned int i;

		fill_page(w, SEED, p);
		n = mem_rw(mem, page, bar + p * PAGE_SIZE, 0);
		if (n != PAGE_SIZE)
			fail("read of BAR page %d through /proc/self/mem: %ld (errno %d)",
			     p, n, errno);
		corrupt_if_asked(page);
		bad = check_page(page, SEED, p, &digest);
		if (bad >= 0)
			fail("BAR page %d word %d: /proc/self/mem read 0x%08x", p, bad, page[bad]);
		fill_page(page, SEED + 1, p);
		n = mem_rw(mem, page, bar + p * PAGE_SIZE, 1);
		if (n != PAGE_SIZE)
			fail("write of BAR page %d through /proc/self/mem: %ld (errno %d)",
			     p, n, errno);
		for (i = 0; i < PAGE_WORDS; i++)
			page[i] = w[i];
		bad = check_page(page, SEED + 1, p, &digest);
		if (bad >= 0)
			fail("BAR page %d word %d: the mapping reads 0x%08x after the write",
			     p, bad, page[bad]);
	}
	threads_join(t, THREADS);
	if (check_pages(s.area, THREADS * SLICE / PAGE_SIZE, s.seed, &digest, &bad) >= 0)
		fail("a page the threads faulted meanwhile is wrong (word %d)", bad);
	printf("# %s: pages=%d threads=%d digest=%08x\n", test_name, PAGES, THREADS, digest);
	pass();
}
