// SPDX-License-Identifier: GPL-2.0
/*
 * bench_faults - anonymous page-fault rate of T threads of one process, for
 * `make bench` (not a test: it is run only with ptltest.bench=bench_faults).
 *
 *   kind=pf1      will-it-scale's page_fault1: each thread maps its own
 *                 anonymous region, writes one word a page, unmaps, and again.
 *   kind=pf2      the same on a private mapping of the thread's own file in
 *                 /tmp (page_fault2: a copy-on-write fault a page).
 *   kind=pf3      the same on a shared mapping of that file (page_fault3).
 *   kind=lameter  Christoph Lameter's case: T threads first-touch disjoint
 *                 slices of ONE shared area (each slice its own page tables),
 *                 the area unmapped and mapped again between passes.
 *   kind=shared   the same on a MAP_SHARED anonymous area (shmem): each
 *                 fault also looks the page up in, or adds it to, the one
 *                 shmem file behind the area.
 *   kind=thp      the split pmd lock's case (PAE, THP): T threads (at most
 *                 2) first-touch their own THP_PER_THREAD transparent huge
 *                 pages of one MADV_HUGEPAGE mapping, thread i's in pmd
 *                 table i (from 0x10000000, 0x40000000), the mapping unmapped and mapped again
 *                 between passes.  A fault is a huge page; the first pass
 *                 must show them in AnonHugePages, or the run fails.
 *
 *   kind=tables   not a rate: what a pte table costs in split-lock memory.
 *                 Maps TABLES pte tables (a page touched every 4 MiB) and
 *                 prints how VmPTE and the page->ptl slab cache (the
 *                 locks ALLOC_SPLIT_PTLOCKS allocates; boot with
 *                 slub_nomerge so that it is a cache of its own) grew:
 *   # bench: kind=tables ... tables=N slab_sysfs=0|1 ptl_cache=0|1
 *            ptl_objects=M ptl_object_size=B ptl_bytes_per_object=S
 *                 (S: its slab's bytes over the objects a slab holds).
 *
 * ptlbench.kind may list kinds (pf1,pf2,pf3): they run one after the other.
 * Each runs for ptlbench.ms milliseconds (default 2000) and prints one line
 *   # bench: kind=K threads=T faults=N ms=M faults_per_s=R us=U tsc=C
 * (U: the run's microseconds; C: its time stamp counter ticks, which under
 * QEMU's -icount shift=0 are the guest instructions executed meanwhile)
 * followed, on a kernel with /proc/lock_stat (cleared before the run), by
 * the contentions, total wait and total hold (us) of the two page-table
 * lock classes:
 *   mm_acq= mm_con= mm_wait_us= ptl_acq= ptl_con= ptl_wait_us=
 *   mm_hold_us= ptl_hold_us=
 * T is argv[1] (init.c passes each value of ptlbench.threads in turn).  The
 * word written to each page is read back before the unmap, so that a fault
 * that maps the wrong page fails the run instead of speeding it up.
 */
#include "harness.h"

#define MAX_THREADS	16
#define PF1_REGION	(4 * MiB)	/* per thread, per pass: 1024 faults */
#define LAMETER_AREA	(16 * MiB)	/* shared, per pass: 4096 faults */
#define SEED		0xbe4c0000u
#define TABLES		256		/* kind=tables: one pte table a 4 MiB */
#define TABLE_SPAN	(4 * MiB)
#define PTL_SLAB	"/sys/kernel/slab/page->ptl/"
#define MADV_NOHUGEPAGE	15
/* thread i's huge pages at THP_BASE + i * THP_STRIDE: pmd tables 0 and 1 */
#define THP_BASE	0x10000000UL
#define THP_STRIDE	0x30000000UL
#define THP_PER_THREAD	4
#define THP_LEN(n)	(((n) - 1) * THP_STRIDE + THP_PER_THREAD * HPAGE)

static volatile long deadline;		/* now_ms() when to stop */
static long faults[MAX_THREADS];
static long errors[MAX_THREADS];

static inline unsigned int word_of(unsigned int id, unsigned long p, long pass)
{
	return pattern(SEED ^ id, p, pass);
}

/* Write one word a page of [area, area + pages), read them back; 0 if intact. */
static long touch_pages(unsigned char *area, unsigned long p0, unsigned long pages,
			unsigned int id, long pass)
{
	unsigned long p;
	long bad = 0;

	for (p = p0; p < p0 + pages; p++)
		*(unsigned int *)(area + p * PAGE_SIZE) = word_of(id, p, pass);
	for (p = p0; p < p0 + pages; p++)
		bad += *(unsigned int *)(area + p * PAGE_SIZE) != word_of(id, p, pass);
	return bad;
}

/* not inlined: in a loop gcc may load mmap2's number from a register, which
 * testvm/syscalls.sh cannot read */
static __attribute__((noinline)) void *map_pass(unsigned long len)
{
	return map_anon(len);
}

static __attribute__((noinline)) void *map_file(int fd, int flags)
{
	return mmap(NULL, PF1_REGION, PROT_READ | PROT_WRITE, flags, fd, 0);
}

/* pf1, pf2, pf3: t->arg is 0 (anonymous), MAP_PRIVATE or MAP_SHARED */
static int pf(struct thread *t)
{
	unsigned long pages = PF1_REGION / PAGE_SIZE;
	int flags = (long)t->arg, fd = -1;
	char path[] = "/tmp/bench-0";
	unsigned char *region;
	long pass, bad = 0;

	if (flags) {
		path[sizeof(path) - 2] += t->id % 10;	/* one file a thread */
		path[sizeof(path) - 2] += t->id / 10 * 17;
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || sys_ftruncate(fd, PF1_REGION))
			fail("%s: errno %d", path, errno);
	}
	gate_wait();
	for (pass = 0; now_ms() < deadline; pass++) {
		region = flags ? map_file(fd, flags) : map_pass(PF1_REGION);
		if (region == MAP_FAILED)
			fail("mmap %s: errno %d", path, errno);
		bad += touch_pages(region, 0, pages, t->id, pass);
		munmap(region, PF1_REGION);
	}
	if (flags) {
		close(fd);
		unlink(path);
	}
	/* counted at the end: no cacheline shared between the threads meanwhile */
	faults[t->id] = pass * pages;
	errors[t->id] = bad;
	return 0;
}

static unsigned char *shared_area;
static long area_pass;
static int nthreads;

static int lameter(struct thread *t)
{
	unsigned long pages = LAMETER_AREA / PAGE_SIZE / nthreads;

	gate_wait();
	errors[t->id] += touch_pages(shared_area, t->id * pages, pages, 0, area_pass);
	faults[t->id] += pages;
	return 0;
}

static int thp(struct thread *t)
{
	unsigned char *area = shared_area + t->id * THP_STRIDE;

	gate_wait();
	errors[t->id] += touch_pages(area, 0, THP_PER_THREAD * HPAGE_PAGES, t->id,
				     area_pass);
	faults[t->id] += THP_PER_THREAD;
	return 0;
}

/* The thp kind's mapping, from THP_BASE over every thread's huge pages. */
static __attribute__((noinline)) unsigned char *map_thp(void)
{
	unsigned long len = THP_LEN(nthreads);
	unsigned char *m = mmap((void *)THP_BASE, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (m != (unsigned char *)THP_BASE)
		fail("mmap of %lu bytes at 0x%lx gave %p (errno %d)", len, THP_BASE, m, errno);
	if (sys_madvise(m, len, MADV_HUGEPAGE))
		fail("madvise(MADV_HUGEPAGE): errno %d", errno);
	return m;
}

/* the kind=shared area: a shmem file behind it */
static __attribute__((noinline)) void *map_shm_pass(unsigned long len)
{
	return map_shared(len);
}

/* A number of the page->ptl cache's sysfs directory; -1 without the cache. */
static long ptl_slab(const char *file)
{
	char path[64] = PTL_SLAB, buf[32];

	strcpy(path + sizeof(PTL_SLAB) - 1, file);
	return read_file(path, buf, sizeof(buf)) < 0 ? -1 : atol(buf);
}

/* kind=tables: TABLES new pte tables, and what their locks cost. */
static struct {
	long tables, slab_sysfs, ptl_cache, objects, object_size, bytes;
} tab;

static void tables(void)
{
	unsigned long len = TABLES * TABLE_SPAN, pt0, i;
	long obj0, per_slab;
	unsigned char *raw, *m;
	char buf[8];

	pt0 = proc_kb("/proc/self/status", "VmPTE");
	obj0 = ptl_slab("objects");
	/* 1 GiB of address space, a page of it used a table: NORESERVE */
	raw = mmap(NULL, len + TABLE_SPAN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		fail("kind=tables: mmap of %lu bytes: errno %d", len + TABLE_SPAN, errno);
	m = (unsigned char *)(((unsigned long)raw + TABLE_SPAN - 1) & ~(TABLE_SPAN - 1));
	/* a huge page would map a span without a pte table (EINVAL without THP) */
	sys_madvise(m, len, MADV_NOHUGEPAGE);
	for (i = 0; i < TABLES; i++)
		m[i * TABLE_SPAN] = 1;
	faults[0] = TABLES;
	tab.tables = (proc_kb("/proc/self/status", "VmPTE") - pt0) / (PAGE_SIZE / 1024);
	tab.slab_sysfs = read_file("/sys/kernel/slab/kmalloc-64/object_size", buf, sizeof(buf)) >= 0;
	tab.ptl_cache = obj0 >= 0;
	tab.objects = obj0 >= 0 ? ptl_slab("objects") - obj0 : 0;
	tab.object_size = ptl_slab("object_size");
	per_slab = ptl_slab("objs_per_slab");
	tab.bytes = per_slab > 0 ? (PAGE_SIZE << ptl_slab("order")) / per_slab : 0;
	if (tab.tables < TABLES)
		fail("kind=tables: VmPTE grew by %ld tables, not %d", tab.tables, TABLES);
	munmap(raw, len + TABLE_SPAN);
}

/* One kind for ms milliseconds at nthreads threads: its "# bench:" line. */
static void run_kind(const char *kind, long ms)
{
	static const struct { const char *kind; long flags; } pfs[] = {
		{ "pf1", 0 }, { "pf2", MAP_PRIVATE }, { "pf3", MAP_SHARED },
	};
	long long us;
	unsigned long long tsc;
	long total = 0, bad = 0;
	unsigned long huge_kb0;
	struct lock_counts mm, ptl;
	unsigned char *raw;
	struct thread *t;
	int i, lockstat;

	memset(faults, 0, sizeof(faults));
	memset(errors, 0, sizeof(errors));
	lockstat = lockstat_clear();
	huge_kb0 = meminfo_kb("AnonHugePages");
	tsc = __builtin_ia32_rdtsc();
	us = now_us();
	deadline = now_ms() + ms;
	for (i = 0; i < 3 && strcmp(kind, pfs[i].kind); i++)
		;
	if (i < 3) {
		t = threads_create(nthreads, pf, (void *)pfs[i].flags);
		threads_run(t, nthreads);
	} else if (!strcmp(kind, "lameter") || !strcmp(kind, "shared")) {
		int shm = kind[0] == 's';

		t = threads_create(nthreads, lameter, NULL);
		for (area_pass = 0; now_ms() < deadline; area_pass++) {
			/* slices start on a page-table boundary (4 MiB; 2 MiB with PAE) */
			raw = shm ? map_shm_pass(LAMETER_AREA + 4 * MiB) :
				    map_pass(LAMETER_AREA + 4 * MiB);
			shared_area = (unsigned char *)(((unsigned long)raw + 4 * MiB - 1) &
							~(4 * MiB - 1));
			threads_run(t, nthreads);
			munmap(raw, LAMETER_AREA + 4 * MiB);
		}
	} else if (!strcmp(kind, "thp")) {
		unsigned long base_kb, huge_kb = 0;

		if (nthreads > 2)
			fail("kind=thp: at most 2 threads (a pmd table of its own each)");
		thp_enable();
		base_kb = thp_anon_kb();
		t = threads_create(nthreads, thp, NULL);
		for (area_pass = 0; now_ms() < deadline; area_pass++) {
			shared_area = map_thp();
			threads_run(t, nthreads);
			if (!area_pass)
				huge_kb = thp_anon_kb() - base_kb;
			munmap(shared_area, THP_LEN(nthreads));
		}
		if (huge_kb < nthreads * THP_PER_THREAD * HPAGE / 1024)
			fail("kind=thp: AnonHugePages grew by %lu kB, not %lu: no huge pages",
			     huge_kb, nthreads * THP_PER_THREAD * HPAGE / 1024);
	} else if (!strcmp(kind, "tables")) {
		tables();
	} else {
		fail("ptlbench.kind=%s: pf1, pf2, pf3, lameter, shared, thp or tables", kind);
	}
	tsc = __builtin_ia32_rdtsc() - tsc;
	us = now_us() - us;
	for (i = 0; i < nthreads; i++) {
		total += faults[i];
		bad += errors[i];
	}
	if (bad)
		fail("kind=%s threads=%d: %ld page(s) read back wrong", kind, nthreads, bad);
	printf("# bench: kind=%s threads=%d faults=%ld ms=%lld faults_per_s=%ld us=%lld tsc=%llu",
	       kind, nthreads, total, (us + 500) / 1000,
	       us ? (long)(total * 1000000ULL / us) : 0, us, tsc);
	if (!strcmp(kind, "tables"))
		printf(" tables=%ld slab_sysfs=%ld ptl_cache=%ld ptl_objects=%ld ptl_object_size=%ld ptl_bytes_per_object=%ld",
		       tab.tables, tab.slab_sysfs, tab.ptl_cache, tab.objects,
		       tab.object_size, tab.bytes);
	else if (meminfo_kb("AnonHugePages") > huge_kb0 && strcmp(kind, "thp"))
		fail("kind=%s: AnonHugePages grew: huge pages, not the faults measured", kind);
	if (lockstat) {
		lockstat_class(LOCK_MM, &mm);
		lockstat_class(LOCK_PTL, &ptl);
		printf(" mm_acq=%ld mm_con=%ld mm_wait_us=%ld ptl_acq=%ld ptl_con=%ld ptl_wait_us=%ld mm_hold_us=%ld ptl_hold_us=%ld",
		       mm.acq, mm.con, mm.wait_us, ptl.acq, ptl.con, ptl.wait_us,
		       mm.hold_us, ptl.hold_us);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	char kinds[64] = "pf1", buf[32], *kind, *next;
	long ms = 2000;

	test_name = "bench_faults";
	cmdline_arg("ptlbench.kind", kinds, sizeof(kinds));
	if (cmdline_arg("ptlbench.ms", buf, sizeof(buf)))
		ms = atol(buf);
	nthreads = argc > 1 ? atoi(argv[1]) :
		   cmdline_arg("ptlbench.threads", buf, sizeof(buf)) ? atoi(buf) : 1;
	if (nthreads < 1 || nthreads > MAX_THREADS)
		fail("threads=%d: 1..%d", nthreads, MAX_THREADS);
	for (kind = kinds; kind; kind = next) {
		next = strchr(kind, ',');
		if (next)
			*next++ = '\0';
		run_kind(kind, ms);
	}
	pass();
}
