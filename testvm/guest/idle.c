// SPDX-License-Identifier: GPL-2.0
/*
 * idle - never ends.  Not a test: the host-side test qemu_hang.sh boots it
 * as rdinit= to prove that a guest that never powers off is bounded.
 */
#include "harness.h"

int main(void)
{
	struct timespec ts = { 3600, 0 };

	printf("idle: sleeping\n");
	for (;;)
		my_syscall2(__NR_nanosleep, &ts, NULL);
}
