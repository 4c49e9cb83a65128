/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Brute-force oracles for every core/ function.
 *
 * Each oracle is written from the kernel-doc of its core function, not from
 * its code: offsets are located by walking pages, units, blocks or AGs from
 * 0, the bytes or pages of a small model are classified one by one, and the
 * answer is read off the model.  No oracle uses a mask, a shift of an offset
 * or core/lbs_util.h; sizes are built by doubling.
 *
 * The calling convention is that of lbs_vec_call() (tests/vec/lbs_vec.h):
 * function name without the lbs_ prefix, inputs and outputs as u64, with
 * the per-function layouts of tests/vec/README.md.
 */
#ifndef LBS_ORACLE_H
#define LBS_ORACLE_H

#include <stdint.h>

/* oracle_call() results other than an output count */
#define ORACLE_UNKNOWN	(-1)	/* unknown function or wrong input count */
#define ORACLE_DOMAIN	(-2)	/* inputs outside the documented domain */

/**
 * oracle_call() - compute what the core function @fn must return
 * @fn: function name without the lbs_ prefix
 * @nin: number of inputs
 * @in: inputs (@nin of them are read)
 * @out: outputs, 8 slots
 *
 * Return: number of outputs written; ORACLE_UNKNOWN if @fn is unknown or
 * @nin is not its input count; ORACLE_DOMAIN if the inputs lie outside the
 * domain the kernel-doc defines (or that the kernel callers guarantee),
 * in which case the core answer is unspecified and must not be compared.
 */
int oracle_call(const char *fn, uint32_t nin, const uint64_t *in,
		uint64_t *out);

/**
 * oracle_arity() - inputs and outputs of a function
 * @fn: function name without the lbs_ prefix
 * @nin: returns the number of inputs
 * @nout: returns the number of outputs
 *
 * Return: 0, or -1 if @fn is unknown.
 */
int oracle_arity(const char *fn, uint32_t *nin, uint32_t *nout);

/**
 * oracle_fn_name() - the @i-th function the oracle knows
 * @i: index from 0
 *
 * Return: its name, or NULL past the last one.
 */
const char *oracle_fn_name(uint32_t i);

/**
 * oracle_selftest() - check the walking helpers against each other
 *
 * Return: the number of disagreements found (0 expected).
 */
uint64_t oracle_selftest(void);

#endif /* LBS_ORACLE_H */
