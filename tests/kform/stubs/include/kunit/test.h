/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of KUnit that the generated suite uses, for running it in
 * userspace.  A failed expectation is reported in KTAP form like KUnit's.
 */
#ifndef _STUB_KUNIT_TEST_H
#define _STUB_KUNIT_TEST_H
#include <stdio.h>
#include <linux/kernel.h>

struct kunit {
	const char *name;
	int failures;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }

extern struct kunit_suite *kunit_stub_suite;
#define kunit_test_suite(s) struct kunit_suite *kunit_stub_suite = &(s)

#define KUNIT_STUB_CHECK(test, ok, left, right, what, fmt, ...) ({	\
	bool __ok = (ok);						\
	if (!__ok) {							\
		(test)->failures++;					\
		printf("    # %s: %s:%d: expected %s (%llu), got %llu\n",	\
		       (test)->name, __FILE__, __LINE__, what,		\
		       (unsigned long long)(right),			\
		       (unsigned long long)(left));			\
		printf("    # " fmt "\n", ##__VA_ARGS__);		\
	}								\
	__ok; })

#define KUNIT_EXPECT_EQ_MSG(test, a, b, fmt, ...) \
	((void)KUNIT_STUB_CHECK(test, (a) == (b), a, b, #a " == " #b, \
				fmt, ##__VA_ARGS__))
#define KUNIT_EXPECT_GT_MSG(test, a, b, fmt, ...) \
	((void)KUNIT_STUB_CHECK(test, (a) > (b), a, b, #a " > " #b, \
				fmt, ##__VA_ARGS__))
/* an assertion ends the test case, as KUnit's does */
#define KUNIT_ASSERT_EQ_MSG(test, a, b, fmt, ...) do {			\
	if (!KUNIT_STUB_CHECK(test, (a) == (b), a, b, #a " == " #b,	\
			      fmt, ##__VA_ARGS__))			\
		return;							\
} while (0)

#endif
