/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/sys.h -
 * the system: the headers, sizes, and what nolibc lacks (the calls
 * 2.6.14 has and nolibc does not wrap).
 * Part of harness.h, which includes every part in order: include that.
 */

#include <asm/unistd.h>
#undef __NR_openat
#undef __NR_mkdirat
#undef __NR_mknodat
#undef __NR_fchownat
#undef __NR_fchmodat
#undef __NR_unlinkat
#undef __NR_linkat
#undef __NR_symlinkat
#undef __NR_dup3
#undef __NR_pselect6
#undef __NR_ppoll
#undef __NR_newfstatat
#include <nolibc.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <linux/mman.h>
#ifndef RUSAGE_SELF		/* nolibc 6.1 lacks them; <linux/resource.h> clashes */
#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#endif

/* a header of static helpers: each program uses some of them */
#pragma GCC diagnostic ignored "-Wunused-function"

#define PAGE_SIZE	4096UL
#define PAGE_WORDS	(PAGE_SIZE / sizeof(unsigned int))
#define MiB		(1024UL * 1024UL)
#define SKIP_FILE	"/tmp/skip-reason"
#define BOOT_LOG	"/tmp/boot.log"	/* the kernel log up to the first test */
#define EXIT_SKIP	4


/* --- what nolibc (6.1) lacks ------------------------------------------- */

/* ours, also where nolibc has them: 6.12's WIFSIGNALED() is true for exit 0 */
#undef WTERMSIG
#undef WIFSIGNALED
#define WTERMSIG(status)	((status) & 0x7f)
#define WIFSIGNALED(status)	(WTERMSIG(status) && WTERMSIG(status) != 0x7f)

static char *strstr(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncmp(s, needle, n))
			return (char *)s;
	return NULL;
}

static inline void sync(void)
{
	my_syscall0(__NR_sync);
}

static inline long sys_madvise(void *addr, unsigned long len, int advice)
{
	return my_syscall3(__NR_madvise, addr, len, advice);
}

static inline long sys_futex(volatile int *uaddr, int op, int val)
{
	return my_syscall4(__NR_futex, uaddr, op, val, 0);
}

static inline long sys_syslog(int type, char *buf, int len)
{
	return my_syscall3(__NR_syslog, type, buf, len);
}

static inline long sys_ftruncate(int fd, unsigned long len)
{
	return my_syscall2(__NR_ftruncate, fd, len);
}

static inline long sys_swapon(const char *path, int flags)
{
	return my_syscall2(__NR_swapon, path, flags);
}

static inline long sys_alarm(unsigned int secs)
{
	return my_syscall1(__NR_alarm, secs);
}

static inline long sys_mremap(void *old, unsigned long old_len, unsigned long new_len,
			      int flags, void *new)
{
	return my_syscall5(__NR_mremap, old, old_len, new_len, flags, new);
}

static inline long sys_mprotect(void *addr, unsigned long len, int prot)
{
	return my_syscall3(__NR_mprotect, addr, len, prot);
}

static inline long sys_memfd_create(const char *name, unsigned int flags)
{
	return my_syscall2(__NR_memfd_create, name, flags);
}

static __attribute__((noreturn)) void exit_group(int status)
{
	my_syscall1(__NR_exit_group, status);
	for (;;)
		;
}
