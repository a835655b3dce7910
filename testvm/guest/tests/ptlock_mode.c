// SPDX-License-Identifier: GPL-2.0
/*
 * ptlock_mode - the split page-table lock mode the kernel reports is the
 * one the cell asked for.  /sys/kernel/mm/split_ptlocks (modern/ series)
 * must read ptltest.split= from the kernel command line, and the boot log
 * must carry the series' "split_ptlocks: MODE (...)" line saying the same;
 * a split_ptlocks= value the kernel does not know must have been reported
 * as ignored.  Kernels without the series (stock 6.1, 2.6.14) have no such
 * file: skipped, unless the cell expected one.  2.6.14 after the 2005
 * series, and 2.6.15, split or not as built (ptltest.split_built=): no file
 * either, skipped; historical/build.sh ptl shows its fault path's lock,
 * and the report holds it against the cell.
 *
 * Exercises: the series' boot decision
 * Invariant: `/sys/kernel/mm/split_ptlocks` reads the `ptltest.split=` the cell
 *   expects; the boot log has the matching `split_ptlocks: MODE (...)` line; an
 *   unknown `split_ptlocks=` value was reported as ignored. Skipped on kernels
 *   without the series, and on 2.6.14 after it and 2.6.15 (their split is built in; the
 *   report checks the fault path's lock, `historical/build.sh ptl`)
 */
#include "harness.h"

TEST_MAIN()
{
	static char log[1 << 17];
	char want[8], asked[32], mode[8], line[64];
	int len;

	if (read_file("/sys/kernel/mm/split_ptlocks", mode, sizeof(mode)) < 0) {
		if (cmdline_arg("ptltest.split_built", want, sizeof(want)))
			skip("2.6.14/2.6.15, split %s as built (NR_CPUS against SPLIT_PTLOCK_CPUS): "
			     "no /sys/kernel/mm/split_ptlocks; historical/build.sh ptl shows "
			     "the fault path's lock", want);
		if (cmdline_arg("ptltest.split", want, sizeof(want)))
			fail("ptltest.split=%s asked, but no /sys/kernel/mm/split_ptlocks", want);
		skip("no /sys/kernel/mm/split_ptlocks: kernel without the series");
	}
	len = strlen(mode);
	if (len && mode[len - 1] == '\n')
		mode[--len] = 0;
	printf("# %s: mode=%s\n", test_name, mode);
	if (read_file(BOOT_LOG, log, sizeof(log)) < 0)
		fail("no boot log in %s", BOOT_LOG);

	strcpy(line, "split_ptlocks: ");
	strcpy(line + strlen(line), mode);
	strcpy(line + strlen(line), " (");
	if (!strstr(log, line))
		fail("boot log has no \"%s\" line", line);

	if (cmdline_arg("split_ptlocks", asked, sizeof(asked)) &&
	    strcmp(asked, "on") && strcmp(asked, "off") && strcmp(asked, "auto")) {
		strcpy(line, "split_ptlocks=");
		strcpy(line + strlen(line), asked);
		strcpy(line + strlen(line), " ignored");
		if (!strstr(log, line))
			fail("split_ptlocks=%s was not reported as ignored", asked);
	}
	if (cmdline_arg("ptltest.split", want, sizeof(want)) && strcmp(want, mode))
		fail("mode is %s, the cell expected %s", mode, want);
	pass();
}
