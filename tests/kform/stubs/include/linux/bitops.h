/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STUB_LINUX_BITOPS_H
#define _STUB_LINUX_BITOPS_H
#include <linux/types.h>
#define BITS_PER_LONG (8 * sizeof(unsigned long))
static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return 1UL & (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG));
}
#endif
