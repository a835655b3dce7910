# SPDX-License-Identifier: GPL-2.0
#
# The variables a user sets, checked at the door: included by the top
# Makefile before any rule, so that a bad value stops make before anything
# builds or boots, with one line naming the variable and what it takes.
# (BASE is checked where it is read, in the Makefile.)

# a value set on the command line or in the environment, or by the Makefile
var_set   = $(filter-out undefined,$(origin $(1)))
# $(call need,VAR,REGEX,WHAT): VAR, when set, must match REGEX (grep -xE)
need      = $(if $(call var_set,$(1)),$(if $(shell printf '%s\n' '$($(1))' | grep -qxE '$(2)' && echo ok),,$(error $(1)=$($(1)): expected $(3))))
# $(call need_cells,VAR): every word a file of testvm/cells/
need_cells = $(foreach c,$($(1)),$(if $(filter $(c),$(all_cells)),,$(error $(1): no cell '$(c)' (testvm/cells/: $(all_cells)))))
# $(call need_words,VAR,ALLOWED)
need_words = $(foreach w,$($(1)),$(if $(filter $(w),$(2)),,$(error $(1): '$(w)' is not one of: $(2))))

UINT      := [1-9][0-9]*

$(call need_cells,CELLS)
$(call need_cells,TORTURE_CELLS)
$(call need_cells,MM_CELLS)
$(call need,TIMEOUT,$(UINT),seconds per boot (a whole number above 0))
$(call need,MM_TIMEOUT,$(UINT),seconds per mm selftest (a whole number above 0))
$(call need,SEED,[0-9]+,the torture seed (a decimal whole number))
$(call need,TORTURE_OPS,$(UINT),operations per torture worker (a whole number above 0))
$(call need,BENCH_THREADS,$(UINT)(,$(UINT))*,thread counts separated by commas (1,2))
$(call need,BENCH_MS,$(UINT),milliseconds per measurement (a whole number above 0))
$(foreach v,BENCH_ROUNDS BENCH_LOCK_ROUNDS BENCH_COST_ROUNDS BENCH_HUGE_ROUNDS,$(call \
	need,$(v),$(UINT),a number of rounds (a whole number above 0)))
$(call need_words,BENCH_KINDS,pf1 pf2 pf3 lameter thp)
$(call need_words,BENCH_COST_KINDS,pf1 pf2 pf3 lameter thp)
$(call need_words,BENCH_PARTS,scaling contention cost huge hugelock)
$(call need,BENCH_TCG,single|multi,single or multi)
$(call need,RERUN,0|1,0 or 1 (1: make check boots every cell again))
$(call need,BOOT_JOBS,$(UINT),guests booted at once (a whole number above 0))
$(call need,SELFTEST_JOBS,$(UINT),host tests run at once (a whole number above 0))
$(call need,BUILD,[^[:space:]]+,a directory path without spaces)
$(call need,KCACHE,0|1,0 or 1 (1: kernels built through ccache))
$(call need,KCACHE_SIZE,[0-9]+(\.[0-9]+)?[kMGT]i?,a cache size as ccache takes it (5G, 800M))
$(call need,KCACHE_DIR,/[^[:space:]]*,an absolute directory path without spaces)
$(if $(call var_set,BUILD),$(if $(shell test -e '$(BUILD)' && ! test -d '$(BUILD)' && echo bad),$(error BUILD=$(BUILD): exists and is not a directory)))
$(if $(filter historical,$(MAKECMDGOALS)),$(if $(HISTORICAL_SRC),,$(error HISTORICAL_SRC is not set: $(HISTORICAL_HINT))))
$(if $(HISTORICAL_SRC),$(if $(wildcard $(HISTORICAL_SRC)/Makefile),,$(error HISTORICAL_SRC=$(HISTORICAL_SRC) has no top-level Makefile: not a kernel tree)))
$(foreach v,HISTORICAL_CC HISTORICAL_MAKE,$(if $(call var_set,$(v)),$(if $(shell command -v '$(firstword $($(v)))'),,$(error $(v)=$($(v)): no such command))))
