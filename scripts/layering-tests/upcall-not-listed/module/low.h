/* SPDX-License-Identifier: GPL-2.0 */
struct low_dev {
	int refs;
};

void low_release(struct low_dev *dev);
