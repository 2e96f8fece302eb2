// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers of the test modules and the bench, compiled once:
 * opp_test_helpers.ko, which exports what opp_test_helpers.h declares
 * (that file says what each does). The guest loads it after the library
 * and before the modules that call it, and unloads it after them
 * (selftest/manifest's "helper" line). What needs a framework the kernel
 * may lack is built only where it has it, as selftest/Kbuild builds the
 * modules that call it: the providers with the common clock and
 * regulator frameworks, the genpd's device with genpd (before 6.12), the
 * fault sweep with fault injection.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/clkdev.h>
#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/interconnect-provider.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/overflow.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_opp.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/regulator/consumer.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/units.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_test_helpers.h"

/* ---- Module parameters of a 6.1 suite ---- */

int opp_kunit_apply_params(struct module *mod)
{
	const struct kernel_param *kp;
	char *args, *next, *param, *val;
	unsigned int i;
	int ret = 0;

	if (!mod->args || !*mod->args)
		return 0;
	args = kstrdup(mod->args, GFP_KERNEL);
	if (!args)
		return -ENOMEM;
	next = skip_spaces(args);
	while (*next && !ret) {
		next = next_arg(next, &param, &val);
		kp = NULL;
		for (i = 0; i < mod->num_kp; i++)
			if (!strcmp(mod->kp[i].name, param))
				kp = &mod->kp[i];
		if (!kp) {
			pr_err("%s: unknown parameter '%s'\n", mod->name, param);
			ret = -EINVAL;
			break;
		}
		/* A bare "flag" means "flag=1", as parse_args() has it. */
		ret = kp->ops->set(val ? val : "1", kp);
	}
	kfree(args);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_kunit_apply_params);

/* ---- Devices and tables ---- */

struct fixture_dev {
	struct device dev;
	atomic_t *released;	/* counts releases, if not NULL */
};

static void fixture_dev_release(struct device *dev)
{
	struct fixture_dev *fd = container_of(dev, struct fixture_dev, dev);

	if (fd->released)
		atomic_inc(fd->released);
	kfree(fd);
}

struct device *opp_test_fixture_dev_create(atomic_t *released, const char *fmt, ...)
{
	struct fixture_dev *fd;
	va_list args;
	char *name;
	int ret;

	va_start(args, fmt);
	name = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
	fd = kzalloc(sizeof(*fd), GFP_KERNEL);
	if (!name || !fd) {
		kfree(name);
		kfree(fd);
		return ERR_PTR(-ENOMEM);
	}
	device_initialize(&fd->dev);
	fd->dev.release = fixture_dev_release;
	ret = dev_set_name(&fd->dev, "%s", name);
	kfree(name);
	if (ret) {
		/* Not counted: the caller never had it. */
		put_device(&fd->dev);
		return ERR_PTR(ret);
	}
	fd->released = released;
	return &fd->dev;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_dev_create);

struct device *opp_test_fixture_dev_new(struct kunit *test,
					const char *name,
					atomic_t *released)
{
	struct device *dev = opp_test_fixture_dev_create(released, "%s", name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	return dev;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_dev_new);

int opp_test_fixture_pair_init_named(struct kunit *test, const char *prefix)
{
	struct fixture_pair *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	char name[64];

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	snprintf(name, sizeof(name), "%s-a", prefix);
	ctx->dev = opp_test_fixture_dev_new(test, name, &ctx->released);
	snprintf(name, sizeof(name), "%s-b", prefix);
	ctx->other = opp_test_fixture_dev_new(test, name, &ctx->released);
	test->priv = ctx;
	return 0;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_pair_init_named);

void opp_test_fixture_pair_exit(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_remove_table(ctx->dev);
	opp_remove_table(ctx->other);
	put_device(ctx->dev);
	put_device(ctx->other);
}
EXPORT_SYMBOL_GPL(opp_test_fixture_pair_exit);

void opp_test_fixture_add_cpu(struct kunit *test, struct device *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fixture_cpu_opps); i++)
		KUNIT_ASSERT_EQ(test, opp_add(dev, fixture_cpu_opps[i].freq,
					      fixture_cpu_opps[i].u_volt), 0);
}
EXPORT_SYMBOL_GPL(opp_test_fixture_add_cpu);

unsigned long opp_test_fixture_volt_of(unsigned long rate)
{
	return 800000 + rate / 2000;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_volt_of);

void opp_test_fixture_add_four(struct kunit *test, struct device *dev)
{
	unsigned long f;

	for (f = 200 * HZ_PER_MHZ; f <= 800 * HZ_PER_MHZ; f += 200 * HZ_PER_MHZ)
		KUNIT_ASSERT_EQ(test, opp_add(dev, f, opp_test_fixture_volt_of(f)), 0);
}
EXPORT_SYMBOL_GPL(opp_test_fixture_add_four);

struct fixture_of {
	struct device_node np;
	struct property prop;
	__be32 cells[];
};

void opp_test_fixture_of_attach(struct kunit *test, struct device *dev,
				const u32 *cells, unsigned int n)
{
	struct fixture_of *of;
	unsigned int i;

	of = kunit_kzalloc(test, struct_size(of, cells, n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, of);
	for (i = 0; i < n; i++)
		of->cells[i] = cpu_to_be32(cells[i]);
	of->np.full_name = "opp-fixture-node";
	of->prop.name = "operating-points";
	of->prop.length = n * sizeof(__be32);
	of->prop.value = n ? of->cells : NULL;
	of->np.properties = &of->prop;
	dev->of_node = &of->np;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_of_attach);

struct fixture_of_u32 {
	struct property prop;
	__be32 val;
};

void opp_test_fixture_of_add_u32(struct kunit *test, struct device *dev,
				 const char *name, u32 val)
{
	struct fixture_of_u32 *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->val = cpu_to_be32(val);
	p->prop.name = (char *)name;
	p->prop.length = sizeof(p->val);
	p->prop.value = &p->val;
	p->prop.next = dev->of_node->properties;
	dev->of_node->properties = &p->prop;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_of_add_u32);

struct fixture_found opp_test_fixture_find(struct device *dev,
					   enum fixture_how how,
					   unsigned long freq)
{
	struct fixture_found f = { .freq = freq };

	rcu_read_lock();
	if (how == FIXTURE_CEIL)
		f.opp = opp_find_freq_ceil(dev, &f.freq);
	else if (how == FIXTURE_FLOOR)
		f.opp = opp_find_freq_floor(dev, &f.freq);
	else
		f.opp = opp_find_freq_exact(dev, freq, how == FIXTURE_EXACT);
	f.rate = opp_get_freq(f.opp);
	f.volt = opp_get_voltage(f.opp);
	rcu_read_unlock();
	return f;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_find);

int opp_test_fixture_count(struct device *dev)
{
	int count;

	rcu_read_lock();
	count = opp_get_opp_count(dev);
	rcu_read_unlock();
	return count;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_count);

/* Records each event and whether the change was visible when it came. */
static int fixture_listen(struct notifier_block *nb,
			  unsigned long event, void *data)
{
	struct fixture_listener *l = container_of(nb, struct fixture_listener,
						  nb);
	const struct opp_info *info = data;
	struct opp_info now;
	unsigned int i;
	bool visible;

	switch (event) {
	case OPP_EVENT_ADD:
	case OPP_EVENT_ENABLE:
		visible = !opp_lookup_exact(l->dev, info->rate, true, &now);
		break;
	case OPP_EVENT_DISABLE:
		visible = !opp_lookup_exact(l->dev, info->rate, false, &now);
		break;
	default:
		visible = opp_lookup_exact(l->dev, info->rate, true, &now) &&
			  opp_lookup_exact(l->dev, info->rate, false, &now);
	}
	if (l->n < FIXTURE_MAX_EVENTS) {
		l->event[l->n] = event;
		l->info[l->n] = *info;
		l->visible[l->n] = visible;
		l->watched[l->n] = true;
		for (i = 0; i < l->nwatch; i++)
			if (opp_lookup_exact(l->dev, l->watch[i], true, &now))
				l->watched[l->n] = false;
		if (l->clock)
			l->seq[l->n] = (*l->clock)++;
	}
	l->n++;
	return l->ret;
}

struct fixture_listener *
opp_test_fixture_listener_new(struct kunit *test, struct device *dev)
{
	struct fixture_listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	l->nb.notifier_call = fixture_listen;
	l->dev = dev;
	l->ret = NOTIFY_OK;
	return l;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_listener_new);

void opp_test_fixture_expect_event(struct kunit *test,
				   struct fixture_listener *l,
				   unsigned int i, unsigned long event,
				   unsigned long rate, bool available)
{
	KUNIT_ASSERT_LT(test, i, l->n);
	KUNIT_EXPECT_EQ_MSG(test, l->event[i], event, "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].rate, rate, "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].u_volt, opp_test_fixture_volt_of(rate),
			    "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].available, available, "event %u", i);
	KUNIT_EXPECT_TRUE_MSG(test, l->visible[i], "event %u came too early", i);
}
EXPORT_SYMBOL_GPL(opp_test_fixture_expect_event);

/*
 * Render the seq_file of @f into a buffer of @size bytes of ours, which
 * seq_release() frees with the file: -EOVERFLOW if it does not fit.
 */
static int fixture_seq_render(struct file *f, size_t size)
{
	struct seq_file *m = f->private_data;
	loff_t pos = 0;
	void *p;

	kvfree(m->buf);
	m->buf = kvmalloc(size, GFP_KERNEL);
	if (!m->buf)
		return -ENOMEM;
	m->size = size;
	m->count = 0;
	p = m->op->start(m, &pos);
	while (!IS_ERR_OR_NULL(p) && !m->op->show(m, p) &&
	       !seq_has_overflowed(m))
		p = m->op->next(m, p, &pos);
	m->op->stop(m, p);
	if (IS_ERR(p))
		return PTR_ERR(p);
	return seq_has_overflowed(m) ? -EOVERFLOW : 0;
}

int opp_test_fixture_debugfs_lines(const char *path,
				   int (*fn)(char *line, void *arg),
				   void *arg)
{
	char *line, *next;
	struct seq_file *m;
	struct file *f;
	size_t size;
	int ret;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	for (size = PAGE_SIZE; ; size *= 2) {
		ret = fixture_seq_render(f, size);
		if (ret != -EOVERFLOW || size >= SZ_1M)
			break;
	}
	m = f->private_data;
	if (!ret && m->count == m->size)
		ret = -EOVERFLOW;
	if (!ret) {
		m->buf[m->count] = '\0';
		for (line = m->buf; line && !ret; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			ret = fn(line, arg);
		}
	}
	filp_close(f, NULL);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_test_fixture_debugfs_lines);

/* ---- One dispatcher of the calls that change a table ---- */

/*
 * The cpufreq table: on success it must list @c->rates, each entry's
 * index its driver data, no flag set, and end there; on error the
 * out-pointer must be as it was. Freed here.
 */
static int opp_test_cpufreq(struct device *dev, const struct opp_test_call *c)
{
	struct cpufreq_frequency_table *ft = ERR_PTR(-EFAULT);
	int ret = opp_init_cpufreq_table(dev, &ft);
	unsigned int i;

	if (ret)
		return ft == ERR_PTR(-EFAULT) ? ret : -EFAULT;
	for (i = 0; i < c->nr_rates; i++)
		if (ft[i].frequency == CPUFREQ_TABLE_END ||
		    ft[i].frequency != c->rates[i] / HZ_PER_KHZ ||
		    ft[i].driver_data != i || ft[i].flags)
			break;
	if (i < c->nr_rates || ft[i].frequency != CPUFREQ_TABLE_END)
		ret = -EFAULT;
	opp_free_cpufreq_table(dev, &ft);
	return ret;
}

/* A failed registration must not leave @nb on the chain. */
static int opp_test_register(struct device *dev, struct notifier_block *nb)
{
	int ret = opp_register_notifier(dev, nb);

	if (ret && !opp_unregister_notifier(dev, nb))
		return -EFAULT;
	return ret;
}

int opp_test_call(struct device *dev, const struct opp_test_call *c)
{
	switch (c->op) {
	case OPP_TEST_ADD:
		return opp_add(dev, c->rate, c->u_volt);
	case OPP_TEST_ADD_CONFLICT:
		return opp_add(dev, c->rate, c->u_volt + 1);
	case OPP_TEST_REMOVE:
		return opp_remove(dev, c->rate);
	case OPP_TEST_REMOVE_TABLE:
		return opp_remove_table(dev);
	case OPP_TEST_ENABLE:
		return opp_enable(dev, c->rate);
	case OPP_TEST_DISABLE:
		return opp_disable(dev, c->rate);
	case OPP_TEST_CPUFREQ:
		return opp_test_cpufreq(dev, c);
	case OPP_TEST_REGISTER:
		return opp_test_register(dev, c->nb);
	case OPP_TEST_UNREGISTER:
		return opp_unregister_notifier(dev, c->nb);
	case OPP_TEST_OF_ADD_TABLE:
		return opp_of_add_table(dev);
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(opp_test_call);

/* ---- One sweep of allocation failures ---- */

#ifdef CONFIG_FAULT_INJECTION
/* @s's call with its @nth allocation failing; *@hit: that one was made. */
static int opp_test_call_failing(struct kunit *test,
				 const struct opp_test_sweep *s, void *arg,
				 unsigned int nth, bool *hit)
{
	int ret;

	WRITE_ONCE(current->fail_nth, nth);
	ret = s->call(test, arg);
	*hit = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return ret;
}

/*
 * One sweep: every nth allocation of the call fails in turn, until the
 * call makes fewer than n. Returns how many n gave -ENOMEM.
 */
static unsigned int opp_test_sweep_once(struct kunit *test,
					const struct opp_test_sweep *s,
					void *arg)
{
	unsigned int nth, enomem = 0;
	bool hit = true;
	int ret;

	for (nth = 0; hit && nth < 200; nth++) {
		s->setup(test, arg);
		if (nth) {
			ret = opp_test_call_failing(test, s, arg, nth, &hit);
		} else {
			ret = s->call(test, arg);
			KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s: unfailed", s->name);
		}
		/*
		 * Not failed: fewer than nth allocations, or one of a debug
		 * facility's that it recovered from.
		 */
		s->judge(test, arg, nth, ret, hit && ret == -ENOMEM);
		if (hit && ret == -ENOMEM)
			enomem++;
		s->teardown(test, arg);
	}
	KUNIT_EXPECT_FALSE_MSG(test, hit, "%s: still allocating at %u", s->name,
			       nth);
	kunit_info(test, "%s: %u allocations tried, %u gave -ENOMEM", s->name,
		   nth - 1, enomem);
	return enomem;
}

void opp_test_fault_sweep(struct kunit *test, const struct opp_test_sweep *s,
			  void *arg)
{
	unsigned int sweep, enomem = 0;

	for (sweep = 0; sweep < 3; sweep++) {
		enomem = opp_test_sweep_once(test, s, arg);
		if (enomem >= s->sites)
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, enomem, s->sites,
			    "%s: -ENOMEM count is not the number of sites",
			    s->name);
}
EXPORT_SYMBOL_GPL(opp_test_fault_sweep);

bool opp_test_fault_injection_live(void)
{
	void *p;

	WRITE_ONCE(current->fail_nth, 1);
	p = kmalloc(32, GFP_KERNEL);
	WRITE_ONCE(current->fail_nth, 0);
	kfree(p);
	return !p;
}
EXPORT_SYMBOL_GPL(opp_test_fault_injection_live);
#else
void opp_test_fault_sweep(struct kunit *test, const struct opp_test_sweep *s,
			  void *arg)
{
	KUNIT_FAIL(test, "%s: the kernel has no fault injection", s->name);
}
EXPORT_SYMBOL_GPL(opp_test_fault_sweep);

bool opp_test_fault_injection_live(void)
{
	return false;
}
EXPORT_SYMBOL_GPL(opp_test_fault_injection_live);
#endif

/* ---- Providers ---- */

#if IS_ENABLED(CONFIG_COMMON_CLK) && IS_ENABLED(CONFIG_REGULATOR)
void opp_test_provider_record_at(struct provider *p,
				 enum provider_call what, unsigned int i,
				 unsigned long a, unsigned long b, int err)
{
	if (p->n < PROVIDER_LOG)
		p->log[p->n] = (struct provider_entry){ what, a, b, i, err };
	p->n++;
	p->calls++;
}
EXPORT_SYMBOL_GPL(opp_test_provider_record_at);

static void provider_record(struct provider *p, enum provider_call what,
			    unsigned long a, unsigned long b)
{
	opp_test_provider_record_at(p, what, 0, a, b, 0);
}

/* Under p->lock: does the rail hold what the clock needs? */
static void provider_check(struct provider *p, unsigned long rate,
			   int uv)
{
	if (p->need_uv && uv < (int)p->need_uv(rate))
		p->violations++;
}

static unsigned long provider_recalc_rate(struct clk_hw *hw,
					  unsigned long parent)
{
	struct provider *p = container_of(hw, struct provider, hw);
	unsigned long flags, rate;

	spin_lock_irqsave(&p->lock, flags);
	rate = p->rate;
	spin_unlock_irqrestore(&p->lock, flags);
	return rate;
}

/*
 * The clock fails here, where clk_set_rate() hears of it: the framework
 * ignores what .set_rate returns. It then answers -EINVAL.
 */
static long provider_round_rate(struct clk_hw *hw, unsigned long rate,
				unsigned long *parent)
{
	struct provider *p = container_of(hw, struct provider, hw);
	unsigned long flags;
	long ret;

	if (p->rate_max)
		rate = clamp(rate, p->rate_min, p->rate_max);
	spin_lock_irqsave(&p->lock, flags);
	ret = p->fail_clk ?: rate;
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}

static int provider_set_rate(struct clk_hw *hw, unsigned long rate,
			     unsigned long parent)
{
	struct provider *p = container_of(hw, struct provider, hw);
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	p->clk_calls++;
	provider_record(p, PROVIDER_CLK, rate, 0);
	provider_check(p, rate, p->uv);
	p->rate = rate;
	spin_unlock_irqrestore(&p->lock, flags);
	return 0;
}

static const struct clk_ops provider_clk_ops = {
	.recalc_rate = provider_recalc_rate,
	.round_rate = provider_round_rate,
	.set_rate = provider_set_rate,
};

static int provider_set_voltage(struct regulator_dev *rdev, int min_uv,
				int max_uv, unsigned int *selector)
{
	struct provider *p = rdev_get_drvdata(rdev);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&p->lock, flags);
	p->volt_calls++;
	provider_record(p, PROVIDER_VOLT, min_uv, max_uv);
	ret = p->fail_volt;
	if (!ret) {
		provider_check(p, p->rate, min_uv);
		p->uv = min_uv;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}

static int provider_get_voltage(struct regulator_dev *rdev)
{
	struct provider *p = rdev_get_drvdata(rdev);
	unsigned long flags;
	int uv;

	spin_lock_irqsave(&p->lock, flags);
	uv = p->uv;
	spin_unlock_irqrestore(&p->lock, flags);
	return uv;
}

static const struct regulator_ops provider_regulator_ops = {
	.set_voltage = provider_set_voltage,
	.get_voltage = provider_get_voltage,
};

static int provider_switch(struct regulator_dev *rdev, bool on)
{
	struct provider *p = rdev_get_drvdata(rdev);
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	provider_record(p, on ? PROVIDER_ON : PROVIDER_OFF, 0, 0);
	p->on = on;
	spin_unlock_irqrestore(&p->lock, flags);
	return 0;
}

static int provider_enable(struct regulator_dev *rdev)
{
	return provider_switch(rdev, true);
}

static int provider_disable(struct regulator_dev *rdev)
{
	return provider_switch(rdev, false);
}

static int provider_is_enabled(struct regulator_dev *rdev)
{
	struct provider *p = rdev_get_drvdata(rdev);

	return READ_ONCE(p->on);
}

/* A regulator that can be switched: p->switchable before registering. */
static const struct regulator_ops provider_switch_ops = {
	.set_voltage = provider_set_voltage,
	.get_voltage = provider_get_voltage,
	.enable = provider_enable,
	.disable = provider_disable,
	.is_enabled = provider_is_enabled,
};

void opp_test_provider_init(struct provider *p, unsigned long rate,
			    int uv)
{
	spin_lock_init(&p->lock);
	p->rate = rate;
	p->uv = uv;
}
EXPORT_SYMBOL_GPL(opp_test_provider_init);

static unsigned int provider_count(const char * const *names)
{
	unsigned int n = 0;

	while (names[n])
		n++;
	return n;
}

int opp_test_provider_rail_register(struct provider *p,
				    struct device *owner,
				    const char *name, int uv_min,
				    int uv_max,
				    const char * const *supplies,
				    const char * const *devs)
{
	unsigned int ns = provider_count(supplies), nd = provider_count(devs);
	struct regulator_config rcfg = {
		.dev = owner,
		.init_data = &p->init,
		.driver_data = p,
	};
	unsigned int i;

	if (!ns || !nd)
		return -EINVAL;
	p->map = kcalloc(ns * nd, sizeof(*p->map), GFP_KERNEL);
	if (!p->map)
		return -ENOMEM;
	for (i = 0; i < ns * nd; i++) {
		p->map[i].supply = supplies[i / nd];
		p->map[i].dev_name = devs[i % nd];
	}
	/*
	 * Name, then the voltage range: positional, because the framework's
	 * field names are in the camel case checkpatch refuses in new code.
	 */
	p->init.constraints = (struct regulation_constraints){
		NULL, uv_min, uv_max,
	};
	p->init.constraints.valid_ops_mask = REGULATOR_CHANGE_VOLTAGE;
	if (p->switchable)
		p->init.constraints.valid_ops_mask |= REGULATOR_CHANGE_STATUS;
	p->init.constraints.ramp_delay = PROVIDER_RAMP;
	p->init.num_consumer_supplies = ns * nd;
	p->init.consumer_supplies = p->map;
	p->desc.name = name;
	p->desc.type = REGULATOR_VOLTAGE;
	p->desc.owner = THIS_MODULE;
	p->desc.ops = p->switchable ? &provider_switch_ops :
				      &provider_regulator_ops;
	p->desc.continuous_voltage_range = true;
	p->rdev = regulator_register(owner, &p->desc, &rcfg);
	if (IS_ERR(p->rdev)) {
		kfree(p->map);
		p->map = NULL;
		return PTR_ERR(p->rdev);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(opp_test_provider_rail_register);

void opp_test_provider_rail_unregister(struct provider *p)
{
	if (!IS_ERR_OR_NULL(p->rdev))
		regulator_unregister(p->rdev);
	p->rdev = NULL;
	kfree(p->map);
	p->map = NULL;
}
EXPORT_SYMBOL_GPL(opp_test_provider_rail_unregister);

void opp_test_provider_clock_unregister(struct provider *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_lookups; i++)
		if (p->lookups[i])
			clkdev_drop(p->lookups[i]);
	kfree(p->lookups);
	p->lookups = NULL;
	p->nr_lookups = 0;
	if (p->clk_registered)
		clk_hw_unregister(&p->hw);
	p->clk_registered = false;
}
EXPORT_SYMBOL_GPL(opp_test_provider_clock_unregister);

int opp_test_provider_clock_register(struct provider *p,
				     struct device *owner,
				     const char *name, const char *con_id,
				     const char * const *devs)
{
	struct clk_init_data init = { .name = name, .ops = &provider_clk_ops };
	unsigned int nd = devs ? provider_count(devs) : 0, i;
	int ret;

	p->lookups = nd ? kcalloc(nd, sizeof(*p->lookups), GFP_KERNEL) : NULL;
	if (nd && !p->lookups)
		return -ENOMEM;
	p->nr_lookups = nd;
	p->hw.init = &init;
	ret = clk_hw_register(owner, &p->hw);
	if (ret) {
		opp_test_provider_clock_unregister(p);
		return ret;
	}
	p->clk_registered = true;
	for (i = 0; i < nd; i++) {
		p->lookups[i] = clkdev_hw_create(&p->hw, con_id, "%s", devs[i]);
		if (!p->lookups[i]) {
			opp_test_provider_clock_unregister(p);
			return -ENOMEM;
		}
	}
	return 0;
}
EXPORT_SYMBOL_GPL(opp_test_provider_clock_register);

int opp_test_provider_register(struct provider *p, const char *name,
			       struct device *consumer, unsigned long rate,
			       int uv)
{
	static const char * const vdd[] = { "vdd", NULL };
	int ret;

	opp_test_provider_init(p, rate, uv);
	/*
	 * Without a module link: KUnit runs a module's suites before the
	 * module has its sysfs directory to link to.
	 */
	p->owner = __root_device_register(name, NULL);
	if (IS_ERR(p->owner)) {
		pr_err("%s: root device: %ld\n", name, PTR_ERR(p->owner));
		return PTR_ERR(p->owner);
	}
	ret = opp_test_provider_clock_register(p, p->owner, name, NULL, NULL);
	if (ret) {
		pr_err("%s: clock: %d\n", name, ret);
		goto put_owner;
	}
	p->clk = clk_hw_get_clk(&p->hw, "opp");
	if (IS_ERR(p->clk)) {
		ret = PTR_ERR(p->clk);
		pr_err("%s: clock handle: %d\n", name, ret);
		goto put_hw;
	}
	p->consumer[0] = dev_name(consumer);
	ret = opp_test_provider_rail_register(p, p->owner, name, PROVIDER_UV_MIN,
					      PROVIDER_UV_MAX, vdd, p->consumer);
	if (ret) {
		pr_err("%s: regulator: %d\n", name, ret);
		goto put_clk;
	}
	p->supply = regulator_get(consumer, "vdd");
	if (IS_ERR(p->supply)) {
		ret = PTR_ERR(p->supply);
		pr_err("%s: supply: %d\n", name, ret);
		goto put_rdev;
	}
	/* Not the framework's dummy: ours reads back the voltage it holds. */
	if (regulator_get_voltage(p->supply) != uv) {
		pr_err("%s: the supply got is not ours\n", name);
		regulator_put(p->supply);
		ret = -ENODEV;
		goto put_rdev;
	}
	/* Registration may have set the rail: the log starts now. */
	p->n = 0;
	p->calls = 0;
	p->clk_calls = 0;
	p->volt_calls = 0;
	return 0;

put_rdev:
	opp_test_provider_rail_unregister(p);
put_clk:
	clk_put(p->clk);
put_hw:
	opp_test_provider_clock_unregister(p);
put_owner:
	root_device_unregister(p->owner);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_test_provider_register);

void opp_test_provider_unregister(struct provider *p)
{
	regulator_put(p->supply);
	opp_test_provider_rail_unregister(p);
	clk_put(p->clk);
	opp_test_provider_clock_unregister(p);
	root_device_unregister(p->owner);
}
EXPORT_SYMBOL_GPL(opp_test_provider_unregister);
#endif

/* ---- Interconnect stub ---- */

static int icc_stub_set(struct icc_node *src, struct icc_node *dst)
{
	return 0;
}

static int icc_stub_get_bw(struct icc_node *node, u32 *avg, u32 *peak)
{
	*avg = 0;
	*peak = 0;
	return 0;
}

/* Node args[0] of one cell, or the first node of a node of no cells. */
static struct icc_node *
icc_stub_xlate(OPP_ICC_SPEC_CONST struct of_phandle_args *spec, void *data)
{
	struct icc_onecell_data *d = data;
	unsigned int i = spec->args_count ? spec->args[0] : 0;

	return i < d->num_nodes ? d->nodes[i] : ERR_PTR(-EINVAL);
}

void opp_test_icc_stub_unregister(struct icc_stub *s)
{
	if (s->registered)
		icc_provider_deregister(&s->provider);
	if (s->data)
		icc_nodes_remove(&s->provider);
	kfree(s->data);
	if (s->added)
		platform_device_unregister(s->pdev);
	else if (s->pdev)
		platform_device_put(s->pdev);
	memset(s, 0, sizeof(*s));
}
EXPORT_SYMBOL_GPL(opp_test_icc_stub_unregister);

int opp_test_icc_stub_register(struct icc_stub *s, const char *path, int first_id,
			       unsigned int n,
			       int (*set)(struct icc_node *src, struct icc_node *dst))
{
	struct icc_node *node;
	unsigned int i;
	int ret;

	/* Without the framework the kernel's parser asks for no path. */
	if (!IS_ENABLED(CONFIG_INTERCONNECT))
		return 0;
	s->pdev = platform_device_alloc("opp-icc-stub", PLATFORM_DEVID_AUTO);
	if (!s->pdev)
		return -ENOMEM;
	/* The platform device puts its node when it goes. */
	s->pdev->dev.of_node = of_find_node_by_path(path);
	if (!s->pdev->dev.of_node) {
		ret = -ENOENT;
		goto fail;
	}
	ret = platform_device_add(s->pdev);
	if (ret)
		goto fail;
	s->added = true;
	s->data = kzalloc(struct_size(s->data, nodes, n), GFP_KERNEL);
	ret = -ENOMEM;
	if (!s->data)
		goto fail;
	s->data->num_nodes = n;
	s->provider.dev = &s->pdev->dev;
	s->provider.set = set ?: icc_stub_set;
	s->provider.get_bw = icc_stub_get_bw;
	s->provider.aggregate = icc_std_aggregate;
	s->provider.xlate = icc_stub_xlate;
	s->provider.data = s->data;
	icc_provider_init(&s->provider);
	for (i = 0; i < n; i++) {
		node = icc_node_create(first_id + i);
		ret = PTR_ERR(node);
		if (IS_ERR(node))
			goto fail;
		node->name = "opp-icc-stub";
		icc_node_add(node, &s->provider);
		s->data->nodes[i] = node;
		ret = i ? icc_link_create(s->data->nodes[i - 1], first_id + i) : 0;
		if (ret)
			goto fail;
	}
	ret = icc_provider_register(&s->provider);
	if (ret)
		goto fail;
	s->registered = true;
	return 0;
fail:
	pr_err("%s: interconnect stub: %d\n", path, ret);
	opp_test_icc_stub_unregister(s);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_test_icc_stub_register);

/* ---- A genpd's device ---- */

#if OPP_GENPD_HAS_OPP_TO_STATE && IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS_OF)
struct opp_genpd_dev {
	struct generic_pm_domain genpd;
	char name[];
};

static unsigned int opp_genpd_dev_state(struct generic_pm_domain *genpd,
					struct dev_pm_opp *opp)
{
	return dev_pm_opp_get_level(opp);
}

/* genpd drops its reference at removal and reads the domain after: freed then. */
static void opp_genpd_dev_release(struct device *dev)
{
}

struct device *opp_genpd_dev_create(const char *name)
{
	size_t size = strlen(name) + 1;
	struct opp_genpd_dev *pd;
	int ret;

	pd = kzalloc(struct_size(pd, name, size), GFP_KERNEL);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	strscpy(pd->name, name, size);
	pd->genpd.name = pd->name;
	pd->genpd.opp_to_performance_state = opp_genpd_dev_state;
	ret = pm_genpd_init(&pd->genpd, NULL, false);
	if (ret) {
		kfree(pd);
		return ERR_PTR(ret);
	}
	pd->genpd.dev.release = opp_genpd_dev_release;
	return &pd->genpd.dev;
}
EXPORT_SYMBOL_GPL(opp_genpd_dev_create);

void opp_genpd_dev_put(struct device *dev)
{
	struct opp_genpd_dev *pd = container_of(dev, struct opp_genpd_dev,
						genpd.dev);

	/* Refused only while a device or subdomain is attached: none is. */
	if (!WARN_ON(pm_genpd_remove(&pd->genpd)))
		kfree(pd);
}
EXPORT_SYMBOL_GPL(opp_genpd_dev_put);
#else
struct device *opp_genpd_dev_create(const char *name)
{
	return opp_test_fixture_dev_create(NULL, "%s", name);
}
EXPORT_SYMBOL_GPL(opp_genpd_dev_create);

void opp_genpd_dev_put(struct device *dev)
{
	put_device(dev);
}
EXPORT_SYMBOL_GPL(opp_genpd_dev_put);
#endif

/* ---- Comparisons ---- */

/* Record one step of a walk. */
static void of_v2_walk_add(struct of_v2_walk *w, unsigned int key,
			   unsigned long rate, unsigned long u_volt)
{
	w->key[w->n] = key;
	w->rate[w->n] = rate;
	w->u_volt[w->n] = u_volt;
	w->n++;
}

static int of_v2_search_ours(struct device *dev, unsigned int *key,
			     int path, bool up, struct opp_info *info)
{
	int ret;

	if (path < 0)
		ret = up ? opp_lookup_level_ceil(dev, *key, info) :
			   opp_lookup_level_floor(dev, *key, info);
	else
		ret = up ? opp_lookup_bw_ceil(dev, *key, path, info) :
			   opp_lookup_bw_floor(dev, *key, path, info);
	if (!ret)
		*key = path < 0 ? info->level : info->peak_kbps;
	return ret;
}

/*
 * 6.1's core has no floor search by level: its walk down ends at once,
 * and opp_test_of_v2_expect_same() does not compare it.
 */
static struct dev_pm_opp *of_v2_find_level_floor(struct device *dev,
						 unsigned int *level)
{
#if OPP_KERNEL_HAS_LEVEL_FLOOR
	return dev_pm_opp_find_level_floor(dev, level);
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

static int of_v2_search_kernels(struct device *dev, unsigned int *key,
				int path, bool up, struct opp_info *info)
{
	struct dev_pm_opp *opp;

	if (path >= 0)
		opp = up ? dev_pm_opp_find_bw_ceil(dev, key, path) :
			   dev_pm_opp_find_bw_floor(dev, key, path);
	else if (up)
		opp = dev_pm_opp_find_level_ceil(dev, key);
	else
		opp = of_v2_find_level_floor(dev, key);
	if (IS_ERR(opp))
		return PTR_ERR(opp);
	info->rate = dev_pm_opp_get_freq(opp);
	info->u_volt = dev_pm_opp_get_voltage(opp);
	dev_pm_opp_put(opp);
	return 0;
}

/*
 * A walk of @dev's table with @search, up from 0 or down from U32_MAX,
 * each step one past the key the last one found: every key once, in
 * order, whichever side searches.
 */
/*
 * One search of a walk, by level (@path < 0) or by the peak bandwidth of
 * @path, the OPP of *@key or the next one up (@up) or down; on success
 * *@key is the key the OPP found has, as the kernel's searches leave it,
 * and @info holds its rate and voltage at least.
 */
typedef int (*of_v2_search_fn)(struct device *dev, unsigned int *key,
			       int path, bool up, struct opp_info *info);

static void of_v2_walk(struct device *dev, of_v2_search_fn search,
		       int path, bool up, struct of_v2_walk *w)
{
	unsigned int key = up ? 0 : U32_MAX;
	struct opp_info info;
	int ret;

	while (w->n < OF_V2_MAX_OPPS) {
		ret = search(dev, &key, path, up, &info);
		if (ret) {
			w->end = ret;
			break;
		}
		of_v2_walk_add(w, key, info.rate, info.u_volt);
		if (key == (up ? U32_MAX : 0))
			break;
		key = up ? key + 1 : key - 1;
	}
}

/* By level, then by the peak bandwidth of each path tried; up and down. */
static void of_v2_walks(struct device *dev, of_v2_search_fn search,
			struct of_v2_table *t)
{
	int path;

	of_v2_walk(dev, search, -1, true, &t->up);
	of_v2_walk(dev, search, -1, false, &t->down);
	for (path = 0; path < OF_V2_PATHS; path++) {
		of_v2_walk(dev, search, path, true, &t->bw_up[path]);
		of_v2_walk(dev, search, path, false, &t->bw_down[path]);
	}
}

void opp_test_of_v2_read_ours(struct device *dev, struct of_v2_table *t)
{
	struct opp_info info;
	unsigned long f = 0;
	int i;

	memset(t, 0, sizeof(*t));
	while (t->count < OF_V2_MAX_OPPS &&
	       !opp_lookup_ceil(dev, f, &t->opp[t->count]))
		f = t->opp[t->count++].rate + 1;
	t->suspend_freq = opp_get_suspend_opp_freq(dev);
	t->latency_ns = opp_get_max_clock_latency(dev);
	t->total = opp_test_fixture_count(dev);
	of_v2_walks(dev, of_v2_search_ours, t);
	for (i = 0; i < t->up.n; i++)
		if (!opp_lookup_level_exact(dev, t->up.key[i], &info))
			t->up.exact_rate[i] = info.rate;
}
EXPORT_SYMBOL_GPL(opp_test_of_v2_read_ours);

void opp_test_of_v2_read_kernels_supplies(struct kunit *test,
					  struct device *dev,
					  struct of_v2_table *t,
					  bool supplies)
{
	struct dev_pm_opp_supply supply;
	struct dev_pm_opp *opp;
	struct opp_info *o;
	unsigned long f = 0;
	int i;

	memset(t, 0, sizeof(*t));
	while (t->count < OF_V2_MAX_OPPS) {
		opp = dev_pm_opp_find_freq_ceil(dev, &f);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->count++];
		o->rate = f;
		o->u_volt = dev_pm_opp_get_voltage(opp);
		if (supplies) {
			memset(&supply, 0, sizeof(supply));
			KUNIT_EXPECT_EQ(test, dev_pm_opp_get_supplies(opp, &supply), 0);
			o->u_volt_min = supply.u_volt_min ?: o->u_volt;
			o->u_volt_max = supply.u_volt_max ?: o->u_volt;
			o->u_amp = supply.u_amp;
		}
		o->u_watt = dev_pm_opp_get_power(opp);
		o->level = dev_pm_opp_get_level(opp);
		o->available = true;
		o->turbo = dev_pm_opp_is_turbo(opp);
		dev_pm_opp_put(opp);
		f++;
	}
	t->suspend_freq = dev_pm_opp_get_suspend_opp_freq(dev);
	/*
	 * The kernel's OPP is a struct of its own; mark suspend alike (a
	 * suspend OPP without a rate is not told apart by its rate).
	 */
	for (f = 0; f < t->count; f++)
		t->opp[f].suspend = t->suspend_freq &&
				    t->opp[f].rate == t->suspend_freq;
	t->latency_ns = dev_pm_opp_get_max_clock_latency(dev);
	t->total = dev_pm_opp_get_opp_count(dev);
	of_v2_walks(dev, of_v2_search_kernels, t);
	for (i = 0; i < t->up.n; i++) {
		opp = dev_pm_opp_find_level_exact(dev, t->up.key[i]);
		if (IS_ERR(opp))
			continue;
		t->up.exact_rate[i] = dev_pm_opp_get_freq(opp);
		dev_pm_opp_put(opp);
	}
}
EXPORT_SYMBOL_GPL(opp_test_of_v2_read_kernels_supplies);

void opp_test_of_v2_read_kernels(struct kunit *test, struct device *dev,
				 struct of_v2_table *t)
{
	opp_test_of_v2_read_kernels_supplies(test, dev, t, true);
}
EXPORT_SYMBOL_GPL(opp_test_of_v2_read_kernels);

static void of_v2_expect_walk(struct kunit *test, const char *way,
			      const struct of_v2_walk *a,
			      const struct of_v2_walk *k)
{
	int i;

	KUNIT_EXPECT_EQ_MSG(test, a->end, k->end, "walk %s", way);
	KUNIT_EXPECT_EQ_MSG(test, a->n, k->n, "walk %s", way);
	/* Not an assertion: a corpus goes on to its next table. */
	if (a->n != k->n)
		return;
	for (i = 0; i < a->n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, a->key[i], k->key[i],
				    "walk %s, step %d", way, i);
		KUNIT_EXPECT_EQ_MSG(test, a->rate[i], k->rate[i],
				    "walk %s, step %d", way, i);
		KUNIT_EXPECT_EQ_MSG(test, a->u_volt[i], k->u_volt[i],
				    "walk %s, step %d", way, i);
		KUNIT_EXPECT_EQ_MSG(test, a->exact_rate[i], k->exact_rate[i],
				    "walk %s, step %d", way, i);
	}
}

void opp_test_of_v2_expect_same(struct kunit *test, const struct of_v2_table *a,
				const struct of_v2_table *k)
{
	int i;

	KUNIT_EXPECT_EQ(test, a->count, k->count);
	for (i = 0; i < min(a->count, k->count); i++) {
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].rate, k->opp[i].rate, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt, k->opp[i].u_volt,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt_min,
				    k->opp[i].u_volt_min, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt_max,
				    k->opp[i].u_volt_max, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_amp, k->opp[i].u_amp,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_watt, k->opp[i].u_watt,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].level, k->opp[i].level,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].available,
				    k->opp[i].available, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].turbo, k->opp[i].turbo,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].suspend, k->opp[i].suspend,
				    "OPP %d", i);
	}
	KUNIT_EXPECT_EQ(test, a->suspend_freq, k->suspend_freq);
	KUNIT_EXPECT_EQ(test, a->latency_ns, k->latency_ns);
	KUNIT_EXPECT_EQ(test, a->total, k->total);
	of_v2_expect_walk(test, "level up", &a->up, &k->up);
	if (OPP_KERNEL_HAS_LEVEL_FLOOR)
		of_v2_expect_walk(test, "level down", &a->down, &k->down);
	for (i = 0; i < OF_V2_PATHS; i++) {
		of_v2_expect_walk(test, "bw up", &a->bw_up[i], &k->bw_up[i]);
		of_v2_expect_walk(test, "bw down", &a->bw_down[i],
				  &k->bw_down[i]);
	}
}
EXPORT_SYMBOL_GPL(opp_test_of_v2_expect_same);

bool opp_test_of_v2_full(const struct of_v2_table *t)
{
	const struct of_v2_walk *w[] = { &t->up, &t->down };
	int i;

	if (t->count == OF_V2_MAX_OPPS)
		return true;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (w[i]->n == OF_V2_MAX_OPPS)
			return true;
	for (i = 0; i < OF_V2_PATHS; i++)
		if (t->bw_up[i].n == OF_V2_MAX_OPPS ||
		    t->bw_down[i].n == OF_V2_MAX_OPPS)
			return true;
	return false;
}
EXPORT_SYMBOL_GPL(opp_test_of_v2_full);

struct of_v2_table *opp_test_of_v2_tables(struct kunit *test)
{
	struct of_v2_table *t = kunit_kcalloc(test, 2, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}
EXPORT_SYMBOL_GPL(opp_test_of_v2_tables);

int opp_test_of_multi_config_clks(struct device *dev,
				  struct opp_table *opp_table,
				  struct dev_pm_opp *opp, void *data,
				  bool scaling_down)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(opp_test_of_multi_config_clks);

struct of_multi_table *opp_test_of_multi_tables(struct kunit *test)
{
	struct of_multi_table *t = kunit_kcalloc(test, 2, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	return t;
}
EXPORT_SYMBOL_GPL(opp_test_of_multi_tables);

/* This library's table of @dev, walked up by the first clock's rate. */
static void of_multi_read_ours(struct kunit *test, struct device *dev,
			       unsigned int supplies, unsigned int clks,
			       struct of_multi_table *t)
{
	unsigned long f = 0;
	struct of_multi_opp *o;
	struct opp *opp;
	unsigned int i;

	rcu_read_lock();
	while (t->walked < OF_MULTI_MAX_OPPS) {
		opp = opp_find_freq_ceil(dev, &f);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->walked++];
		for (i = 0; i < clks; i++)
			o->rate[i] = opp_get_freq_indexed(opp, i);
		KUNIT_EXPECT_EQ(test, opp_get_freq_indexed(opp, clks), 0);
		KUNIT_EXPECT_EQ(test, opp_get_supplies(opp, o->supply, supplies),
				(int)supplies);
		o->power = opp_get_power(opp);
		f++;
	}
	rcu_read_unlock();
	t->count = opp_test_fixture_count(dev);
	t->suspend_freq = opp_get_suspend_opp_freq(dev);
}

/*
 * The kernel's, in the same form (by index: one clock or several). Its
 * dev_pm_opp_get_supplies() copies every supply the table has: the
 * caller names at most OF_MULTI_MAX.
 */
static void of_multi_read_kernels(struct kunit *test,
				  struct device *dev,
				  unsigned int supplies,
				  unsigned int clks,
				  struct of_multi_table *t)
{
	struct dev_pm_opp_supply s[OF_MULTI_MAX];
	struct dev_pm_opp *opp;
	unsigned long f = 0;
	struct of_multi_opp *o;
	unsigned int i;

	while (t->walked < OF_MULTI_MAX_OPPS) {
		opp = dev_pm_opp_find_freq_ceil_indexed(dev, &f, 0);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->walked++];
		for (i = 0; i < clks; i++)
			o->rate[i] = dev_pm_opp_get_freq_indexed(opp, i);
		memset(s, 0, sizeof(s));
		KUNIT_EXPECT_EQ(test, dev_pm_opp_get_supplies(opp, s), 0);
		for (i = 0; i < supplies; i++) {
			o->supply[i].u_volt = s[i].u_volt;
			o->supply[i].u_volt_min = s[i].u_volt_min;
			o->supply[i].u_volt_max = s[i].u_volt_max;
			o->supply[i].u_amp = s[i].u_amp;
			o->supply[i].u_watt = s[i].u_watt;
		}
		o->power = dev_pm_opp_get_power(opp);
		dev_pm_opp_put(opp);
		f++;
	}
	t->count = dev_pm_opp_get_opp_count(dev);
	t->suspend_freq = dev_pm_opp_get_suspend_opp_freq(dev);
}

static void of_multi_expect_same(struct kunit *test,
				 const struct of_multi_table *a,
				 const struct of_multi_table *k,
				 unsigned int supplies,
				 unsigned int clks)
{
	const struct opp_supply *x, *y;
	unsigned int i, j;

	KUNIT_EXPECT_EQ(test, a->count, k->count);
	KUNIT_EXPECT_EQ(test, a->walked, k->walked);
	KUNIT_EXPECT_EQ(test, a->suspend_freq, k->suspend_freq);
	for (i = 0; i < min(a->walked, k->walked); i++) {
		for (j = 0; j < clks; j++)
			KUNIT_EXPECT_EQ_MSG(test, a->opp[i].rate[j],
					    k->opp[i].rate[j],
					    "OPP %u clock %u", i, j);
		for (j = 0; j < supplies; j++) {
			x = &a->opp[i].supply[j];
			y = &k->opp[i].supply[j];
			KUNIT_EXPECT_EQ_MSG(test, x->u_volt, y->u_volt,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_volt_min, y->u_volt_min,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_volt_max, y->u_volt_max,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_amp, y->u_amp,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_watt, y->u_watt,
					    "OPP %u supply %u", i, j);
		}
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].power, k->opp[i].power,
				    "OPP %u", i);
	}
}

void opp_test_of_multi_compare(struct kunit *test,
			       struct of_multi_table *t,
			       struct device *ours, struct device *kernels,
			       int supplies, int clks)
{
	supplies = max(supplies, 1);
	clks = max(clks, 1);
	memset(t, 0, 2 * sizeof(*t));
	of_multi_read_ours(test, ours, supplies, clks, &t[0]);
	of_multi_read_kernels(test, kernels, supplies, clks, &t[1]);
	of_multi_expect_same(test, &t[0], &t[1], supplies, clks);
}
EXPORT_SYMBOL_GPL(opp_test_of_multi_compare);

bool opp_test_of_multi_full(const struct of_multi_table *t)
{
	return t->walked == OF_MULTI_MAX_OPPS;
}
EXPORT_SYMBOL_GPL(opp_test_of_multi_full);

/* ---- Two devices on one node ---- */

struct device_node *opp_test_of_pair_node(struct kunit *test,
					  const char *name)
{
	struct device_node *root, *np;

	root = of_find_node_by_path(OF_PAIR_ROOT);
	KUNIT_ASSERT_NOT_NULL_MSG(test, root,
				  "no %s in the live tree: boot with selftest/opp_of_v2.dtso applied",
				  OF_PAIR_ROOT);
	np = of_get_child_by_name(root, name);
	of_node_put(root);
	KUNIT_ASSERT_NOT_NULL_MSG(test, np, "no %s/%s", OF_PAIR_ROOT, name);
	return np;
}
EXPORT_SYMBOL_GPL(opp_test_of_pair_node);

struct device_node *opp_test_of_pair_attach(struct kunit *test,
					    struct device *ours,
					    struct device *kernels,
					    const char *name)
{
	struct device_node *np = opp_test_of_pair_node(test, name);

	ours->of_node = np;
	kernels->of_node = np;
	return np;
}
EXPORT_SYMBOL_GPL(opp_test_of_pair_attach);

void opp_test_of_pair_remove_tables(struct device *ours,
				    struct device *kernels)
{
	opp_remove_table(ours);
	opp_clear_config(ours);
	dev_pm_opp_of_remove_table(kernels);
}
EXPORT_SYMBOL_GPL(opp_test_of_pair_remove_tables);

void opp_test_of_pair_put(struct device *ours, struct device *kernels,
			  struct device_node *np)
{
	ours->of_node = NULL;
	kernels->of_node = NULL;
	of_node_put(np);
	put_device(ours);
	put_device(kernels);
}
EXPORT_SYMBOL_GPL(opp_test_of_pair_put);

MODULE_DESCRIPTION("Helpers of the OPP library's test modules and bench");
MODULE_LICENSE("GPL");
