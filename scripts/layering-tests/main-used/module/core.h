/* SPDX-License-Identifier: GPL-2.0 */
struct low_dev;

struct core_obj {
	struct low_dev *low;
};

struct dxgpmo_adapter_ops {
	const char *name;
};

void core_do(char c, const char *what);
void core_register(const struct dxgpmo_adapter_ops *ops);
void core_put(struct core_obj *o);
