// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the .fsxops line parser (sim/fsx/fsxops.c): split the
 * input into lines as the replayer does and parse each one, checking the
 * parser's contract on every result.  Built by tests/sim/run-fuzz.sh.
 *
 * -DLBS_FUZZ_PLANT_BUG makes an accepted "allocsp ... keep_size" line
 * crash, the negative control that the fuzzer does find crashes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsxops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *line, *nl;
	struct lbs_fsxops_line fl;
	char err[128];

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	for (line = buf; line; line = nl) {
		int r;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		err[0] = 0;
		r = lbs_fsxops_parse(line, &fl, err, sizeof(err));
		if (r < -1 || r > 1)
			abort();
		if (r < 0 && (!err[0] || strlen(err) >= sizeof(err)))
			abort();	/* every error has a reason */
		if (r == 1 && ((fl.nargs != 3 && fl.nargs != 4) || !fl.op[0]))
			abort();
		if (r == 0 && fl.note && (fl.nargs > 3 || !fl.op[0]))
			abort();	/* a note: its name, up to 3 numbers */
#ifdef LBS_FUZZ_PLANT_BUG
		if (r == 1 && !strcmp(fl.op, "allocsp") && fl.keep_size)
			abort();
#endif
	}
	free(buf);
	return 0;
}
