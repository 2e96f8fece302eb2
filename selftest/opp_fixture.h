/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixtures shared by the test and bench modules.
 *
 * Devices: initialised but never registered with the driver core (the
 * library only needs their identity and reference count), with a release
 * hook that counts, so a test can see the last reference go. A KUnit case
 * takes fixture_dev_new(), which asserts; the torture and the bench make
 * theirs outside a case with fixture_dev_create(), which returns an error.
 *
 * Device tree nodes: detached, carrying one operating-points property,
 * for opp_of_add_table().
 *
 * Searches: run under RCU with their outcome copied out, and checked after
 * the unlock, because a failing KUnit check allocates memory, which an RCU
 * reader must not.
 *
 * debugfs: a file of the library's view, line by line.
 */
#ifndef _OPP_FIXTURE_H
#define _OPP_FIXTURE_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/of.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/units.h>

#include "../opp.h"

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
