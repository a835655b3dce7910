/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - what every guest program shares, on top of the kernel's nolibc.
 *
 * The same static i386 binaries run on 6.1 and on 2.6.14-rc4-mm1, so only
 * system calls that 2.6.14 has (i386 numbers <= 293) may be used: the newer
 * *at() calls that nolibc would prefer are hidden below, and the build scans
 * the binaries for any syscall number above 293 (testvm/syscalls.sh).
 *
 * A test is one program checking one invariant.  It prints its figures as one
 * KTAP diagnostic line, "# NAME: key=value ...", and ends with
 *   pass()          exit 0: the runner prints "ok N NAME"
 *   fail(fmt, ...)  exit 1 after "# NAME: FAIL reason"
 *   ASSERT(cond)    fail() naming the file, line and condition
 *   skip(fmt, ...)  exit 4, the reason left in SKIP_FILE for the runner
 *
 * Adding a test is adding one file, testvm/guest/tests/NAME.c: a header
 * comment whose "Exercises:" and "Invariant:" paragraphs become its row in
 * docs/tests.md (make docs writes it; the host test docs_drift fails when
 * the page and the sources differ), then TEST_MAIN() { ... } (the name comes
 * from the file, through argv[0]).  The build picks it up and the runner
 * runs it in every cell, in name order (ptlock_mode first), under the time
 * bound, with the kernel-log check after it.  The runner (init.c) owns the
 * KTAP plan and result lines; its table holds MAX_TESTS tests, and the build
 * says when there are more.
 *
 * The API, part by part (harness/, included in this order):
 *   sys.h       PAGE_SIZE, PAGE_WORDS, MiB; sys_madvise(), sys_futex(),
 *               sys_syslog(), sys_ftruncate(), sys_swapon(), sys_alarm(),
 *               sys_mremap(), sys_mprotect(), sync(), exit_group(), strstr(),
 *               WIFSIGNALED()/WTERMSIG() (ours: nolibc 6.12's are wrong)
 *   result.h    TEST_MAIN(), pass(), fail(), ASSERT(), skip(); test_name
 *   proc.h      read_file(), write_file(), cmdline_arg() (ptltest.* from
 *               the boot line), cmdline_ulong() (a number from it),
 *               meminfo_kb(), vmstat_count() (-1: no such line),
 *               read_long() (a sysfs count), need_mem_mib() (skips
 *               below), statm_resident(), major_faults(), minor_faults(),
 *               now_ms(), now_us(), sleep_ms(), map_anon(), map_anon_aligned()
 *   pattern.h   pattern(), fill_page(), fill_pages(), check_page(),
 *               check_pages(), digest_word() from DIGEST_INIT,
 *               corrupt_if_asked() (ptltest.corrupt=)
 *   thp.h       HPAGE, thp_enable() (skips without THP), thp_try_enable(),
 *               thp_built() (THP there at all: PAE, split pmd locks),
 *               thp_anon_kb(), thp_map_at() (made and proven huge),
 *               hpage_check(), thp_move(); MADV_COLLAPSE, shmem_memfd()
 *               (a memfd of small pages), shmem_collapse() (retried on
 *               EAGAIN), shmem_memfd_close() (ShmemHugePages back);
 *               hugetlb_reserve() (skips without hugetlb), hugetlb_release()
 *   thread.h    struct thread, threads_create(), threads_run() (all start
 *               at once, all joined) or threads_start() and threads_join(),
 *               threads_run_with() (n threads and one more, timed),
 *               thread_start(), thread_join(),
 *               gate_wait(), touch_slice(), touch_in_child(); fork_child(),
 *               map_shared(), futex_add(), futex_wait_for(), reap()
 *   lockstat.h  lockstat_clear(), lockstat_class(), lockstat_split_on(),
 *               LOCK_MM, LOCK_PTL, LOCK_MMAP, LOCK_VMA, LOCK_VMA_REF
 *   swap.h      swap_device(), swap_listed(), swap_on_again(),
 *               swap_used_pages(), swap_test_mib(), swap_push(),
 *               swap_out_area() (filled, then pushed out), sys_swapoff()
 *   uffd.h      uffd_open_move() (userfaultfd with UFFDIO_MOVE, or -1),
 *               uffd_register(), uffd_move()
 * and klog_bad[], the kernel-log lines that fail a test (testvm/klog-bad.txt).
 */
#ifndef PTLTEST_HARNESS_H
#define PTLTEST_HARNESS_H

#include "harness/sys.h"
#include "harness/result.h"
#include "harness/proc.h"
#include "harness/pattern.h"
#include "harness/thp.h"
#include "harness/thread.h"
#include "harness/lockstat.h"
#include "harness/swap.h"
#include "harness/uffd.h"

/* --- the kernel log --------------------------------------------------------
 * klog_bad[]: lines that mean the kernel found a bug, whatever the test's
 * verdict; generated from testvm/klog-bad.txt, which the host parser reads too.
 */
#include "klog_bad.h"

#endif /* PTLTEST_HARNESS_H */
