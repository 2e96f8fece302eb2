// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild links a module of several objects only under a name none of them
 * has: the core keeps its name, opp.c, and is compiled as opp_core.o
 * through this file. The compiler's messages name opp.c.
 */
#include "opp.c"
