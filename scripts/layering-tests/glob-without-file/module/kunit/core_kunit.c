// SPDX-License-Identifier: GPL-2.0
#include "../core.h"

static void core_do_test(void)
{
	core_do('a', "b");
}
