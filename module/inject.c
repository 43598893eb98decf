// SPDX-License-Identifier: GPL-2.0
/*
 * The fault-injection points of the test build (test.h): every site that
 * can fail for lack of a resource asks dxgpmo_should_fail(), and the test
 * command (test.c) arms the countdowns.  They live at the bottom, apart
 * from the command, as the kernel keeps should_fail() in lib/fault-inject.c
 * and configures it from above: a site asking never calls up into the
 * command that reads objects back.
 */
#include <linux/atomic.h>

#include "inject.h"
#include "object.h"

/*
 * A test's countdown to the failure it asked for: true at the N-th call
 * after it was armed with N, never again until it is armed anew.
 */
static bool dxgpmo_countdown_hit(atomic_t *countdown)
{
	int nth = atomic_read(countdown);

	while (nth > 0) {
		if (atomic_try_cmpxchg(countdown, &nth, nth - 1))
			return nth == 1;
	}
	return false;
}

bool dxgpmo_should_fail(struct dxgpmo_file *file)
{
	return dxgpmo_countdown_hit(&file->fail_nth);
}

u32 dxgpmo_inject_arm(struct dxgpmo_file *file, u32 nth)
{
	return atomic_xchg(&file->fail_nth, nth);
}

/*
 * The alias switch's countdown is module-wide: the restore paths of a
 * failed switch cannot be reached otherwise.
 */
static atomic_t dxgpmo_alias_switch_fail_nth = ATOMIC_INIT(0);

bool dxgpmo_test_alias_switch_fails(void)
{
	return dxgpmo_countdown_hit(&dxgpmo_alias_switch_fail_nth);
}

u32 dxgpmo_inject_arm_alias_switch(u32 nth)
{
	return atomic_xchg(&dxgpmo_alias_switch_fail_nth, nth);
}
