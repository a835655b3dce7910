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
 *
 * Both run for ptlbench.ms milliseconds (default 2000) and print one line
 *   # bench: kind=K threads=T faults=N ms=M faults_per_s=R
 * followed, on a kernel with /proc/lock_stat (cleared before the run), by
 * the contentions and total wait (us) of the two page-table lock classes:
 *   mm_acq= mm_con= mm_wait_us= ptl_acq= ptl_con= ptl_wait_us=
 * T is argv[1] (init.c passes each value of ptlbench.threads in turn).  The
 * word written to each page is read back before the unmap, so that a fault
 * that maps the wrong page fails the run instead of speeding it up.
 */
#include "harness.h"

#define MAX_THREADS	16
#define PF1_REGION	(4 * MiB)	/* per thread, per pass: 1024 faults */
#define LAMETER_AREA	(16 * MiB)	/* shared, per pass: 4096 faults */
#define SEED		0xbe4c0000u

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
static long lameter_pass;
static int nthreads;

static int lameter(struct thread *t)
{
	unsigned long pages = LAMETER_AREA / PAGE_SIZE / nthreads;

	gate_wait();
	errors[t->id] += touch_pages(shared_area, t->id * pages, pages, 0, lameter_pass);
	faults[t->id] += pages;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *kind; long flags; } pfs[] = {
		{ "pf1", 0 }, { "pf2", MAP_PRIVATE }, { "pf3", MAP_SHARED },
	};
	char kind[16] = "pf1", buf[32];
	long ms = 2000, t0, elapsed, total = 0, bad = 0;
	struct lock_counts mm, ptl;
	unsigned char *raw;
	struct thread *t;
	int i, lockstat;

	test_name = "bench_faults";
	cmdline_arg("ptlbench.kind", kind, sizeof(kind));
	if (cmdline_arg("ptlbench.ms", buf, sizeof(buf)))
		ms = atol(buf);
	nthreads = argc > 1 ? atoi(argv[1]) :
		   cmdline_arg("ptlbench.threads", buf, sizeof(buf)) ? atoi(buf) : 1;
	if (nthreads < 1 || nthreads > MAX_THREADS)
		fail("threads=%d: 1..%d", nthreads, MAX_THREADS);

	lockstat = lockstat_clear();
	t0 = now_ms();
	deadline = t0 + ms;
	for (i = 0; i < 3 && strcmp(kind, pfs[i].kind); i++)
		;
	if (i < 3) {
		t = threads_create(nthreads, pf, (void *)pfs[i].flags);
		threads_run(t, nthreads);
	} else if (!strcmp(kind, "lameter")) {
		t = threads_create(nthreads, lameter, NULL);
		for (lameter_pass = 0; now_ms() < deadline; lameter_pass++) {
			/* slices start on a page-table boundary (4 MiB; 2 MiB with PAE) */
			raw = map_pass(LAMETER_AREA + 4 * MiB);
			shared_area = (unsigned char *)(((unsigned long)raw + 4 * MiB - 1) &
							~(4 * MiB - 1));
			threads_run(t, nthreads);
			munmap(raw, LAMETER_AREA + 4 * MiB);
		}
	} else {
		fail("ptlbench.kind=%s: pf1, pf2, pf3 or lameter", kind);
	}
	elapsed = now_ms() - t0;
	for (i = 0; i < nthreads; i++) {
		total += faults[i];
		bad += errors[i];
	}
	if (bad)
		fail("kind=%s threads=%d: %ld page(s) read back wrong", kind, nthreads, bad);
	printf("# bench: kind=%s threads=%d faults=%ld ms=%ld faults_per_s=%ld",
	       kind, nthreads, total, elapsed, elapsed ? (long)(total * 1000ULL / elapsed) : 0);
	if (lockstat) {
		lockstat_class(LOCK_MM, &mm);
		lockstat_class(LOCK_PTL, &ptl);
		printf(" mm_acq=%ld mm_con=%ld mm_wait_us=%ld ptl_acq=%ld ptl_con=%ld ptl_wait_us=%ld",
		       mm.acq, mm.con, mm.wait_us, ptl.acq, ptl.con, ptl.wait_us);
	}
	printf("\n");
	pass();
}
