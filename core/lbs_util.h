/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace definitions of the few kernel helpers that core/ uses.
 *
 * kpatch-gen replaces every LBS_* name below with its kernel twin and drops
 * this header, so each definition here must mean exactly what the kernel's
 * does, including its type rules: min()/max() refuse mixed types, and
 * round_up()/round_down() need a power-of-two alignment.
 */
#ifndef LBS_UTIL_H
#define LBS_UTIL_H

#include <stdint.h>
#include <stdbool.h>

#define LBS_SAME_TYPE(a, b) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(a), \
						   __typeof__(b)), \
		       "kernel min()/max() need operands of one type")

/* min() */
#define LBS_MIN(a, b) __extension__ ({			\
	__typeof__(a) lbs_a_ = (a);			\
	__typeof__(b) lbs_b_ = (b);			\
	LBS_SAME_TYPE(lbs_a_, lbs_b_);			\
	lbs_a_ < lbs_b_ ? lbs_a_ : lbs_b_; })

/* max() */
#define LBS_MAX(a, b) __extension__ ({			\
	__typeof__(a) lbs_a_ = (a);			\
	__typeof__(b) lbs_b_ = (b);			\
	LBS_SAME_TYPE(lbs_a_, lbs_b_);			\
	lbs_a_ > lbs_b_ ? lbs_a_ : lbs_b_; })

/* round_up() and round_down() from include/linux/math.h */
#define LBS_ROUND_MASK(x, y) ((__typeof__(x))((y) - 1))
#define LBS_ROUND_UP(x, y) ((((x) - 1) | LBS_ROUND_MASK(x, y)) + 1)
#define LBS_ROUND_DOWN(x, y) ((x) & ~LBS_ROUND_MASK(x, y))

/* DIV_ROUND_UP_ULL() */
#define LBS_DIV_ROUND_UP_ULL(ll, d) \
	((unsigned long long)(((unsigned long long)(ll) + (d) - 1) / (d)))

/* test_bit(): bit @nr of the unsigned long bitmap @map */
#define LBS_TEST_BIT(nr, map) \
	((bool)(((map)[(nr) / (8 * sizeof(unsigned long))] >> \
		 ((nr) % (8 * sizeof(unsigned long)))) & 1UL))

#endif /* LBS_UTIL_H */
