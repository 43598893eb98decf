/* SPDX-License-Identifier: GPL-2.0 */
#define UTIL_USE(x) ((void)(x))
