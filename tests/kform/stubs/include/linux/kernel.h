/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STUB_LINUX_KERNEL_H
#define _STUB_LINUX_KERNEL_H
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
