// SPDX-License-Identifier: GPL-2.0
/*
 * A memory basis on a kernel driver's adapter held across the driver's
 * unload (dxgkrnl_sample.sh): made and started, "held" printed, then,
 * once stdin ends (the driver is gone by then), a query and a STOP must
 * be -ENODEV and the destroy must succeed: the driver's own
 * DxgkDdiDestroyMemoryBasis ran at its stop, and nothing calls into it
 * after.  Exits 0 when all of that holds.
 *
 * usage: dxgkrnl_sample_hold ADAPTER_ID
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dxgpmo.h"

int main(int argc, char **argv)
{
	struct dxgpmo_memory_range range = { 0, 4096 };
	struct dxgpmo_create_memory_basis c = {
		.size = sizeof(c), .segment_id = 1, .range_count = 1,
		.ranges = (uintptr_t)&range,
	};
	struct dxgpmo_dirty_tracking t = { .size = sizeof(t) };
	struct dxgpmo_destroy_memory_basis d = { .size = sizeof(d) };
	uint8_t bits[8];
	struct dxgpmo_query_dirty_bits q = {
		.size = sizeof(q), .buffer = (uintptr_t)bits,
		.buffer_size = sizeof(bits),
	};
	char line[16];
	int fd, failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s ADAPTER_ID\n", argv[0]);
		return 2;
	}
	c.adapter_id = strtoul(argv[1], NULL, 0);
	fd = open("/dev/dxgpmo", O_RDWR);
	if (fd < 0 || ioctl(fd, DXGPMO_IOC_CREATE_MEMORY_BASIS, &c)) {
		perror("create");
		return 1;
	}
	t.basis_id = c.basis_id;
	q.basis_id = c.basis_id;
	d.basis_id = c.basis_id;
	if (ioctl(fd, DXGPMO_IOC_START_DIRTY_TRACKING, &t)) {
		perror("start");
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	if (!ioctl(fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q) || errno != ENODEV) {
		fprintf(stderr, "query after the driver's unload: not ENODEV\n");
		failed = 1;
	}
	if (!ioctl(fd, DXGPMO_IOC_STOP_DIRTY_TRACKING, &t) || errno != ENODEV) {
		fprintf(stderr, "stop after the driver's unload: not ENODEV\n");
		failed = 1;
	}
	if (ioctl(fd, DXGPMO_IOC_DESTROY_MEMORY_BASIS, &d)) {
		perror("destroy after the driver's unload");
		failed = 1;
	}
	close(fd);
	return failed;
}
