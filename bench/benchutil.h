/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Timing helpers shared by the kernel benchmarks. */
#pragma once

#include <CL/cl.h>
#include <glib.h>
#include <stdlib.h>

/* A plain read+write of the frame: the floor a kernel is measured against. */
#define BENCH_COPY_SRC \
    "__kernel void copy16 (__global const uchar16 * restrict s," \
    " __global uchar16 * restrict d) { size_t i = get_global_id (0);" \
    " d[i] = s[i]; }"

/* Execution time of a completed command (profiling info), in ms. */
static inline gdouble
bench_event_ms (cl_event ev)
{
  cl_ulong t0 = 0, t1 = 0;
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof (t0), &t0,
      NULL);
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof (t1), &t1,
      NULL);
  return (t1 - t0) / 1e6;
}

static inline int
bench_cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* Sorts @t and returns its median; the minimum is then t[0]. */
static inline gdouble
bench_median (gdouble * t, gint n)
{
  qsort (t, n, sizeof (gdouble), bench_cmp_double);
  return t[n / 2];
}

typedef cl_int (*BenchLaunch) (gpointer data, cl_event * ev);

/* Median kernel time of @iters launches made by @launch, after 3 warm-up
 * launches; the minimum goes to @min_ms. -1 if a launch fails. */
static inline gdouble
bench_median_ms (BenchLaunch launch, gpointer data, gint iters,
    gdouble * min_ms)
{
  gdouble *t = g_new (gdouble, iters), med;
  for (gint i = -3; i < iters; i++) {
    cl_event ev = NULL;
    if (launch (data, &ev) != CL_SUCCESS) {
      g_free (t);
      return -1;
    }
    clWaitForEvents (1, &ev);
    if (i >= 0)
      t[i] = bench_event_ms (ev);
    clReleaseEvent (ev);
  }
  med = bench_median (t, iters);
  *min_ms = t[0];
  g_free (t);
  return med;
}
