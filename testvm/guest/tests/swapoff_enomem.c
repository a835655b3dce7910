// SPDX-License-Identifier: GPL-2.0
/*
 * swapoff_enomem - a swapoff that cannot succeed fails cleanly.  With strict
 * overcommit (vm.overcommit_memory=2) and a holder process that has
 * committed and touched all but half a swap's worth of CommitLimit, the
 * swap's pages cannot be accounted back to RAM: swapoff must fail with
 * ENOMEM (sys_swapoff's security_vm_enough_memory_mm() check), the area must
 * stay on in /proc/swaps with its pages, and once the holder has exited and
 * the overcommit mode is back, a second swapoff must succeed and every
 * pattern page, in swap all along, must come back intact.
 *
 * Exercises: swapoff's commit check, with strict overcommit and a holder that
 *   leaves less than the swap's worth of CommitLimit
 * Invariant: swapoff fails with ENOMEM, the area stays in `/proc/swaps`, no
 *   data lost; after the holder exits a second swapoff succeeds and every page
 *   verifies
 */
#include "harness.h"

#define SEED		0x5a0ff500u
#define OVERCOMMIT	"/proc/sys/vm/overcommit_memory"

struct shared {
	volatile int go, ready, release;
	long holder_kb;
};

static struct shared *sh;
static char mode0[8] = "0\n";
static pid_t holder;

static void set_overcommit(const char *mode)
{
	int fd = open(OVERCOMMIT, O_WRONLY, 0);

	if (fd < 0 || write(fd, mode, strlen(mode)) < 0)
		fail("cannot write %s to %s: errno %d", mode, OVERCOMMIT, errno);
	close(fd);
}

/* Before failing: overcommit mode back, holder gone. */
static void undo(void)
{
	set_overcommit(mode0);
	if (holder > 0) {
		kill(holder, SIGKILL);
		reap(holder);
		holder = 0;
	}
}

/* Commit and touch all but half a swap's worth of CommitLimit; hold it. */
static int hold(void)
{
	unsigned long p;
	long kb;
	char *mem;

	futex_wait_for(&sh->go, 1);
	kb = (long)meminfo_kb("CommitLimit") - (long)meminfo_kb("Committed_AS") -
	     (long)meminfo_kb("SwapTotal") / 2;
	sh->holder_kb = kb;
	if (kb < 1024)
		return 2;
	mem = mmap(NULL, kb * 1024, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 3;
	for (p = 0; p < (unsigned long)kb * 1024; p += PAGE_SIZE)
		mem[p] = 1;
	futex_add(&sh->ready, 1);
	futex_wait_for(&sh->release, 1);
	return 0;
}

TEST_MAIN()
{
	unsigned long mib = swap_test_mib(), pages = mib * MiB / PAGE_SIZE, p;
	unsigned int digest = DIGEST_INIT;
	long used, out, err1, err2, total;
	unsigned char *area;
	struct timeval tv;
	int w, st, listed;
	char dev[64];

	swap_device(dev, sizeof(dev));
	if (read_file(OVERCOMMIT, mode0, sizeof(mode0)) <= 0)
		fail("cannot read %s", OVERCOMMIT);
	sh = map_shared(PAGE_SIZE);
	area = swap_out_area(pages, SEED, &out, &used);
	if (used < (long)pages / 4)
		fail("only %ld of %lu pages reached swap", used, pages);

	holder = fork_child();
	if (holder == 0) {
		munmap(area, pages * PAGE_SIZE);
		exit_group(hold());
	}
	set_overcommit("2\n");
	futex_add(&sh->go, 1);
	while (!sh->ready) {
		if (waitpid(holder, &st, WNOHANG) == holder) {
			holder = 0;
			undo();
			fail("holder of %ld kB ended early: status %#x", sh->holder_kb, st);
		}
		tv.tv_sec = 0;
		tv.tv_usec = 20000;
		select(0, NULL, NULL, NULL, &tv);
	}
	total = meminfo_kb("SwapTotal");
	err1 = sys_swapoff(dev);
	listed = swap_listed(dev) && meminfo_kb("SwapTotal") == (unsigned long)total;
	if (!err1)
		swap_on_again(dev);
	set_overcommit(mode0);
	if (err1 != -ENOMEM) {
		undo();
		fail("swapoff(%s) with %ld kB held under strict overcommit: %ld, not -ENOMEM",
		     dev, sh->holder_kb, err1);
	}
	if (!listed) {
		undo();
		fail("%s not listed in /proc/swaps with SwapTotal %ld kB after a failed swapoff",
		     dev, total);
	}

	futex_add(&sh->release, 1);
	st = reap(holder);
	holder = 0;
	if (st)
		fail("holder ended with status %d", st);
	err2 = sys_swapoff(dev);
	if (err2 < 0)
		fail("second swapoff(%s), holder gone: errno %ld", dev, -err2);
	swap_on_again(dev);

	corrupt_if_asked(area + (pages / 2) * PAGE_SIZE);
	for (p = 0; p < pages; p++) {
		w = check_page((unsigned int *)(area + p * PAGE_SIZE), SEED, p, &digest);
		if (w >= 0)
			fail("page %lu word %d corrupt after the failed and the good swapoff", p, w);
	}
	printf("# %s: pages=%lu swapped=%ld holder_kb=%ld first=ENOMEM second=0 digest=%08x\n",
	       test_name, pages, used, sh->holder_kb, digest);
	pass();
}
