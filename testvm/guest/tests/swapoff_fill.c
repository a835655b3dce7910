// SPDX-License-Identifier: GPL-2.0
/*
 * swapoff_fill - swapoff brings every swapped-out page of an anonymous area
 * back: try_to_unuse() walks the mm and unuse_pte() puts each page back under
 * its pte lock.  The area is filled with the pattern, a hog pushes it out
 * (the swap in use must show it), swapoff must succeed and every page must
 * hold its pattern afterwards; then swap goes back on for the next test.
 *
 * Exercises: `try_to_unuse` / `unuse_pte` under the pte lock
 * Invariant: a pattern area pushed out to swap by a forked hog (RSS must drop
 *   by at least a quarter of its pages) comes back with swapoff, every page
 *   intact
 */
#include "harness.h"

#define SEED	0x5a0ff001u

TEST_MAIN()
{
	unsigned long mib = swap_test_mib(), pages = mib * MiB / PAGE_SIZE, p;
	unsigned int digest = DIGEST_INIT;
	long used, err, ms, out;
	unsigned char *area;
	char dev[64];
	int w, still;

	swap_device(dev, sizeof(dev));
	area = swap_out_area(pages, SEED, &out, &used);
	if (out < (long)pages / 4)
		fail("only %ld of %lu pages left RAM (swap in use grew by %ld)", out, pages, used);

	ms = now_ms();
	err = sys_swapoff(dev);
	ms = now_ms() - ms;
	if (err < 0)
		fail("swapoff(%s) with %ld pages out: errno %ld", dev, used, -err);
	still = swap_listed(dev);
	swap_on_again(dev);
	if (still)
		fail("%s still listed in /proc/swaps after swapoff", dev);

	corrupt_if_asked(area + (pages / 2) * PAGE_SIZE);
	for (p = 0; p < pages; p++) {
		w = check_page((unsigned int *)(area + p * PAGE_SIZE), SEED, p, &digest);
		if (w >= 0)
			fail("page %lu word %d corrupt after swapoff", p, w);
	}
	printf("# %s: mib=%lu pages=%lu out=%ld swapped=%ld swapoff_ms=%ld digest=%08x\n",
	       test_name, mib, pages, out, used, ms, digest);
	pass();
}
