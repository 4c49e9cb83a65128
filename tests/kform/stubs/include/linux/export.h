/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STUB_LINUX_EXPORT_H
#define _STUB_LINUX_EXPORT_H
/* must name an existing symbol, as in the kernel */
#define EXPORT_SYMBOL_GPL(sym) extern __typeof__(sym) sym
#endif
