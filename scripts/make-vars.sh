#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest's facts for the Makefile, one NAME=VALUE per line, as
# scripts/common.sh computes them from KVER, TIER (or ARCH) and FLAVOUR:
# common.sh is their one owner, and the Makefile and every script read
# the same answer.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

echo "TIER=$TIER"
echo "FLAVOUR=$FLAVOUR"
echo "KDIR=$(kernel_build)"
echo "MODDIR=$(module_dir)"
echo "KBUILD_ARCH=$ARCH"
echo "KBUILD_CROSS_COMPILE=$CROSS_COMPILE"
