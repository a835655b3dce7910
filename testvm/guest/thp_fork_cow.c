// SPDX-License-Identifier: GPL-2.0
/*
 * thp_fork_cow - fault_fork_cow on transparent huge pages: three threads
 * rewrite a THP each, in three pmd tables, while a fourth forks; every
 * child must see each writer's huge page as of one instant, and the parent
 * its own last writes (fault_fork_cow.c says how that is checked).
 */
#define FORK_COW_THP
#include "fault_fork_cow.c"
