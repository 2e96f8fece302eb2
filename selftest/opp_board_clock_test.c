// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's transitions (opp_rate.c) on the board's
 * own clock: suite opp_board_clock.
 *
 * opp_set_rate() programming one of the vexpress-a9 board's own
 * oscillators, through the kernel's vexpress-osc clock driver and the
 * board's configuration bus, down to the register that QEMU emulates;
 * clk_get_rate() and a direct read of that register must then give the
 * OPP's rate. The other rate suite (opp_set_rate) uses providers of its
 * own; this one uses the emulated hardware.
 *
 * The oscillator: /dcc/extsaxiclk, the daughterboard's external AXI slave
 * clock, which no device of the guest runs from (see board_clock_dtb in
 * scripts/common.sh, which gives it a phandle and adds /opp-board-clock,
 * whose clocks property points at it: the suite's device takes that
 * node, as a driver's device would).
 *
 * What the hardware does: vexpress-osc sets a rate by writing it, in Hz,
 * to SYS_CFGDATA and starting a SYS_CFGCTRL write of function 1
 * (oscillator), site DB1, device 0; it reads it back the same way. QEMU's
 * arm_sysctl stores the 32-bit value as written and returns it on the next
 * read: it neither rounds nor checks it against the range (its reset value
 * for this oscillator is 45 MHz). The range is the kernel's: the driver
 * clamps any rate to the node's freq-range. After each change the clock
 * framework recalculates the rate from the register, so clk_get_rate()
 * equals the OPP's rate exactly for OPPs inside freq-range, which is
 * where this suite's table lies.
 *
 * The board has no rail that software sets for this clock: the table has
 * no voltages and the device no supply, so opp_set_rate() sets the clock
 * alone. The oscillator goes back to the rate it had when each case ends.
 */

#include <kunit/test.h>
#include <linux/clk.h>
#include <linux/limits.h>
#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>

#include "../opp.h"
#include "opp_test_helpers.h"

/* OPPs spread evenly over freq-range, both of its ends included. */
#define BOARD_CLOCK_OPPS	5

struct board_clock_ctx {
	struct device *dev;		/* the consumer, on /opp-board-clock */
	struct device_node *np;
	struct device_node *osc_np;	/* the oscillator's node */
	struct device *osc_dev;		/* the vexpress-osc device */
	struct regmap *regmap;		/* its configuration-bus register */
	struct clk *clk;
	unsigned long orig;		/* its rate when the case began */
	u32 range[2];			/* its freq-range, in Hz */
	unsigned long rate[BOARD_CLOCK_OPPS];
	bool configured;
};

/*
 * The oscillator's register, read afresh: the vexpress configuration
 * regmap has no cache, so each read is a SYS_CFGCTRL read of the board.
 * It shows what the hardware holds, not what the clock framework
 * remembers.
 */
static unsigned long board_clock_register(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;
	unsigned int val = 0;

	KUNIT_ASSERT_EQ(test, regmap_read(ctx->regmap, 0, &val), 0);
	return val;
}

/* Both views of the oscillator: the clock framework's and the register. */
static void board_clock_expect_at(struct kunit *test, unsigned long rate)
{
	struct board_clock_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, clk_get_rate(ctx->clk), rate);
	KUNIT_EXPECT_EQ(test, board_clock_register(test), rate);
}

static int board_clock_init(struct kunit *test)
{
	struct board_clock_ctx *ctx;
	struct opp_config cfg = { };
	struct platform_device *pdev;
	unsigned long step;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;

	ctx->np = of_find_node_by_path("/opp-board-clock");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->np,
				  "no /opp-board-clock: boot through scripts/run-qemu.sh on vexpress");
	ctx->osc_np = of_parse_phandle(ctx->np, "clocks", 0);
	KUNIT_ASSERT_NOT_NULL(test, ctx->osc_np);
	KUNIT_ASSERT_EQ(test, of_property_read_u32_array(ctx->osc_np, "freq-range",
							 ctx->range, 2), 0);
	KUNIT_ASSERT_LT(test, ctx->range[0], ctx->range[1]);

	/* The device vexpress-osc probed: its regmap reaches the register. */
	pdev = of_find_device_by_node(ctx->osc_np);
	KUNIT_ASSERT_NOT_NULL(test, pdev);
	ctx->osc_dev = &pdev->dev;
	ctx->regmap = dev_get_regmap(ctx->osc_dev, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->regmap);

	ctx->dev = opp_test_fixture_dev_new(test, "opp-board-clock-dev", NULL);
	ctx->dev->of_node = ctx->np;
	ctx->clk = clk_get(ctx->dev, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ctx->clk), "clk_get: %ld",
			       PTR_ERR(ctx->clk));
	ctx->orig = clk_get_rate(ctx->clk);

	cfg.clk = ctx->clk;
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	ctx->configured = true;
	step = (ctx->range[1] - ctx->range[0]) / (BOARD_CLOCK_OPPS - 1);
	for (i = 0; i < BOARD_CLOCK_OPPS; i++) {
		ctx->rate[i] = i == BOARD_CLOCK_OPPS - 1 ? ctx->range[1] :
			       ctx->range[0] + i * step;
		KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, ctx->rate[i], 0), 0);
	}
	return 0;
}

/*
 * Runs even when init gave up half-way (and then outside the case's
 * thread, where an assertion must not be used): undo what was done.
 */
static void board_clock_exit(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;

	if (!ctx)
		return;
	if (ctx->configured) {
		opp_remove_table(ctx->dev);
		opp_clear_config(ctx->dev);
	}
	if (!IS_ERR_OR_NULL(ctx->clk)) {
		/* The board as the case found it, for the next case and after. */
		KUNIT_EXPECT_EQ(test, clk_set_rate(ctx->clk, ctx->orig), 0);
		KUNIT_EXPECT_EQ(test, clk_get_rate(ctx->clk), ctx->orig);
		clk_put(ctx->clk);
	}
	if (ctx->dev) {
		ctx->dev->of_node = NULL;
		put_device(ctx->dev);
	}
	if (ctx->osc_dev)
		put_device(ctx->osc_dev);
	of_node_put(ctx->osc_np);
	of_node_put(ctx->np);
}

/*
 * The clock is the board's oscillator, not a stand-in: the node it comes
 * from is a vexpress-osc, and what the clock framework says it runs at is
 * what the register holds, inside the range the board declares. What the
 * rest of the suite relies on, shown with the clock API alone: the
 * register keeps a rate to the hertz (QEMU does not round), and a rate
 * out of range is clamped by the driver before it reaches the register.
 */
static void opp_board_clock_oscillator(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;
	unsigned long reg = board_clock_register(test);
	unsigned long odd = ctx->range[0] + 1234567;

	KUNIT_EXPECT_TRUE(test, of_device_is_compatible(ctx->osc_np,
							"arm,vexpress-osc"));
	KUNIT_EXPECT_EQ(test, ctx->orig, reg);
	KUNIT_EXPECT_GE(test, reg, (unsigned long)ctx->range[0]);
	KUNIT_EXPECT_LE(test, reg, (unsigned long)ctx->range[1]);
	kunit_info(test, "%pOFn: %lu Hz, range %u..%u Hz\n", ctx->osc_np,
		   reg, ctx->range[0], ctx->range[1]);

	KUNIT_ASSERT_EQ(test, clk_set_rate(ctx->clk, odd), 0);
	board_clock_expect_at(test, odd);
	KUNIT_ASSERT_EQ(test, clk_set_rate(ctx->clk, ctx->range[1] + 1), 0);
	board_clock_expect_at(test, ctx->range[1]);
}

/*
 * The first call does not know the OPP: the library reads the clock and
 * sets the OPP asked for. Asking for the rate the oscillator already runs
 * at is the other first-call path: nothing to change, and it stays.
 */
static void opp_board_clock_first_call(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;
	unsigned long lo = ctx->rate[0];

	KUNIT_ASSERT_NE(test, board_clock_register(test), lo);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, 1), 0);
	board_clock_expect_at(test, lo);
	/* Again at the same OPP: nothing to do, nothing moves. */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, lo), 0);
	board_clock_expect_at(test, lo);
}

static void opp_board_clock_first_call_at_rate(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;
	unsigned long now = board_clock_register(test);
	struct fixture_found opp = opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, now);

	/*
	 * QEMU's reset rate, 45 MHz, is one of the table's OPPs (30 to
	 * 50 MHz by 5): the clock framework then leaves the register alone.
	 */
	KUNIT_ASSERT_EQ(test, opp.rate, now);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, now), 0);
	board_clock_expect_at(test, now);
	/* And the library knows it is there: the next OPP down is set. */
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, ctx->rate[0]), 0);
	board_clock_expect_at(test, ctx->rate[0]);
}

/* Every OPP going up, then going down, and a rate between two OPPs. */
static void opp_board_clock_up_down(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < BOARD_CLOCK_OPPS; i++) {
		KUNIT_ASSERT_EQ_MSG(test, opp_set_rate(ctx->dev, ctx->rate[i]), 0,
				    "up to %lu Hz", ctx->rate[i]);
		board_clock_expect_at(test, ctx->rate[i]);
	}
	for (i = BOARD_CLOCK_OPPS - 2; i >= 0; i--) {
		KUNIT_ASSERT_EQ_MSG(test, opp_set_rate(ctx->dev, ctx->rate[i]), 0,
				    "down to %lu Hz", ctx->rate[i]);
		board_clock_expect_at(test, ctx->rate[i]);
	}
	/* Between OPPs: the next one up, never the rate asked for. */
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, ctx->rate[1] + 1), 0);
	board_clock_expect_at(test, ctx->rate[2]);
}

/*
 * Above the table: -ERANGE, as opp_set_rate() documents, and the
 * oscillator stays where it was; a disabled OPP is never picked.
 */
static void opp_board_clock_refused(struct kunit *test)
{
	struct board_clock_ctx *ctx = test->priv;
	unsigned long top = ctx->rate[BOARD_CLOCK_OPPS - 1];

	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, ctx->rate[1]), 0);
	board_clock_expect_at(test, ctx->rate[1]);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, top + 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, ULONG_MAX), -ERANGE);
	board_clock_expect_at(test, ctx->rate[1]);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, top), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, top), -ERANGE);
	board_clock_expect_at(test, ctx->rate[1]);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, ctx->rate[2]), 0);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, ctx->rate[2]), 0);
	board_clock_expect_at(test, ctx->rate[3]);
}

static struct kunit_case board_clock_cases[] = {
	KUNIT_CASE(opp_board_clock_oscillator),
	KUNIT_CASE(opp_board_clock_first_call),
	KUNIT_CASE(opp_board_clock_first_call_at_rate),
	KUNIT_CASE(opp_board_clock_up_down),
	KUNIT_CASE(opp_board_clock_refused),
	{}
};

static struct kunit_suite board_clock_suite = {
	.name = "opp_board_clock",
	.init = board_clock_init,
	.exit = board_clock_exit,
	.test_cases = board_clock_cases,
};

kunit_test_suite(board_clock_suite);

MODULE_DESCRIPTION("KUnit: opp_set_rate() on the vexpress-a9 board's own oscillator");
MODULE_LICENSE("GPL");
