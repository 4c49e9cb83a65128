/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test vector calls into core/: one flat calling convention (up to 8
 * integer inputs, up to 8 integer outputs) for every core function, so a
 * single data file drives the userspace suite and the kernel KUnit suite.
 */
#ifndef LBS_VEC_H
#define LBS_VEC_H

#include <stdint.h>
#include <stdbool.h>

#define LBS_VEC_MAX	8

/**
 * struct lbs_vec - one boundary vector
 * @fn: core function name without the lbs_ prefix
 * @line: line of the vector in the data file, for failure reports
 * @nin: inputs used
 * @nout: outputs expected
 * @in: inputs
 * @out: expected outputs
 */
struct lbs_vec {
	const char *fn;
	uint32_t line;
	uint32_t nin;
	uint32_t nout;
	uint64_t in[LBS_VEC_MAX];
	uint64_t out[LBS_VEC_MAX];
};

int lbs_vec_call(const char *fn, uint32_t nin, const uint64_t *in,
		 uint64_t *out);

#endif /* LBS_VEC_H */
