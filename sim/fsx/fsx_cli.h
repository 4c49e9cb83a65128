/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line lbs-sim fsx, lbs-sim replay, lbs-sim map and lbs-fsx
 * share: one option table and one parser into struct lbs_fsx_opts, with
 * each tool's own options handed to it by a callback.
 */
#ifndef LBS_FSX_CLI_H
#define LBS_FSX_CLI_H

#include "fsx.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* a tool's own options take getopt values from here on */
#define FSX_CLI_TOOL	512

struct fsx_cli {
	struct lbs_fsx_opts o;
	const char *prog;	/* message prefix: "lbs-sim", "lbs-fsx" ... */
	const char *record;	/* --record-ops */
	bool final_sum;		/* --final-sum */
	bool have_bs, have_ps, have_seed, have_ops;
	/* the simulator's fault knobs; NULL: --inject refused */
	unsigned (*inject_parse)(const char *name);
	const char *inject_names;
	/* the tool's options (zero-terminated, val >= FSX_CLI_TOOL) and
	 * their handler: 0, or -1 after printing why */
	const struct option *tool_opts;
	int (*tool_opt)(void *arg, int val, const char *optarg);
	void *tool_arg;
	void (*usage)(FILE *f);	/* the tool's, for --help */
};

/*
 * Parse @argv[1..] (argv[0] is the command's name).  Returns -1 to go on
 * (the operands are at argv[optind..]), or the exit status: 0 after
 * --help printed the usage, 2 after a message saying what was wrong.
 */
int fsx_cli_parse(struct fsx_cli *cli, int argc, char **argv);
/* a size with an optional k/m suffix; 0 or -1 after a message */
int fsx_cli_num(const char *prog, const char *opt, const char *s,
		uint64_t *v);
/* the shared options' usage lines */
void fsx_cli_usage(FILE *f, bool inject);
/* --record-ops: open cli->record into cli->o.record; 0 or 2 */
int fsx_cli_open_record(struct fsx_cli *cli);

#endif
