// SPDX-License-Identifier: GPL-2.0
/*
 * .lbs/: the control interface, so that no new tool is needed.
 *   .lbs/ctl          write commands (one a line), read the list
 *   .lbs/stats        lbs_sim_counters of every file, and their sum
 *   .lbs/map/<path>   lbs_sim_map_render() of that file (lbs-sim map)
 * Text is rendered at open and read from there: a reader sees one
 * consistent snapshot.
 */
#define _GNU_SOURCE
#include "lbsfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ctl_help[] =
	"# write one command a line; paths are from the mount's root\n"
	"drop_caches                   # every file: drop clean page cache\n"
	"crash                         # every file: power cut\n"
	"writeback                     # every file: background writeback until clean\n"
	"writeback PATH POS            # one pass from the folio at POS\n"
	"fsync_range PATH START END    # [START, END] inclusive\n";

void ctl_init(struct lbsfs *fs)
{
	fs->lbs_dir = node_new(fs, N_LBS_DIR, S_IFDIR | 0555);
	fs->ctl = node_new(fs, N_CTL, S_IFREG | 0644);
	fs->stats = node_new(fs, N_STATS, S_IFREG | 0444);
	fs->map_root = node_new(fs, N_MAP_DIR, S_IFDIR | 0555);
	if (!fs->lbs_dir || !fs->ctl || !fs->stats || !fs->map_root)
		abort();
	/* fixed nodes: a permanent reference, never freed */
	fs->lbs_dir->refs = fs->ctl->refs = fs->stats->refs = 1;
	fs->map_root->refs = 1;
	fs->map_root->target = fs->root;
	fs->root->view = fs->map_root;
}

static void counters_line(FILE *f, const struct lbs_sim_counters *c)
{
	uint64_t large = 0;

	for (unsigned int o = 1; o < LBS_SIM_NR_ORDERS; o++)
		large += c->lf.made[o];
	/* large folios (--large-folios): made, and allocations that failed */
	fprintf(f, " lf_order0 %" PRIu64 " lf_large %" PRIu64
		" lf_fallbacks %" PRIu64, c->lf.made[0], large,
		c->lf.fallbacks);
	fprintf(f, " za_calls %" PRIu64 " za_zeroed %" PRIu64
		" za_need %" PRIu64 " za_dirtied_uptodate %" PRIu64
		" dio_zero_bios %" PRIu64 " dio_zero_segs %" PRIu64
		" wb_calls %" PRIu64 " wb_folios %" PRIu64
		" wb_last_folios %" PRIu64 " wb_max_folios %" PRIu64
		" dev_writes %" PRIu64 " eof_zero_bios %" PRIu64
		" crashes %" PRIu64 " remaps %" PRIu64
		" cow_blocks %" PRIu64 " ca_filled %" PRIu64
		" ca_zeroed %" PRIu64 "\n",
		c->za_calls, c->za_zeroed, c->za_need,
		c->za_dirtied_uptodate, c->dio_zero_bios, c->dio_zero_segs,
		c->wb_calls, c->wb_folios, c->wb_last_folios, c->wb_max_folios,
		c->dev_writes, c->eof_zero_bios, c->crashes, c->remaps,
		c->cow_blocks, c->ca_filled, c->ca_zeroed);
}

static void add(struct lbs_sim_counters *t, const struct lbs_sim_counters *c)
{
	const uint64_t *s = (const uint64_t *)c;
	uint64_t *d = (uint64_t *)t;

	/* every field is a uint64_t count */
	for (size_t i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

static void render_stats(struct lbsfs *fs, FILE *f)
{
	struct lbs_sim_counters total = { 0 };
	char path[4096];
	struct node *n;

	fprintf(f, "# lbs-fuse block_size %u page_size %u st_blksize %u "
		"max_file_size %" PRIu64 " inject 0x%x\n",
		lbs_sim_block_size(fs->ref), lbs_sim_page_size(fs->ref),
		lbs_sim_stat_blksize(fs->ref), fs->cfg.max_file_size,
		fs->cfg.inject);
	pthread_mutex_lock(&fs->ns_lock);
	for (n = fs->all.next; n != &fs->all; n = n->next) {
		if (n->kind != N_REG)
			continue;
		node_path(n, path, sizeof(path));
		pthread_mutex_lock(&n->lock);
		fprintf(f, "file %s size %" PRIu64 " disk_size %" PRIu64
			" folios %" PRIu64, path, lbs_sim_size(n->sim),
			lbs_sim_disk_size(n->sim), lbs_sim_nr_folios(n->sim));
		counters_line(f, lbs_sim_counters(n->sim));
		add(&total, lbs_sim_counters(n->sim));
		pthread_mutex_unlock(&n->lock);
	}
	fprintf(f, "total files %" PRIu64, fs->nfiles);
	pthread_mutex_unlock(&fs->ns_lock);
	counters_line(f, &total);
}

char *ctl_render(struct lbsfs *fs, struct node *n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	switch (n->kind) {
	case N_CTL:
		fputs(ctl_help, f);
		break;
	case N_STATS:
		render_stats(fs, f);
		break;
	case N_MAP_FILE:
		/* the view pins its file: the simulator stays */
		pthread_mutex_lock(&n->target->lock);
		lbs_sim_map_render(n->target->sim, f, 0, 0, 0);
		pthread_mutex_unlock(&n->target->lock);
		break;
	default:
		break;
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* the flusher: WB_SYNC_NONE passes until nothing is dirty (bounded: each
 * pass writes at least the folio it starts at) */
static void writeback_all(struct lbs_sim *sim)
{
	uint64_t passes = lbs_sim_nr_folios(sim) + 1;
	int64_t idx;

	while (passes-- && (idx = lbs_sim_pick_dirty(sim, 0)) >= 0)
		lbs_sim_writeback_folio(sim, (uint64_t)idx *
					lbs_sim_page_size(sim));
}

enum every { E_DROP, E_CRASH, E_WRITEBACK };

static void on_every_file(struct lbsfs *fs, enum every what)
{
	struct node *n;

	pthread_mutex_lock(&fs->ns_lock);
	for (n = fs->all.next; n != &fs->all; n = n->next) {
		if (n->kind != N_REG)
			continue;
		pthread_mutex_lock(&n->lock);
		if (what == E_DROP)
			lbs_sim_drop_caches(n->sim);
		else if (what == E_CRASH)
			lbs_sim_crash(n->sim);
		else
			writeback_all(n->sim);
		pthread_mutex_unlock(&n->lock);
	}
	pthread_mutex_unlock(&fs->ns_lock);
}

static int num(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

/* "writeback PATH POS", "fsync_range PATH START END" */
static int on_one_file(struct lbsfs *fs, const char *cmd, char **arg,
		       int nargs)
{
	bool wb = !strcmp(cmd, "writeback");
	uint64_t a = 0, b = 0;
	struct node *n;
	int err = 0;

	if (nargs != (wb ? 2 : 3) || num(arg[1], &a) ||
	    (!wb && num(arg[2], &b)))
		return -EINVAL;
	pthread_mutex_lock(&fs->ns_lock);
	n = node_resolve(fs, arg[0]);
	if (!n || n->kind != N_REG) {
		err = n ? -EISDIR : -ENOENT;
	} else {
		pthread_mutex_lock(&n->lock);
		if (wb)
			lbs_sim_writeback_folio(n->sim, a);
		else
			err = lbs_sim_fsync_range(n->sim, a, b);
		pthread_mutex_unlock(&n->lock);
	}
	pthread_mutex_unlock(&fs->ns_lock);
	return err;
}

static int one_command(struct lbsfs *fs, char *line)
{
	char *tok[5], *save = NULL, *t;
	int nt = 0;

	for (t = strtok_r(line, " \t", &save); t && nt < 5;
	     t = strtok_r(NULL, " \t", &save))
		tok[nt++] = t;
	if (!nt || tok[0][0] == '#')
		return 0;
	if (nt == 1 && !strcmp(tok[0], "drop_caches"))
		on_every_file(fs, E_DROP);
	else if (nt == 1 && !strcmp(tok[0], "crash"))
		on_every_file(fs, E_CRASH);
	else if (nt == 1 && !strcmp(tok[0], "writeback"))
		on_every_file(fs, E_WRITEBACK);
	else if (!strcmp(tok[0], "writeback") || !strcmp(tok[0], "fsync_range"))
		return on_one_file(fs, tok[0], tok + 1, nt - 1);
	else
		return -EINVAL;
	return 0;
}

int ctl_command(struct lbsfs *fs, const char *buf, size_t len)
{
	char *text = strndup(buf, len), *save = NULL, *line;
	int err = 0;

	if (!text)
		return -ENOMEM;
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		char *shown = strdup(line);	/* one_command() splits line */

		err = one_command(fs, line);
		if (err)
			fprintf(stderr, "lbs-fuse: .lbs/ctl: \"%s\": %s\n",
				shown ? shown : "?", strerror(-err));
		free(shown);
	}
	free(text);
	return err;
}
