// SPDX-License-Identifier: GPL-2.0-only
/*
 * The harness self-check: every failure mode the verdict must catch, one
 * module parameter each. Loaded without parameters it passes; each
 * parameter makes it fail in one way, so a boot that sets it proves that
 * the verdict fails for that reason (scripts/check.sh). Never loaded by a
 * passing run.
 *
 * KUnit suite opp_harness_canary (what KTAP shows):
 *   fail=1     a case's expectation fails
 *   skip=1     a case skips
 *   uaf=1      a device read after its last put: KASAN panics the
 *              guest in the middle of the suite
 *
 * Module init, in this order (lockdep turns itself off after its first
 * report, so one boot shows only one of lockdep and nonstatic_key):
 *   lockdep=1          two mutexes taken in both orders (AB-BA), one path
 *                      after the other: no deadlock, a lockdep report
 *   nonstatic_key=1    a lock used without being initialised
 *   sleep_in_atomic=1  an updater called under rcu_read_lock()
 *   leak=1             allocations dropped: kmemleak must find them
 *   divzero=1          a 64-bit division by zero: 32-bit ARM's division
 *                      helper reports it with a backtrace and goes on
 *                      (arm64's divide instruction returns 0 silently)
 *   ubsan=1            an array indexed out of bounds (panics)
 *   warn=1             a kernel warning (panics)
 *
 * Module init, KCSAN (the arm64 guest): threads on separate CPUs for up to
 * SEC seconds; KCSAN reports (and panics the guest: panic_on_warn):
 *   race=SEC           a plain store racing a plain load of one variable
 *   publish=SEC        a freshly filled structure published without
 *                      rcu_assign_pointer() while readers follow the
 *                      pointer: nothing orders the filling stores before
 *                      the publication, which KCSAN's weak-memory modelling
 *                      (KCSAN_WEAK_MEMORY) shows as a race with a
 *                      "(reordered)" store
 *
 * Module exit, while the guest runs the detectors with short timeouts:
 *   stall=SEC   a reader spins in rcu_read_lock(), a grace period waiting
 *   hang=SEC    the unloading task sleeps uninterruptibly
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/units.h>

#include "../opp.h"
#include "opp_test_helpers.h"

static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "fail an expectation");

static bool skip;
module_param(skip, bool, 0444);
MODULE_PARM_DESC(skip, "skip a case");

static bool abba;
module_param_named(lockdep, abba, bool, 0444);
MODULE_PARM_DESC(lockdep, "take two mutexes in both orders (AB-BA)");

static bool nonstatic_key;
module_param(nonstatic_key, bool, 0444);
MODULE_PARM_DESC(nonstatic_key, "use a lock that was never initialised");

static bool sleep_in_atomic;
module_param(sleep_in_atomic, bool, 0444);
MODULE_PARM_DESC(sleep_in_atomic,
		 "call an updater under rcu_read_lock(), which its might_sleep() reports");

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "leak allocations for kmemleak to find");

static bool divzero;
module_param(divzero, bool, 0444);
MODULE_PARM_DESC(divzero, "divide a 64-bit number by zero");

static bool ubsan;
module_param(ubsan, bool, 0444);
MODULE_PARM_DESC(ubsan, "index an array out of bounds");

static bool uaf;
module_param(uaf, bool, 0444);
MODULE_PARM_DESC(uaf, "use a device after its last put");

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "raise a kernel warning");

static unsigned int race;
module_param(race, uint, 0444);
MODULE_PARM_DESC(race, "seconds of a plain store racing a plain load (KCSAN)");

static unsigned int publish;
module_param(publish, uint, 0444);
MODULE_PARM_DESC(publish,
		 "seconds of publishing filled structures without rcu_assign_pointer() (KCSAN)");

static unsigned int stall;
module_param(stall, uint, 0444);
MODULE_PARM_DESC(stall, "seconds to spin in rcu_read_lock() on unload");

static unsigned int hang;
module_param(hang, uint, 0444);
MODULE_PARM_DESC(hang, "seconds to sleep uninterruptibly on unload");

static int opp_canary_suite_init(struct kunit_suite *suite)
{
	/* 6.1 runs the suite before it applies the parameters. */
	return opp_kunit_apply_params(THIS_MODULE);
}

static void opp_harness_canary_ceil(struct kunit *test)
{
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = opp_test_fixture_dev_new(test, "opp-canary", &released);
	struct fixture_found f;

	KUNIT_ASSERT_EQ(test, opp_add(dev, 100 * HZ_PER_MHZ, 900000), 0);
	f = opp_test_fixture_find(dev, FIXTURE_CEIL, 1);
	opp_remove_table(dev);
	put_device(dev);
	/* The classic mistake: a device used after its last put. */
	if (uaf)
		KUNIT_EXPECT_STREQ(test, dev_name(dev), "opp-canary");
	/* The ceil of 1 Hz is the 100 MHz OPP; fail=1 expects 1 Hz. */
	KUNIT_EXPECT_EQ(test, f.freq, fail ? 1UL : 100 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

static void opp_harness_canary_skip(struct kunit *test)
{
	if (skip)
		kunit_skip(test, "skip=1");
	KUNIT_EXPECT_EQ(test, opp_get_freq(NULL), 0UL);
}

static const unsigned long opp_canary_rates[] = {
	100 * HZ_PER_MHZ, 200 * HZ_PER_MHZ, 300 * HZ_PER_MHZ,
};

static const void *opp_canary_gen_rates(const void *prev, char *desc)
{
	const unsigned long *next = prev ? (const unsigned long *)prev + 1 :
					   opp_canary_rates;
	if (next >= opp_canary_rates + ARRAY_SIZE(opp_canary_rates))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%lu MHz", *next / HZ_PER_MHZ);
	return next;
}

/* Each rate added alone is found exactly, with its voltage. */
static void opp_harness_canary_exact(struct kunit *test)
{
	unsigned long rate = *(const unsigned long *)test->param_value;
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = opp_test_fixture_dev_new(test, "opp-canary", &released);
	struct fixture_found f;

	KUNIT_ASSERT_EQ(test, opp_add(dev, rate, 1000000), 0);
	f = opp_test_fixture_find(dev, FIXTURE_EXACT, rate);
	opp_remove_table(dev);
	put_device(dev);
	KUNIT_EXPECT_EQ(test, f.rate, rate);
	KUNIT_EXPECT_EQ(test, f.volt, 1000000UL);
}

static struct kunit_case opp_canary_cases[] = {
	KUNIT_CASE(opp_harness_canary_ceil),
	KUNIT_CASE(opp_harness_canary_skip),
	KUNIT_CASE_PARAM(opp_harness_canary_exact, opp_canary_gen_rates),
	{}
};

static struct kunit_suite opp_canary_suite = {
	.name = "opp_harness_canary",
	.suite_init = opp_canary_suite_init,
	.test_cases = opp_canary_cases,
};

kunit_test_suite(opp_canary_suite);

static DEFINE_MUTEX(opp_canary_a);
static DEFINE_MUTEX(opp_canary_b);

static void opp_canary_a_then_b(void)
{
	mutex_lock(&opp_canary_a);
	mutex_lock(&opp_canary_b);
	mutex_unlock(&opp_canary_b);
	mutex_unlock(&opp_canary_a);
}

static void opp_canary_b_then_a(void)
{
	mutex_lock(&opp_canary_b);
	mutex_lock(&opp_canary_a);
	mutex_unlock(&opp_canary_a);
	mutex_unlock(&opp_canary_b);
}

/*
 * A seqcount has no magic number of its own to check: only lockdep can
 * tell that nobody initialised it ("trying to register non-static key").
 */
struct opp_canary_obj {
	seqcount_t seq;
	int val;
};

static int opp_canary_nonstatic_key(void)
{
	struct opp_canary_obj *obj = kzalloc(sizeof(*obj), GFP_KERNEL);

	if (!obj)
		return -ENOMEM;
	preempt_disable();
	write_seqcount_begin(&obj->seq);
	obj->val++;
	write_seqcount_end(&obj->seq);
	preempt_enable();
	kfree(obj);
	return 0;
}

static void opp_canary_release(struct device *dev)
{
	kfree(dev);
}

static int opp_canary_sleep_in_atomic(void)
{
	struct device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int ret;

	if (!dev)
		return -ENOMEM;
	device_initialize(dev);
	dev->release = opp_canary_release;
	ret = opp_add(dev, 100 * HZ_PER_MHZ, 900000);
	if (!ret) {
		/* The misuse every updater's might_sleep() exists for. */
		rcu_read_lock();
		opp_disable(dev, 100 * HZ_PER_MHZ);
		rcu_read_unlock();
		opp_remove_table(dev);
	}
	put_device(dev);
	return ret;
}

/*
 * What kmemleak must find: objects above the largest kmalloc cache, which
 * come from the page allocator. A small slab object's address stays in
 * the free pointer of the object allocated just before it; when another
 * user of the cache owns that neighbour and never writes that word, the
 * leak reads as referenced (seen here with 64-byte objects: up to all 8
 * of 8 hidden, each with a reference count of 1). Pages carry no free
 * pointers. Several objects, because the cached stack of an exited task
 * may still hold the last pointer a frame saw. The harness knows them by
 * their odd size and their 0x5a bytes (scripts/check.sh).
 */
#define OPP_CANARY_LEAKS	4
#define OPP_CANARY_LEAK_SIZE	8193
static_assert(OPP_CANARY_LEAK_SIZE > KMALLOC_MAX_CACHE_SIZE);

static noinline int opp_canary_leak_one(void)
{
	char *p = kmalloc(OPP_CANARY_LEAK_SIZE, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	memset(p, 0x5a, OPP_CANARY_LEAK_SIZE);
	/*
	 * Nothing reads the memory again, so the compiler may drop the
	 * memset (a CI run reported pages of old data): make it a store
	 * someone could see, then forget the only pointer.
	 */
	barrier_data(p);
	OPTIMIZER_HIDE_VAR(p);
	return 0;
}

static int opp_canary_leak(void)
{
	int i, ret = 0;

	for (i = 0; i < OPP_CANARY_LEAKS && !ret; i++)
		ret = opp_canary_leak_one();
	return ret;
}

/* Zero, read at run time: the division cannot be folded. */
static s32 opp_canary_divisor;

static void opp_canary_divzero(void)
{
	pr_info("opp_canary: 1 / 0 = %lld\n",
		div_s64(1, READ_ONCE(opp_canary_divisor)));
}

static int opp_canary_index[4];

static void opp_canary_ubsan(void)
{
	/* A run-time index, one past the end: UBSAN_BOUNDS reports it. */
	unsigned int i = ARRAY_SIZE(opp_canary_index) - 1 + ubsan;

	opp_canary_index[i] = 1;
}

/* race=SEC: one variable, written and read with plain accesses. */
static unsigned long opp_canary_plain;

static noinline void opp_canary_plain_store(unsigned long val)
{
	opp_canary_plain = val;
}

static noinline unsigned long opp_canary_plain_load(void)
{
	return opp_canary_plain;
}

static int opp_canary_race_writer(void *unused)
{
	unsigned long i = 0;

	while (!kthread_should_stop())
		opp_canary_plain_store(++i);
	return 0;
}

static int opp_canary_race_reader(void *unused)
{
	unsigned long sum = 0;

	while (!kthread_should_stop())
		sum += opp_canary_plain_load();
	return sum & 1;
}

/*
 * publish=SEC: a pool of structures, each filled and then published with
 * RCU_INIT_POINTER(), which is rcu_assign_pointer() without its release
 * barrier: a reader that follows the pointer may see the stores that
 * filled the structure after the pointer. A slot is filled again only once
 * nothing points at it and a grace period has passed, so the missing
 * barrier is the only fault: with rcu_assign_pointer() the run is clean.
 *
 * KCSAN samples one access in a few thousand (KCSAN_SKIP_WATCH). One it
 * watched stays, with weak-memory modelling, a candidate for "reordered"
 * until a barrier or the end of its function, and is watched again when a
 * later access there is sampled: the publisher reads the structure after
 * publishing it (marked reads, which KCSAN never samples for themselves)
 * long enough for that second sample to fall after the publication.
 */
#define OPP_CANARY_FIELDS 16
#define OPP_CANARY_SLOTS 64
#define OPP_CANARY_WINDOW 4096

struct opp_canary_pub {
	unsigned long field[OPP_CANARY_FIELDS];
};

static struct opp_canary_pub *opp_canary_slots;
static struct opp_canary_pub __rcu *opp_canary_published;

static noinline unsigned long opp_canary_publish_one(struct opp_canary_pub *p,
						     unsigned long gen)
{
	unsigned long sum = 0;
	int j;

	for (j = 0; j < OPP_CANARY_FIELDS; j++)
		p->field[j] = gen + j;
	/* The fault: no release orders the stores above first. */
	RCU_INIT_POINTER(opp_canary_published, p);
	for (j = 0; j < OPP_CANARY_WINDOW; j++)
		sum += READ_ONCE(p->field[j % OPP_CANARY_FIELDS]);
	return sum;
}

static int opp_canary_publisher(void *unused)
{
	unsigned long gen = 0, sum = 0;
	int i;

	while (!kthread_should_stop()) {
		for (i = 0; i < OPP_CANARY_SLOTS; i++)
			sum += opp_canary_publish_one(&opp_canary_slots[i], ++gen);
		RCU_INIT_POINTER(opp_canary_published, NULL);
		synchronize_rcu();
	}
	return sum & 1;
}

/* A reader's critical section, a function of its own as the publisher's. */
static noinline unsigned long opp_canary_follow_once(void)
{
	const struct opp_canary_pub *p;
	unsigned long sum = 0;
	int j;

	rcu_read_lock();
	p = rcu_dereference(opp_canary_published);
	if (p)
		for (j = 0; j < OPP_CANARY_FIELDS; j++)
			sum += p->field[j];
	rcu_read_unlock();
	return sum;
}

static int opp_canary_follower(void *unused)
{
	unsigned long sum = 0;

	while (!kthread_should_stop())
		sum += opp_canary_follow_once();
	return sum & 1;
}

/*
 * One writer and two readers, on CPUs of their own where there are enough,
 * for @secs seconds (unless KCSAN's report panics the guest first).
 */
static int opp_canary_threads(int (*writer)(void *), int (*reader)(void *),
			      unsigned int secs)
{
	struct task_struct *task[3];
	unsigned int cpus = num_online_cpus();
	int n, ret = 0;

	for (n = 0; n < ARRAY_SIZE(task); n++) {
		task[n] = kthread_run_on_cpu(n ? reader : writer, NULL,
					     (n + 1) % cpus, "opp_canary/%u");
		if (IS_ERR(task[n])) {
			ret = PTR_ERR(task[n]);
			break;
		}
	}
	if (!ret)
		msleep(secs * MSEC_PER_SEC);
	while (n--)
		kthread_stop(task[n]);
	return ret;
}

static int opp_canary_publish(void)
{
	int ret;

	opp_canary_slots = kcalloc(OPP_CANARY_SLOTS, sizeof(*opp_canary_slots),
				   GFP_KERNEL);
	if (!opp_canary_slots)
		return -ENOMEM;
	ret = opp_canary_threads(opp_canary_publisher, opp_canary_follower,
				 publish);
	RCU_INIT_POINTER(opp_canary_published, NULL);
	synchronize_rcu();
	kfree(opp_canary_slots);
	return ret;
}

static int __init opp_canary_init(void)
{
	int ret = 0;

	if (abba) {
		opp_canary_a_then_b();
		opp_canary_b_then_a();
	}
	if (nonstatic_key && !ret)
		ret = opp_canary_nonstatic_key();
	if (sleep_in_atomic && !ret)
		ret = opp_canary_sleep_in_atomic();
	if (leak && !ret)
		ret = opp_canary_leak();
	if (divzero)
		opp_canary_divzero();
	if (ubsan)
		opp_canary_ubsan();
	if (race && !ret)
		ret = opp_canary_threads(opp_canary_race_writer,
					 opp_canary_race_reader, race);
	if (publish && !ret)
		ret = opp_canary_publish();
	WARN(warn, "opp_canary: deliberate warning for the harness self-check\n");
	return ret;
}

static struct rcu_head opp_canary_rcu;
static DECLARE_COMPLETION(opp_canary_spun);

static void opp_canary_rcu_done(struct rcu_head *head)
{
}

static int opp_canary_stall(void *unused)
{
	unsigned long end;

	/*
	 * A grace period that starts now, under the guest's short stall
	 * timeout, and waits for a reader that does not leave. Preemption
	 * stays on: a CPU spinning with it off would also starve the
	 * hung-task detector that the hang must meet.
	 */
	synchronize_rcu();
	call_rcu(&opp_canary_rcu, opp_canary_rcu_done);
	end = jiffies + stall * HZ;
	rcu_read_lock();
	while (time_before(jiffies, end))
		mdelay(1);
	rcu_read_unlock();
	rcu_barrier();
	/* Out of the module's code before its exit can return. */
	kthread_complete_and_exit(&opp_canary_spun, 0);
}

/* The stall runs while the unloading task hangs: a shorter self-check. */
static void __exit opp_canary_exit(void)
{
	struct task_struct *task = NULL;

	if (stall) {
		task = kthread_run(opp_canary_stall, NULL, "opp_canary_stall");
		if (IS_ERR(task))
			task = NULL;
	}
	if (hang)
		schedule_timeout_uninterruptible(hang * HZ);
	if (task)
		wait_for_completion(&opp_canary_spun);
}

module_init(opp_canary_init);
module_exit(opp_canary_exit);

MODULE_DESCRIPTION("OPP harness self-check: fails on purpose, one way per parameter");
MODULE_LICENSE("GPL");
