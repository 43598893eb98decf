/* SPDX-License-Identifier: GPL-2.0 */
struct low_dev {
	int refs;
	struct low_dev *low;
};

void low_release(struct low_dev *dev);
