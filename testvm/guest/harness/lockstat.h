/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/lockstat.h -
 * lock_stat: clear, read one class, the classes of the two modes.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- lock_stat ---------------------------------------------------------------
 * /proc/lock_stat (CONFIG_LOCK_STAT, the debug kernels): writing "0" clears
 * it; a class line reads "NAME: con-bounces contentions waittime-min
 * waittime-max waittime-total waittime-avg acq-bounces acquisitions
 * holdtime-min holdtime-max holdtime-total holdtime-avg", times in
 * microseconds.
 */
struct lock_counts {
	long acq, con, wait_us, hold_us;
};

/* Clear the statistics; 0 when the kernel has none. */
static int lockstat_clear(void)
{
	int fd = open("/proc/lock_stat", O_WRONLY, 0);

	if (fd < 0)
		return 0;
	write(fd, "0", 1);
	close(fd);
	return 1;
}

/* The number at *pp (an integer, or the integer part); *pp moves past it. */
static long lockstat_field(char **pp)
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
 * Sum the figures of the lock classes whose name starts with prefix, from
 * the /proc/lock_stat read now.  Fails the test when it cannot be read.
 */
static void lockstat_class(const char *prefix, struct lock_counts *c)
{
	static char text[1 << 20];
	char *p = text;
	int n, plen = strlen(prefix);
	long v[12];

	if (read_file("/proc/lock_stat", text, sizeof(text)) < 0)
		fail("cannot read /proc/lock_stat");
	c->acq = c->con = c->wait_us = c->hold_us = 0;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, prefix, plen)) {
			while (*p && *p != ':' && *p != '\n')
				p++;
			if (*p == ':') {
				p++;
				for (n = 0; n < 12 && *p && *p != '\n'; n++)
					v[n] = lockstat_field(&p);
				if (n >= 8) {
					c->con += v[1];
					c->wait_us += v[4];
					c->acq += v[7];
				}
				if (n == 12)
					c->hold_us += v[10];
			}
		}
		while (*p && *p++ != '\n')
			;
	}
}

/*
 * The classes of the two page-table locks, split and not.  The split one is
 * named after ptlock_ptr()'s argument: ptlock_ptr(page) in 6.1,
 * ptlock_ptr(ptdesc) in 6.12; lockstat_class() matches the prefix.
 */
#define LOCK_MM		"&mm->page_table_lock"
#define LOCK_PTL	"ptlock_ptr("
/* mmap_lock, and the per-VMA lock faults take instead where PER_VMA_LOCK
 * is built (6.12 and 7.3 on x86_64): a rw_semaphore in 6.12, a reference
 * count in 7.3 whose lockdep map is named "vm_lock" */
#define LOCK_MMAP	"&mm->mmap_lock"
#define LOCK_VMA	"&vma->vm_lock->lock"
#define LOCK_VMA_REF	"vm_lock"

/*
 * For a lock_stat test of the series: 1 when split_ptlocks is on, 0 off,
 * with the statistics cleared.  Skips on a kernel without the series
 * (/sys/kernel/mm/split_ptlocks) or without LOCK_STAT.
 */
static int lockstat_split_on(void)
{
	char mode[8];

	if (read_file("/sys/kernel/mm/split_ptlocks", mode, sizeof(mode)) < 0)
		skip("no /sys/kernel/mm/split_ptlocks: kernel without the series");
	if (!lockstat_clear())
		skip("no /proc/lock_stat: kernel without LOCK_STAT");
	return !strncmp(mode, "on", 2);
}
