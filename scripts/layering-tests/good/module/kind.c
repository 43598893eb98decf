// SPDX-License-Identifier: GPL-2.0
#include "core.h"
#include "kind.h"

static const struct dxgpmo_adapter_ops kind_ops = {
	.name = "kind",
};

static void kind_probe(void)
{
}

void kind_init(void)
{
	kind_probe();
	core_register(&kind_ops);
}
