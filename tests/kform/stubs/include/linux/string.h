/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STUB_LINUX_STRING_H
#define _STUB_LINUX_STRING_H
#include <string.h>
#endif
