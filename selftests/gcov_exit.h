/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What selftests/gcov_exit.c uses: libgcov's writer (declared by GCC's own
 * gcov.h, which other compilers and analyzers do not have) and the
 * linker's names around the wrapped _exit().
 */
#ifndef DXGPMO_GCOV_EXIT_H
#define DXGPMO_GCOV_EXIT_H

void __gcov_dump(void);
void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));

#endif
