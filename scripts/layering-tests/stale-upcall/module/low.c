// SPDX-License-Identifier: GPL-2.0
#include "low.h"

void low_release(struct low_dev *dev)
{
	dev->refs--;
}
