# SPDX-License-Identifier: GPL-2.0
#
# The guest side: static programs built with the kernel tree's nolibc,
# packed with the tree's usr/gen_init_cpio into one initramfs per guest
# architecture (GUEST_ARCH): i386's in $(B)/guest and $(B)/initramfs.cpio,
# checked for system calls newer than 2.6.14, boots every i386 kernel, 2005's
# too; x86_64's, from the same sources, in $(B)/guest-x86_64 and
# $(B)/initramfs-x86_64.cpio.  Included by the top Makefile, which builds the
# x86_64 one with a second make, GUEST_ARCH=x86_64.

GUEST_ARCHES := i386 x86_64
GUEST_ARCH ?= i386
$(if $(filter $(GUEST_ARCH),$(GUEST_ARCHES)),,$(error GUEST_ARCH=$(GUEST_ARCH): one of $(GUEST_ARCHES)))
# the arch's suffix: none for i386, which came first
guest_sfx  = $(if $(filter-out i386,$(1)),-$(1))
GUEST     := $(B)/guest$(call guest_sfx,$(GUEST_ARCH))
SYSROOT   := $(GUEST)/sysroot
UAPI      := $(GUEST)/uapi
# testvm/guest/tests/: the tests, run in this order; testvm/guest/: the
# runner (init), idle (a guest that never ends, for the host tests) and the
# benchmarks (bench_*, run only when asked for).
GUEST_TEST_SRC := $(sort $(wildcard testvm/guest/tests/*.c))
GUEST_SRC := $(GUEST_TEST_SRC) $(sort $(wildcard testvm/guest/*.c))
GUEST_BIN := $(addprefix $(GUEST)/bin/,$(notdir $(GUEST_SRC:.c=)))
GUEST_HDR := testvm/guest/harness.h $(wildcard testvm/guest/harness/*.h)
FIRST_TESTS := ptlock_mode
GUEST_TESTS := $(FIRST_TESTS) $(filter-out $(FIRST_TESTS),$(notdir $(GUEST_TEST_SRC:.c=)))
$(if $(filter init idle bench_%,$(GUEST_TESTS)),$(error testvm/guest/tests/: \
	$(filter init idle bench_%,$(GUEST_TESTS)) is the name of a program in testvm/guest/: rename the test))
INITRAMFS := $(B)/initramfs$(call guest_sfx,$(GUEST_ARCH)).cpio
INITRAMFS_X86_64 := $(B)/initramfs$(call guest_sfx,x86_64).cpio
# the runner's table of tests has MAX_TESTS rows (init.c)
GUEST_MAX_TESTS := $(shell sed -n 's/^\#define MAX_TESTS[[:space:]]*//p' testvm/guest/init.c)
$(if $(word $(shell echo $$(($(GUEST_MAX_TESTS) + 1))),$(GUEST_TESTS)),$(error \
	$(words $(GUEST_TESTS)) guest tests, more than MAX_TESTS=$(GUEST_MAX_TESTS) in testvm/guest/init.c: raise it))

GUEST_CC     := gcc
GUEST_M      := $(if $(filter i386,$(GUEST_ARCH)),-m32 -march=i686,-m64)
# nolibc 6.1 declares size_t as unsigned long on i386, gcc expects unsigned
# int for the builtins: that mismatch is nolibc's and harmless.
GUEST_CFLAGS := $(GUEST_M) -O2 -Wall -Wextra -Wno-unused-parameter \
	-static -nostdlib -nostdinc -fno-pie -no-pie -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-ident \
	-Wno-builtin-declaration-mismatch \
	-isystem $(shell $(GUEST_CC) $(firstword $(GUEST_M)) -print-file-name=include) \
	-I$(SYSROOT)/include -I$(UAPI)/usr/include -Itestvm/guest

# which tree the headers and gen_init_cpio come from: rewritten (and so newer
# than what was made from another tree) only when TREE changes
$(GUEST)/.tree: FORCE
	@mkdir -p $(dir $@)
	@echo "$(TREE)" | cmp -s - $@ || echo "$(TREE)" >$@

# nolibc's headers and the tree's UAPI headers of the arch (both out of tree).
$(GUEST)/.headers: $(TREE_STAMP) $(GUEST)/.tree
	rm -rf $(SYSROOT) $(UAPI)
	$(MAKE) -C $(TREE)/tools/include/nolibc ARCH=$(GUEST_ARCH) OUTPUT=$(GUEST)/ headers
	$(MAKE) -C $(TREE) O=$(UAPI) ARCH=$(GUEST_ARCH) headers
	touch $@

# klog-bad.txt's lines as C arrays: klog_bad[] the bad substrings,
# klog_not_bad[] those of its '!' lines
c_strings = sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/\t"&",/'
$(GUEST)/klog_bad.h: testvm/klog-bad.txt
	@mkdir -p $(dir $@)
	{ echo "static const char *const klog_bad[] = {"; \
	  grep -v '^[#!]' $< | $(c_strings); echo "\tNULL"; echo "};"; \
	  echo "static const char *const klog_not_bad[] = {"; \
	  sed -n 's/^!//p' $< | $(c_strings); echo "\tNULL"; echo "};"; } >$@

define guest_prog
$(GUEST)/bin/%: $(1)/%.c $(GUEST_HDR) $(GUEST)/klog_bad.h $(GUEST)/.headers
	@mkdir -p $$(dir $$@)
	$(GUEST_CC) $(GUEST_CFLAGS) -I$(GUEST) -o $$@ $$< -lgcc
endef
$(eval $(call guest_prog,testvm/guest/tests))
$(eval $(call guest_prog,testvm/guest))

# a test built from another's source
$(GUEST)/bin/thp_fork_cow: testvm/guest/tests/fault_fork_cow.c

$(GUEST)/syscalls.txt: $(GUEST_BIN) testvm/syscalls.sh
	testvm/syscalls.sh $(UAPI)/usr/include/asm/unistd_32.h $(GUEST_BIN) >$@.tmp
	mv $@.tmp $@

$(GUEST)/gen_init_cpio: $(TREE_STAMP) $(GUEST)/.tree
	@mkdir -p $(dir $@)
	$(HOSTCC) -O2 -o $@ $(TREE)/usr/gen_init_cpio.c

$(GUEST)/tests: Makefile testvm/guest.mk $(GUEST_SRC)
	@mkdir -p $(dir $@)
	printf '%s\n' $(GUEST_TESTS) >$@

# i386's programs must also run on 2.6.14: its initramfs waits for the check
$(INITRAMFS): $(if $(filter i386,$(GUEST_ARCH)),$(GUEST)/syscalls.txt,$(GUEST_BIN)) \
		$(GUEST)/gen_init_cpio $(GUEST)/tests
	{ echo "dir /dev 0755 0 0"; \
	  echo "nod /dev/console 0600 0 0 c 5 1"; \
	  echo "dir /bin 0755 0 0"; \
	  echo "dir /tmp 1777 0 0"; \
	  echo "dir /etc 0755 0 0"; \
	  echo "file /etc/tests $(GUEST)/tests 0644 0 0"; \
	  echo "file /init $(GUEST)/bin/init 0755 0 0"; \
	  for b in $(filter-out %/init,$(GUEST_BIN)); do \
	    echo "file /bin/$${b##*/} $$b 0755 0 0"; done; \
	} >$(GUEST)/initramfs.list
	$(GUEST)/gen_init_cpio $(GUEST)/initramfs.list >$@.tmp
	mv $@.tmp $@

# Bring your own test: EXTRA= a static program, i386 or x86_64, or a
# directory of them (and of its i386/ and x86_64/), RUN='PROG ARGS' the
# command line of one (docs/using.md).  A second initramfs per arch: ours
# plus that arch's /extra/PROG and /etc/extra (the command lines, which init
# runs after our tests as extra.PROG).  testvm/extra.py checks the programs
# first, and that each arch of the cells to boot (EXTRA_ARCHES) has some;
# it runs every time: EXTRA's files may have changed.
INITRAMFS_EXTRA := $(GUEST)/initramfs-extra.cpio
BOOT_INITRAMFS  := $(if $(EXTRA),$(INITRAMFS_EXTRA),$(INITRAMFS))
BOOT_INITRAMFS_X86_64 := $(if $(EXTRA),$(B)/guest$(call guest_sfx,x86_64)/initramfs-extra.cpio,$(INITRAMFS_X86_64))
EXTRA_ARCHES ?= $(sort $(foreach c,$(CELLS),$(call cell_arch,$(c))))

extra-check:
	@testvm/extra.py check $(EXTRA_ARCHES)

$(INITRAMFS_EXTRA): $(INITRAMFS) extra-check
	testvm/extra.py cpio $(GUEST_ARCH) $(GUEST)/initramfs.list $(GUEST)/gen_init_cpio $@

# what the guest programs are compiled with, for your own: make -s guest-cflags
guest-cflags:
	@echo $(GUEST_CFLAGS)

guest-build: $(INITRAMFS) $(if $(EXTRA),$(INITRAMFS_EXTRA))

# The kernel's own mm selftests (make mm-selftests): built static for i386
# from the tree's tools/testing/selftests/vm with its own Makefile, into a
# third initramfs: ours plus /kselftest/PROG for each program
# testvm/mm-selftests.txt runs and /etc/mm-selftests (that list without its
# comments).  Programs the tree cannot build here (the list says which) are
# left out of the make with -k; one the list runs must have been built.
KSFT      := $(GUEST)/kselftest
MM_LIST   := testvm/mm-selftests.txt
INITRAMFS_MM := $(GUEST)/initramfs-mm.cpio
# the programs of a list: the first word of COMMAND that is not hugepages=N
MM_PROGS  := awk '$$1 != "skip" { p = $$3; if (p ~ /^hugepages=/) p = $$4; print p }'

$(KSFT)/.built: $(GUEST)/.headers
	rm -rf $(KSFT)
	mkdir -p $(KSFT)
	$(MAKE) -k -C $(TREE)/tools/testing/selftests/vm \
		MACHINE=$(if $(filter i386,$(GUEST_ARCH)),i686,x86_64) \
		CC="$(GUEST_CC) $(firstword $(GUEST_M))" LDFLAGS=-static OUTPUT=$(KSFT) \
		KHDR_INCLUDES="-isystem $(UAPI)/usr/include" || true
	touch $@

$(GUEST)/mm-selftests: $(MM_LIST) $(KSFT)/.built
	sed -e '/^#/d' -e '/^[[:space:]]*$$/d' -e 's/[[:space:]]\+/ /g' $< >$@.tmp
	$(MM_PROGS) $@.tmp | sort -u | while read -r p; do \
		[ -x $(KSFT)/$$p ] || { echo "mm-selftests: $$p is listed in $(MM_LIST)" \
			"but did not build (the make above says why)" >&2; exit 1; }; \
	done
	mv $@.tmp $@

$(INITRAMFS_MM): $(INITRAMFS) $(GUEST)/mm-selftests
	{ cat $(GUEST)/initramfs.list; \
	  echo "dir /kselftest 0755 0 0"; \
	  echo "file /etc/mm-selftests $(GUEST)/mm-selftests 0644 0 0"; \
	  $(MM_PROGS) $(GUEST)/mm-selftests | sort -u | \
	    sed 's|.*|file /kselftest/& $(KSFT)/& 0755 0 0|'; \
	} >$(GUEST)/initramfs-mm.list
	$(GUEST)/gen_init_cpio $(GUEST)/initramfs-mm.list >$@.tmp
	mv $@.tmp $@

guest-mm: $(INITRAMFS_MM)

FORCE:
.PHONY: FORCE
