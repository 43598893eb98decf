/* SPDX-License-Identifier: GPL-2.0 */
/* The test command's in-module benchmarks (test builds only, test.h). */
#ifndef _DXGPMO_BENCH_H
#define _DXGPMO_BENCH_H

struct dxgpmo_file;
struct dxgpmo_test_cmd;

int dxgpmo_bench_adl(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd);
int dxgpmo_bench_adl_steps(struct dxgpmo_file *file,
			   struct dxgpmo_test_cmd *cmd);
int dxgpmo_bench_chunks(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd);
int dxgpmo_bench_zero(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd);

#endif /* _DXGPMO_BENCH_H */
