// SPDX-License-Identifier: GPL-2.0-only
/*
 * opp_bench: the figures' arithmetic that the measuring files share (the
 * timings' median and minimum, the bytes an allocation holds), below them
 * both and calling neither.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/types.h>

#include "opp_bench.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v[0..n), which it sorts. */
u64 bench_median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), cmp_u64, NULL);
	return v[n / 2];
}

/* The least of @v[0..n), which it sorts. */
u64 bench_min(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), cmp_u64, NULL);
	return v[0];
}

/* The bytes of the allocation that holds @p (interior pointers too). */
static size_t bench_obj_size(const void *p)
{
	struct folio *folio = virt_to_folio(p);

	return folio_test_slab(folio) ? ksize(p) : folio_size(folio);
}

static int cmp_ptr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The bytes of the allocations at or around the @n addresses of @p (as
 * the allocator rounds them), each allocation counted once however many
 * of the addresses lie in it: sorted, an address less than one
 * allocation size past the first of a group lies in the same allocation.
 * Sorts @p.
 */
size_t bench_alloc_bytes(unsigned long *p, unsigned int n)
{
	unsigned long base = 0;
	size_t size = 0, total = 0;
	unsigned int i;

	sort(p, n, sizeof(*p), cmp_ptr, NULL);
	for (i = 0; i < n; i++) {
		if (i && p[i] - base < size)
			continue;
		base = p[i];
		size = bench_obj_size((void *)base);
		total += size;
	}
	return total;
}
