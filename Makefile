# SPDX-License-Identifier: GPL-2.0
#
# The front door.  'make help' lists the targets.
#
# Everything built goes under BUILD (default ./build, git-ignored).  Stages
# print one line each; their full output is in $(BUILD)/logs.

# LINUX_TREE=DIR: the series on a git checkout of the user's own (mainline,
# stable, a distribution's) instead of Debian's packaged source: the base
# is the one nearest its version (modern/tree.sh base-of; BASE= overrides),
# applied in a clone of it (nothing is written into DIR), everything under
# BUILD (default build/user); make check is that base's boots and lint.
ifneq ($(LINUX_TREE),)
LINUX_BASE := $(shell modern/tree.sh base-of '$(LINUX_TREE)' 2>&1)
$(if $(filter 1,$(words $(LINUX_BASE))),,$(error $(LINUX_BASE)))
ifneq ($(origin BASE),command line)
BASE := $(LINUX_BASE)
endif
export LINUX_TREE := $(abspath $(LINUX_TREE))
# (the guest's base, when another, is Debian's: modern/tree.sh)
export LINUX_BASE
endif
B         := $(abspath $(or $(BUILD),$(if $(LINUX_TREE),build/user,build)))
export BUILD := $(B)
LOG       := $(B)/logs
STAGE     := lib/stage
HOSTCC    ?= gcc

# The packaged kernels the series is carried on (modern/base.sh): BASE=6.1,
# 6.12, 7.3 or all, which is every base this Debian release packages: 6.1
# and 6.12 on bookworm (6.12 from bookworm-security), 6.12 alone on trixie
# and later; and 7.3 on both (trixie-backports: modern/fetch.sh).
ALL_BASES := $(shell . modern/base.sh && echo $$BASES)
OS_CODENAME := $(shell . /etc/os-release 2>/dev/null && echo $$VERSION_CODENAME)
BASE      ?= all
BASES     := $(if $(filter all,$(BASE)),$(if $(filter bookworm,$(OS_CODENAME)),6.1 6.12 7.3,6.12 7.3),$(BASE))
$(foreach b,$(BASES),$(if $(filter $(b),$(ALL_BASES)),,$(error BASE=$(b): no such base; one of: $(ALL_BASES) all)))
base_var  = $(shell BUILD=$(B) sh -c '. modern/base.sh && base_set $(2) && echo $$$(1)')
# the prefix of a base's kernel and cell names ("", "6.12-")
$(foreach b,$(ALL_BASES),$(eval PRE_$(b) := $(call base_var,PRE,$(b))))
base_pre  = $(PRE_$(1))
# the guest programs and the tools they need come from one tree whatever
# BASE is: the oldest base this Debian release packages (6.1 on bookworm,
# 6.12 on trixie), so that every base boots the same binaries (7.3's nolibc
# opens files with openat, which 2.6.14 does not have)
GUEST_BASE := $(if $(filter bookworm,$(OS_CODENAME)),6.1,6.12)
TREE      := $(or $(TREE),$(call base_var,TREE,$(GUEST_BASE)))
TREE_STAMP := $(or $(TREE_STAMP),$(call base_var,STAMP,$(GUEST_BASE)))

# The matrix: cells are files in testvm/cells/, each naming its kernel;
# those of the bases chosen, without the ones marked MATRIX=full (make
# matrix boots those too).
# testvm/cell.py reads them, once: NAME=KERNEL=MATRIX=BASE=ARCH words.
CELL_TABLE := $(shell testvm/cell.py table)
$(if $(CELL_TABLE),,$(error testvm/cells/: a cell file is bad (testvm/cell.py table says which)))
cell_field  = $(word $(2),$(subst =, ,$(filter $(1)=%,$(CELL_TABLE))))
cell_kernel = $(call cell_field,$(1),2)
cell_full   = $(filter full,$(call cell_field,$(1),3))
cell_base   = $(call cell_field,$(1),4)
cell_arch   = $(call cell_field,$(1),5)
all_cells = $(foreach w,$(CELL_TABLE),$(firstword $(subst =, ,$(w))))
# those of the bases chosen, then the 2005 kernel's
base_cells = $(foreach b,$(BASES) $(if $(LINUX_TREE),,2.6.14 2.6.15),$(foreach c,$(all_cells),$(if $(filter $(b),$(call cell_base,$(c))),$(c))))
CELLS     := $(or $(CELLS),$(strip $(foreach c,$(base_cells),$(if $(call cell_full,$(c)),,$(c)))))
HISTORICAL_HINT := $(shell historical/build.sh hint)
include testvm/vars.mk

# historical* are the 2.6.14 kernels 'make historical' builds, not kbuild.sh's
KERNELS   := $(filter-out historical%,$(sort $(foreach c,$(CELLS),$(call cell_kernel,$(c)))))
# the bases whose trees the kernels need, and the guest's
TREE_BASES := $(sort $(GUEST_BASE) $(filter-out 2.6.14 2.6.15,$(foreach c,$(CELLS),$(call cell_base,$(c)))))
HISTORICAL_CELLS := $(strip $(foreach c,$(CELLS),$(if $(filter historical%,$(call cell_kernel,$(c))),$(c))))

# Every kernel is compiled through ccache (lib/kernel.sh's kcache_setup):
# its cache outside the clone (KCACHE_DIR, default ~/.cache/ptlock/ccache),
# shared by every clone on the machine, at most KCACHE_SIZE; KCACHE=0 off.
export KCACHE ?= 1

# Debian packages the project uses (--no-install-recommends); a base of
# another suite (7.3: trixie-backports) is not installed but fetched by the
# tree step (modern/fetch.sh, a private apt list under BUILD).
FETCH_BASES := $(shell . modern/base.sh && for b in $$BASES; do [ -z "$$(base_suite $$b)" ] || echo $$b; done)
PACKAGES  := make gcc gcc-multilib libc6-dev binutils git bc flex bison ccache \
	     libelf-dev libssl-dev xz-utils python3 qemu-system-x86 \
	     $(addprefix linux-source-,$(filter-out $(FETCH_BASES),$(TREE_BASES))) \
	     clang lld llvm binutils-s390x-linux-gnu binutils-sparc64-linux-gnu \
	     perl sparse python3-ply python3-git gnuplot-nox shellcheck pyflakes3

.PHONY: all help deps tree kernels guest run matrix quick report report-example docs check selftest \
	selftest-host torture \
	mm-selftests mm-selftests-check guest-mm \
	lint bisect-check export historical historical-check historical-series bench clean \
	kcache-check \
	mutants \
	extra-check guest-cflags

all: report

help:
	@echo "make           deps, tree, kernels, guest, run, report: the verdict"
	@echo "               table and build/report/report.md"
	@echo "make check     what CI runs: 'make' plus the host-side tests, lint and"
	@echo "               the set 'check' of the kernel's mm selftests"
	@echo ""
	@echo "make deps      apt-get install what is missing (root), else print the line"
	@echo "make tree      import each base's Debian linux-source (tag debian-6.1.N,"
	@echo "               debian-6.12.N, debian-7.3.N; build/linux, build/linux-6.12,"
	@echo "               build/linux-7.3; 7.3 fetched from trixie-backports), branch"
	@echo "               ptlock-split = tag + modern/BASE"
	@echo "make kernels   configure (modern/configs fragments) and build the bzImages:"
	@echo "               $(KERNELS)"
	@echo "make guest     nolibc test programs + syscall check + initramfs"
	@echo "make run       boot each cell of CELLS and print the verdict table"
	@echo "make quick     the inner loop: the first base's debug-pae kernel, split"
	@echo "               on and off at 2 vCPUs, fault and huge-page tests (~30 s warm)"
	@echo "make matrix    the report over every cell of the bases, also those"
	@echo "               matrix-only (MATRIX=: 6.12 and 7.3 i386, 6.12 x86_64 auto and 6.1 stock,"
	@echo "               stock-debug, smp1/smp4 twins) and the full suites of the cells that"
	@echo "               make check boots for their mode decision only (CHECK_ONLY=: the auto"
	@echo "               and bad-value cells); run it before a series is sent out"
	@echo "make report    run, then the differential report: differences between"
	@echo "               cells first (build/report/report.md, .json, .png)"
	@echo "make report-example  the report of the last run as docs/report-example.md"
	@echo "make docs      rewrite docs/tests.md's tables (tests, host tests, cells) from the sources"
	@echo "make selftest  host-side tests of the tooling's failure paths"
	@echo "make selftest-host  those that need no kernel (seconds)"
	@echo "make mm-selftests  the kernel's own mm selftests (tools/testing/"
	@echo "               selftests/vm, testvm/mm-selftests.txt) in each split mode"
	@echo "               and on stock: a test ok on stock must pass in every mode"
	@echo "               (MM_CELLS=..., MM_TIMEOUT=$(MM_TIMEOUT) s a test; about 4 min)"
	@echo "make mm-selftests-check  the same for the set 'check' (in make check;"
	@echo "               about 1 min)"
	@echo "make torture   mm_torture alone on the debug and debug-pae (THP) kernels"
	@echo "               in each mode, long"
	@echo "               (TORTURE_OPS=$(TORTURE_OPS) per worker, SEED=n: mm_torture.c's"
	@echo "               DEF_SEED unless set, TORTURE_CELLS=...)"
	@echo "make bench     page faults/s: on vs off scaling, lock_stat contention,"
	@echo "               stock vs on at T=1, huge pages per pmd table on PAE;"
	@echo "               guest instructions a fault under QEMU's icount (stock,"
	@echo "               on, off; i386, PAE, x86_64), the locks' memory a table,"
	@echo "               scaling at 1, 2, 4 threads against lock_stat's waits"
	@echo "               (build/report/bench.md, .json, .png; BENCH_PARTS=...)"
	@echo "make lint      per base: checkpatch --strict on modern/BASE, sparse (C=2) on"
	@echo "               the files they touch (i386, x86_64, ARM and ppc64le via"
	@echo "               clang): no new warnings; every architecture the series"
	@echo "               touches or that splits locks (x86, arm, arm64, powerpc"
	@echo "               hash and radix, s390, sparc64, riscv) compiles it and the"
	@echo "               KUnit test (KUNIT_ALL_TESTS=y) without new warnings; the"
	@echo "               KUnit test with KUNIT=m must link (make check: the"
	@echo "               architectures of the first base only, KUNIT=m configured)"
	@echo "make mutants   plant each bug of testvm/mutants/ in a scratch kernel and"
	@echo "               boot the tests that must catch it (MUTANTS=...; minutes each)"
	@echo "make kcache-check  build KCACHE_KERNEL (the first base's debug-pae)"
	@echo "               again without the compiler cache: .config and vmlinux"
	@echo "               must be the same (minutes; not in make check)"
	@echo "make bisect-check  build every patch in turn for i386, PAE, x86_64,"
	@echo "               perf and debug (BISECT_KERNELS=...; hours; resumable)"
	@echo "$(HISTORICAL_HINT)"
	@echo "               copy it, compat fixes; build 2.6.14 before the split, and"
	@echo "               after it (the series of the tree's kind: historical/patches"
	@echo "               on -rc4-mm1, historical/port on 2.6.14) with the split on"
	@echo "               and off; with HISTORICAL_2615_SRC=/path/to/linux-2.6.15 also"
	@echo "               2.6.15 as released, the mainline reference (either tree"
	@echo "               or both); boot $(HISTORICAL_CELLS)"
	@echo "               (HISTORICAL_CC=gcc HISTORICAL_MAKE=make)"
	@echo "make historical-check  the 2005 series in historical/patches and its port"
	@echo "               in historical/port: mail format, authorship and notes,"
	@echo "               hunks as posted, diffstats, consistency, git am (no tree)"
	@echo "make historical-series  rewrite historical/ from SEEDS=$(SEEDS)"
	@echo "make export    write ptlock-split's commits back to modern/BASE"
	@echo "               (git format-patch --cover-letter --base)"
	@echo "make clean     remove $(B)"
	@echo ""
	@echo "Variables: BASE=6.1|6.12|7.3|all (all: $(BASES))  BUILD=dir"
	@echo "           LINUX_TREE=dir: a git checkout of your own instead of Debian's"
	@echo "           source; the nearest base's series in a clone of it (build/user)"
	@echo "           CELLS='$(CELLS)'"
	@echo "           TIMEOUT=secs per boot ($(shell sed -n 's/^TIMEOUT=$${TIMEOUT:-\([0-9]*\)}.*/\1/p' testvm/qemu-run.sh))  APPEND='kernel args' for every cell"
	@echo "           BOOT_JOBS=guests at once (one per core: $(shell nproc))"
	@echo "           KCACHE=0: kernels built without the compiler cache (ccache in"
	@echo "             KCACHE_DIR=~/.cache/ptlock/ccache, KCACHE_SIZE=5G, shared by"
	@echo "             every clone on this machine; make kcache-check proves it inert)"
	@echo "           SELFTEST_JOBS=host tests at once in make check (one per core)"
	@echo "           RERUN=1: make check boots every cell again (it skips a cell"
	@echo "             whose last run passed with the same kernel, initramfs, cell)"
	@echo "           EXTRA=program|dir  your static i386 and x86_64 programs, run in every cell of their arch"
	@echo "           RUN='prog args'    the command line of one of them"
	@echo "           (each is checked before anything runs: testvm/vars.mk)"

deps:
	@missing=$$(for p in $(PACKAGES); do \
		dpkg-query -W -f '$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done | tr '\n' ' '); \
	[ -z "$$missing" ] && exit 0; \
	line="apt-get update && apt-get install -y --no-install-recommends $$missing"; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "Missing packages. As root, run:"; echo "  $$line"; exit 1; \
	fi; \
	$(STAGE) "deps: install $$missing" $(LOG)/deps.log \
		sh -c "DEBIAN_FRONTEND=noninteractive; export DEBIAN_FRONTEND; $$line"

# the bases side by side, one per core: an import is mostly one process
# (xz, then git hashing the files)
tree: deps
	@printf '%s\n' $(TREE_BASES) | xargs -P "$$(nproc)" -I{} env BASE={} \
		$(STAGE) "tree {}: import, apply modern/{}" "$(LOG)/tree-{}.log" modern/tree.sh

kernels: $(addprefix kernel-,$(KERNELS))

# the compiler cache changes nothing: KCACHE_KERNEL built again without it,
# in a scratch directory, must give the same .config and vmlinux sections
KCACHE_KERNEL ?= $(call base_pre,$(firstword $(BASES)))debug-pae
kcache-check: kernel-$(KCACHE_KERNEL)
	@$(STAGE) "kcache-check $(KCACHE_KERNEL): built without ccache" \
		$(LOG)/kcache-check.log modern/kcache-check.sh $(KCACHE_KERNEL)
	@grep '^kcache-check:' $(LOG)/kcache-check.log | sed 's/^/           /'

kernel-%: tree
	@$(STAGE) "config $*" $(LOG)/config-$*.log modern/kbuild.sh config $*
	@$(STAGE) "build $*" $(LOG)/build-$*.log modern/kbuild.sh build $*
	@tail -n 1 $(LOG)/build-$*.log | sed 's/^/           /'

include testvm/guest.mk

# EXTRA's programs go into the initramfs of each arch that has cells to boot
guest: tree
	@$(STAGE) "guest programs, initramfs" $(LOG)/guest.log \
		$(MAKE) --no-print-directory guest-build EXTRA_ARCHES="$(EXTRA_ARCHES)" \
		$(if $(filter i386,$(EXTRA_ARCHES)),,EXTRA=)
	@$(STAGE) "guest programs, initramfs: x86_64" $(LOG)/guest-x86_64.log \
		$(MAKE) --no-print-directory guest-build GUEST_ARCH=x86_64 EXTRA_ARCHES="$(EXTRA_ARCHES)" \
		$(if $(filter x86_64,$(EXTRA_ARCHES)),,EXTRA=)
	@echo "           syscalls used: $$(cut -d' ' -f1,2 $(GUEST)/syscalls.txt | sort -un | tr '\n' ' ' | sed 's/ \([0-9]\)/, \1/g')"

# Every cell (testvm/boot.sh), then the verdicts; with EXTRA, booted with the
# user's programs.  A historical cell boots only once 'make historical' has
# built its kernel; until then qemu-run.sh marks it skipped, with the reason.
BOOT_CELLS = INITRAMFS=$(BOOT_INITRAMFS) INITRAMFS_X86_64=$(BOOT_INITRAMFS_X86_64) \
	testvm/boot.sh $(CELLS); \
	testvm/ktap.py --out $(B)/results $(CELLS)

run: $(if $(EXTRA)$(RUN),extra-check) kernels guest
	@$(BOOT_CELLS)

# the report is written whatever the verdicts were, and fails as they do
report: $(if $(EXTRA)$(RUN),extra-check) kernels guest
	@rc=0; { $(BOOT_CELLS); } || rc=1; testvm/report.py || rc=1; exit $$rc

# from the results there are (no boots); differences do not stop it
matrix:
	@$(MAKE) --no-print-directory report CELLS="$(strip $(base_cells))"

docs:
	@docs/tables.py

report-example:
	@testvm/report.py || [ $$? -eq 1 ]
	@mkdir -p docs/img
	@{ echo "<!-- written by 'make report-example' from the last run's results -->"; \
	   sed 's|](report.png)|](img/report-example.png)|' $(B)/report/report.md; \
	} >docs/report-example.md
	@[ ! -f $(B)/report/report.png ] || cp $(B)/report/report.png docs/img/report-example.png
	@echo "docs/report-example.md, docs/img/report-example.png"

# The 2.6.14 kernels from HISTORICAL_SRC and 2.6.15's from HISTORICAL_2615_SRC
# (historical/build.sh; either or both), booted with the
# same initramfs; the table then holds every cell run so far, so that its
# verdicts and digests sit next to the modern kernels', and so does the report.
historical: EXTRA_ARCHES := i386
historical: $(if $(EXTRA)$(RUN),extra-check) guest
	@$(STAGE) "historical: copy, compat, git am" $(LOG)/historical-tree.log \
		historical/build.sh tree
	@mkdir -p $(B)/results; : >$(B)/results/historical-ptl.txt
	@for k in $$(historical/build.sh kernels); do \
		$(STAGE) "config $$k" $(LOG)/config-$$k.log historical/build.sh config $$k && \
		$(STAGE) "build $$k" $(LOG)/build-$$k.log historical/build.sh build $$k && \
		historical/build.sh ptl $$k >>$(B)/results/historical-ptl.txt || exit 1; \
	done
	@echo "           the lock each kernel's fault path takes (historical/build.sh ptl):"
	@sed 's/^/           /' $(B)/results/historical-ptl.txt
	@rc=0; INITRAMFS=$(BOOT_INITRAMFS) testvm/boot.sh $(HISTORICAL_CELLS) || rc=1; \
	testvm/ktap.py --out $(B)/results $$(for c in $(CELLS); do \
		[ -f $(B)/runs/$$c/console.log ] || [ -f $(B)/runs/$$c/skip ] && echo $$c; done) || rc=1; \
	testvm/report.py || rc=1; exit $$rc

# make torture: mm_torture alone, long, on the debug and debug-pae kernels in each mode
TORTURE_CELLS ?= debug-on-smp4 debug-off-smp4 debug-auto-smp4 pae-on-smp4 pae-off-smp4
TORTURE_OPS   ?= 60000
# SEED: unset, mm_torture uses its own default (DEF_SEED)
# (a 2.6.14 cell's kernel is built by make historical, not here)
torture: $(addprefix kernel-,$(filter-out historical%,$(sort $(foreach c,$(TORTURE_CELLS),$(call cell_kernel,$(c)))))) guest
	@args="ptltest.only=mm_torture $(if $(SEED),ptltest.seed=$(SEED)) ptltest.torture_ops=$(TORTURE_OPS)"; \
	TIMEOUT=3600 APPEND="$$args ptltest.torture_ms=3000000 ptltest.timeout=3300" \
		testvm/boot.sh -o $(B)/torture -l "torture ($(TORTURE_OPS) ops/worker)" -g torture \
		$(TORTURE_CELLS); \
	RUNS=$(B)/torture testvm/ktap.py --out $(B)/torture $(TORTURE_CELLS)

# make quick: the inner loop after a change in the tree's mm/: one kernel
# (the first base's debug-pae: lockdep, THP, split pmd locks), split_ptlocks
# on and off at 2 vCPUs, the fault, THP, hugetlb and uffd tests only; the
# verdict table and the time it took.
comma := ,
QUICK_PRE   := $(call base_pre,$(firstword $(BASES)))
QUICK_CELLS := $(QUICK_PRE)pae-on-smp4 $(QUICK_PRE)pae-off-smp4
QUICK_TESTS = $(subst $(eval) ,$(comma),$(strip $(filter fault_% thp_% hugetlb_% uffd_%,$(GUEST_TESTS))))
quick: kernel-$(QUICK_PRE)debug-pae guest
	@start=$$(date +%s); rc=0; \
	SMP=2 APPEND="ptltest.only=$(QUICK_TESTS)" \
		testvm/boot.sh -o $(B)/quick -l "quick (2 vCPUs)" -g quick $(QUICK_CELLS) || rc=1; \
	RUNS=$(B)/quick testvm/ktap.py --out $(B)/quick $(QUICK_CELLS) || rc=1; \
	echo "quick: $$(($$(date +%s) - start)) s from the kernel build's end"; exit $$rc

# make mutants: each bug of testvm/mutants/ planted in a scratch build of its
# kernel, booted with the tests that must catch it (a kernel build each)
MUTANTS ?= $(filter-out %.patch,$(notdir $(wildcard testvm/mutants/*)))
mutants: tree guest
	@INITRAMFS=$(INITRAMFS) testvm/mutant.sh $(MUTANTS)

# make mm-selftests: the kernel's own mm selftests (testvm/mm-selftests.txt)
# in a cell of each split mode and in the stock cells, then each mode
# against stock (testvm/mm_selftests.py).  make check runs the set "check".
MM_CELLS      ?= debug-on-smp4 debug-off-smp4 debug-auto-smp4 pae-on-smp4 \
		 pae-off-smp4 stock-smp4 stock-pae-smp4
MM_TIMEOUT    ?= 180
mm-selftests: MM_SET := full
mm-selftests: MM_BOOT_TIMEOUT := 3600
mm-selftests-check: MM_SET := check
mm-selftests-check: MM_BOOT_TIMEOUT := 1200
# make check builds no stock kernel of the i386 debug cells: the PAE ones
MM_CHECK_CELLS ?= pae-on-smp4 pae-off-smp4 stock-pae-smp4
mm-selftests-check: MM_CELLS := $(MM_CHECK_CELLS)
mm_kernels = $(addprefix kernel-,$(sort $(foreach c,$(1),$(call cell_kernel,$(c)))))
mm-selftests: $(call mm_kernels,$(MM_CELLS)) guest
mm-selftests-check: $(call mm_kernels,$(MM_CHECK_CELLS)) guest
mm-selftests mm-selftests-check:
	@$(STAGE) "mm selftests: build, initramfs" $(LOG)/guest-mm.log \
		$(MAKE) --no-print-directory guest-mm
	@INITRAMFS=$(INITRAMFS_MM) TIMEOUT=$(MM_BOOT_TIMEOUT) \
	APPEND="ptltest.only=none ptltest.mm=$(MM_SET) ptltest.timeout=$(MM_TIMEOUT)" \
		testvm/boot.sh -o $(B)/mm-selftests -l "mm selftests ($(MM_SET))" -g mm $(MM_CELLS); \
	testvm/mm_selftests.py $(MM_SET) $(MM_CELLS)

# the host tests that need no kernel, in seconds on a fresh checkout
selftest-host: deps
	@testvm/selftest/run.sh --no-kernel

# the host tests boot the first base's kernels
SELFTEST_BASE := $(firstword $(BASES))
selftest: $(addprefix kernel-$(call base_pre,$(SELFTEST_BASE)),perf debug debug-pae stock-debug-pae debug-x86_64) guest
	@SELFTEST_BASE=$(SELFTEST_BASE) testvm/selftest/run.sh

# the kernel's mm selftests run on 6.1's cells (tools/testing/selftests/vm)
MM_CHECK  := $(if $(filter 6.1,$(BASES)),mm-selftests-check)
# (with LINUX_TREE: the boots and the lint of the user's tree alone).  lint
# before the host tests: it configures the directories lint_inject then
# finds ready, and the bases' lints run side by side
check: report lint $(if $(LINUX_TREE),,selftest historical-check $(MM_CHECK))
	@testvm/ktap.py --total $(B)/results/summary.json $(if $(LINUX_TREE),, \
		$(B)/results/selftest.json \
		$(B)/results/historical.json $(B)/results/historical-port.json \
		$(if $(MM_CHECK),$(B)/results/mm-selftests.json))

# per base, then the bases side by side (build/report/bases.md)
bench_out    = $(call base_var,REPORT,$(1))
BENCH_KERNELS := perf debug stock-perf perf-pae debug-pae \
	stock-perf-pae perf-x86_64 stock-perf-x86_64 \
	stock-debug stock-debug-pae debug-x86_64 stock-debug-x86_64
bench: $(addprefix kernel-,$(foreach b,$(BASES),$(addprefix $(call base_pre,$(b)),$(BENCH_KERNELS)))) guest
	@$(foreach b,$(BASES),BENCH_BASE=$(b) testvm/bench.sh &&) true
	@$(if $(word 2,$(BASES)),testvm/bench.py --bases $(B)/report $(foreach b,$(BASES),$(call bench_out,$(b))))

# lint per base, in the debug kernels make check builds: the first base's
# i386 PAE one, the others' x86_64 one (each with its stock kernel)
lint_main    = $(if $(filter $(firstword $(ALL_BASES)),$(1)),debug-pae,debug-x86_64)
lint_kernels = $(addprefix $(call base_pre,$(1)),$(call lint_main,$(1)) stock-$(call lint_main,$(1)))
# make lint links the KUnit=m kernel and builds every architecture's
# directory for each base; make check configures the KUnit=m kernel only
# (the Kconfig rule), and builds the architectures for the first base
LINT_KUNITM_BASES := $(BASES)
LINT_ARCH_BASES   := $(BASES)
check: LINT_KUNITM_BASES :=
check: LINT_ARCH_BASES := $(firstword $(BASES))
# a cell whose last run passed with the same kernel, initramfs and cell is
# not booted again by make check (qemu-run.sh's REUSE); RERUN=1 boots all
check: export REUSE := $(if $(filter 1,$(RERUN)),0,1)
# a cell with CHECK_ONLY (testvm/cell.py) runs only those tests in make check
check: export BOOT_SET := check
define lint_rule
lint-$(1): $(addprefix kernel-,$(call lint_kernels,$(1)))
	@$$(MAKE) --no-print-directory lint-run-$(1)
lint-run-$(1):
	@BASE=$(1) LINT_KERNEL=$(call lint_main,$(1)) LINT_KUNITM=$$(if $$(filter $(1),$$(LINT_KUNITM_BASES)),1,config) \
		LINT_ARCHES=$$(if $$(filter $(1),$$(LINT_ARCH_BASES)),1,0) \
		$$(STAGE) "lint $(1): checkpatch, sparse" $$(LOG)/lint-$(1).log modern/lint.sh
	@grep 'skipped$$$$' $$(LOG)/lint-$(1).log | sed 's/^/           /'
endef
$(foreach b,$(ALL_BASES),$(eval $(call lint_rule,$(b))))
# make lint: the bases side by side, LINT_JOBS at a time (default one per
# core; each is mostly one process at a time: sparse, kconfig, a compile)
LINT_JOBS ?= $(shell nproc)
lint: $(addprefix kernel-,$(foreach b,$(BASES),$(call lint_kernels,$(b))))
	@$(MAKE) --no-print-directory -j$(LINT_JOBS) $(addprefix lint-run-,$(BASES)) \
		LINT_KUNITM_BASES="$(LINT_KUNITM_BASES)" LINT_ARCH_BASES="$(LINT_ARCH_BASES)"

bisect-check: tree
	@for b in $(BASES); do \
		BASE=$$b $(STAGE) "bisect-check $$b: build each patch" $(LOG)/bisect-check-$$b.log \
			modern/bisect-check.sh || { cat $(LOG)/bisect-check-$$b.log; exit 1; }; \
		cat $(LOG)/bisect-check-$$b.log; \
	done

SEEDS ?= ../shared/seeds

historical-check:
	@mkdir -p $(B)/results
	@historical/check.py --seeds $(SEEDS) --summary $(B)/results/historical.json
	@historical/check.py --port --summary $(B)/results/historical-port.json

historical-series:
	historical/mkseries.py $(SEEDS) historical/patches

export:
	@for b in $(BASES); do BASE=$$b modern/tree.sh export || exit 1; done

clean:
	rm -rf $(B)
