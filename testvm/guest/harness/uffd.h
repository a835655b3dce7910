/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/uffd.h - userfaultfd: open with UFFDIO_MOVE, register, move.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- userfaultfd's UFFDIO_MOVE ----------------------------------------------
 * The definitions of 6.12's <linux/userfaultfd.h> that the tests use (6.1's
 * headers lack UFFDIO_MOVE).  userfaultfd() is newer than 2.6.14: a test
 * calls it only to learn whether the kernel has it (testvm/syscalls.sh,
 * PROBED).
 */
#ifndef __NR_userfaultfd
#define __NR_userfaultfd	374
#endif
#define UFFD_API		0xAAULL
#define UFFD_FEATURE_MOVE	(1ULL << 16)
#define UFFDIO_REGISTER_MODE_MISSING	1ULL
struct uffd_api { unsigned long long api, features, ioctls; };
struct uffd_register { unsigned long long start, len, mode, ioctls; };
struct uffd_move { unsigned long long dst, src, len, mode; long long move; };
#define UFFD_IOWR(nr, size)	(0xc0000000UL | ((size) << 16) | (0xAA << 8) | (nr))
#define UFFDIO_API		UFFD_IOWR(0x3F, sizeof(struct uffd_api))
#define UFFDIO_REGISTER		UFFD_IOWR(0x00, sizeof(struct uffd_register))
#define UFFDIO_MOVE		UFFD_IOWR(0x05, sizeof(struct uffd_move))

/*
 * A userfaultfd whose API offers UFFDIO_MOVE; -1 on a kernel without
 * userfaultfd or without the move (why, in *why: "userfaultfd" or "MOVE").
 */
static int uffd_open_move(const char **why)
{
	struct uffd_api api = { UFFD_API, 0, 0 };
	int fd = my_syscall1(__NR_userfaultfd, 0);

	*why = "userfaultfd";
	if (fd < 0)
		return -1;
	if (ioctl(fd, UFFDIO_API, &api))
		fail("UFFDIO_API: errno %d", errno);
	ASSERT(api.api == UFFD_API);
	*why = "MOVE";
	if (!(api.features & UFFD_FEATURE_MOVE)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Register len bytes at at for missing-page faults, or fail */
static void uffd_register(int fd, void *at, unsigned long len)
{
	struct uffd_register reg = { (unsigned long)at, len, UFFDIO_REGISTER_MODE_MISSING, 0 };

	if (ioctl(fd, UFFDIO_REGISTER, &reg))
		fail("UFFDIO_REGISTER of %lu bytes at %p: errno %d", len, at, errno);
}

/* Move len bytes from src to dst (registered), all of them, or fail */
static void uffd_move(int fd, void *dst, void *src, unsigned long len, const char *what)
{
	struct uffd_move mv = { (unsigned long)dst, (unsigned long)src, len, 0, 0 };

	if (ioctl(fd, UFFDIO_MOVE, &mv) || mv.move != (long long)len)
		fail("%s: UFFDIO_MOVE %p -> %p of %lu bytes moved %lld (errno %d)",
		     what, src, dst, len, mv.move, errno);
}
