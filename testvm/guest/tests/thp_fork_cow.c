// SPDX-License-Identifier: GPL-2.0
/*
 * thp_fork_cow - fault_fork_cow on transparent huge pages: three threads
 * rewrite a THP each, in three pmd tables, while a fourth forks; every
 * child must see each writer's huge page as of one instant, and the parent
 * its own last writes (fault_fork_cow.c says how that is checked).
 *
 * Exercises: `copy_huge_pmd()` (both pmd locks, a table deposited for the
 *   child) and `do_huge_pmd_wp_page()` splitting shared huge pmds, under
 *   concurrent faults (THP kernels: PAE): `fault_fork_cow` built with
 *   `FORK_COW_THP`: 3 threads rewrite a THP each, one in each user pmd table
 *   (0x20000000, 0x60000000, 0xa0000000), generation after generation, while a
 *   4th forks 6 times
 * Invariant: each THP was huge before the threads started (AnonHugePages, else
 *   FAIL); every child sees each writer's pages as of one instant (generation G
 *   up to one cut, G - 1 after); the parent reads back its own last writes.
 *   Skip and `ptltest.thp=1` as `thp_mremap`
 */
#define FORK_COW_THP
#include "fault_fork_cow.c"
