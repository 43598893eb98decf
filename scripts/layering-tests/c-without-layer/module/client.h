/* SPDX-License-Identifier: GPL-2.0 */
void client_init(void);
