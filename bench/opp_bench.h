/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opp_bench: what its two halves share. opp_bench_main.c drives the runs
 * and holds our library's side; opp_bench_mainline.c holds mainline's
 * side. They are apart because <linux/pm_opp.h> and our opp.h name some
 * things alike.
 */
#ifndef _OPP_BENCH_H
#define _OPP_BENCH_H

#include <linux/types.h>

struct device;

/* Query frequencies per loop; a power of two, indexed with a mask. */
#define BENCH_Q		256
#define BENCH_QMASK	(BENCH_Q - 1)

/* What is timed: the lookups, then the update pairs. */
enum bench_op {
	OP_CEIL, OP_FLOOR, OP_EXACT, NR_LOOKUPS,
	OP_TOGGLE = NR_LOOKUPS,	/* disable+enable */
	OP_ADDRM,		/* add+remove */
	NR_OPS,
};

/* What a timed loop works on. */
struct bench_ctx {
	struct device *dev;
	enum bench_op op;
	const unsigned long *q;	/* BENCH_Q query frequencies */
	unsigned long freq;	/* the frequency an update loop works on */
	void *priv;		/* what a breakdown loop searches */
	unsigned int n;		/* its size */
};

/* A timed loop of @iters iterations; lookups return a sum, updates 0. */
typedef unsigned long (*bench_fn)(const struct bench_ctx *c,
				  unsigned long iters);

/* Mainline's side: the same loops and helpers, on dev_pm_opp_*(). */
unsigned long mainline_lookups(const struct bench_ctx *c, unsigned long iters);
unsigned long mainline_updates(const struct bench_ctx *c, unsigned long iters);
int mainline_add(struct device *dev, unsigned long freq, unsigned long u_volt);
void mainline_remove_table(struct device *dev);
int mainline_set_available(struct device *dev, unsigned long freq, bool on);
unsigned long mainline_find(enum bench_op op, struct device *dev, unsigned long f);
unsigned long mainline_opp_addr(struct device *dev, unsigned long freq);
unsigned long mainline_set_rates(const struct bench_ctx *c,
				 unsigned long iters);
int mainline_set_config(struct device *dev);
void mainline_clear_config(int token);

#endif /* _OPP_BENCH_H */
