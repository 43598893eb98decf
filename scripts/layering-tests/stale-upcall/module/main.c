// SPDX-License-Identifier: GPL-2.0
#include "client.h"
#include "core.h"
#include "front.h"
#include "kind.h"
#include "low.h"

/* low.h for its struct's member alone, through core.h's pointer */
static int main_peek(struct core_obj *o)
{
	return o->low->refs;
}

static int main_init(void)
{
	client_init();
	front_init();
	kind_init();
	return main_peek(0);
}
