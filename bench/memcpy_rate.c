// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy bandwidth for the bytes an fsx campaign moves: read the
 * .fsxops recording, and time memcpy() of each read/write/mapread/
 * mapwrite op's length at its offset (file buffer to user buffer and
 * back, like the ops), repeating the whole list until 0.5 s have passed.
 * Prints "BYTES_PER_PASS PASSES SECONDS BYTES_PER_SECOND".
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct chunk { uint64_t off, len; };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
	struct chunk *c = NULL;
	size_t n = 0, cap = 0, passes = 0;
	uint64_t max = 0, per = 0, sink = 0;
	char line[512], op[32];
	uint8_t *file, *user;
	double t0, t;

	if (!f) {
		fprintf(stderr, "usage: memcpy_rate F.fsxops\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t off, len;

		if (sscanf(line, "%31s %" SCNi64 " %" SCNi64, op, &off, &len) != 3)
			continue;	/* comments, skip lines */
		if (strcmp(op, "read") && strcmp(op, "write") &&
		    strcmp(op, "mapread") && strcmp(op, "mapwrite"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			c = realloc(c, cap * sizeof(*c));
			if (!c)
				return 1;
		}
		c[n++] = (struct chunk){ off, len };
		per += len;
		if (off + len > max)
			max = off + len;
	}
	fclose(f);
	file = malloc(max + 1);
	user = malloc(max + 1);
	if (!file || !user)
		return 1;
	memset(file, 0x5a, max + 1);
	memset(user, 0xa5, max + 1);
	t0 = now();
	do {
		for (size_t i = 0; i < n; i++) {
			if (i & 1)
				memcpy(file + c[i].off, user + c[i].off, c[i].len);
			else
				memcpy(user + c[i].off, file + c[i].off, c[i].len);
			sink += user[c[i].off];
		}
		passes++;
		t = now() - t0;
	} while (t < 0.5);
	printf("%" PRIu64 " %zu %.6f %.0f\n", per, passes, t,
	       t > 0 ? (double)per * passes / t : 0.0);
	return sink == 0x123456789 ? 3 : 0;	/* keep the copies */
}
