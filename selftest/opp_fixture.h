/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixtures shared by the test and bench modules.
 *
 * Devices: initialised but never registered with the driver core (the
 * library only needs their identity and reference count), with a release
 * hook that counts, so a test can see the last reference go. A KUnit case
 * takes fixture_dev_new(), which asserts; the torture and the bench make
 * theirs outside a case with fixture_dev_create(), which returns an error.
 * A suite whose cases need two devices and nothing else takes
 * fixture_pair_init() and fixture_pair_exit() as its init and exit.
 *
 * Tables: a shuffled CPU domain (fixture_add_cpu(): the search, update
 * and cpufreq suites') and four OPPs whose voltage is a function of the
 * rate (fixture_add_four()).
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
 * a member of its own, on kernels whose KUnit lacks it.
 */
#ifndef _OPP_FIXTURE_H
#define _OPP_FIXTURE_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
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

struct fixture_dev {
	struct device dev;
	atomic_t *released;	/* counts releases, if not NULL */
};

static inline void fixture_dev_release(struct device *dev)
{
	struct fixture_dev *fd = container_of(dev, struct fixture_dev, dev);

	if (fd->released)
		atomic_inc(fd->released);
	kfree(fd);
}

/* Drop it with put_device(). */
static inline __printf(2, 3)
struct device *fixture_dev_create(atomic_t *released, const char *fmt, ...)
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

static inline struct device *fixture_dev_new(struct kunit *test,
					     const char *name,
					     atomic_t *released)
{
	struct device *dev = fixture_dev_create(released, "%s", name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	return dev;
}

/* A case's two devices, test->priv of a suite that takes the two below. */
struct fixture_pair {
	struct device *dev;
	struct device *other;
	atomic_t released;
};

static inline int fixture_pair_init(struct kunit *test)
{
	struct fixture_pair *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	ctx->dev = fixture_dev_new(test, KBUILD_MODNAME "-a", &ctx->released);
	ctx->other = fixture_dev_new(test, KBUILD_MODNAME "-b", &ctx->released);
	test->priv = ctx;
	return 0;
}

/* Whatever table a case left on either device goes with the devices. */
static inline void fixture_pair_exit(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_remove_table(ctx->dev);
	opp_remove_table(ctx->other);
	put_device(ctx->dev);
	put_device(ctx->other);
}

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

static inline void fixture_add_cpu(struct kunit *test, struct device *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fixture_cpu_opps); i++)
		KUNIT_ASSERT_EQ(test, opp_add(dev, fixture_cpu_opps[i].freq,
					      fixture_cpu_opps[i].u_volt), 0);
}

/* 200, 400, 600, 800 MHz; the voltage is a function of the rate. */
static inline unsigned long fixture_volt_of(unsigned long rate)
{
	return 800000 + rate / 2000;
}

static inline void fixture_add_four(struct kunit *test, struct device *dev)
{
	unsigned long f;

	for (f = 200 * HZ_PER_MHZ; f <= 800 * HZ_PER_MHZ; f += 200 * HZ_PER_MHZ)
		KUNIT_ASSERT_EQ(test, opp_add(dev, f, fixture_volt_of(f)), 0);
}

struct fixture_of {
	struct device_node np;
	struct property prop;
	__be32 cells[];
};

/*
 * Give @dev a detached node whose operating-points property holds the
 * @n cells (big-endian, as a device tree has them; none: an empty
 * property). The node lives as long as the case; the case sets
 * dev->of_node back to NULL before the device goes.
 */
static inline void fixture_of_attach(struct kunit *test, struct device *dev,
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

struct fixture_of_u32 {
	struct property prop;
	__be32 val;
};

/* Give @dev's node (from fixture_of_attach()) a one-cell property. */
static inline void fixture_of_add_u32(struct kunit *test, struct device *dev,
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

static inline struct fixture_found fixture_find(struct device *dev,
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

static inline int fixture_count(struct device *dev)
{
	int count;

	rcu_read_lock();
	count = opp_get_opp_count(dev);
	rcu_read_unlock();
	return count;
}

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

/* Records each event and whether the change was visible when it came. */
static inline int fixture_listen(struct notifier_block *nb,
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

static inline struct fixture_listener *
fixture_listener_new(struct kunit *test, struct device *dev)
{
	struct fixture_listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	l->nb.notifier_call = fixture_listen;
	l->dev = dev;
	l->ret = NOTIFY_OK;
	return l;
}

/* Event @i of @l: its kind, its OPP (of fixture_add_four()'s voltages). */
static inline void fixture_expect_event(struct kunit *test,
					struct fixture_listener *l,
					unsigned int i, unsigned long event,
					unsigned long rate, bool available)
{
	KUNIT_ASSERT_LT(test, i, l->n);
	KUNIT_EXPECT_EQ_MSG(test, l->event[i], event, "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].rate, rate, "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].u_volt, fixture_volt_of(rate),
			    "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].available, available, "event %u", i);
	KUNIT_EXPECT_TRUE_MSG(test, l->visible[i], "event %u came too early", i);
}

/*
 * Render the seq_file of @f into a buffer of @size bytes of ours, which
 * seq_release() frees with the file: -EOVERFLOW if it does not fit.
 */
static inline int fixture_seq_render(struct file *f, size_t size)
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

/*
 * Each line of the debugfs file @path to @fn, with @arg, until @fn returns
 * non-zero (which this returns). kernel_read() refuses a debugfs file
 * (its proxy has .read, not .read_iter), so the file is opened as a reader
 * opens it and rendered through its own seq_file operations, into a
 * buffer grown until the text fits. Returns 0, @fn's value, or -errno.
 */
static inline int fixture_debugfs_lines(const char *path,
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

#endif /* _OPP_FIXTURE_H */
