/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The helpers of the test modules (and of the bench), compiled once into
 * opp_test_helpers.ko (opp_test_helpers.c), as the kernel compiles its
 * own KUnit helpers: a module that exports them, loaded after the library
 * and before any module that calls them (selftest/manifest's "helper"
 * line; initramfs/init). This file declares them; it keeps inline only
 * what must be expanded in its caller (a macro, a name of the caller's).
 *
 * Devices: initialised but never registered with the driver core (the
 * library only needs their identity and reference count), with a release
 * hook that counts, so a test can see the last reference go. A KUnit case
 * takes opp_test_fixture_dev_new(), which asserts; the torture and the bench make
 * theirs outside a case with opp_test_fixture_dev_create(), which returns an error.
 * A suite whose cases need two devices and nothing else takes
 * fixture_pair_init() and opp_test_fixture_pair_exit() as its init and exit.
 *
 * Tables: a shuffled CPU domain (opp_test_fixture_add_cpu(): the search, update
 * and cpufreq suites') and four OPPs whose voltage is a function of the
 * rate (opp_test_fixture_add_four()).
 *
 * Device tree nodes: detached, carrying one operating-points property,
 * for opp_of_add_table().
 *
 * Searches: run under RCU with their outcome copied out, and checked after
 * the unlock, because a failing KUnit check allocates memory, which an RCU
 * reader must not.
 *
 * Listeners: a notifier block that records each event, and whether the
 * change it tells of was visible to a search when it came.
 *
 * debugfs: a file of the library's view, line by line.
 *
 * Parameterised cases: KUNIT_ARRAY_PARAM_DESC(), each parameter named by
 * a member of its own, on kernels whose KUnit lacks it; module parameters
 * that a 6.1 suite sees (opp_kunit_apply_params()).
 *
 * Calls and faults: one dispatcher of the calls that change a table
 * (opp_test_call()), and one sweep that fails each allocation of a call
 * in turn (opp_test_fault_sweep()).
 *
 * Providers: a clock and a regulator of the real frameworks that record
 * what they are asked (provider_*()); an interconnect provider that only
 * answers lookups (icc_stub_*()); a genpd's device for the kernel's OPP
 * core (opp_genpd_dev_*()).
 *
 * Comparisons: a table as this library and the kernel's OPP core each
 * give it, field by field (of_v2_*(), of_multi_*()), on two devices of
 * one node of selftest/opp_of_v2.dtso (of_pair_*()).
 */
#ifndef _OPP_TEST_HELPERS_H
#define _OPP_TEST_HELPERS_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/clk-provider.h>
#include <linux/device.h>
#include <linux/interconnect-provider.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_opp.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/units.h>

#include "../opp.h"

/*
 * 6.1's KUnit names a parameter only through a function of the case's
 * own; 6.12's takes the member (the release in between that brought it
 * is not pinned here). The name is the same either way.
 */
#ifndef KUNIT_ARRAY_PARAM_DESC
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)			\
	static void name##_member_desc(typeof(array[0]) *param, char *desc)	\
	{									\
		strscpy(desc, (*param).desc_member, KUNIT_PARAM_DESC_SIZE);	\
	}									\
	KUNIT_ARRAY_PARAM(name, array, name##_member_desc)
#endif

/*
 * 6.1 runs a module's KUnit suites from the MODULE_STATE_COMING notifier,
 * which load_module() calls before it parses the module's parameters: a
 * suite would always see the defaults (later kernels run the suites once
 * the module is live). opp_kunit_apply_params() applies the insmod
 * arguments of @mod the way parse_args() does right after; call it first
 * thing in a suite's init or in a case.
 */
int opp_kunit_apply_params(struct module *mod);

/* ---- Devices and tables ---- */

/* A device named as @fmt says; drop it with put_device(). */
__printf(2, 3)
struct device *opp_test_fixture_dev_create(atomic_t *released, const char *fmt, ...);

/* The same in a case, which it fails if the device cannot be made. */
struct device *opp_test_fixture_dev_new(struct kunit *test, const char *name,
					atomic_t *released);

/* A case's two devices, test->priv of a suite that takes the two below. */
struct fixture_pair {
	struct device *dev;
	struct device *other;
	atomic_t released;
};

/* The two devices, named @prefix-a and @prefix-b. */
int opp_test_fixture_pair_init_named(struct kunit *test, const char *prefix);

/* A suite's init: the devices named after the calling module. */
static inline int fixture_pair_init(struct kunit *test)
{
	return opp_test_fixture_pair_init_named(test, KBUILD_MODNAME);
}

/* Whatever table a case left on either device goes with the devices. */
void opp_test_fixture_pair_exit(struct kunit *test);

struct fixture_point {
	unsigned long freq;
	unsigned long u_volt;
};

/*
 * A CPU domain as an OMAP3-era board registered it, deliberately shuffled.
 * Not every includer reads it.
 */
static const struct fixture_point fixture_cpu_opps[] __maybe_unused = {
	{ 600 * HZ_PER_MHZ, 1200000 },
	{ 125 * HZ_PER_MHZ,  975000 },
	{ 550 * HZ_PER_MHZ, 1270000 },
	{ 250 * HZ_PER_MHZ, 1075000 },
	{ 500 * HZ_PER_MHZ, 1200000 },
};

/* fixture_cpu_opps[] into @dev's table. */
void opp_test_fixture_add_cpu(struct kunit *test, struct device *dev);

/* 200, 400, 600, 800 MHz; the voltage is a function of the rate. */
unsigned long opp_test_fixture_volt_of(unsigned long rate);

void opp_test_fixture_add_four(struct kunit *test, struct device *dev);

/*
 * Give @dev a detached node whose operating-points property holds the
 * @n cells (big-endian, as a device tree has them; none: an empty
 * property). The node lives as long as the case; the case sets
 * dev->of_node back to NULL before the device goes.
 */
void opp_test_fixture_of_attach(struct kunit *test, struct device *dev,
				const u32 *cells, unsigned int n);

/* Give @dev's node (from opp_test_fixture_of_attach()) a one-cell property. */
void opp_test_fixture_of_add_u32(struct kunit *test, struct device *dev,
				 const char *name, u32 val);

enum fixture_how {
	FIXTURE_CEIL,
	FIXTURE_FLOOR,
	FIXTURE_EXACT,		/* an available OPP */
	FIXTURE_EXACT_OFF,	/* a disabled OPP */
};

struct fixture_found {
	struct opp *opp;	/* only compared, never read: RCU is over */
	unsigned long freq;	/* *freq after a ceil or floor search */
	unsigned long rate;	/* opp_get_freq() */
	unsigned long volt;	/* opp_get_voltage() */
};

/* A search of @dev's table, its outcome copied out of the RCU section. */
struct fixture_found opp_test_fixture_find(struct device *dev, enum fixture_how how,
					   unsigned long freq);

/* opp_get_opp_count() under rcu_read_lock(). */
int opp_test_fixture_count(struct device *dev);

#define FIXTURE_MAX_EVENTS 16

struct fixture_listener {
	struct notifier_block nb;
	struct device *dev;
	int ret;			/* what the callback returns */
	unsigned int *clock;		/* shared by listeners, for their order */
	const unsigned long *watch;	/* rates that must all be present */
	unsigned int nwatch;
	unsigned int n;
	unsigned long event[FIXTURE_MAX_EVENTS];
	struct opp_info info[FIXTURE_MAX_EVENTS];
	bool visible[FIXTURE_MAX_EVENTS];
	bool watched[FIXTURE_MAX_EVENTS];
	unsigned int seq[FIXTURE_MAX_EVENTS];
};

/* A listener of @dev's table, to register; it records each event. */
struct fixture_listener *opp_test_fixture_listener_new(struct kunit *test,
						       struct device *dev);

/* Event @i of @l: its kind, its OPP (of opp_test_fixture_add_four()'s voltages). */
void opp_test_fixture_expect_event(struct kunit *test, struct fixture_listener *l,
				   unsigned int i, unsigned long event,
				   unsigned long rate, bool available);

/*
 * Each line of the debugfs file @path to @fn, with @arg, until @fn returns
 * non-zero (which this returns). kernel_read() refuses a debugfs file
 * (its proxy has .read, not .read_iter), so the file is opened as a reader
 * opens it and rendered through its own seq_file operations, into a
 * buffer grown until the text fits. Returns 0, @fn's value, or -errno.
 */
int opp_test_fixture_debugfs_lines(const char *path, int (*fn)(char *line, void *arg),
				   void *arg);

/* ---- One dispatcher of the calls that change a table ---- */

enum opp_test_op {
	OPP_TEST_ADD,		/* opp_add(@rate, @u_volt) */
	OPP_TEST_ADD_CONFLICT,	/* opp_add(@rate, @u_volt + 1) */
	OPP_TEST_REMOVE,	/* opp_remove(@rate) */
	OPP_TEST_REMOVE_TABLE,	/* opp_remove_table() */
	OPP_TEST_ENABLE,	/* opp_enable(@rate) */
	OPP_TEST_DISABLE,	/* opp_disable(@rate) */
	OPP_TEST_CPUFREQ,	/* opp_init_cpufreq_table(), checked, freed */
	OPP_TEST_REGISTER,	/* opp_register_notifier(@nb) */
	OPP_TEST_UNREGISTER,	/* opp_unregister_notifier(@nb) */
	OPP_TEST_OF_ADD_TABLE,	/* opp_of_add_table() */
};

/*
 * A call: @op and its arguments. OPP_TEST_CPUFREQ: the table made must
 * list the @nr_rates rates of @rates, in order.
 */
struct opp_test_call {
	enum opp_test_op op;
	unsigned long rate;
	unsigned long u_volt;
	struct notifier_block *nb;
	const unsigned long *rates;
	unsigned int nr_rates;
};

/*
 * Make the call @c on @dev; returns what the library returned, or -EFAULT
 * where the library broke a promise the return value cannot show: a
 * cpufreq table that is not @c->rates (or, on error, an out-pointer
 * written), a registration that failed and left @c->nb on the chain.
 */
int opp_test_call(struct device *dev, const struct opp_test_call *c);

/* ---- One sweep of allocation failures ---- */

/*
 * A call to fail each allocation of, in turn (opp_test_fault_sweep()):
 * each step brings the state back (@setup), makes the call (@call) with
 * its nth allocation failing, @nth from 1 on (0: none fails, the
 * reference run, which must return 0), has the outcome judged (@judge:
 * @failed, the nth allocation failed and the call returned -ENOMEM; else
 * it must be the call's unfailed outcome) and undoes the call
 * (@teardown). @sites: how many n must give -ENOMEM, the call's
 * allocation sites.
 */
struct opp_test_sweep {
	const char *name;
	unsigned int sites;
	void (*setup)(struct kunit *test, void *arg);
	int (*call)(struct kunit *test, void *arg);
	void (*judge)(struct kunit *test, void *arg, unsigned int nth, int ret,
		      bool failed);
	void (*teardown)(struct kunit *test, void *arg);
};

/*
 * Sweep @s with @arg until as many n gave -ENOMEM as it has sites, three
 * sweeps at most: a debug facility of the kernel may allocate in the
 * middle of a call on some calls only (debugobjects refilling its pool,
 * say), and the allocation that fails is then its own, which it recovers
 * from; the library's allocations shift between two sweeps, so that one
 * site can go untried. A site the library does not have, or one that
 * does not fail cleanly, shows in every sweep. Needs fault injection
 * (CONFIG_FAULT_INJECTION) with failslab sparing no sleeping allocation.
 */
void opp_test_fault_sweep(struct kunit *test, const struct opp_test_sweep *s,
			  void *arg);

/* Whether a kmalloc() made with fail-nth 1 fails: the sweep can count. */
bool opp_test_fault_injection_live(void);

/* ---- Providers: a clock and a regulator that record every call ---- */

/*
 * The test providers of the selftests, the bench and the cpufreq sample:
 * a clock registered with the common clock framework and a voltage
 * regulator registered with the regulator framework, which record every
 * call they get, in one log, count them, and can be told to fail the
 * next one. Real frameworks, fake hardware: the library (and the
 * kernel's OPP core, for the suites that compare both) goes through
 * clk_set_rate() and regulator_set_voltage_triplet() exactly as on a
 * board. A failure, once asked for, lasts until the test clears it.
 * Built where the kernel has both frameworks.
 *
 * Devices get them by name, as a board file's devices get theirs: the
 * regulator through the regulator core's consumer map (each supply name
 * for each device named), the clock through clkdev (a connection id, or
 * any, for each device named). opp_test_provider_register() is the one-device
 * form, which also gets both handles for the device.
 *
 * Each call also checks the invariant opp_set_rate() must keep: the
 * supply never below what the clock's rate needs (provider->need_uv()).
 */
#define PROVIDER_LOG	32
#define PROVIDER_UV_MIN	500000
#define PROVIDER_UV_MAX	1400000
/* uV per us: regulator_set_voltage_time() answers from it. */
#define PROVIDER_RAMP	10000

/*
 * What a provider was asked; the power-domain votes (PROVIDER_PSTATE) and
 * interconnect requests (PROVIDER_BW) are recorded by the providers of
 * the suites that register them, into the same log.
 */
enum provider_call {
	PROVIDER_CLK,
	PROVIDER_VOLT,
	PROVIDER_ON,
	PROVIDER_OFF,
	PROVIDER_PSTATE,
	PROVIDER_BW,
};

struct provider_entry {
	enum provider_call what;
	unsigned long a;	/* the rate, lowest voltage, state or peak */
	unsigned long b;	/* 0, highest voltage asked, or average */
	unsigned int i;		/* the interconnect path */
	int err;		/* what the provider answered */
};

struct provider {
	struct clk_hw hw;
	struct clk_lookup **lookups;	/* clkdev's, one per device named */
	unsigned int nr_lookups;
	bool clk_registered;
	struct regulator_desc desc;
	struct regulator_init_data init;
	struct regulator_consumer_supply *map;	/* supply name x device */
	struct regulator_dev *rdev;
	struct device *owner;	/* opp_test_provider_register()'s: their parent */
	struct clk *clk;	/* opp_test_provider_register()'s consumer's handles */
	struct regulator *supply;
	const char *consumer[2];	/* and its name, NULL-terminated */
	unsigned long rate_min;	/* the clock rounds into it; 0, 0: any rate */
	unsigned long rate_max;

	spinlock_t lock;	/* guards everything below */
	unsigned long rate;
	int uv;
	int fail_clk;		/* clock changes fail with it (round_rate) */
	int fail_volt;		/* voltage changes fail with it */
	bool switchable;	/* the regulator can be enabled, and records it */
	bool on;
	unsigned int n;
	struct provider_entry log[PROVIDER_LOG];
	unsigned int calls;
	unsigned long clk_calls;
	unsigned long volt_calls;
	unsigned int violations;
	/* The lowest voltage a rate needs (the library's table says). */
	unsigned long (*need_uv)(unsigned long rate);
};

/* Under p->lock: one call into @p's log (path @i, the provider's @err). */
void opp_test_provider_record_at(struct provider *p, enum provider_call what,
				 unsigned int i, unsigned long a, unsigned long b,
				 int err);

/* Before anything is registered: the clock's rate and the rail's voltage. */
void opp_test_provider_init(struct provider *p, unsigned long rate, int uv);

/*
 * Register @p's regulator as @name under @owner, any voltage of [@uv_min,
 * @uv_max], got under each supply name of @supplies by each device named
 * in @devs (both NULL-terminated; the strings must outlive the regulator:
 * its core keeps the supply names, not copies).
 */
int opp_test_provider_rail_register(struct provider *p, struct device *owner,
				    const char *name, int uv_min, int uv_max,
				    const char * const *supplies,
				    const char * const *devs);

/* Undo opp_test_provider_rail_register(), if it was done. */
void opp_test_provider_rail_unregister(struct provider *p);

/*
 * Register @p's clock as @name under @owner, got by each device named in
 * @devs (NULL-terminated; none: by no name) under the connection id
 * @con_id, or under any id with @con_id NULL (clkdev then matches on the
 * device alone).
 */
int opp_test_provider_clock_register(struct provider *p, struct device *owner,
				     const char *name, const char *con_id,
				     const char * const *devs);

/* Undo opp_test_provider_clock_register(), if it was done. */
void opp_test_provider_clock_unregister(struct provider *p);

/*
 * Register a clock at @rate and a regulator at @uv named after @consumer,
 * the regulator as its supply "vdd", and get both for @consumer. Undo
 * with opp_test_provider_unregister().
 */
int opp_test_provider_register(struct provider *p, const char *name,
			       struct device *consumer, unsigned long rate, int uv);

void opp_test_provider_unregister(struct provider *p);

/* ---- An interconnect provider that only answers lookups ---- */

/*
 * For the node that a suite's device-tree tables point their
 * ``interconnects`` at. The kernel's OPP core gets a table's paths when
 * it reads the table, and with the interconnect framework built in, a
 * path to a node that no provider registered defers the whole table: the
 * suites that compare this library with the kernel's parser register one
 * of these first, so that the kernel reads those tables to the end, as
 * on a board whose interconnect driver has probed. Its nodes are linked
 * in a chain, so any node reaches any later one; requests are accepted
 * (and shown to a suite that asks to see them).
 */
struct icc_stub {
	struct icc_provider provider;
	struct platform_device *pdev;
	struct icc_onecell_data *data;
	bool added;
	bool registered;
};

/*
 * A provider for the node at @path, with @n nodes numbered from @first_id
 * (interconnect node ids are global: each stub needs a range of its own);
 * @set sees each request (NULL: one that ignores them). Without the
 * framework, nothing (the kernel's parser asks for no path).
 */
int opp_test_icc_stub_register(struct icc_stub *s, const char *path, int first_id,
			       unsigned int n,
			       int (*set)(struct icc_node *src, struct icc_node *dst));

void opp_test_icc_stub_unregister(struct icc_stub *s);

/* ---- A device for the kernel's OPP core to read a domain's table on ---- */

/*
 * Before 6.12, the kernel's OPP core reads the table of a node with
 * #power-domain-cells as a genpd's, and asks the genpd to turn each OPP
 * into a performance state, taking the genpd from the device with
 * container_of(): the device it reads such a table for must be the one
 * embedded in a generic_pm_domain, or it reads past the allocation. So,
 * there, the device is that of a domain known to genpd (never registered
 * as a provider: nothing attaches to it), whose state for an OPP is the
 * OPP's level. On 6.12, and without genpd, a plain fixture device does.
 *
 * A genpd's device named @name; drop it with opp_genpd_dev_put().
 */
struct device *opp_genpd_dev_create(const char *name);

void opp_genpd_dev_put(struct device *dev);

/* ---- A table as this library and the kernel's OPP core give it ---- */

/*
 * Read through the searches both have, and compared field by field: the
 * opp_of_v2 suite's, shared with opp_of_corpus (which reads every table
 * of the kernel tree's boards the same way). The sizes are the largest
 * any suite needs, the corpus's: the OPPs a walk reads at most (a caller
 * whose tables may have more checks opp_test_of_v2_full()), and the paths the
 * bandwidth walks try (the tables' paths and one more).
 */
#define OF_V2_MAX_OPPS	128
#define OF_V2_PATHS	4

/*
 * A walk through a table by level or by the bandwidth of one path: what
 * each search found (its key, rate and voltage) and the error that ended
 * the walk.
 */
struct of_v2_walk {
	int n;
	unsigned int key[OF_V2_MAX_OPPS];
	unsigned long rate[OF_V2_MAX_OPPS];
	unsigned long u_volt[OF_V2_MAX_OPPS];
	/* Level walks: the exact search of each level found, by rate. */
	unsigned long exact_rate[OF_V2_MAX_OPPS];
	int end;
};

/* What both parsers must agree on: a table, OPP by OPP. */
struct of_v2_table {
	int count;
	struct opp_info opp[OF_V2_MAX_OPPS];
	unsigned long suspend_freq;
	unsigned long latency_ns;
	/* The number of available OPPs, those the rate walk skips included. */
	int total;
	struct of_v2_walk up;
	struct of_v2_walk down;
	/* By the peak bandwidth of each path tried, up and down. */
	struct of_v2_walk bw_up[OF_V2_PATHS];
	struct of_v2_walk bw_down[OF_V2_PATHS];
};

/* This library's table of @dev, walked upwards with the copy-out lookups. */
void opp_test_of_v2_read_ours(struct device *dev, struct of_v2_table *t);

/*
 * The kernel's OPP core's table of @dev, in the same form; its supply
 * values (target, min, max, current) only with @supplies: a v1 table has
 * no supply count in the kernel's core (its regulator_count stays -1), and
 * dev_pm_opp_get_supplies() would copy that many entries. Without, min
 * and max read 0 and the current is not asked.
 */
void opp_test_of_v2_read_kernels_supplies(struct kunit *test, struct device *dev,
					  struct of_v2_table *t, bool supplies);

/* The same, with the supply values. */
void opp_test_of_v2_read_kernels(struct kunit *test, struct device *dev,
				 struct of_v2_table *t);

void opp_test_of_v2_expect_same(struct kunit *test, const struct of_v2_table *a,
				const struct of_v2_table *k);

/* Whether a walk of @t stopped at OF_V2_MAX_OPPS: it may have more. */
bool opp_test_of_v2_full(const struct of_v2_table *t);

/* Ours and the kernel's, on the heap: two tables overflow a stack frame. */
struct of_v2_table *opp_test_of_v2_tables(struct kunit *test);

/*
 * A table read by every clock's rate and every supply's values, for the
 * devices whose supplies and clocks are named (opp_of_multi, and the
 * corpus's tables of several): the rate walk is by the first clock's,
 * which both libraries search by. The sizes are the corpus's.
 */
#define OF_MULTI_MAX_OPPS	32
#define OF_MULTI_MAX		10	/* supplies, clocks */

/* What both parsers must agree on, OPP by OPP. */
struct of_multi_opp {
	unsigned long rate[OF_MULTI_MAX];
	struct opp_supply supply[OF_MULTI_MAX];
	unsigned long power;
};

struct of_multi_table {
	int count;		/* the available OPPs */
	int walked;		/* those the walk by the first clock found */
	struct of_multi_opp opp[OF_MULTI_MAX_OPPS];
	unsigned long suspend_freq;
};

/*
 * The kernel's core takes several clocks only with a callback that sets
 * them (config_clks_t); the comparisons never set a rate, and would be
 * told so if one did.
 */
int opp_test_of_multi_config_clks(struct device *dev, struct opp_table *opp_table,
				  struct dev_pm_opp *opp, void *data,
				  bool scaling_down);

/* Ours and the kernel's, on the heap, for opp_test_of_multi_compare(). */
struct of_multi_table *opp_test_of_multi_tables(struct kunit *test);

/*
 * Read @ours's table with this library and @kernels's with the kernel's
 * core into @t (opp_test_of_multi_tables(): this library's, then the kernel's),
 * and compare them, @supplies supplies and @clks clocks as a driver names
 * them: none (0, or a count's error) is the one of each a table without
 * names has, compared all the same.
 */
void opp_test_of_multi_compare(struct kunit *test, struct of_multi_table *t,
			       struct device *ours, struct device *kernels,
			       int supplies, int clks);

/* Whether the walk of @t stopped at OF_MULTI_MAX_OPPS: it may have more. */
bool opp_test_of_multi_full(const struct of_multi_table *t);

/* ---- Two devices on one node of selftest/opp_of_v2.dtso ---- */

/*
 * For the suites that read a node with this library and with the
 * kernel's OPP core and compare (opp_of_v2, opp_of_multi, opp_em):
 * "ours", whose table this library reads, and "kernels", whose table the
 * kernel's core reads. The harness applies the overlay to the guest's
 * tree before boot; a case takes its node by name from under /opp-of-v2.
 *
 * The suite's init makes both devices and its exit takes the tables and
 * then the pair: opp_test_of_pair_remove_tables(), what else the suite set up,
 * opp_test_of_pair_put(). opp_test_of_pair_node() alone serves any suite that takes a node
 * of the overlay (opp_sharing's devices each have their own).
 */
#define OF_PAIR_ROOT	"/opp-of-v2"

/* The node /opp-of-v2/@name, with a reference the caller puts. */
struct device_node *opp_test_of_pair_node(struct kunit *test, const char *name);

/*
 * Give both devices the node @name. The caller keeps its reference for
 * opp_test_of_pair_put(): the devices do not hold one of their own.
 */
struct device_node *opp_test_of_pair_attach(struct kunit *test, struct device *ours,
					    struct device *kernels, const char *name);

/*
 * Whatever tables a case left, and this library's configuration (none
 * set: nothing to clear). A configuration of the kernel's core stays for
 * the caller to clear after this: the core needs it until its table goes.
 */
void opp_test_of_pair_remove_tables(struct device *ours, struct device *kernels);

/*
 * The node's reference, then the devices: neither may point at the node
 * once it is put, whoever still holds a device then.
 */
void opp_test_of_pair_put(struct device *ours, struct device *kernels,
			  struct device_node *np);

#endif /* _OPP_TEST_HELPERS_H */
