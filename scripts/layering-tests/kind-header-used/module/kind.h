/* SPDX-License-Identifier: GPL-2.0 */
#define KIND_NAME "kind"
void kind_init(void);
