// SPDX-License-Identifier: GPL-2.0
/*
 * lockstat_ptlock - under a multi-threaded fault load, lock_stat shows the
 * lock the mode says: acquisitions of the per-table class ptlock_ptr(page)
 * with split_ptlocks on, of &mm->page_table_lock with it off.  Needs
 * /proc/lock_stat (debug kernels) and /sys/kernel/mm/split_ptlocks (the
 * series); skipped without them.  Reports both classes' acquisitions and
 * contentions as figures.
 */
#include "harness.h"

#define NTHREADS	4
#define MIB_PER_THREAD	2
#define SEED		0x10c55a7u

static char lockstat[1 << 20];

/* The number at *pp (an integer, or the integer part); *pp moves past it. */
static long field(char **pp)
{
	char *p = *pp;
	long v;

	while (*p == ' ')
		p++;
	v = atol(p);
	while (*p && *p != ' ' && *p != '\n')
		p++;
	*pp = p;
	return v;
}

/*
 * Sum the acquisitions and contentions of the lock classes whose name starts
 * with prefix, from class lines "NAME: con-bounces contentions waittime-min
 * waittime-max waittime-total waittime-avg acq-bounces acquisitions ...".
 */
static void class_counts(const char *prefix, long *acq, long *con)
{
	char *p = lockstat;
	int n, plen = strlen(prefix);
	long v[8];

	*acq = *con = 0;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, prefix, plen)) {
			while (*p && *p != ':' && *p != '\n')
				p++;
			if (*p == ':') {
				p++;
				for (n = 0; n < 8 && *p && *p != '\n'; n++)
					v[n] = field(&p);
				if (n == 8) {
					*con += v[1];
					*acq += v[7];
				}
			}
		}
		while (*p && *p++ != '\n')
			;
	}
}

int main(void)
{
	long acq_mm, con_mm, acq_pt, con_pt, pages;
	struct slices sl = { .seed = SEED };
	struct thread *t;
	char mode[8];
	int fd;

	test_name = "lockstat_ptlock";
	if (read_file("/sys/kernel/mm/split_ptlocks", mode, sizeof(mode)) < 0)
		skip("no /sys/kernel/mm/split_ptlocks: kernel without the series");
	fd = open("/proc/lock_stat", O_WRONLY, 0);
	if (fd < 0)
		skip("no /proc/lock_stat: kernel without LOCK_STAT");
	sl.pages = MIB_PER_THREAD * MiB / PAGE_SIZE;
	pages = NTHREADS * sl.pages;
	sl.area = map_anon(pages * PAGE_SIZE);
	/* one fault per page, one pte lock each: no THP (older kernels: EINVAL) */
	sys_madvise(sl.area, pages * PAGE_SIZE, MADV_NOHUGEPAGE);
	t = threads_create(NTHREADS, touch_slice, &sl);

	write(fd, "0", 1);		/* clear the statistics */
	close(fd);
	threads_run(t, NTHREADS);
	if (read_file("/proc/lock_stat", lockstat, sizeof(lockstat)) < 0)
		fail("cannot read /proc/lock_stat");

	class_counts("&mm->page_table_lock", &acq_mm, &con_mm);
	class_counts("ptlock_ptr(page)", &acq_pt, &con_pt);
	if (mode[0] && mode[strlen(mode) - 1] == '\n')
		mode[strlen(mode) - 1] = 0;
	printf("# %s: mode=%s pages=%ld mm_acq=%ld mm_con=%ld ptl_acq=%ld ptl_con=%ld\n",
	       test_name, mode, pages, acq_mm, con_mm, acq_pt, con_pt);
	if (!strcmp(mode, "on")) {
		if (acq_pt < pages)
			fail("split on, but ptlock_ptr(page) taken %ld times for %ld faults",
			     acq_pt, pages);
		if (acq_mm > pages / 8)
			fail("split on, but page_table_lock still taken %ld times", acq_mm);
	} else {
		if (acq_mm < pages)
			fail("split off, but page_table_lock taken %ld times for %ld faults",
			     acq_mm, pages);
		if (acq_pt > pages / 8)
			fail("split off, but ptlock_ptr(page) taken %ld times", acq_pt);
	}
	pass();
}
