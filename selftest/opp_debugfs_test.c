// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's debugfs view (opp_debugfs.c): suite
 * opp_debugfs.
 *
 * The view is read as a reader reads it, from the test: each file of
 * /sys/kernel/debug/opp_library/ opened through the VFS and rendered
 * line by line (opp_test_fixture_debugfs_lines(): kernel_read() refuses a debugfs
 * file). Its three files must follow every change of the tables: tables
 * (a line per OPP: device, rate, voltage, availability, under a header),
 * opps (a line per table, then one per OPP with everything it holds) and
 * sharers (a line per table that devices share: its own device first,
 * then each sharer). Adds, disables, enables and removals show at once,
 * a removed table leaves no line, and one device's lines never carry
 * another's.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/string.h>

#include "../opp.h"
#include "opp_test_helpers.h"

#define DBG_DIR		"/sys/kernel/debug/opp_library/"
#define DBG_TABLES	DBG_DIR "tables"
#define DBG_OPPS	DBG_DIR "opps"
#define DBG_SHARERS	DBG_DIR "sharers"
#define DBG_MAX_LINES	16
#define DBG_LINE	192

/* The lines of one file that begin with one device's name. */
struct dbg_lines {
	const char *dev;
	bool header;		/* tables: its header line came first */
	unsigned int seen;	/* lines of the file, any device's */
	unsigned int n;
	char line[DBG_MAX_LINES][DBG_LINE];
};

static int dbg_collect(char *line, void *arg)
{
	struct dbg_lines *d = arg;
	size_t len = strlen(d->dev);
	char w[4][16];

	if (!d->seen++ && sscanf(line, "%15s %15s %15s %15s", w[0], w[1], w[2],
				 w[3]) == 4 && !strcmp(w[0], "device") &&
	    !strcmp(w[1], "rate_hz") && !strcmp(w[2], "u_volt") &&
	    !strcmp(w[3], "available"))
		d->header = true;
	if (strncmp(line, d->dev, len) || line[len] != ' ')
		return 0;
	if (d->n == DBG_MAX_LINES)
		return -E2BIG;
	strscpy(d->line[d->n++], line, DBG_LINE);
	return 0;
}

/* @dev's lines of the view's @file into a new @d (on the heap). */
static struct dbg_lines *dbg_read(struct kunit *test, const char *file,
				  struct device *dev)
{
	struct dbg_lines *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->dev = dev_name(dev);
	KUNIT_ASSERT_EQ_MSG(test, opp_test_fixture_debugfs_lines(file, dbg_collect, d), 0,
			    "reading %s", file);
	return d;
}

/* One OPP of the tables file. */
struct dbg_opp {
	unsigned long rate;
	unsigned long u_volt;
	bool available;
};

/* Line @i of @d, a line of the tables file, as an OPP. */
static struct dbg_opp dbg_tables_opp(struct kunit *test,
				     const struct dbg_lines *d, unsigned int i)
{
	struct dbg_opp o = { };
	char avail[4];
	int n;

	KUNIT_ASSERT_LT(test, i, d->n);
	n = sscanf(d->line[i], "%*s %lu %lu %3s", &o.rate, &o.u_volt, avail);
	KUNIT_ASSERT_EQ_MSG(test, n, 3, "'%s'", d->line[i]);
	KUNIT_ASSERT_TRUE_MSG(test, !strcmp(avail, "yes") || !strcmp(avail, "no"),
			      "'%s'", d->line[i]);
	o.available = !strcmp(avail, "yes");
	return o;
}

/* @dev's lines of the tables file are the @n OPPs of @want, in order. */
static void dbg_expect_tables(struct kunit *test, struct device *dev,
			      const struct dbg_opp *want, unsigned int n,
			      const char *what)
{
	struct dbg_lines *d = dbg_read(test, DBG_TABLES, dev);
	struct dbg_opp o;
	unsigned int i;

	KUNIT_EXPECT_TRUE_MSG(test, d->header, "%s: no header line", what);
	KUNIT_ASSERT_EQ_MSG(test, d->n, n, "%s: lines of %s", what,
			    dev_name(dev));
	for (i = 0; i < n; i++) {
		o = dbg_tables_opp(test, d, i);
		KUNIT_EXPECT_EQ_MSG(test, o.rate, want[i].rate, "%s: line %u",
				    what, i);
		KUNIT_EXPECT_EQ_MSG(test, o.u_volt, want[i].u_volt,
				    "%s: line %u", what, i);
		KUNIT_EXPECT_EQ_MSG(test, o.available, want[i].available,
				    "%s: line %u", what, i);
	}
}

/* opp_test_fixture_add_four()'s OPPs: 200, 400, 600 and 800 MHz. */
static struct dbg_opp dbg_four(unsigned int i, bool available)
{
	unsigned long rate = (i + 1) * 200 * HZ_PER_MHZ;

	return (struct dbg_opp){ rate, opp_test_fixture_volt_of(rate), available };
}

/* The tables file follows each add, disable, enable and removal. */
static void opp_debugfs_tables_follow(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct dbg_opp want[4];
	unsigned int i;

	dbg_expect_tables(test, ctx->dev, NULL, 0, "no table");
	for (i = 0; i < 4; i++)
		want[i] = dbg_four(i, true);
	opp_test_fixture_add_four(test, ctx->dev);
	dbg_expect_tables(test, ctx->dev, want, 4, "four added");

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, want[1].rate), 0);
	want[1].available = false;
	dbg_expect_tables(test, ctx->dev, want, 4, "400 MHz disabled");
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, want[1].rate), 0);
	want[1].available = true;
	dbg_expect_tables(test, ctx->dev, want, 4, "400 MHz enabled");

	/* A new lowest OPP comes first: the lines are in rate order. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, 850000), 0);
	{
		struct dbg_opp five[5] = {
			{ 100 * HZ_PER_MHZ, 850000, true },
			want[0], want[1], want[2], want[3],
		};

		dbg_expect_tables(test, ctx->dev, five, 5, "100 MHz added");
	}
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 100 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, want[2].rate), 0);
	want[2] = want[3];
	dbg_expect_tables(test, ctx->dev, want, 3, "two removed");

	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	dbg_expect_tables(test, ctx->dev, NULL, 0, "table removed");
}

/* Two tables: each device's lines are its own, and outlive the other's. */
static void opp_debugfs_tables_apart(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct dbg_opp mine[4], other[] = {
		{ 300 * HZ_PER_MHZ, 900000, true },
	};
	unsigned int i;

	for (i = 0; i < 4; i++)
		mine[i] = dbg_four(i, true);
	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->other, other[0].rate,
				      other[0].u_volt), 0);
	dbg_expect_tables(test, ctx->dev, mine, 4, "both");
	dbg_expect_tables(test, ctx->other, other, 1, "both");
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->other), 0);
	dbg_expect_tables(test, ctx->other, NULL, 0, "the other removed");
	dbg_expect_tables(test, ctx->dev, mine, 4, "the other removed");
}

/* One table's facts in the opps file. */
struct dbg_table {
	unsigned int opps;
	unsigned long latency_ns;
	unsigned int paths;
	char shared[4];
	char genpd[4];
};

/* One OPP's facts in the opps file. */
struct dbg_opp_line {
	unsigned long hz;
	unsigned int level;
	unsigned long uv[3];
	const char *available;	/* "available=yes" or "=no" in the line */
};

/* @dev's lines of the opps file: its table's line, then each OPP's. */
static void dbg_opps_table(struct kunit *test, const struct dbg_lines *d,
			   struct dbg_table *t)
{
	int n;

	KUNIT_ASSERT_GE(test, d->n, 1U);
	n = sscanf(d->line[0],
		   "%*s table opps=%u latency_ns=%lu paths=%u shared=%3s genpd=%3s",
		   &t->opps, &t->latency_ns, &t->paths, t->shared, t->genpd);
	KUNIT_ASSERT_EQ_MSG(test, n, 5, "'%s'", d->line[0]);
}

static void dbg_opps_opp(struct kunit *test, const struct dbg_lines *d,
			 unsigned int i, struct dbg_opp_line *o)
{
	int n;

	KUNIT_ASSERT_LT(test, i, d->n);
	n = sscanf(d->line[i], "%*s opp hz=%lu level=%u uV=%lu/%lu/%lu", &o->hz,
		   &o->level, &o->uv[0], &o->uv[1], &o->uv[2]);
	KUNIT_ASSERT_EQ_MSG(test, n, 5, "'%s'", d->line[i]);
	o->available = strstr(d->line[i], " available=");
	KUNIT_ASSERT_NOT_NULL_MSG(test, o->available, "'%s'", d->line[i]);
	o->available += strlen(" available=");
}

/* The opps file: the table's count and each OPP's values follow. */
static void opp_debugfs_opps_follow(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct dbg_opp_line o;
	struct dbg_lines *d;
	struct dbg_table t;
	struct dbg_opp f;
	unsigned int i;

	d = dbg_read(test, DBG_OPPS, ctx->dev);
	KUNIT_EXPECT_EQ(test, d->n, 0U);

	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, dbg_four(3, false).rate), 0);
	d = dbg_read(test, DBG_OPPS, ctx->dev);
	KUNIT_ASSERT_EQ(test, d->n, 5U);
	dbg_opps_table(test, d, &t);
	/* Every OPP, the disabled one too; added, not read: no node. */
	KUNIT_EXPECT_EQ(test, t.opps, 4U);
	KUNIT_EXPECT_EQ(test, t.paths, 0U);
	KUNIT_EXPECT_STREQ(test, t.shared, "no");
	KUNIT_EXPECT_STREQ(test, t.genpd, "no");
	for (i = 0; i < 4; i++) {
		f = dbg_four(i, i != 3);
		dbg_opps_opp(test, d, i + 1, &o);
		KUNIT_EXPECT_EQ_MSG(test, o.hz, f.rate, "OPP %u", i);
		KUNIT_EXPECT_EQ_MSG(test, o.uv[0], f.u_volt, "OPP %u", i);
		KUNIT_EXPECT_EQ_MSG(test, o.uv[1], f.u_volt, "OPP %u", i);
		KUNIT_EXPECT_EQ_MSG(test, o.uv[2], f.u_volt, "OPP %u", i);
		KUNIT_EXPECT_TRUE_MSG(test, !strncmp(o.available,
						     f.available ? "yes " : "no ",
						     f.available ? 4 : 3),
				      "OPP %u: '%s'", i, d->line[i + 1]);
	}

	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, dbg_four(0, true).rate), 0);
	d = dbg_read(test, DBG_OPPS, ctx->dev);
	KUNIT_ASSERT_EQ(test, d->n, 4U);
	dbg_opps_table(test, d, &t);
	KUNIT_EXPECT_EQ(test, t.opps, 3U);
	dbg_opps_opp(test, d, 1, &o);
	KUNIT_EXPECT_EQ(test, o.hz, dbg_four(1, true).rate);

	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	d = dbg_read(test, DBG_OPPS, ctx->dev);
	KUNIT_EXPECT_EQ(test, d->n, 0U);
}

/*
 * A table of a device-tree node in the opps file: its OPPs as read, the
 * table's clock latency and node (the table's, table-basic, not the
 * device's). good-basic of selftest/opp_of_v2.dtso:
 * 200, 400 (twice: one OPP), 600 and 1000 MHz, the largest latency
 * 500 us, 600 MHz the suspend OPP, 1000 MHz turbo.
 */
static void opp_debugfs_opps_of_table(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct device_node *np = opp_test_of_pair_node(test, "good-basic");
	struct dbg_opp_line o;
	struct dbg_lines *d;
	struct dbg_table t;

	ctx->dev->of_node = np;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	d = dbg_read(test, DBG_OPPS, ctx->dev);
	ctx->dev->of_node = NULL;
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	of_node_put(np);

	KUNIT_ASSERT_EQ(test, d->n, 5U);
	dbg_opps_table(test, d, &t);
	KUNIT_EXPECT_EQ(test, t.opps, 4U);
	KUNIT_EXPECT_EQ(test, t.latency_ns, 500000UL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d->line[0], "node=/opp-of-v2/table-basic"),
				  "'%s'", d->line[0]);
	dbg_opps_opp(test, d, 1, &o);
	KUNIT_EXPECT_EQ(test, o.hz, 200 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, o.uv[0], 900000UL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d->line[1], " uA=30000 "),
				  "'%s'", d->line[1]);
	dbg_opps_opp(test, d, 3, &o);
	KUNIT_EXPECT_EQ(test, o.hz, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d->line[3], " suspend=yes"),
				  "'%s'", d->line[3]);
	dbg_opps_opp(test, d, 4, &o);
	KUNIT_EXPECT_EQ(test, o.hz, 1000 * HZ_PER_MHZ);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(d->line[4], " turbo=yes "),
				  "'%s'", d->line[4]);
}

/* @dev's line of the sharers file: its sharers' names, or "" if none. */
static const char *dbg_sharers(struct kunit *test, struct device *dev)
{
	struct dbg_lines *d = dbg_read(test, DBG_SHARERS, dev);

	KUNIT_ASSERT_LE(test, d->n, 1U);
	return d->n ? d->line[0] + strlen(dev_name(dev)) : "";
}

/*
 * An opp-shared table of the overlay (good-shared-a and -b): the second
 * device to read it shares the first's table, the first's line names it;
 * the sharer leaves with its table's removal, and the line goes.
 */
static void opp_debugfs_sharers_follow(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct device_node *a = opp_test_of_pair_node(test, "good-shared-a");
	struct device_node *b = opp_test_of_pair_node(test, "good-shared-b");
	char want[64];

	ctx->dev->of_node = a;
	ctx->other->of_node = b;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_STREQ(test, dbg_sharers(test, ctx->dev), "");
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->other), 0);
	snprintf(want, sizeof(want), " %s", dev_name(ctx->other));
	KUNIT_EXPECT_STREQ(test, dbg_sharers(test, ctx->dev), want);
	/* The sharer's OPPs are the table's: no table line of its own. */
	KUNIT_EXPECT_EQ(test, dbg_read(test, DBG_TABLES, ctx->other)->n, 0U);

	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->other), 0);
	KUNIT_EXPECT_STREQ(test, dbg_sharers(test, ctx->dev), "");
	KUNIT_EXPECT_GT(test, dbg_read(test, DBG_TABLES, ctx->dev)->n, 0U);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, dbg_read(test, DBG_TABLES, ctx->dev)->n, 0U);
	ctx->dev->of_node = NULL;
	ctx->other->of_node = NULL;
	of_node_put(a);
	of_node_put(b);
}

static struct kunit_case debugfs_cases[] = {
	KUNIT_CASE(opp_debugfs_tables_follow),
	KUNIT_CASE(opp_debugfs_tables_apart),
	KUNIT_CASE(opp_debugfs_opps_follow),
	KUNIT_CASE(opp_debugfs_opps_of_table),
	KUNIT_CASE(opp_debugfs_sharers_follow),
	{}
};

static struct kunit_suite debugfs_suite = {
	.name = "opp_debugfs",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = debugfs_cases,
};

kunit_test_suite(debugfs_suite);

MODULE_DESCRIPTION("KUnit: the OPP library's debugfs view");
MODULE_LICENSE("GPL");
