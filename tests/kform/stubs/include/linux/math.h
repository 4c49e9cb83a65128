/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's definitions (include/linux/math.h), verbatim in meaning. */
#ifndef _STUB_LINUX_MATH_H
#define _STUB_LINUX_MATH_H
#define __round_mask(x, y) ((__typeof__(x))((y)-1))
#define round_up(x, y) ((((x)-1) | __round_mask(x, y))+1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define DIV_ROUND_DOWN_ULL(ll, d) \
	({ unsigned long long _tmp = (ll); _tmp /= (unsigned int)(d); _tmp; })
#define DIV_ROUND_UP_ULL(ll, d) \
	DIV_ROUND_DOWN_ULL((unsigned long long)(ll) + (d) - 1, (d))
#endif
