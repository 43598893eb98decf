// SPDX-License-Identifier: GPL-2.0
/* The trace events' definitions (trace.h): made once, here. */
#include "object.h"

#define CREATE_TRACE_POINTS
#include "trace.h"
