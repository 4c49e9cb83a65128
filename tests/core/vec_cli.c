// SPDX-License-Identifier: GPL-2.0
/*
 * Core through the flat vector convention, for scripts.  Each stdin line
 * "fn in0 in1 ..." is answered on stdout by "fn in0 in1 ... = out0 ...",
 * computed by core (lbs_vec_call()), or by the oracle with --oracle.
 * An unknown function, a wrong input count or a bad number is an error
 * (exit status 1).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbs_vec.h"
#include "oracle.h"

int main(int argc, char **argv)
{
	int use_oracle = argc > 1 && !strcmp(argv[1], "--oracle");
	char *line = NULL, *tok, *save, *endp;
	size_t cap = 0;
	unsigned long lineno = 0;

	while (getline(&line, &cap, stdin) >= 0) {
		uint64_t in[LBS_VEC_MAX] = { 0 }, out[LBS_VEC_MAX] = { 0 };
		uint32_t nin = 0;
		char fn[64];
		int n, i;

		lineno++;
		tok = strtok_r(line, " \t\r\n", &save);
		if (!tok || tok[0] == '#')
			continue;
		snprintf(fn, sizeof(fn), "%s", tok);
		while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
			if (nin == LBS_VEC_MAX || tok[0] == '-') {
				fprintf(stderr, "stdin:%lu: bad input\n", lineno);
				return 1;
			}
			in[nin++] = strtoull(tok, &endp, 0);
			if (*endp) {
				fprintf(stderr, "stdin:%lu: bad number '%s'\n",
					lineno, tok);
				return 1;
			}
		}
		n = use_oracle ? oracle_call(fn, nin, in, out) :
				 lbs_vec_call(fn, nin, in, out);
		if (n < 0) {
			fprintf(stderr, "stdin:%lu: %s/%u: %s\n", lineno, fn,
				nin, n == ORACLE_DOMAIN ? "out of domain" :
				"unknown function or wrong arity");
			return 1;
		}
		printf("%s", fn);
		for (i = 0; i < (int)nin; i++)
			printf(" %" PRIu64, in[i]);
		printf(" =");
		for (i = 0; i < n; i++)
			printf(" %" PRIu64, out[i]);
		printf("\n");
	}
	free(line);
	return 0;
}
