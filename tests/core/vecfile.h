/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader of tests/vec/core.vec (format: tests/vec/README.md).  Arity comes
 * from the oracle's table, so an unknown function or a wrong number of
 * inputs or outputs is rejected with the line and the reason.
 */
#ifndef LBS_VECFILE_H
#define LBS_VECFILE_H

#include <stddef.h>
#include <stdint.h>

#define VECFILE_MAX	8
#define VECFILE_FNLEN	40
#define VECFILE_ERRLEN	256

struct vecfile_vec {
	char fn[VECFILE_FNLEN];
	uint32_t line;
	uint32_t nin;
	uint32_t nout;
	uint64_t in[VECFILE_MAX];
	uint64_t out[VECFILE_MAX];
};

/**
 * vecfile_parse_line() - parse one line of a vector file
 * @text: the line, with or without its newline
 * @v: returns the vector
 * @err: returns the reason when the line is malformed
 *
 * Return: 1 for a vector, 0 for a blank or comment line, -1 if malformed.
 */
int vecfile_parse_line(const char *text, struct vecfile_vec *v,
		       char err[VECFILE_ERRLEN]);

/**
 * vecfile_load() - read every vector of a file
 * @path: the file
 * @vecs: returns a malloc()ed array of vectors
 * @n: returns their number
 * @err: returns "path:line: reason" for the first malformed line
 *
 * Return: 0, or -1 with @err set (nothing is returned in @vecs then).
 */
int vecfile_load(const char *path, struct vecfile_vec **vecs, size_t *n,
		 char err[VECFILE_ERRLEN]);

#endif /* LBS_VECFILE_H */
