/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel form of core/: x86_64 int-ll64 types. */
#ifndef _STUB_LINUX_TYPES_H
#define _STUB_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef signed long long s64;
#endif
