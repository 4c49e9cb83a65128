// SPDX-License-Identifier: GPL-2.0
/* Run the generated KUnit suite in userspace and print KTAP. */
#include <kunit/test.h>

int main(void)
{
	struct kunit_suite *s = kunit_stub_suite;
	int n = 0, failed = 0, i;

	while (s->test_cases[n].run_case)
		n++;
	printf("KTAP version 1\n1..1\n");
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", s->name, n);
	for (i = 0; i < n; i++) {
		struct kunit t = { .name = s->test_cases[i].name };

		s->test_cases[i].run_case(&t);
		printf("    %s %d %s\n", t.failures ? "not ok" : "ok", i + 1,
		       t.name);
		failed += t.failures != 0;
	}
	printf("%s 1 %s\n", failed ? "not ok" : "ok", s->name);
	printf("# %s: %d passed, %d failed\n", s->name, n - failed, failed);
	return failed ? 1 : 0;
}
