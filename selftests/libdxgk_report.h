/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host-side libdxgk tests' result lines ("libdxgk: PASS|FAIL name",
 * which scripts/libdxgk-check.sh counts) and their one assertion, which
 * notes the failed condition and goes on.
 */
#ifndef LIBDXGK_REPORT_H
#define LIBDXGK_REPORT_H

#include <stdio.h>

static int failed;

static inline void report_prefixed(int ok, const char *prefix,
				   const char *name)
{
	printf("libdxgk: %s %s%s\n", ok ? "PASS" : "FAIL", prefix, name);
	failed |= !ok;
}

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("  %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		ok = 0;							\
	}								\
} while (0)

#endif /* LIBDXGK_REPORT_H */
