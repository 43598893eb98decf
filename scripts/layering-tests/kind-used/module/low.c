// SPDX-License-Identifier: GPL-2.0
#include "core.h"
#include "low.h"

void low_release(struct low_dev *dev)
{
	core_put(0);
}
