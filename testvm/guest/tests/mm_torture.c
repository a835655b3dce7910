// SPDX-License-Identifier: GPL-2.0
/*
 * mm_torture - three threads and one forked process run seeded random mmap /
 * munmap / mremap / mprotect / madvise(DONTNEED) / write / verify / fork
 * operations on their own slots, against a shadow model of what every page
 * of every slot must hold.  Slots of all workers interleave in one reserved
 * 32 MiB region, 256 KiB apart, so the threads' slots share page tables (and
 * their locks) while the operations change them underneath one another.
 *
 * Invariant: every mapped page holds exactly what the model says (zeroes or
 * the pattern of its last write), in the workers, in the children they fork
 * (their snapshot) and at the end.  A mismatch names seed, worker, operation
 * and address.  Each worker stops after a fixed count of operations
 * (ptltest.torture_ops=, per worker), so a seed (ptltest.seed=) replays the
 * same operations per worker and the digest of the final model is fixed;
 * ptltest.torture_ms= only bounds the time (a run it cuts short prints
 * cut_by_time_bound=1 and no digest: its model is not the seed's).
 *
 * Under swap pressure (unless ptltest.torture_swap=0; no swap fails): a
 * pressure process pushes the workers' pages out to swap in pulses while
 * they run (swap_push(), RAM + swap kept tight); at half their operations
 * each worker waits for a pulse to end and verifies all its pages, so pages
 * come back from swap while the others keep changing the mappings (and does
 * so again after each of up to 3 more pulses while its process has had no
 * major fault: reclaim takes the hog's pages first).  The run
 * ends with swapoff of the swap area once the threads are done (the process
 * worker may still be running, and verifies its model with swap off), swap
 * on again, and a full verification of every worker's model.  A worker
 * still waiting for a pulse when the time bound passes stops there (cut
 * short), unless no pulse has ended at all.  Figures:
 * pulses, the most pages in swap after one, and the threads' major faults
 * (swap-ins) during the churn; both must be non-zero.
 *
 * With THP (the PAE cells; ptltest.thp=1 makes it required), each worker
 * has one more slot, a huge one: HPAGE_PAGES pages, 2 MiB aligned, madvised
 * MADV_HUGEPAGE, whose two homes lie in different pmd tables (0x20000000
 * and 0x60000000 with PAE).  The same operations then fault, move, fork,
 * protect, zap part of and swap out transparent huge pages: mremap moves a
 * huge pmd and its deposited table across pmd tables, MADV_DONTNEED of part
 * splits it.  The first write to a freshly mapped huge slot looks at
 * AnonHugePages: figure thp_seen; with THP on and none seen, the test fails.
 *
 * Test-only knob: ptltest.torture_skip_write=1 makes worker 0 leave one write
 * out of its model, which must be caught.
 *
 * Exercises: everything at once: 3 threads and a forked process do seeded
 *   random mmap / munmap / mremap / mprotect / MADV_DONTNEED / write / verify /
 *   fork on slots interleaved in the same page tables (`ptltest.seed=`, default
 *   `DEF_SEED`; `ptltest.torture_ops=` per worker, default 2000), under
 *   swap pressure: a pressure process pushes pages out to swap in pulses (RAM +
 *   swap kept tight), each worker meets a pulse half-way and reads all its
 *   pages back while the others go on (up to 4 pulses, until its process has
 *   had a major fault; `met=` the pulses met in all); the run ends with swapoff, swapon and a
 *   full verification (`ptltest.torture_swap=0` turns this off)
 * Invariant: every mapped page holds what the shadow model says, in each
 *   worker, each forked snapshot and at the end; a mismatch names seed, worker,
 *   op number, op, address, wanted and found. `ptltest.torture_skip_write=1`
 *   drops one write from the model and must be caught (`qemu_torture`). Pages
 *   were swapped out (`swapped=`, the most pages in swap after a pulse) and
 *   read back (`majflt=`, major faults of the workers) or it fails; no swap
 *   active fails. With THP (PAE cells) each worker also has a huge slot (512
 *   pages, 2 MiB aligned, `MADV_HUGEPAGE`, its two homes at 0x20000000 and
 *   0x60000000: two pmd tables), put through the same operations: a huge pmd
 *   moved with its deposited table, copied by fork, protected, split by a
 *   partial `MADV_DONTNEED`, swapped out; `thp_seen=` counts huge slots seen
 *   huge at their first write, and 0 fails the test (mutant
 *   `deposit-list-by-lock-torture`). `make torture` runs it long
 *   (TORTURE_OPS=60000) in each mode
 */
#include "harness.h"
#include <linux/mman.h>

#define NWORKERS	4		/* 0..2 threads, 3 a forked process */
#define NSLOTS		16		/* per worker, two homes each */
#define SLOT_PAGES	64
#define SPAN		(SLOT_PAGES * PAGE_SIZE)
#define REGION		(2UL * NSLOTS * NWORKERS * SPAN)	/* 32 MiB */
#define DEF_SEED	0x70a7u
#define DEF_OPS		2000
#define DEF_MS		60000
#define MAX_PULSES	4		/* met half-way, until a major fault */
#define SKIP_AT		200		/* worker 0's write left out of the model */
#define HSLOT		NSLOTS		/* the huge slot, with THP */
#define HUGE_HOME0	0x20000000UL	/* pmd table 0 (PAE): + worker * HPAGE */
#define HUGE_HOME1	0x60000000UL	/* pmd table 1 */

enum {
	OP_MAP, OP_UNMAP, OP_MREMAP, OP_MPROTECT, OP_DONTNEED, OP_WRITE,
	OP_VERIFY, OP_VERIFY_SLOT, OP_FORK, NOPS
};
static const char *const op_name[NOPS] = { "map", "unmap", "mremap", "mprotect",
	"dontneed", "write", "verify", "verify_slot", "fork" };

struct slot {
	int mapped, home, ro, pages, huge_seen;
	unsigned int val[HPAGE_PAGES];	/* 0: reads zeroes, else pattern seed */
};

struct worker {
	struct slot slot[NSLOTS + 1];	/* + the huge one, with THP */
	unsigned int rnd, gen, writes, scratch;
	unsigned long op;		/* operations done */
	int op_now;
	pid_t child;
};

struct results {			/* shared with the forked processes */
	unsigned long count[NWORKERS][NOPS];
	unsigned long ops[NWORKERS];
	unsigned int digest[NWORKERS];
	volatile int pulses;		/* swap pressure pulses ended */
	volatile int stop;		/* the pressure process is to stop */
	volatile int waited;		/* workers that met a pulse half-way */
	volatile int met;		/* pulses they met, in all */
	volatile int swapped_off;	/* the swap area is off: verify */
	volatile long swapped;		/* most pages in swap after a pulse */
	volatile int thp_seen;		/* huge slots seen huge at first write */
};

static unsigned char *region;
static unsigned int seed, skip_write, swap_pressure;
static int nslots = NSLOTS;		/* NSLOTS + 1 with THP */
static unsigned long max_ops;
static long deadline;
static struct worker w[NWORKERS];
static struct results *res;

static unsigned int rnd(struct worker *k)
{
	k->rnd ^= k->rnd << 13;
	k->rnd ^= k->rnd >> 17;
	k->rnd ^= k->rnd << 5;
	return k->rnd;
}

/* Home h of slot s of worker i: neighbouring spans belong to other workers. */
static unsigned char *slot_addr(int i, int s, int h)
{
	if (s == HSLOT)
		return (unsigned char *)((h ? HUGE_HOME1 : HUGE_HOME0) + i * HPAGE);
	return region + ((unsigned long)(h * NSLOTS + s) * NWORKERS + i) * SPAN;
}

static unsigned char *page_addr(int i, int s, int p)
{
	return slot_addr(i, s, w[i].slot[s].home) + (unsigned long)p * PAGE_SIZE;
}

/* pattern page number: unique per worker, slot and page (the huge slot's
 * from 1024 up, above every small slot's) */
static unsigned int pno(int i, int s, int p)
{
	return (i << 16) | (s << 6) | p;
}

static void reserve(void *addr, unsigned long len, int i)
{
	if (mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
		 MAP_NORESERVE, -1, 0) != addr)
		fail("seed=%u worker=%d op#%lu reserve addr=%p: errno %d",
		     seed, i, w[i].op, addr, errno);
}

/* Page p of slot s must hold what the model says; fold it into *d. */
static void verify_page(int i, int s, int p, unsigned int *d)
{
	const unsigned int *pg = (const unsigned int *)page_addr(i, s, p);
	unsigned int v = w[i].slot[s].val[p], x, want;
	unsigned int n;

	for (n = 0; n < PAGE_WORDS; n++) {
		x = pg[n];
		want = v ? pattern(v, pno(i, s, p), n) : 0;
		if (x != want)
			fail("seed=%u worker=%d op#%lu %s addr=%p page=%d want=%08x got=%08x",
			     seed, i, w[i].op, op_name[w[i].op_now], pg + n, p, want, x);
		*d = digest_word(*d, x);
	}
}

static unsigned int verify_slot(int i, int s)
{
	struct slot *sl = &w[i].slot[s];
	unsigned int d = DIGEST_INIT;
	int p;

	d = digest_word(d, sl->mapped);
	if (!sl->mapped)
		return d;
	d = digest_word(digest_word(digest_word(d, sl->home), sl->ro), sl->pages);
	for (p = 0; p < sl->pages; p++) {
		d = digest_word(d, sl->val[p]);
		verify_page(i, s, p, &d);
	}
	return d;
}

static unsigned int verify_all(int i)
{
	unsigned int d = DIGEST_INIT;
	int s;

	for (s = 0; s < nslots; s++)
		d = digest_word(d, verify_slot(i, s));
	return d;
}

static void reap_child(int i)
{
	int st;

	if (!w[i].child)
		return;
	st = reap(w[i].child);
	w[i].child = 0;
	if (st == 1)
		exit_group(1);	/* the child said why */
	if (st)
		fail("seed=%u worker=%d op#%lu fork: child ended with %d",
		     seed, i, w[i].op, st);
}

/* One operation on slot s; an unmapped slot gets mapped whatever the op. */
static void do_op(int i, int op, int s)
{
	struct worker *k = &w[i];
	struct slot *sl = &k->slot[s];
	unsigned char *a = slot_addr(i, s, sl->home), *b;
	unsigned long len = (unsigned long)sl->pages * PAGE_SIZE;
	long ret;
	int p, n;

	if (!sl->mapped)
		op = OP_MAP;
	if (sl->ro && op == OP_WRITE)
		op = OP_MPROTECT;
	k->op_now = op;
	res->count[i][op]++;
	switch (op) {
	case OP_MAP:
		sl->pages = s == HSLOT ? HPAGE_PAGES : 1 + rnd(k) % SLOT_PAGES;
		len = (unsigned long)sl->pages * PAGE_SIZE;
		if (mmap(a, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_FIXED, -1, 0) != a)
			fail("seed=%u worker=%d op#%lu map addr=%p: errno %d",
			     seed, i, k->op, a, errno);
		if (s == HSLOT && sys_madvise(a, len, MADV_HUGEPAGE))
			fail("seed=%u worker=%d op#%lu madvise(MADV_HUGEPAGE) addr=%p: errno %d",
			     seed, i, k->op, a, errno);
		sl->huge_seen = 0;
		sl->mapped = 1;
		sl->ro = 0;
		memset(sl->val, 0, sizeof(sl->val));
		break;
	case OP_UNMAP:
		verify_page(i, s, rnd(k) % sl->pages, &k->scratch);
		if (munmap(a, len))
			fail("seed=%u worker=%d op#%lu unmap addr=%p: errno %d",
			     seed, i, k->op, a, errno);
		reserve(a, len, i);
		sl->mapped = 0;
		break;
	case OP_MREMAP:
		b = slot_addr(i, s, !sl->home);
		ret = sys_mremap(a, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, b);
		if (ret != (long)b)
			fail("seed=%u worker=%d op#%lu mremap addr=%p to %p: %ld",
			     seed, i, k->op, a, b, ret);
		reserve(a, len, i);
		sl->home = !sl->home;
		verify_page(i, s, rnd(k) % sl->pages, &k->scratch);
		break;
	case OP_MPROTECT:
		sl->ro = !sl->ro;
		ret = sys_mprotect(a, len, sl->ro ? PROT_READ : PROT_READ | PROT_WRITE);
		if (ret)
			fail("seed=%u worker=%d op#%lu mprotect addr=%p: %ld",
			     seed, i, k->op, a, ret);
		break;
	case OP_DONTNEED:
		p = rnd(k) % sl->pages;
		n = 1 + rnd(k) % (sl->pages - p);
		ret = sys_madvise(a + (unsigned long)p * PAGE_SIZE, n * PAGE_SIZE, MADV_DONTNEED);
		if (ret)
			fail("seed=%u worker=%d op#%lu dontneed addr=%p: %ld",
			     seed, i, k->op, a, ret);
		memset(&sl->val[p], 0, n * sizeof(sl->val[0]));
		verify_page(i, s, p, &k->scratch);
		break;
	case OP_WRITE:
		p = rnd(k) % sl->pages;
		verify_page(i, s, p, &k->scratch);	/* the old contents first */
		k->gen = pattern(seed, i, k->gen) | 1;
		fill_page((unsigned int *)page_addr(i, s, p), k->gen, pno(i, s, p));
		if (i == 0 && skip_write && ++k->writes == SKIP_AT) {
			/* test-only: the model misses this write; verify next */
			do_op(i, OP_VERIFY_SLOT, s);
			break;
		}
		sl->val[p] = k->gen;
		if (s == HSLOT && !sl->huge_seen) {
			sl->huge_seen = 1;
			if (thp_anon_kb())
				__sync_fetch_and_add(&res->thp_seen, 1);
		}
		break;
	case OP_VERIFY:
		verify_page(i, s, rnd(k) % sl->pages, &k->scratch);
		break;
	case OP_VERIFY_SLOT:
		verify_slot(i, s);
		break;
	case OP_FORK:
		reap_child(i);
		k->child = fork_child();
		if (k->child == 0) {	/* the snapshot must match the model */
			verify_all(i);
			exit_group(0);
		}
		break;
	}
}

/*
 * Half-way: wait for the next pressure pulse to end, then read every page
 * of the model back (what the pulse pushed out comes back in, under the
 * other workers' operations).  Nothing here changes the model.  Reclaim
 * takes the hog's own pages first and leaves some of ours in the swap cache,
 * so one pulse may bring none back from disk: while this process has had no
 * major fault, meet up to MAX_PULSES.  Returns 0 when the time bound passed
 * first (the worker stops there, cut short); if no pulse at all has ended by
 * then, the pressure never happened: fails.
 */
static int meet_pulse(int i, long majflt0)
{
	int seen = res->pulses, met = 0;

	while (met < MAX_PULSES && (!met || major_faults() <= majflt0)) {
		while (res->pulses == seen) {
			if (now_ms() > deadline) {
				if (!res->pulses)
					fail("seed=%u worker=%d op#%lu: no swap pressure pulse ended in time",
					     seed, i, w[i].op);
				return 0;
			}
			sleep_ms(10);
		}
		seen = res->pulses;
		w[i].op_now = OP_VERIFY;
		verify_all(i);
		met++;
	}
	futex_add(&res->met, met);
	futex_add(&res->waited, 1);
	return 1;
}

/* The pressure process: push pages out in pulses until told to stop. */
static void pressure(void)
{
	long want = meminfo_kb("SwapTotal") / (PAGE_SIZE / 1024) / 8;

	if (want > 1024)
		want = 1024;
	long used;

	while (!res->stop) {
		used = swap_push(want);
		if (used > res->swapped)
			res->swapped = used;
		futex_add(&res->pulses, 1);
		sleep_ms(50);
	}
	exit_group(0);
}

static int worker(struct thread *t)
{
	static const unsigned char mix[100] = {	/* op by percentile */
		[0 ... 4] = OP_MAP, [5 ... 9] = OP_UNMAP, [10 ... 17] = OP_MREMAP,
		[18 ... 25] = OP_MPROTECT, [26 ... 33] = OP_DONTNEED,
		[34 ... 69] = OP_WRITE, [70 ... 93] = OP_VERIFY,
		[94 ... 98] = OP_VERIFY_SLOT, [99] = OP_FORK };
	int i = t->id, op;
	struct worker *k = &w[i];
	long majflt0 = major_faults();

	k->rnd = (seed * 0x9e3779b1u) ^ ((i + 1) * 0x85ebca6bu);
	if (!k->rnd)
		k->rnd = 1;
	k->gen = 0;
	if (i < NWORKERS - 1)
		gate_wait();
	for (k->op = 0; k->op < max_ops; k->op++) {
		if (!(k->op & 63) && now_ms() > deadline)
			break;
		if (swap_pressure && k->op == max_ops / 2 &&
		    !meet_pulse(i, majflt0))
			break;
		op = mix[rnd(k) % 100];
		do_op(i, op, rnd(k) % nslots);
	}
	reap_child(i);
	res->ops[i] = k->op;
	return 0;
}

TEST_MAIN()
{
	unsigned long total = 0, count[NOPS] = { 0 };
	unsigned int digest = DIGEST_INIT;
	struct thread t[NWORKERS], *th;
	char swapdev[64];
	pid_t pid, hog = 0;
	long t0, err, majflt = major_faults();
	int i, s, st, thp, cut = 0;

	seed = cmdline_ulong("ptltest.seed", DEF_SEED);
	max_ops = cmdline_ulong("ptltest.torture_ops", DEF_OPS);
	skip_write = cmdline_ulong("ptltest.torture_skip_write", 0);
	swap_pressure = cmdline_ulong("ptltest.torture_swap", 1);
	if (swap_pressure)
		swap_device(swapdev, sizeof(swapdev));	/* fails without swap */
	t0 = now_ms();
	deadline = t0 + cmdline_ulong("ptltest.torture_ms", DEF_MS);
	res = map_shared(sizeof(*res));
	th = threads_create(NWORKERS - 1, worker, NULL);
	region = mmap(NULL, REGION + 4 * MiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		      MAP_NORESERVE, -1, 0);
	if (region == MAP_FAILED)
		fail("reserving %lu bytes: errno %d", REGION, errno);
	region = (unsigned char *)(((unsigned long)region + 4 * MiB - 1) & ~(4 * MiB - 1));
	thp = thp_try_enable();
	if (thp) {
		nslots = NSLOTS + 1;
		reserve((void *)HUGE_HOME0, NWORKERS * HPAGE, 0);
		reserve((void *)HUGE_HOME1, NWORKERS * HPAGE, 0);
	}

	if (swap_pressure) {
		hog = fork_child();
		if (hog == 0)
			pressure();
	}
	pid = fork_child();
	if (pid == 0) {			/* the process worker */
		t[0].id = NWORKERS - 1;
		worker(&t[0]);
		futex_wait_for(&res->swapped_off, 1);
		w[NWORKERS - 1].op_now = OP_VERIFY_SLOT;
		res->digest[NWORKERS - 1] = verify_all(NWORKERS - 1);
		exit_group(0);
	}
	threads_run(th, NWORKERS - 1);
	if (swap_pressure) {
		res->stop = 1;
		st = reap(hog);
		if (st == 1)
			exit_group(1);	/* it said why */
		if (st)
			fail("seed=%u: the swap pressure process ended with %d", seed, st);
		err = sys_swapoff(swapdev);
		if (err)
			fail("seed=%u: swapoff(%s) at the end: errno %ld", seed, swapdev, -err);
		if (swap_listed(swapdev))
			fail("seed=%u: %s still in /proc/swaps after swapoff", seed, swapdev);
	}
	futex_add(&res->swapped_off, 1);
	st = reap(pid);
	if (swap_pressure)	/* before anything can fail: the next tests want it */
		swap_on_again(swapdev);
	if (st == 1)
		exit_group(1);		/* it said why */
	if (st)
		fail("seed=%u worker=%d: process ended with %d", seed, NWORKERS - 1, st);
	majflt = major_faults() - majflt;
	if (thp && !res->thp_seen)
		fail("seed=%u: THP on, but no huge slot was ever seen huge (AnonHugePages 0)",
		     seed);
	if (swap_pressure && !res->pulses)
		fail("seed=%u: swap pressure, but no pulse ended", seed);
	if (swap_pressure && res->waited >= NWORKERS - 1 && (!res->swapped || majflt <= 0))
		fail("seed=%u: swap pressure without swap traffic: %ld pages swapped out, %ld major faults",
		     seed, res->swapped, majflt);

	for (s = 0; s < NSLOTS && !w[0].slot[s].mapped; s++)
		;
	if (s < NSLOTS) {
		if (w[0].slot[s].ro)
			sys_mprotect(slot_addr(0, s, w[0].slot[s].home), PAGE_SIZE,
				     PROT_READ | PROT_WRITE);
		corrupt_if_asked(page_addr(0, s, 0));
	}
	for (i = 0; i < NWORKERS - 1; i++) {
		w[i].op_now = OP_VERIFY_SLOT;
		res->digest[i] = verify_all(i);
	}
	for (i = 0; i < NWORKERS; i++) {
		digest = digest_word(digest, res->digest[i]);
		total += res->ops[i];
		for (s = 0; s < NOPS; s++)
			count[s] += res->count[i][s];
	}
	printf("# %s: seed=%u workers=%d ops=%lu", test_name, seed, NWORKERS, total);
	for (s = 0; s < NOPS; s++)
		printf(" %s=%lu", op_name[s], count[s]);
	if (swap_pressure)
		printf(" pulses=%d met=%d swapped=%ld majflt=%ld", res->pulses, res->met,
		       res->swapped, majflt);
	if (thp)
		printf(" thp_seen=%d", res->thp_seen);
	/* the digest replays only when every operation ran: not when the
	 * time bound cut a worker short (a slow kernel under TCG)
	 */
	for (i = 0; i < NWORKERS; i++)
		if (res->ops[i] < max_ops)
			cut = 1;
	if (cut)
		printf(" ms=%ld cut_by_time_bound=1\n", now_ms() - t0);
	else
		printf(" ms=%ld digest=%08x\n", now_ms() - t0, digest);
	pass();
}
