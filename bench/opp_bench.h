/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opp_bench: what its files share. opp_bench_main.c drives the runs and
 * holds our library's side; opp_bench_mainline.c holds mainline's side
 * (they are apart because <linux/pm_opp.h> and our opp.h name some things
 * alike); opp_bench_corpus.c reads the kernel tree's tables in both;
 * opp_bench_stats.c does the arithmetic of their figures.
 */
#ifndef _OPP_BENCH_H
#define _OPP_BENCH_H

#include <linux/types.h>

struct device;

/* Query frequencies per loop; a power of two, indexed with a mask. */
#define BENCH_Q		256
#define BENCH_QMASK	(BENCH_Q - 1)

/* Runs per figure, at most. */
#define BENCH_MAX_RUNS	31

/* The two libraries, in the order of each pair of figures. */
enum bench_impl { OURS, MAINLINE, NR_IMPL };

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

/*
 * The timed loops, defined once for both sides: each side's loop is this
 * one around its own library's calls, so that the figures of a pair
 * differ only in what the library does. The calls stay direct (through a
 * pointer they would be timed with the loop) and an inline one stays
 * inline, hence a macro: the two sides' headers cannot meet in one file.
 * The sums keep the compiler from dropping the calls.
 */

/* side_lookups(): @find(op, dev, freq), the rate found or 0. */
#define DEFINE_BENCH_LOOKUPS(side, find)				\
noinline unsigned long							\
side##_lookups(const struct bench_ctx *c, unsigned long iters)		\
{									\
	struct device *dev = c->dev;					\
	const unsigned long *q = c->q;					\
	enum bench_op op = c->op;					\
	unsigned long i, sum = 0;					\
									\
	for (i = 0; i < iters; i++)					\
		sum += find(op, dev, q[i & BENCH_QMASK]);		\
	return sum;							\
}

/*
 * side_updates(): disable+enable, or add+remove, of c->freq, each call
 * returning 0 or an error. cond_resched(), so that a long loop lets RCU
 * end its grace periods (the kernel is not preemptible) and the memory
 * our copy-on-write frees with kfree_rcu() does not pile up.
 */
#define DEFINE_BENCH_UPDATES(side, disable, enable, add, remove)	\
noinline unsigned long							\
side##_updates(const struct bench_ctx *c, unsigned long iters)		\
{									\
	struct device *dev = c->dev;					\
	unsigned long i, f = c->freq, err = 0;				\
	bool toggle = c->op == OP_TOGGLE;				\
									\
	for (i = 0; i < iters; i++) {					\
		if (toggle) {						\
			err |= disable(dev, f);				\
			err |= enable(dev, f);				\
		} else {						\
			err |= add(dev, f, 900000);			\
			err |= remove(dev, f);				\
		}							\
		cond_resched();						\
	}								\
	return err;							\
}

/* side_set_rates(): @set_rate(dev, rate) between c->priv's two rates. */
#define DEFINE_BENCH_SET_RATES(side, set_rate)				\
noinline unsigned long							\
side##_set_rates(const struct bench_ctx *c, unsigned long iters)	\
{									\
	const unsigned long *rate = c->priv;				\
	unsigned long i, err = 0;					\
									\
	for (i = 0; i < iters; i++) {					\
		err |= set_rate(c->dev, rate[i & 1]) != 0;		\
		cond_resched();						\
	}								\
	return err;							\
}

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
int mainline_of_add_table(struct device *dev);
void mainline_of_remove_table(struct device *dev);
int mainline_opp_count(struct device *dev);
unsigned long mainline_find_ceil_addr(struct device *dev, unsigned long *freq);

/* opp_bench_stats.c: the figures' arithmetic, below the other files. */
u64 bench_median(u64 *v, unsigned int n);
u64 bench_min(u64 *v, unsigned int n);
size_t bench_alloc_bytes(unsigned long *p, unsigned int n);

/*
 * The corpus rows (opp_bench_corpus.c): @tables of the corpus's @entries
 * read by both libraries, the median time each took to read them all;
 * of those, the @walked tables whose OPPs both find by rate, holding
 * @opps OPPs in allocations of @bytes (0 under KASAN).
 */
struct bench_corpus {
	unsigned int entries;
	unsigned int tables;
	unsigned int walked;
	unsigned int opps;
	u64 read_ns[NR_IMPL];
	u64 bytes[NR_IMPL];
};

int bench_corpus(struct device **devs, unsigned int ndev, unsigned int runs,
		 struct bench_corpus *c);

#endif /* _OPP_BENCH_H */
