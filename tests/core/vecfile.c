// SPDX-License-Identifier: GPL-2.0
/*
 * Reader of the vector file; see vecfile.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vecfile.h"
#include "oracle.h"

/* a decimal or 0x-hex u64, the whole token, no sign */
static int vecfile_num(const char *tok, size_t len, uint64_t *v)
{
	uint64_t x = 0, base = 10, d;
	size_t i = 0;

	if (len > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		unsigned char c = (unsigned char)tok[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		if (x > (UINT64_MAX - d) / base)
			return -1;	/* does not fit in 64 bits */
		x = x * base + d;
	}
	*v = x;
	return 0;
}

int vecfile_parse_line(const char *text, struct vecfile_vec *v,
		       char err[VECFILE_ERRLEN])
{
	const char *p = text, *eq = NULL, *end;
	uint32_t want_in, want_out, *count;
	uint64_t *vals;
	size_t len;
	int side = 0;

	memset(v, 0, sizeof(*v));
	err[0] = '\0';
	/* the line ends at a comment or the newline */
	end = text + strcspn(text, "#\n\r");
	for (const char *q = text; q < end; q++) {
		if (*q == '=') {
			if (eq) {
				snprintf(err, VECFILE_ERRLEN, "more than one '='");
				return -1;
			}
			eq = q;
		}
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end)
		return 0;
	if (!eq) {
		snprintf(err, VECFILE_ERRLEN, "missing '='");
		return -1;
	}

	/* function name */
	len = 0;
	while (p + len < eq && !isspace((unsigned char)p[len]))
		len++;
	if (len == 0) {
		snprintf(err, VECFILE_ERRLEN, "no function name before '='");
		return -1;
	}
	if (len >= VECFILE_FNLEN) {
		snprintf(err, VECFILE_ERRLEN, "function name too long");
		return -1;
	}
	memcpy(v->fn, p, len);
	v->fn[len] = '\0';
	if (oracle_arity(v->fn, &want_in, &want_out)) {
		snprintf(err, VECFILE_ERRLEN, "unknown function '%s'", v->fn);
		return -1;
	}
	p += len;

	/* inputs up to '=', then outputs to the end */
	vals = v->in;
	count = &v->nin;
	for (;;) {
		while (p < end && p != eq && isspace((unsigned char)*p))
			p++;
		if (p == eq) {
			if (side) /* cannot happen: one '=' */
				break;
			side = 1;
			vals = v->out;
			count = &v->nout;
			p++;
			continue;
		}
		if (p == end)
			break;
		len = 0;
		while (p + len < end && p + len != eq &&
		       !isspace((unsigned char)p[len]))
			len++;
		if (*count == VECFILE_MAX) {
			snprintf(err, VECFILE_ERRLEN, "more than %d %s",
				 VECFILE_MAX, side ? "outputs" : "inputs");
			return -1;
		}
		if (vecfile_num(p, len, &vals[*count])) {
			snprintf(err, VECFILE_ERRLEN, "bad number '%.*s'",
				 (int)(len > 40 ? 40 : len), p);
			return -1;
		}
		(*count)++;
		p += len;
	}
	if (v->nin != want_in) {
		snprintf(err, VECFILE_ERRLEN,
			 "wrong arity: '%s' takes %u inputs, got %u",
			 v->fn, want_in, v->nin);
		return -1;
	}
	if (v->nout != want_out) {
		snprintf(err, VECFILE_ERRLEN,
			 "wrong arity: '%s' gives %u outputs, got %u",
			 v->fn, want_out, v->nout);
		return -1;
	}
	return 1;
}

int vecfile_load(const char *path, struct vecfile_vec **vecs, size_t *n,
		 char err[VECFILE_ERRLEN])
{
	struct vecfile_vec *arr = NULL, v;
	size_t cap = 0, cnt = 0, blen = 0;
	char *buf = NULL, why[VECFILE_ERRLEN];
	uint32_t line = 0;
	FILE *f;
	int r;

	*vecs = NULL;
	*n = 0;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, VECFILE_ERRLEN, "%.150s: %.90s", path,
			 strerror(errno));
		return -1;
	}
	while (getline(&buf, &blen, f) >= 0) {
		line++;
		r = vecfile_parse_line(buf, &v, why);
		if (r < 0) {
			snprintf(err, VECFILE_ERRLEN, "%.100s:%u: %.140s", path, line,
				 why);
			goto fail;
		}
		if (r == 0)
			continue;
		v.line = line;
		if (cnt == cap) {
			struct vecfile_vec *na;

			cap = cap ? 2 * cap : 1024;
			na = realloc(arr, cap * sizeof(*arr));
			if (!na) {
				snprintf(err, VECFILE_ERRLEN, "out of memory");
				goto fail;
			}
			arr = na;
		}
		arr[cnt++] = v;
	}
	free(buf);
	fclose(f);
	*vecs = arr;
	*n = cnt;
	return 0;
fail:
	free(buf);
	free(arr);
	fclose(f);
	return -1;
}
