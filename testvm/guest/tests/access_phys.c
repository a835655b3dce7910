// SPDX-License-Identifier: GPL-2.0
/*
 * access_phys - a PCI memory BAR mapped from sysfs (resource0 of QEMU's VGA,
 * 00:02.0 on the pc machine: its 16 MiB of video memory), then read and
 * written through /proc/self/mem.  The mapping is VM_IO | VM_PFNMAP, which
 * get_user_pages() refuses, so /proc/self/mem can reach it only through its
 * vm_ops->access, generic_access_phys(): that walks to the pte and holds
 * the table's lock while it reads it (follow_pte() in 6.1,
 * follow_pfnmap_start() in 6.12), twice per access, and ioremaps the page.
 * While THREADS threads fault, check and zap pages of their own in the same
 * mm, over and over, each page of PAGES is written through the mapping and
 * read back through /proc/self/mem, then written through /proc/self/mem and
 * read back through the mapping.  A read that did not go through the access
 * hook fails (EIO), so the test cannot pass without it.  Then, without PAE,
 * CHURN more reads: each ioremap takes 8 KiB of vmalloc space, freed lazily,
 * so the areas walk upwards through space no kernel pte table covered yet.
 * On i386 without PAE each new kernel pte table is copied into every pgd by
 * arch_sync_kernel_mappings(), under pgd_lock and each mm's page_table_lock
 * (the lock of every table of this mm in off mode, which the threads'
 * faults take meanwhile): where lock_stat is built, pgd_lock must have been
 * taken (PAE shares the kernel pmds and never syncs: not asserted there).
 * Kernels before vm_ops->access (2.6.27) skip.
 *
 * Exercises: `generic_access_phys()` (6.1 `follow_pte()`, 6.12
 *   `follow_pfnmap_start()`: the pte table's lock): /proc/self/mem reads and
 *   writes of 16 pages of a sysfs-mapped PCI memory BAR (QEMU VGA, 00:02.0)
 *   while 4 threads fault, then (without PAE) 2048 reads, whose ioremaps make
 *   new kernel pte tables (`arch_sync_kernel_mappings()`)
 * Invariant: each byte read through /proc/self/mem is the one written through
 *   the mapping, and each written through /proc/self/mem reads back through
 *   the mapping; the faulting threads' pages intact; with lock_stat and without
 *   PAE, `pgd_lock` taken during the reads (the sync ran)
 */
#include "harness.h"

#define BAR		"/sys/bus/pci/devices/0000:00:02.0/resource0"
#define PAGES		16
#define THREADS		4
#define SLICE		(256 * PAGE_SIZE)
#define SEED		0xacce5500u
#define AT		0x30000000UL
#define CHURN		2048	/* reads, an ioremap of 8 KiB of vmalloc space each */

static unsigned int digest = DIGEST_INIT;
static volatile int stop, churn_bad = -1;
static volatile long rounds;

/* One page at at, read into buf (wr 0) or written from it through fd */
static long mem_rw(int fd, void *buf, const unsigned char *at, int wr)
{
	if (lseek(fd, (unsigned long)at, SEEK_SET) < 0)
		return -1;
	return wr ? write(fd, buf, PAGE_SIZE) : read(fd, buf, PAGE_SIZE);
}

/*
 * A thread's slice of arg, faulted in, checked and zapped again and again
 * until stop: faults that meet the page-table lock the whole time
 */
static int churn(struct thread *t)
{
	unsigned char *area = (unsigned char *)t->arg + t->id * SLICE;
	unsigned int d = DIGEST_INIT;
	int word;

	gate_wait();
	while (!stop) {
		fill_pages(area, SLICE / PAGE_SIZE, SEED + 2 + t->id);
		if (check_pages(area, SLICE / PAGE_SIZE, SEED + 2 + t->id, &d, &word) >= 0)
			churn_bad = t->id;
		sys_madvise(area, SLICE, MADV_DONTNEED);
		rounds++;
	}
	return 0;
}

TEST_MAIN()
{
	static unsigned int page[PAGE_WORDS];
	struct lock_counts pgd = { 0, 0, 0 };
	struct thread *t;
	unsigned char *bar;
	char release[16];
	int fd, mem, p, bad, lockstat, pae;
	long n, k;

	if (read_file("/proc/sys/kernel/osrelease", release, sizeof(release)) < 0)
		fail("cannot read /proc/sys/kernel/osrelease");
	if (!strncmp(release, "2.", 2))
		skip("kernel %.6s: no vm_ops->access before 2.6.27", release);
	pae = thp_built();	/* i386 has THP only with PAE */
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

	t = threads_create(THREADS, churn, map_anon(THREADS * SLICE));
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

	/*
	 * Each read ioremaps: the lazily freed vmap areas walk up the vmalloc
	 * space, 16 MiB of it.  PAE has nothing to sync: not there.
	 */
	lockstat = lockstat_clear();
	for (k = 0; k < (pae ? 0 : CHURN); k++) {
		n = mem_rw(mem, page, bar, 0);
		if (n != PAGE_SIZE)
			fail("read %ld of BAR page 0 through /proc/self/mem: %ld", k, n);
		if (check_page(page, SEED + 1, 0, &digest) >= 0)
			fail("read %ld of BAR page 0 through /proc/self/mem: wrong data", k);
	}
	if (lockstat)
		lockstat_class("pgd_lock:", &pgd);
	stop = 1;
	threads_join(t, THREADS);
	if (churn_bad >= 0)
		fail("thread %d found a page of its slice wrong", churn_bad);
	printf("# %s: pages=%d threads=%d reads=%ld pgd_lock=%ld fault_rounds=%ld digest=%08x\n",
	       test_name, PAGES, THREADS, k, lockstat ? pgd.acq : -1L, rounds, digest);
	if (lockstat && !pae && !pgd.acq)
		fail("%d ioremaps made no new kernel pte table: pgd_lock never taken, so "
		     "arch_sync_kernel_mappings() never ran", CHURN);
	pass();
}
