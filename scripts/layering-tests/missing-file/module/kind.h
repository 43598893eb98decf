/* SPDX-License-Identifier: GPL-2.0 */
void kind_init(void);
