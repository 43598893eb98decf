// SPDX-License-Identifier: GPL-2.0
#include "core.h"

void extra_do(void)
{
	core_do(0, 0);
}
