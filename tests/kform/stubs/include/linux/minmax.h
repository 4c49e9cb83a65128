/* SPDX-License-Identifier: GPL-2.0 */
/* min()/max() with the kernel's rule that both operands have one type. */
#ifndef _STUB_LINUX_MINMAX_H
#define _STUB_LINUX_MINMAX_H
#define __stub_cmp(x, y, op) ({						\
	__typeof__(x) __x = (x);					\
	__typeof__(y) __y = (y);					\
	_Static_assert(__builtin_types_compatible_p(__typeof__(__x),	\
						   __typeof__(__y)),	\
		       "min()/max() of different types");		\
	__x op __y ? __x : __y; })
#define min(x, y) __stub_cmp(x, y, <)
#define max(x, y) __stub_cmp(x, y, >)
#endif
