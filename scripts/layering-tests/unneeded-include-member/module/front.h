/* SPDX-License-Identifier: GPL-2.0 */
#define FRONT_MAX 4
void front_init(void);
