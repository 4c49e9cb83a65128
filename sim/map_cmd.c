// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-sim map: run ops on a simulator instance, then draw the block/page
 * state (map.c).
 *   lbs-sim map --block-size B --page-size P [common options]
 *               [--ops-file F.fsxops | --op LINE... | --seed S --ops N]
 *               [--offset O --length L] [--color auto|always|never]
 *               [--no-picture]
 * --op LINE is one .fsxops line ("write 0x11170 0x64 0"); the last number
 * (the file size fsx logged, which replay does not use) may be left out.
 * The picture is the state after the last op, before the whole-file
 * verify read that ends every run (that read would cache every page).
 * Exit: 0 clean, 1 oracle mismatch (the picture is still drawn), 2 usage.
 */
#define _GNU_SOURCE
#include "fsx_backend.h"
#include "fsx_cli.h"
#include "fsxops.h"
#include "lbs_sim.h"
#include "map_cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { T_OPS_FILE = FSX_CLI_TOOL, T_OP, T_OFFSET, T_LENGTH, T_COLOR,
       T_NO_PICTURE };

struct map_run {
	struct lbs_sim *sim;
	uint64_t off, len;
	unsigned flags;
	bool picture;
	char *snap;		/* the picture before the final verify */
	size_t snap_len;
	const char *ops_file, *colour;
	FILE *ops;		/* --op lines, in a memfd */
	int memfd, nop;
};

/* fsx.c's hook: after the last op, before the final whole-file read */
static void snapshot(void *arg)
{
	struct map_run *m = arg;
	FILE *f;

	if (!m->picture)
		return;
	f = open_memstream(&m->snap, &m->snap_len);
	if (!f)
		abort();
	lbs_sim_map_render(m->sim, f, m->off, m->len, m->flags);
	fclose(f);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-sim map --block-size B --page-size P [options]\n"
		"                   [--ops-file F.fsxops | --op LINE... | --seed S --ops N]\n"
		"                   [--offset O --length L]\n"
		"                   [--color auto|always|never] [--no-picture]\n"
		"--op LINE: one .fsxops line, e.g. --op 'write 70000 100'; the last\n"
		"           number (logged file size, unused by replay) may be left out\n");
	fsx_cli_usage(f, true);
	fprintf(f, "inject: %s\n", lbs_sim_inject_names());
}
static bool is_num_word(const char *w, size_t n)
{
	return n && ((w[0] >= '0' && w[0] <= '9'));
}

/*
 * Check one --op line with the .fsxops parser and append it to @ops; if
 * it lacks only the trailing logged-size number, insert a 0 there.
 */
static int add_op(FILE *ops, const char *arg)
{
	struct lbs_fsxops_line fl;
	char why[128], why2[128], *fixed;
	const char *p = arg, *ins = NULL;
	int words = 0;

	if (strchr(arg, '\n')) {
		fprintf(stderr, "lbs-sim map: --op \"%s\": one line per --op\n",
			arg);
		return -1;
	}
	if (lbs_fsxops_parse(arg, &fl, why, sizeof(why)) > 0) {
		fprintf(ops, "%s\n", arg);
		return 0;
	}
	/* find the end of the run of numbers after the op word */
	while (*p) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t");
		if (!n)
			break;
		words++;
		if (!strncmp(p, "skip", n) && words == 1)
			words = 0;
		else if (words > 1 && !is_num_word(p, n) && !ins)
			ins = p;
		p += n;
	}
	if (!ins)
		ins = p;
	if (asprintf(&fixed, "%.*s 0 %s", (int)(ins - arg), arg, ins) < 0)
		abort();
	if (lbs_fsxops_parse(fixed, &fl, why2, sizeof(why2)) > 0) {
		fprintf(ops, "%s\n", fixed);
		free(fixed);
		return 0;
	}
	free(fixed);
	fprintf(stderr, "lbs-sim map: --op \"%s\": %s\n", arg,
		lbs_fsxops_parse(arg, &fl, why, sizeof(why)) == 0 ?
		"no op in the line" : why);
	return -1;
}

static int tool_opt(void *arg, int val, const char *optarg)
{
	struct map_run *m = arg;
	uint64_t v;

	switch (val) {
	case T_OPS_FILE: m->ops_file = optarg; return 0;
	case T_COLOR: m->colour = optarg; return 0;
	case T_NO_PICTURE: m->picture = false; return 0;
	case T_OFFSET: case T_LENGTH:
		if (fsx_cli_num("lbs-sim map", val == T_OFFSET ? "offset" :
				"length", optarg, &v))
			return -1;
		*(val == T_OFFSET ? &m->off : &m->len) = v;
		return 0;
	case T_OP:
		if (!m->ops) {
			m->memfd = memfd_create("lbs-sim-map-ops", 0);
			m->ops = m->memfd >= 0 ? fdopen(m->memfd, "w") : NULL;
			if (!m->ops) {
				perror("lbs-sim map: memfd");
				return -1;
			}
		}
		if (add_op(m->ops, optarg))
			return -1;
		m->nop++;
		return 0;
	default:
		return -1;
	}
}

static int check_args(const struct fsx_cli *cli, struct map_run *m)
{
	if ((m->ops_file != NULL) + (m->nop > 0) +
	    (cli->have_seed || cli->have_ops) > 1) {
		fprintf(stderr, "lbs-sim map: give one of --ops-file, --op or --seed/--ops\n");
		return 2;
	}
	if (cli->have_seed != cli->have_ops) {
		fprintf(stderr, "lbs-sim map: --seed and --ops go together\n");
		return 2;
	}
	if (!strcmp(m->colour, "always") ||
	    (!strcmp(m->colour, "auto") && isatty(1)))
		m->flags |= LBS_SIM_MAP_COLOR;
	else if (strcmp(m->colour, "never") && strcmp(m->colour, "auto")) {
		fprintf(stderr, "lbs-sim map: --color auto, always or never\n");
		return 2;
	}
	return 0;
}

static void no_picture(struct lbs_sim *sim)
{
	const struct lbs_sim_counters *k = lbs_sim_counters(sim);

	printf("zero-around: %" PRIu64 " bytes zeroed in %" PRIu64
	       " writes; minimum %" PRIu64 " (independent count)\n",
	       k->za_zeroed, k->za_calls, k->za_need);
}

static int run(struct fsx_cli *cli, struct map_run *m)
{
	struct lbs_fsx_opts *o = &cli->o;
	struct lbs_sim_config cfg;
	struct lbs_sim_lf_config lf;
	struct lbs_fsx_result r;
	char err[256], path[64];
	int rc = 0;

	lbs_fsx_sim_config(o, &cfg, &lf);
	m->sim = lbs_sim_create_lf(&cfg, &lf, err, sizeof(err));
	if (!m->sim) {
		fprintf(stderr, "lbs-sim map: %s\n", err);
		return 2;
	}
	o->before_final_check = snapshot;
	o->hook_arg = m;
	if (m->ops) {
		fflush(m->ops);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", m->memfd);
		m->ops_file = path;
	}
	if (fsx_cli_open_record(cli))
		rc = 2;
	else if (m->ops_file) {
		rc = lbs_fsx_sim_run(m->sim, o, m->ops_file, NULL, &r);
		if (rc != 2)
			printf("%s: %" PRIu64 " ops run, %" PRIu64
			       " skipped by fsx's rules, %" PRIu64
			       " not modelled, %s\n",
			       m->ops ? "--op" : m->ops_file, r.ops_run,
			       r.fsx_skipped, r.unmodelled,
			       rc ? "MISMATCH" : "clean");
	} else if (cli->have_seed) {
		rc = lbs_fsx_sim_run(m->sim, o, NULL, NULL, &r);
		if (rc != 2)
			printf("fsx seed %" PRIu64 ": %" PRIu64 " ops run, %s\n",
			       o->seed, r.ops_run, rc ? "MISMATCH" : "clean");
	}
	if (o->record)
		fclose(o->record);
	if (rc != 2) {
		if (m->picture && m->snap && rc == 0)
			fputs(m->snap, stdout);
		else if (m->picture)
			lbs_sim_map_render(m->sim, stdout, m->off, m->len,
					   m->flags);
		else
			no_picture(m->sim);
	}
	lbs_sim_destroy(m->sim);
	return rc;
}

int lbs_sim_map_cmd(int argc, char **argv)
{
	static const struct option topts[] = {
		{ "ops-file", 1, NULL, T_OPS_FILE }, { "op", 1, NULL, T_OP },
		{ "offset", 1, NULL, T_OFFSET }, { "length", 1, NULL, T_LENGTH },
		{ "color", 1, NULL, T_COLOR },
		{ "no-picture", 0, NULL, T_NO_PICTURE },
		{ NULL, 0, NULL, 0 }
	};
	struct map_run m = { .picture = true, .colour = "auto", .memfd = -1 };
	struct fsx_cli cli = {
		.o = { .block_size = 4096, .page_size = 4096, .seed = 1,
		       .quiet = true },
		.prog = "lbs-sim map", .inject_parse = lbs_sim_inject_parse,
		.inject_names = lbs_sim_inject_names(),
		.tool_opts = topts, .tool_opt = tool_opt, .tool_arg = &m,
		.usage = usage,
	};
	int rc = fsx_cli_parse(&cli, argc, argv);

	if (rc < 0 && optind != argc) {
		fprintf(stderr, "lbs-sim map: unexpected argument \"%s\"\n",
			argv[optind]);
		rc = 2;
	} else if (rc < 0) {
		rc = check_args(&cli, &m);
		if (!rc)
			rc = run(&cli, &m);
	}
	if (m.ops)
		fclose(m.ops);
	free(m.snap);
	return rc;
}
