# SPDX-License-Identifier: GPL-2.0
# The harness's defaults, each set here and nowhere else; sourced (never
# run) by scripts/common.sh, hence by every script, and by .ci/run; the
# Makefile reads them through scripts/make-vars.sh. What the environment
# or make's command line gives wins.
# shellcheck shell=bash

# Where everything that is not source lives: the unpacked kernel trees, the
# kernel builds (one directory per version and flavour), the guest's
# busybox, the module builds for flavours other than debug, the runs.
OPP_CACHE=${OPP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opp}
# Where module builds for other kernels than the ARM debug one go; two
# checkouts building at once each need their own.
OPP_MODULES=${OPP_MODULES:-$OPP_CACHE/modules}
# Where guest runs leave their logs (console, report channel).
OPP_RUNS=${OPP_RUNS:-$OPP_CACHE/runs}
# The Debian linux-source tree built and booted.
KVER=${KVER:-6.1}
