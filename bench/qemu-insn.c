// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for bench/kernel-repeat.sh --insns: counts the guest
 * instructions executed between marks that the guest sets with
 * bench/insn-mark.c, and optionally which code executed them.
 *
 * Why: under TCG a guest's wall time moves by several percent with code
 * layout and by 30-40 % from boot to boot, so a few-percent question ("does
 * the series make the 4k write path do more?") needs a count that neither
 * moves: instructions executed.
 *
 *   qemu-system-x86_64 -accel tcg ... -smp 1 \
 *       -plugin bench/build/qemu-insn.so,out=FILE[,prof=1]
 *
 * Each executed mark appends "LBS-INSN mark=K n=SEQ total=COUNT
 * kernel=KCOUNT" to FILE (K = 1 for a plain mark, 2 for a profile mark;
 * COUNT = instructions executed by the guest since boot, KCOUNT those of
 * them in the kernel half of the address space: a job's user space, fio
 * for one, does work that depends on time). With prof=1 the instructions executed
 * between the 1st and 2nd profile mark, the 3rd and 4th and so on are also
 * kept per translation block, and "LBS-INSN-PC 0xADDR COUNT" lines (one per
 * block start address, summed) are appended at exit.
 *
 * The counts are taken with inline adds at the start of each translation
 * block, which are exact only when one vCPU thread runs guest code: use
 * -smp 1. A block left early (a fault or an interrupt inside it) still
 * counts whole: that is a fraction of a percent of a job, and the same
 * kind of event on both kernels.
 *
 * QEMU's own header is not packaged in Debian; the few entry points used
 * are declared below as the plugin API version 1 (QEMU 4.2 to 8.x, Debian
 * 12 ships 7.2) defines them.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- QEMU plugin API, version 1 (the subset used) ---- */
#define EXPORT __attribute__((visibility("default")))
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    vcpu_udata_cb cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb,
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

EXPORT int qemu_plugin_version = 1;

/*
 * The mark: "nopl 0x3K53424c(%rax)", 0f 1f 80 'L' 'B' 'S' 'K' with K the
 * mark's kind ('1' plain, '2' profile). A no-op to the CPU; no compiler
 * emits a no-op with that displacement.
 */
static const unsigned char mark_bytes[6] = { 0x0f, 0x1f, 0x80, 'L', 'B', 'S' };

/* One translation block's count; never freed, its address is in the code. */
struct tbc {
	uint64_t vaddr;
	uint64_t n_insns;
	uint64_t execs;   /* inline: +1 per execution */
	uint64_t opened;  /* execs when the profile window opened */
	uint64_t kept;    /* executions inside closed profile windows */
};

#define CHUNK 4096
struct chunk {
	struct chunk *next;
	size_t used;
	struct tbc tbc[CHUNK];
};

static FILE *out;
static bool prof;
static bool window_open;
static uint64_t total;     /* inline: + n_insns per block execution */
static uint64_t kernel;    /* the same, blocks in the kernel half only */
static uint64_t seq;
static struct chunk *chunks;

static struct tbc *tbc_new(uint64_t vaddr, uint64_t n)
{
	if (!chunks || chunks->used == CHUNK) {
		struct chunk *c = calloc(1, sizeof(*c));

		if (!c) {
			fprintf(stderr, "qemu-insn: out of memory\n");
			abort();
		}
		c->next = chunks;
		chunks = c;
	}
	struct tbc *t = &chunks->tbc[chunks->used++];

	t->vaddr = vaddr;
	t->n_insns = n;
	return t;
}

static void window_toggle(void)
{
	for (struct chunk *c = chunks; c; c = c->next)
		for (size_t i = 0; i < c->used; i++) {
			struct tbc *t = &c->tbc[i];

			if (window_open)
				t->kept += t->execs - t->opened;
			else
				t->opened = t->execs;
		}
	window_open = !window_open;
}

static void on_mark(unsigned int vcpu, void *udata)
{
	int kind = (int)(uintptr_t)udata;

	(void)vcpu;
	/* Blocks made while the window is open start at opened = 0: right. */
	if (prof && kind == 2)
		window_toggle();
	fprintf(out, "LBS-INSN mark=%d n=%" PRIu64 " total=%" PRIu64
		" kernel=%" PRIu64 "\n", kind, ++seq, total, kernel);
	fflush(out);
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &total, n);
	/* x86_64: the kernel runs in the upper half of the address space */
	if (qemu_plugin_tb_vaddr(tb) >> 63)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &kernel, n);
	if (prof) {
		struct tbc *t = tbc_new(qemu_plugin_tb_vaddr(tb), n);

		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &t->execs, 1);
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *b = qemu_plugin_insn_data(insn);

		if (qemu_plugin_insn_size(insn) == 7 &&
		    !memcmp(b, mark_bytes, sizeof(mark_bytes)) &&
		    (b[6] == '1' || b[6] == '2'))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(b[6] - '0'));
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	for (struct chunk *c = chunks; c; c = c->next)
		for (size_t i = 0; i < c->used; i++) {
			struct tbc *t = &c->tbc[i];

			if (t->kept)
				fprintf(out, "LBS-INSN-PC 0x%" PRIx64 " %" PRIu64 "\n",
					t->vaddr, t->kept * t->n_insns);
		}
	fprintf(out, "LBS-INSN end marks=%" PRIu64 " total=%" PRIu64 "%s\n",
		seq, total, window_open ? " (profile window left open)" : "");
	fclose(out);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info,
			       int argc, char **argv);
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info,
			       int argc, char **argv)
{
	const char *path = NULL;

	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else if (!strcmp(argv[i], "prof=1")) {
			prof = true;
		} else if (strcmp(argv[i], "prof=0")) {
			fprintf(stderr, "qemu-insn: unknown argument '%s' (out=FILE, prof=0|1)\n",
				argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "qemu-insn: out=FILE is required\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
