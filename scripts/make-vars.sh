#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness's defaults and the guest's facts for the Makefile, one
# NAME=VALUE per line: the defaults as scripts/defaults.sh sets them, the
# facts as scripts/common.sh computes them from KVER, TIER (or ARCH) and
# FLAVOUR. Those two are their owners; the Makefile and every script read
# the same answer.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

echo "KVER=$KVER"
echo "OPP_CACHE=$OPP_CACHE"
echo "OPP_MODULES=$OPP_MODULES"
echo "TIER=$TIER"
echo "FLAVOUR=$FLAVOUR"
echo "KDIR=$(kernel_build)"
echo "MODDIR=$(module_dir)"
echo "KBUILD_ARCH=$ARCH"
echo "KBUILD_CROSS_COMPILE=$CROSS_COMPILE"
