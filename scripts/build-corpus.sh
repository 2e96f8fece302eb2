#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make corpus: build the OPP tables of every arm and arm64 board of
# $KVER's tree (scripts/opp-corpus.py) into the cache, where the
# opp_of_corpus suite's boots take them from; nothing when they are there.
# After the kernel (its dtc compiles the boards). .ci/run builds the
# corpora beside the first check, so that no check waits for one.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

corpus_build
log "OPP corpus of $KVER: $(head -n 1 "$(corpus_dir)/corpus.txt")"
