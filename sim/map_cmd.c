// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-sim map: run ops on a simulator instance, then draw the block/page
 * state (map.c).
 *   lbs-sim map --block-size B --page-size P [--file-size L] [--inject X]
 *               [--ops-file F.fsxops | --op LINE... | --seed S --ops N]
 *               [--offset O --length L] [--color auto|always|never]
 *               [--no-picture]
 * --op LINE is one .fsxops line ("write 0x11170 0x64 0"); the last number
 * (the file size fsx logged, which replay does not use) may be left out.
 * The picture is the state after the last op, before the whole-file
 * verify read that ends every run (that read would cache every page).
 * Exit: 0 clean, 1 oracle mismatch (the picture is still drawn), 2 usage.
 *
 * Built as lbs-sim-map; lbs-sim execs it for "lbs-sim map".
 */
#define _GNU_SOURCE
#include "fsx_backend.h"
#include "fsxops.h"
#include "lbs_sim.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* the simulator backend, as fsx_sim.c's, plus the picture snapshot */
struct map_run {
	struct lbs_sim *sim;
	uint64_t off, len;
	unsigned flags;
	bool picture;
	char *snap;		/* picture before the latest read */
	size_t snap_len;
	bool snap_valid;	/* nothing but that read since */
};

#define SIM(p)	(((struct map_run *)(p))->sim)

static void touched(void *p) { ((struct map_run *)p)->snap_valid = false; }

static uint64_t m_size(void *p) { return lbs_sim_size(SIM(p)); }

static int64_t m_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	struct map_run *m = p;

	if (m->picture) {
		FILE *f;

		free(m->snap);
		m->snap = NULL;
		f = open_memstream(&m->snap, &m->snap_len);
		if (!f)
			abort();
		lbs_sim_map_render(m->sim, f, m->off, m->len, m->flags);
		fclose(f);
		m->snap_valid = true;
	}
	return lbs_sim_read(m->sim, pos, len, buf);
}

static int64_t m_dio_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	touched(p);
	return lbs_sim_dio_read(SIM(p), pos, len, buf);
}

static int64_t m_write(void *p, uint64_t pos, uint64_t len, const void *buf,
		       size_t fault_at)
{
	touched(p);
	return lbs_sim_write(SIM(p), pos, len, buf, fault_at);
}

static int64_t m_dio_write(void *p, uint64_t pos, uint64_t len,
			   const void *buf)
{
	touched(p);
	return lbs_sim_dio_write(SIM(p), pos, len, buf);
}

static int64_t m_mmap_write(void *p, uint64_t pos, uint64_t len,
			    const void *buf)
{
	touched(p);
	return lbs_sim_mmap_write(SIM(p), pos, len, buf);
}

static int m_truncate(void *p, uint64_t size)
{
	touched(p);
	return lbs_sim_truncate(SIM(p), size);
}

static int m_fallocate(void *p, int mode, uint64_t pos, uint64_t len)
{
	touched(p);
	return lbs_sim_fallocate(SIM(p), mode, pos, len);
}

static void m_fsync(void *p, uint64_t opno)
{
	(void)opno;
	touched(p);
	lbs_sim_fsync(SIM(p));
}

static void m_fsync_range(void *p, uint64_t start, uint64_t end)
{
	touched(p);
	lbs_sim_fsync_range(SIM(p), start, end);
}

static void m_writeback(void *p, uint64_t pos)
{
	int64_t idx = lbs_sim_pick_dirty(SIM(p), pos);

	touched(p);
	if (idx >= 0)
		lbs_sim_writeback_folio(SIM(p), (uint64_t)idx *
					lbs_sim_page_size(SIM(p)));
}

static void m_drop(void *p) { touched(p); lbs_sim_drop_caches(SIM(p)); }
static void m_crash(void *p) { touched(p); lbs_sim_crash(SIM(p)); }

static void m_describe(void *p, uint64_t off, char *buf, size_t n)
{
	lbs_sim_describe(SIM(p), off, buf, n);
}

static bool m_stale(void *p, uint64_t off, uint8_t v)
{
	return lbs_sim_is_stale_byte(SIM(p), off, v);
}

static void m_counters(void *p, struct lbs_fsx_result *r)
{
	const struct lbs_sim_counters *k = lbs_sim_counters(SIM(p));

	r->za_zeroed = k->za_zeroed;
	r->za_min = k->za_min;
	r->dio_zero_bios = k->dio_zero_bios;
	r->dio_zero_segs = k->dio_zero_segs;
	r->wb_folios = k->wb_folios;
	r->wb_calls = k->wb_calls;
	r->wb_max_folios = k->wb_max_folios;
	r->crashes = k->crashes;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-sim map --block-size B --page-size P [--file-size L]\n"
		"                   [--inject X]... [--ops-file F.fsxops | --op LINE...\n"
		"                   | --seed S --ops N] [--offset O --length L]\n"
		"                   [--color auto|always|never] [--no-picture]\n"
		"--op LINE: one .fsxops line, e.g. --op 'write 70000 100'; the last\n"
		"           number (logged file size, unused by replay) may be left out\n"
		"inject: %s\n", lbs_sim_inject_names());
}

static int num(const char *opt, const char *s, uint64_t *v)
{
	char *end;
	uint64_t m = 1;

	errno = 0;
	if (!*s || *s == '-')
		goto bad;
	*v = strtoull(s, &end, 0);
	if (errno)
		goto bad;
	if (*end == 'k' || *end == 'K')
		m = 1024, end++;
	else if (*end == 'm' || *end == 'M')
		m = 1024 * 1024, end++;
	if (*end)
		goto bad;
	*v *= m;
	return 0;
bad:
	fprintf(stderr, "lbs-sim map: --%s: bad number \"%s\"\n", opt, s);
	return -1;
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

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "block-size", 1, NULL, 'b' }, { "page-size", 1, NULL, 'p' },
		{ "file-size", 1, NULL, 'l' }, { "inject", 1, NULL, 'i' },
		{ "ops-file", 1, NULL, 'f' }, { "op", 1, NULL, 'O' },
		{ "seed", 1, NULL, 'S' }, { "ops", 1, NULL, 'N' },
		{ "offset", 1, NULL, 'a' }, { "length", 1, NULL, 'L' },
		{ "color", 1, NULL, 'c' }, { "no-picture", 0, NULL, 'n' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	struct lbs_fsx_opts o = { .block_size = 4096, .page_size = 4096,
				  .seed = 1, .no_crash = false, .quiet = true };
	struct map_run m = { .picture = true };
	struct lbs_fsx_result r;
	struct lbs_sim_config cfg;
	struct fsx_backend b;
	const char *ops_file = NULL, *colour = "auto";
	char err[256], path[64];
	bool have_seed = false, have_ops = false;
	int c, rc = 0, nop = 0, memfd = -1;
	FILE *ops = NULL;
	uint64_t v;

	if (argc > 1 && !strcmp(argv[1], "map"))
		argv[1] = argv[0], argv++, argc--;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'b': case 'p': case 'l': case 'S': case 'N': case 'a':
		case 'L': {
			const char *name = "?";

			for (const struct option *q = lo; q->name; q++)
				if (q->val == c)
					name = q->name;
			if (num(name, optarg, &v))
				return 2;
			if ((c == 'b' || c == 'p') && v > UINT32_MAX) {
				fprintf(stderr, "lbs-sim map: size %s out of range\n",
					optarg);
				return 2;
			}
			if (c == 'b') o.block_size = (uint32_t)v;
			if (c == 'p') o.page_size = (uint32_t)v;
			if (c == 'l') o.file_size = v;
			if (c == 'S') o.seed = v, have_seed = true;
			if (c == 'N') o.ops = v, have_ops = true;
			if (c == 'a') m.off = v;
			if (c == 'L') m.len = v;
			break;
		}
		case 'i': {
			unsigned bit = lbs_sim_inject_parse(optarg);

			if (!bit) {
				fprintf(stderr, "lbs-sim map: unknown --inject \"%s\" (known: %s)\n",
					optarg, lbs_sim_inject_names());
				return 2;
			}
			o.inject |= bit;
			break;
		}
		case 'f': ops_file = optarg; break;
		case 'O':
			if (!ops) {
				memfd = memfd_create("lbs-sim-map-ops", 0);
				ops = memfd >= 0 ? fdopen(memfd, "w") : NULL;
				if (!ops) {
					perror("lbs-sim map: memfd");
					return 2;
				}
			}
			if (add_op(ops, optarg))
				return 2;
			nop++;
			break;
		case 'c': colour = optarg; break;
		case 'n': m.picture = false; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "lbs-sim map: unexpected argument \"%s\"\n",
			argv[optind]);
		return 2;
	}
	if ((ops_file != NULL) + (nop > 0) + (have_seed || have_ops) > 1) {
		fprintf(stderr, "lbs-sim map: give one of --ops-file, --op or --seed/--ops\n");
		return 2;
	}
	if (have_seed != have_ops) {
		fprintf(stderr, "lbs-sim map: --seed and --ops go together\n");
		return 2;
	}
	if (!strcmp(colour, "always") ||
	    (!strcmp(colour, "auto") && isatty(1)))
		m.flags |= LBS_SIM_MAP_COLOR;
	else if (strcmp(colour, "never") && strcmp(colour, "auto")) {
		fprintf(stderr, "lbs-sim map: --color auto, always or never\n");
		return 2;
	}
	cfg = (struct lbs_sim_config){ o.block_size, o.page_size,
				       lbs_fsx_max_size(&o), o.inject,
				       o.folio_order };
	m.sim = lbs_sim_create(&cfg, err, sizeof(err));
	if (!m.sim) {
		fprintf(stderr, "lbs-sim map: %s\n", err);
		return 2;
	}
	b = (struct fsx_backend){
		.p = &m, .name = "lbs-sim",
		.stat_bs = lbs_sim_stat_blksize(m.sim),
		.page_size = lbs_sim_page_size(m.sim),
		.shift_align = o.block_size,
		/* as fsx_sim.c's sim_backend() sets them (keep in step) */
		.dio_align = 512, .dio_strict = true,
		.dio_read_lax = true, .can_crash = true,
		.size = m_size, .read = m_read, .map_read = m_read,
		.dio_read = m_dio_read, .write = m_write,
		.dio_write = m_dio_write, .mmap_write = m_mmap_write,
		.truncate = m_truncate, .fallocate = m_fallocate,
		.fsync = m_fsync, .fsync_range = m_fsync_range,
		.writeback = m_writeback, .drop_caches = m_drop,
		.crash = m_crash, .describe = m_describe,
		.is_stale_byte = m_stale, .counters = m_counters,
	};
	if (ops) {
		fflush(ops);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
		ops_file = path;
	}
	if (ops_file) {
		rc = lbs_fsx_replay_on(&o, &b, ops_file, NULL, &r);
		if (rc != 2)
			printf("%s: %" PRIu64 " ops run, %" PRIu64
			       " skipped by fsx's rules, %" PRIu64
			       " not modelled, %s\n",
			       ops ? "--op" : ops_file, r.ops_run,
			       r.fsx_skipped, r.unmodelled,
			       rc ? "MISMATCH" : "clean");
	} else if (have_seed) {
		rc = lbs_fsx_run_on(&o, &b, &r);
		if (rc != 2)
			printf("fsx seed %" PRIu64 ": %" PRIu64 " ops run, %s\n",
			       o.seed, r.ops_run, rc ? "MISMATCH" : "clean");
	}
	if (ops)
		fclose(ops);
	if (rc == 2)
		goto out;
	if (m.picture && m.snap_valid && rc == 0)
		fputs(m.snap, stdout);	/* before the final verify read */
	else if (m.picture)
		lbs_sim_map_render(m.sim, stdout, m.off, m.len, m.flags);
	else {
		const struct lbs_sim_counters *k = lbs_sim_counters(m.sim);

		printf("zero-around: %" PRIu64 " bytes zeroed in %" PRIu64
		       " writes; minimum %" PRIu64 " (core's ranges), %" PRIu64
		       " (independent count)\n", k->za_zeroed, k->za_calls,
		       k->za_min, k->za_need);
	}
out:
	free(m.snap);
	lbs_sim_destroy(m.sim);
	return rc;
}
