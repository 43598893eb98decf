// SPDX-License-Identifier: GPL-2.0
#include "core.h"
#include "front.h"

/*
 * kind_init() and main_init(), named in comments, are no use
 */
// kind_init();
void front_init(void)
{
	core_do('"', "kind_init(); // main_init");
}
