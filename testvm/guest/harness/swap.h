/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/swap.h - swap: the device, what is in use, pushing pages out.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- swap --------------------------------------------------------------------
 * The runner swaps on its disk before the tests (init.c: swap_setup()).  A
 * swap test fails, never skips, when no swap is active.  swap_push() forces
 * the caller's pages out without exceeding RAM + swap: a forked hog touches
 * fresh memory a MiB at a time until the swap in use has grown by the pages
 * asked for, and exits.  Reclaim writes out the oldest pages first: those the
 * caller filled before.
 */
static inline long sys_swapoff(const char *path)
{
	return my_syscall1(__NR_swapoff, path);
}

static long swap_used_pages(void)
{
	return (long)(meminfo_kb("SwapTotal") - meminfo_kb("SwapFree")) / (PAGE_SIZE / 1024);
}

/*
 * The swap area the runner swapped on: the first one in /proc/swaps, copied
 * into path (size bytes).  Fails the test when swap is off.
 */
static void swap_device(char *path, int size)
{
	static char buf[1024];
	char *p = buf;
	int i;

	if (!meminfo_kb("SwapTotal"))
		fail("no swap active: SwapTotal 0 kB (did the runner's swapon fail?)");
	if (read_file("/proc/swaps", buf, sizeof(buf)) < 0)
		fail("cannot read /proc/swaps");
	while (*p && *p != '\n')	/* the header line */
		p++;
	if (*p)
		p++;
	if (*p != '/')
		fail("no swap area in /proc/swaps");
	for (i = 0; i < size - 1 && p[i] && p[i] != ' ' && p[i] != '\t'; i++)
		path[i] = p[i];
	path[i] = 0;
}

/* Whether /proc/swaps lists path. */
static int swap_listed(const char *path)
{
	static char buf[1024];

	return read_file("/proc/swaps", buf, sizeof(buf)) > 0 && strstr(buf, path);
}

/* Swap back on after a swapoff, for the next test. */
static void swap_on_again(const char *path)
{
	long err = sys_swapon(path, 0);

	if (err < 0)
		fail("swapon(%s) after swapoff: errno %ld", path, -err);
}

/*
 * Size of a swap test's data from a fixed ladder: 32 MiB halved until it is
 * at most half the swap and an eighth of RAM, so that it is the same on every
 * kernel booted with the same memory and swap.
 */
static unsigned long swap_test_mib(void)
{
	unsigned long mem = meminfo_kb("MemTotal") / 1024;
	unsigned long swap = (meminfo_kb("SwapTotal") + 1023) / 1024;
	unsigned long mib;

	for (mib = 32; mib > 2 && (mib > swap / 2 || mib > mem / 8); mib /= 2)
		;
	return mib;
}

#define HOG_PIECE_MIB	8

/*
 * Fork a hog that touches fresh memory until the swap in use has grown by
 * want pages (or 7/8 of the swap is in use), then exits.  Returns the swap
 * in use once the hog is gone.
 */
static long swap_push(long want)
{
	unsigned long limit = meminfo_kb("MemTotal") / 1024 + meminfo_kb("SwapTotal") / 1024;
	long used0 = swap_used_pages(), floor = meminfo_kb("SwapTotal") / 8;
	unsigned long mib, p;
	unsigned char *hog;
	int status = 0;
	pid_t pid;

	pid = fork_child();
	if (pid == 0) {
		hog = NULL;
		for (mib = 0; mib < limit; mib++) {
			/* mapped in pieces: 2.6.14's heuristic overcommit
			 * refuses RAM + swap in one mmap
			 */
			if (mib % HOG_PIECE_MIB == 0)
				hog = map_anon(HOG_PIECE_MIB * MiB);
			for (p = 0; p < MiB; p += PAGE_SIZE)
				hog[mib % HOG_PIECE_MIB * MiB + p] = 1;
			if (swap_used_pages() >= used0 + want ||
			    (long)meminfo_kb("SwapFree") < floor)
				exit_group(0);
		}
		exit_group(3);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		fail("the swap hog was killed by signal %d", WTERMSIG(status));
	if (WEXITSTATUS(status))
		fail("the swap hog ended with status %d (touched RAM + swap, swap used %ld pages)",
		     WEXITSTATUS(status), swap_used_pages());
	return swap_used_pages();
}

/*
 * An area of pages anonymous pages with seed's pattern, pushed out to swap
 * by a hog (swap_push()).  *out: the pages that left this process's RSS,
 * *swapped: how far the swap in use grew; the caller judges them.
 */
static unsigned char *swap_out_area(unsigned long pages, unsigned int seed,
				    long *out, long *swapped)
{
	unsigned char *area = map_anon(pages * PAGE_SIZE);
	long used0 = swap_used_pages(), rss;

	fill_pages(area, pages, seed);
	rss = statm_resident();
	*swapped = swap_push(pages) - used0;
	*out = rss - statm_resident();
	return area;
}
