# SPDX-License-Identifier: GPL-2.0
# The OPP library as an out-of-tree module. Kbuild lists the objects; this
# file only drives the builds and the QEMU harness.
#
#   make check            lint, build everything, boot the debug guest, test;
#                         SEED=N replays a run's pseudo-random choices
#   make lint             the static checks alone (scripts/lint.sh)
#   make run              boot the guest with the library and the demo
#   make shell            the same, with an interactive guest shell
#   make modules KDIR=... build against another kernel tree (e.g. a board's)
#   make install          install opp.ko under $(INSTALL_MOD_PATH)/lib/modules
#                         and run depmod; OPP_INSTALL=all adds tests, samples
#   make bench            boot the bench kernel, ours against the kernel's
#                         OPP core; RECORD=1 also updates Documentation/bench
#   make quick            the fast loop: every KUnit suite on User-Mode Linux
#
# KVER picks the Debian linux-source tree, FLAVOUR the kernel
# config (debug or bench; kcsan on arm64), TIER the guest: arm (QEMU
# vexpress-a9, default), arm64 (QEMU virt with the KCSAN kernel: make check
# ARCH=arm64, make run ARCH=arm64) or uml (User-Mode Linux on the x86_64
# host: make bench TIER=uml). Kernel builds live in OPP_CACHE, never here.
# The defaults of KVER, OPP_CACHE and OPP_MODULES are scripts/defaults.sh's.

# The guest (TIER: arm, arm64 or uml; without one, kbuild's ARCH picks it:
# make check ARCH=arm64 is the arm64 KCSAN guest), its FLAVOUR, its kernel
# build (KDIR) and where its modules are built (MODDIR: here for the ARM
# debug kernel, a copy of the sources of their own for any other, so that
# the objects here stay those of make check): scripts/common.sh computes
# them, for the scripts and for this file alike (scripts/make-vars.sh).
# Given on the command line, ARCH also reaches every sub-make and kbuild:
# KBUILD_ARGS names the right one for the tier. With a KDIR of its own
# (make modules KDIR=...), the build is that tree's, for its own ARCH.
OPP_FACTS := $(shell KVER='$(KVER)' TIER='$(TIER)' ARCH='$(ARCH)' \
	FLAVOUR='$(FLAVOUR)' OPP_CACHE='$(OPP_CACHE)' \
	OPP_MODULES='$(OPP_MODULES)' scripts/make-vars.sh)
ifeq ($(filter TIER=%,$(OPP_FACTS)),)
$(error no guest for TIER='$(TIER)' ARCH='$(ARCH)' (arm, arm64 or uml))
endif
ALWAYS_FACTS := KVER=% OPP_CACHE=% OPP_MODULES=% TIER=% FLAVOUR=%
$(foreach fact,$(filter $(ALWAYS_FACTS),$(OPP_FACTS)),$(eval $(fact)))
ifeq ($(KDIR),)
$(foreach fact,$(filter-out $(ALWAYS_FACTS),$(OPP_FACTS)),$(eval $(fact)))
KBUILD_ARGS := ARCH=$(KBUILD_ARCH) CROSS_COMPILE=$(KBUILD_CROSS_COMPILE)
ifeq ($(TIER),uml)
KBUILD_ARGS += SUBARCH=x86_64
endif
KERNEL_DEP := kernel
endif
export KVER FLAVOUR TIER OPP_CACHE OPP_MODULES
MODDIR ?= $(CURDIR)
# The sources only: an in-tree build's kbuild outputs (modpost's *.mod.c,
# in the format of the kernel it ran for) must not reach another
# kernel's copy.
MOD_SOURCES := $(filter-out %.mod.c,$(wildcard Kbuild *.[ch] */Kbuild */*.[ch]))

all: modules

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/build-kernel.sh >/dev/null

# The kernel tree's OPP tables for the opp_of_corpus suite, built once per
# tree (make check builds them when it needs them).
corpus: kernel
	@scripts/build-corpus.sh

modules: $(KERNEL_DEP)
ifneq ($(MODDIR),$(CURDIR))
	@mkdir -p $(MODDIR)
	@# Copy what differs, with a fresh mtime: kbuild then rebuilds exactly
	@# that, even if the copy's objects are newer than the source's date.
	@for f in $(MOD_SOURCES); do \
		cmp -s $$f $(MODDIR)/$$f || cp --parents $$f $(MODDIR)/; \
	done
endif
	$(MAKE) -C $(KDIR) M=$(MODDIR) $(KBUILD_ARGS) W=1 modules

# The kernel's modules_install installs what the last build listed in
# modules.order, so the build and the install take the same selection.
ifneq ($(OPP_INSTALL),all)
INSTALL_ARGS := OPP_LIBRARY_ONLY=y
endif

install: $(KERNEL_DEP)
ifeq ($(KERNEL_DEP)$(INSTALL_MOD_PATH),kernel)
	$(error the guest kernel's modules do not belong in this machine's \
		/lib/modules: set INSTALL_MOD_PATH (a board's root, a staging dir))
endif
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_ARGS) $(INSTALL_ARGS) modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_ARGS) $(INSTALL_ARGS) \
		modules_install

check:
	@scripts/check.sh $(if $(SEED),--seed $(SEED))

# The static checks need a configured, prepared tree, not a built kernel.
lint: deps
	@OPP_KERNEL=prepare scripts/build-kernel.sh >/dev/null
	@scripts/lint.sh

run:
	@scripts/run.sh $(if $(INTERACTIVE),--mode shell,--mode demo)

shell:
	@scripts/run.sh --mode shell

bench:
	@scripts/bench.sh $(if $(RECORD),--record)

quick:
	@scripts/quick.sh

# kbuild knows what it wrote here; it needs the kernel tree the modules
# were built against (without one, nothing was built here either).
clean:
ifneq ($(wildcard $(KDIR)/Makefile),)
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_ARGS) clean
endif
	rm -rf $(OPP_MODULES)

.PHONY: all deps kernel corpus modules install check lint run shell bench quick clean
