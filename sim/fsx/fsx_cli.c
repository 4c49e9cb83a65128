// SPDX-License-Identifier: GPL-2.0
/* The shared command line of the fsx tools; see fsx_cli.h. */
#define _GNU_SOURCE
#include "fsx_cli.h"
#include "oracle.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_BS = 256, O_PS, O_OPS, O_SEED, O_FSIZE, O_OPSIZE, O_NOCRASH,
	O_QUIET, O_RECORD, O_UNSUP, O_FSUM, O_MIX, O_CHECK, O_INJECT,
	O_PERTURB_W, O_PERTURB_G, O_PERTURB_D, O_FOLIO, O_CRASH_ALLOW,
	O_LF, O_WL, O_AFAIL, O_MM,
};

static const struct option common[] = {
	{ "block-size", 1, NULL, O_BS }, { "page-size", 1, NULL, O_PS },
	{ "ops", 1, NULL, O_OPS }, { "seed", 1, NULL, O_SEED },
	{ "file-size", 1, NULL, O_FSIZE }, { "op-size", 1, NULL, O_OPSIZE },
	{ "no-crash", 0, NULL, O_NOCRASH }, { "quiet", 0, NULL, O_QUIET },
	{ "record-ops", 1, NULL, O_RECORD },
	{ "unsupported", 1, NULL, O_UNSUP },
	{ "final-sum", 0, NULL, O_FSUM }, { "ops-mix", 1, NULL, O_MIX },
	{ "check-every", 1, NULL, O_CHECK }, { "inject", 1, NULL, O_INJECT },
	{ "max-folio-order", 1, NULL, O_FOLIO },
	{ "large-folios", 0, NULL, O_LF }, { "alloc-fail", 1, NULL, O_AFAIL },
	{ "mm-events", 1, NULL, O_MM },
	{ "write-pages", 0, NULL, O_WL },
	{ "crash-allow", 1, NULL, O_CRASH_ALLOW },
	{ "test-perturb-write", 1, NULL, O_PERTURB_W },
	{ "test-perturb-gendata", 0, NULL, O_PERTURB_G },
	{ "test-dio-accept-unaligned", 0, NULL, O_PERTURB_D },
	/* fsx's own letters, with long names */
	{ "direct", 0, NULL, 'Z' }, { "read-align", 1, NULL, 'r' },
	{ "write-align", 1, NULL, 'w' }, { "trunc-align", 1, NULL, 't' },
	{ "no-mapread", 0, NULL, 'R' }, { "no-mapwrite", 0, NULL, 'W' },
	{ "help", 0, NULL, 'h' },
};
#define NCOMMON (sizeof(common) / sizeof(common[0]))

int fsx_cli_num(const char *prog, const char *opt, const char *s,
		uint64_t *v)
{
	char *end;
	uint64_t m = 1;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		goto bad;
	*v = strtoull(s, &end, 0);
	if (errno)
		goto bad;
	if (*end == 'k' || *end == 'K')
		m = 1024, end++;
	else if (*end == 'm' || *end == 'M')
		m = 1024 * 1024, end++;
	if (*end || *v > UINT64_MAX / m)
		goto bad;
	*v *= m;
	return 0;
bad:
	fprintf(stderr, "%s: --%s: bad number \"%s\"\n", prog, opt, s);
	return -1;
}

static const char *name_of(const struct option *t, int val)
{
	for (; t && t->name; t++)
		if (t->val == val)
			return t->name;
	return "?";
}

/* -r/-w/-t: fsx takes any positive boundary */
static int bdy(const struct fsx_cli *cli, const char *opt, const char *s,
	       uint32_t *out)
{
	uint64_t v;

	if (fsx_cli_num(cli->prog, opt, s, &v))
		return -1;
	if (!v || v > (1u << 30)) {
		fprintf(stderr, "%s: --%s %s: a boundary from 1 to 1G\n",
			cli->prog, opt, s);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int one(struct fsx_cli *cli, int c, const char *arg)
{
	struct lbs_fsx_opts *o = &cli->o;
	const char *name = name_of(common, c);
	char err[160];
	uint64_t v;

	switch (c) {
	case O_BS: case O_PS: case O_OPS: case O_SEED: case O_FSIZE:
	case O_OPSIZE: case O_CHECK: case O_PERTURB_W: case O_FOLIO:
	case O_AFAIL: case O_MM:
		if (fsx_cli_num(cli->prog, name, arg, &v))
			return -1;
		if ((c == O_FOLIO || c == O_AFAIL || c == O_MM) &&
		    !cli->inject_parse) {
			fprintf(stderr, "%s: --%s: only the simulator has "
				"it\n", cli->prog, name);
			return -1;
		}
		/* lbs_sim_config_check() judges them */
		if (c == O_FOLIO)
			o->folio_order = v > 64 ? 64 : (uint32_t)v;
		if (c == O_AFAIL)
			o->alloc_fail_pct = v > 1000 ? 1000 : (uint32_t)v;
		if (c == O_MM)
			o->mm_event_pct = v > 1000 ? 1000 : (uint32_t)v;
		if ((c == O_BS || c == O_PS) && v > UINT32_MAX) {
			fprintf(stderr, "%s: --%s %s: out of range\n",
				cli->prog, name, arg);
			return -1;
		}
		if (c == O_FSIZE && v > ((uint64_t)1 << 30)) {
			fprintf(stderr, "%s: --file-size at most 1 GiB\n",
				cli->prog);
			return -1;
		}
		if (c == O_BS) o->block_size = (uint32_t)v, cli->have_bs = true;
		if (c == O_PS) o->page_size = (uint32_t)v, cli->have_ps = true;
		if (c == O_OPS) o->ops = v, cli->have_ops = true;
		if (c == O_SEED) o->seed = v, cli->have_seed = true;
		if (c == O_FSIZE) o->file_size = v;
		if (c == O_OPSIZE) o->op_size = v;
		if (c == O_CHECK) o->check_every = v;
		if (c == O_PERTURB_W) o->perturb_write = v;
		return 0;
	case O_LF:
	case O_WL:
		if (!cli->inject_parse) {
			fprintf(stderr, "%s: --%s: only the simulator has it\n",
				cli->prog, c == O_LF ? "large-folios" :
				"write-pages");
			return -1;
		}
		if (c == O_LF)
			o->large_folios = true;
		else
			o->write_pages = true;
		return 0;
	case O_NOCRASH: o->no_crash = true; return 0;
	case O_QUIET: o->quiet = true; return 0;
	case O_RECORD: cli->record = arg; return 0;
	case O_FSUM: cli->final_sum = true; return 0;
	case O_PERTURB_G: o->perturb_gendata = true; return 0;
	case O_PERTURB_D: o->perturb_dio_align = true; return 0;
	case O_UNSUP:
		if (lbs_fsx_features_parse(arg, &o->unsupported)) {
			fprintf(stderr, "%s: bad --unsupported\n", cli->prog);
			return -1;
		}
		return 0;
	case O_CRASH_ALLOW:
		if (lbs_crash_rules_parse(arg, &o->crash_allow)) {
			fprintf(stderr, "%s: --crash-allow \"%s\": rules are "
				"none or a list of %s\n", cli->prog, arg,
				lbs_crash_rule_names());
			return -1;
		}
		return 0;
	case O_MIX:
		if (lbs_fsx_mix_parse(arg, o->mix, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", cli->prog, err);
			return -1;
		}
		return 0;
	case O_INJECT: {
		unsigned bit = cli->inject_parse ? cli->inject_parse(arg) : 0;

		if (!cli->inject_parse) {
			fprintf(stderr, "%s: --inject: only the simulator has "
				"fault knobs\n", cli->prog);
			return -1;
		}
		if (!bit) {
			fprintf(stderr, "%s: unknown --inject \"%s\" (known: "
				"%s)\n", cli->prog, arg, cli->inject_names);
			return -1;
		}
		o->inject |= bit;
		return 0;
	}
	case 'Z': o->direct = true; return 0;
	case 'R': o->no_mapread = true; return 0;
	case 'W': o->no_mapwrite = true; return 0;
	case 'X': o->check_every = 1; return 0;
	case 'r': return bdy(cli, "read-align", arg, &o->read_bdy);
	case 'w': return bdy(cli, "write-align", arg, &o->write_bdy);
	case 't': return bdy(cli, "trunc-align", arg, &o->trunc_bdy);
	default:
		return -1;
	}
}

static int parse(struct fsx_cli *cli, int argc, char **argv)
{
	size_t nt = 0, n;
	struct option *all;
	int c, rc = 0;

	while (cli->tool_opts && cli->tool_opts[nt].name)
		nt++;
	n = NCOMMON + nt;
	all = calloc(n + 1, sizeof(*all));
	if (!all)
		abort();
	memcpy(all, common, sizeof(common));
	if (nt)
		memcpy(all + NCOMMON, cli->tool_opts, nt * sizeof(*all));
	optind = 0;		/* a fresh scan from argv[1] */
	while (!rc && (c = getopt_long(argc, argv, "hZr:w:t:RWX", all,
				       NULL)) != -1) {
		if (c == 'h')
			rc = 1;
		else if (c == '?' || c == ':')
			rc = 2;	/* getopt said what */
		else if (c >= FSX_CLI_TOOL)
			rc = cli->tool_opt(cli->tool_arg, c, optarg) ? 2 : 0;
		else
			rc = one(cli, c, optarg) ? 2 : 0;
	}
	free(all);
	return rc;
}

int fsx_cli_parse(struct fsx_cli *cli, int argc, char **argv)
{
	int rc = parse(cli, argc, argv);

	if (rc == 1) {
		cli->usage(stdout);
		return 0;	/* done: exit 0 */
	}
	if (rc == 2)
		fprintf(stderr, "%s: see %s --help\n", cli->prog, cli->prog);
	return rc ? rc : -1;
}

int fsx_cli_open_record(struct fsx_cli *cli)
{
	if (!cli->record)
		return 0;
	cli->o.record = fopen(cli->record, "w");
	if (!cli->o.record) {
		fprintf(stderr, "%s: %s: %s\n", cli->prog, cli->record,
			strerror(errno));
		return 2;
	}
	return 0;
}

void fsx_cli_usage(FILE *f, bool inject)
{
	fprintf(f,
		"common options (sizes take k/m suffixes):\n"
		"  --block-size B --page-size P --ops N --seed S\n"
		"  --file-size L (max file length) --op-size O (max op length)\n"
		"  --quiet --record-ops F.fsxops --final-sum\n"
		"  --no-crash           no crash ops (replay: crash notes stay\n"
		"                       comments)\n"
		"  --unsupported LIST   features to skip: %s\n"
		"  --crash-allow LIST   named exceptions a crash check may use\n"
		"                       (sim/fsx/oracle.h; default none): %s\n"
		"  --ops-mix OP=W,...   weights per op; ops left out get 0 (\"reflink\"\n"
		"                       first: the default mix plus the remap ops,\n"
		"                       \"default\" first: the default mix); ops:\n"
		"                       ",
		lbs_fsx_feature_names(), lbs_crash_rule_names());
	for (unsigned k = 0; lbs_fsx_op_name(k); k++)
		fprintf(f, "%s%s", k ? (k % 6 ? " " : "\n                       ")
			: "", lbs_fsx_op_name(k));
	fprintf(f, "\n"
		"  -Z, --direct         reads and writes through O_DIRECT (fsx -Z)\n"
		"  -r, --read-align N   read offsets (O_DIRECT: lengths) rounded to N\n"
		"  -w, --write-align N  write offsets (O_DIRECT: lengths) rounded to N\n"
		"  -t, --trunc-align N  truncate sizes rounded to N\n"
		"  -R, --no-mapread     mapped reads become reads (fsx -R)\n"
		"  -W, --no-mapwrite    mapped writes become writes (fsx -W)\n"
		"  -X                   verify the whole file after every op (fsx -X)\n"
		"  --check-every K      ... after every K ops (default: at the end,\n"
		"                       drop caches and crash)\n"
		"  --test-perturb-write N    test only: replay the Nth write one byte short\n"
		"  --test-perturb-gendata    test only: odd bytes without fsx's random term\n"
		"  --test-dio-accept-unaligned  test only (lbs-sim): no O_DIRECT EINVAL\n");
	if (inject)
		fprintf(f, "  --inject X           fault knob (repeatable)\n"
			"  --max-folio-order K  readahead's largest folio order\n"
			"                       (bs <= ps only; default 0)\n"
			"  --large-folios       bs > ps: folios of order 0 or at least\n"
			"                       the block's (up to --max-folio-order,\n"
			"                       default the block's: one block a folio)\n"
			"  --write-pages        with it: writes into uncached blocks make\n"
			"                       pages, not large folios (6.1's write path)\n"
			"  --alloc-fail P       with it: P%% of large allocations fail\n"
			"  --mm-events P        with it: P%% chance of a split, eviction,\n"
			"                       migration or invalidation at each point\n");
}
