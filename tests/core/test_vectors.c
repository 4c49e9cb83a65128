// SPDX-License-Identifier: GPL-2.0
/*
 * The boundary vectors of tests/vec/core.vec against core (lbs_vec_call())
 * and against the oracles (oracle_call()), so that both a core change and
 * a stale file are caught; plus the file reader's handling of malformed
 * lines.
 *
 * Usage: test_vectors PATH/TO/core.vec
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lbs_vec.h"
#include "oracle.h"
#include "vecfile.h"

/* the kernel suite compiles the vectors into a table: keep it sane */
#define VEC_MIN		2000
#define VEC_MAX		9000
#define SHOW		10

static const char *vec_path;
static struct vecfile_vec *vecs;
static size_t nvecs;

static void print_vals(const uint64_t *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf(" %" PRIu64, v[i]);
}

static int setup(void **state)
{
	char err[VECFILE_ERRLEN];

	(void)state;
	if (vecfile_load(vec_path, &vecs, &nvecs, err)) {
		printf("%s\n", err);
		return -1;
	}
	printf("%s: %zu vectors\n", vec_path, nvecs);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(vecs);
	return 0;
}

/* compare one source of truth with the file, report by file line */
static void check_all(int use_oracle)
{
	const char *who = use_oracle ? "oracle" : "core";
	size_t i, bad = 0;

	for (i = 0; i < nvecs; i++) {
		const struct vecfile_vec *v = &vecs[i];
		uint64_t in[LBS_VEC_MAX] = { 0 }, out[LBS_VEC_MAX] = { 0 };
		int n;

		memcpy(in, v->in, sizeof(in));
		n = use_oracle ? oracle_call(v->fn, v->nin, in, out) :
				 lbs_vec_call(v->fn, v->nin, in, out);
		if (n == (int)v->nout &&
		    !memcmp(out, v->out, v->nout * sizeof(*out)))
			continue;
		if (bad++ < SHOW) {
			printf("%s:%u: %s:", vec_path, v->line, v->fn);
			print_vals(v->in, (int)v->nin);
			if (n < 0) {
				printf(": %s returned %d%s\n", who, n,
				       n == ORACLE_DOMAIN && use_oracle ?
				       " (inputs out of domain)" : "");
				continue;
			}
			printf("\n    %s gives:", who);
			print_vals(out, n);
			printf("\n    file says:");
			print_vals(v->out, (int)v->nout);
			printf("\n");
		}
	}
	printf("%s: %zu vectors checked against %s, %zu differ\n", vec_path,
	       nvecs, who, bad);
	if (bad && use_oracle)
		printf("the file is stale or was edited by hand: regenerate it "
		       "with 'meson compile -C builddir vectors'\n");
	if (bad)
		fail_msg("%zu of %zu vectors differ from %s", bad, nvecs, who);
}

static void t_core(void **state)
{
	(void)state;
	check_all(0);
}

static void t_oracle(void **state)
{
	(void)state;
	check_all(1);
}

/* every function has vectors, and the table stays within bounds */
static void t_coverage(void **state)
{
	const char *fn;
	uint32_t i;
	int missing = 0;

	(void)state;
	for (i = 0; (fn = oracle_fn_name(i)); i++) {
		size_t j, n = 0;

		for (j = 0; j < nvecs; j++)
			n += !strcmp(vecs[j].fn, fn);
		printf("  %-24s %5zu vectors\n", fn, n);
		if (n == 0) {
			printf("%s: no vectors for %s\n", vec_path, fn);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
	assert_in_range(nvecs, VEC_MIN, VEC_MAX);
}

/* -------------------------------------------------------------------- */
/* the reader */

static void expect_error(const char *line, const char *reason)
{
	struct vecfile_vec v;
	char err[VECFILE_ERRLEN];
	int r = vecfile_parse_line(line, &v, err);

	if (r != -1 || !strstr(err, reason))
		fail_msg("line \"%s\": got %d \"%s\", want error \"%s\"", line,
			 r, err, reason);
}

static void expect_ok(const char *line, int want, uint32_t nin,
		      uint64_t in0, uint32_t nout, uint64_t out0)
{
	struct vecfile_vec v;
	char err[VECFILE_ERRLEN];
	int r = vecfile_parse_line(line, &v, err);

	if (r != want)
		fail_msg("line \"%s\": got %d \"%s\", want %d", line, r, err,
			 want);
	if (want == 1) {
		assert_int_equal(v.nin, nin);
		assert_int_equal(v.nout, nout);
		assert_int_equal(v.in[0], in0);
		assert_int_equal(v.out[v.nout - 1], out0);
	}
}

static void t_parser(void **state)
{
	(void)state;
	expect_ok("", 0, 0, 0, 0, 0);
	expect_ok("   \t\n", 0, 0, 0, 0, 0);
	expect_ok("# a comment = 1 2\n", 0, 0, 0, 0, 0);
	expect_ok("pageblock_bits 9 12 = 9\n", 1, 2, 9, 1, 9);
	expect_ok("  pageblock_bits\t0x10 12 =  0xC # trailing\r\n", 1, 2, 16,
		  1, 12);
	expect_ok("fsb_count_ok 18446744073709551615 9 12 0 = 0", 1, 4,
		  UINT64_MAX, 1, 0);

	expect_error("pageblock_bitz 9 12 = 9", "unknown function 'pageblock_bitz'");
	expect_error("lbs_pageblock_bits 9 12 = 9", "unknown function");
	expect_error("pageblock_bits 9 = 9", "wrong arity: 'pageblock_bits' takes 2 inputs, got 1");
	expect_error("pageblock_bits 9 12 13 = 9", "takes 2 inputs, got 3");
	expect_error("pageblock_bits 9 12 = 9 9", "gives 1 outputs, got 2");
	expect_error("pageblock_bits 9 12 =", "gives 1 outputs, got 0");
	expect_error("pageblock_bits 9 12 9", "missing '='");
	expect_error("pageblock_bits 9 12 = 9 = 9", "more than one '='");
	expect_error("= 9", "no function name");
	expect_error("pageblock_bits 9 -12 = 9", "bad number '-12'");
	expect_error("pageblock_bits 9 12x = 9", "bad number '12x'");
	expect_error("pageblock_bits 9 0x = 9", "bad number '0x'");
	expect_error("pageblock_bits 9 0xg = 9", "bad number '0xg'");
	expect_error("pageblock_bits 9 12 = 18446744073709551616",
		     "bad number '18446744073709551616'");
	expect_error("pageblock_bits 9 12 = 0x10000000000000000", "bad number");
	expect_error("pageblock_bits 9 1.5 = 9", "bad number '1.5'");
	expect_error("adjust_read_range 1 2 3 4 5 6 7 8 9 = 1 2 3",
		     "more than 8 inputs");
}

/* the loader names the file and line of the first malformed line */
static void t_loader(void **state)
{
	char path[] = "/tmp/lbs-vec-XXXXXX", err[VECFILE_ERRLEN], want[300];
	struct vecfile_vec *v;
	size_t n;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "# header\npageblock_bits 9 12 = 9\n\n"
		   "zero_around 16 12 0 100 = 1 0 0 100 0 0 0\n");
	fclose(f);
	assert_int_equal(vecfile_load(path, &v, &n, err), -1);
	snprintf(want, sizeof(want), "%s:4: wrong arity: 'zero_around' takes "
		 "5 inputs, got 4", path);
	printf("loader: %s\n", err);
	assert_string_equal(err, want);
	assert_null(v);

	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "pageblock_bits 9 12 = 9\npageblock_size 9 12 = 512\n");
	fclose(f);
	assert_int_equal(vecfile_load(path, &v, &n, err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[1].line, 2);
	assert_int_equal(v[1].out[0], 512);
	free(v);
	unlink(path);

	assert_int_equal(vecfile_load("/nonexistent/core.vec", &v, &n, err), -1);
	assert_non_null(strstr(err, "/nonexistent/core.vec"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest file_tests[] = {
		cmocka_unit_test(t_core),
		cmocka_unit_test(t_oracle),
		cmocka_unit_test(t_coverage),
	};
	const struct CMUnitTest reader_tests[] = {
		cmocka_unit_test(t_parser),
		cmocka_unit_test(t_loader),
	};
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s VECTOR_FILE\n", argv[0]);
		return 2;
	}
	vec_path = argv[1];
	rc = cmocka_run_group_tests_name("vector reader", reader_tests, NULL,
					 NULL);
	rc |= cmocka_run_group_tests_name("core.vec", file_tests, setup,
					  teardown);
	return rc ? 1 : 0;
}
