/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vector writer of gen_vectors.c, shared with the generator sections
 * kept in their own files (gen_block.c, gen_short_copy.c, gen_settle.c,
 * gen_pagecache.c, gen_io.c, gen_xfs.c, gen_folio.c).
 */
#ifndef LBS_GEN_VECTORS_H
#define LBS_GEN_VECTORS_H

#include <stdint.h>

/* write one vector; @must: a regression vector, always written */
void emit(const char *fn, uint32_t nin, const uint64_t *in, int must);
/* a "# ..." comment line, and an empty line */
void comment(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void blank(void);

/* the sections, in the files named after them */
void gen_block(void);
void gen_large_folios(void);
void gen_short_copy(void);
void gen_settle(void);
void gen_folio(void);
/* gen_pagecache.c */
void gen_pageblock(void);
void gen_read_range(void);
void gen_truncate(void);
void gen_zero_uptodate(void);
void gen_need_zero_around(void);
void gen_zero_around(void);
void gen_copy_around(void);
/* gen_io.c */
void gen_dio(void);
void gen_writeback(void);
/* gen_xfs.c */
void gen_xfs(void);

/* LONG_MAX of a 64-bit kernel */
#define LONG_MAX_	((uint64_t)INT64_MAX)

#define ARGS(...) \
	(uint32_t)(sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)), \
	(uint64_t[]){ __VA_ARGS__ }
/* a boundary vector */
#define V(fn, ...)	emit(fn, ARGS(__VA_ARGS__), 0)
/* a regression vector: always written */
#define R(fn, ...)	emit(fn, ARGS(__VA_ARGS__), 1)

#endif /* LBS_GEN_VECTORS_H */
