/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Timing helpers shared by the kernel benchmarks. */
#pragma once

#include <CL/cl.h>
#include <glib.h>
#include <gst/gst.h>
#include <stdlib.h>

#include "cl/gstcldevice.h"

/* gst_init () and the OpenCL devices; none: the reason on stderr and exit
 * status 77 (skipped, as meson counts it). */
static inline const GPtrArray *
bench_devices (int *argc, char ***argv)
{
  GError *err = NULL;
  const GPtrArray *devices;

  gst_init (argc, argv);
  devices = gst_cl_device_list (&err);
  if (!devices) {
    g_printerr ("%s\n", err->message);
    exit (77);
  }
  return devices;
}

/* Whether @dev is among the devices a "gpu", "cpu" or "all" argument
 * asks for. */
static inline gboolean
bench_device_wanted (const GstCLDeviceInfo * dev, const gchar * which)
{
  return !((!g_strcmp0 (which, "gpu") && !dev->is_gpu) ||
      (!g_strcmp0 (which, "cpu") && dev->is_gpu));
}

/* A plain read+write of the frame: the floor a kernel is measured against. */
#define BENCH_COPY_SRC \
    "__kernel void copy16 (__global const uchar16 * restrict s," \
    " __global uchar16 * restrict d) { size_t i = get_global_id (0);" \
    " d[i] = s[i]; }"

/* Kernel @name of the OpenCL C @src, built for @device with @options (may
 * be NULL; the kernel keeps its program); NULL if it does not build, with
 * the build log on stderr. */
static inline cl_kernel
bench_build_kernel_with (cl_context context, cl_device_id device,
    const char *src, const char *name, const char *options)
{
  cl_int status;
  cl_kernel k = NULL;
  cl_program prog = clCreateProgramWithSource (context, 1, &src, NULL,
      &status);

  if (status != CL_SUCCESS)
    return NULL;
  if (clBuildProgram (prog, 1, &device, options, NULL, NULL) == CL_SUCCESS) {
    k = clCreateKernel (prog, name, &status);
  } else {
    gchar log[4096] = "";
    clGetProgramBuildInfo (prog, device, CL_PROGRAM_BUILD_LOG,
        sizeof (log) - 1, log, NULL);
    g_printerr ("%s: build failed (%s):\n%s\n", name,
        options ? options : "", log);
    status = CL_BUILD_PROGRAM_FAILURE;
  }
  clReleaseProgram (prog);
  return status == CL_SUCCESS ? k : NULL;
}

static inline cl_kernel
bench_build_kernel (cl_context context, cl_device_id device, const char *src,
    const char *name)
{
  return bench_build_kernel_with (context, device, src, name, NULL);
}

/* Buffers of @bytes each, zeroed on @queue, as many as span 256 MiB (2 to
 * 64; their number to @n): commands rotate over them so that no cache holds
 * the frame, as ../shared/tools/cllimits.c does. NULL on failure. */
static inline cl_mem *
bench_rotating_buffers (cl_context context, cl_command_queue queue,
    gsize bytes, gint * n)
{
  const guint8 zero = 0;
  cl_int status = CL_SUCCESS;
  cl_mem *bufs;

  *n = CLAMP ((gint) (256.0 * 1024 * 1024 / bytes), 2, 64);
  bufs = g_new0 (cl_mem, *n);
  for (gint i = 0; i < *n && status == CL_SUCCESS; i++) {
    bufs[i] = clCreateBuffer (context, CL_MEM_READ_WRITE, bytes, NULL,
        &status);
    if (status == CL_SUCCESS)
      status = clEnqueueFillBuffer (queue, bufs[i], &zero, 1, 0, bytes, 0,
          NULL, NULL);
  }
  if (status == CL_SUCCESS)
    status = clFinish (queue);
  if (status != CL_SUCCESS) {
    for (gint i = 0; i < *n; i++)
      if (bufs[i])
        clReleaseMemObject (bufs[i]);
    g_free (bufs);
    return NULL;
  }
  return bufs;
}

static inline void
bench_release_buffers (cl_mem * bufs, gint n)
{
  for (gint i = 0; i < n; i++)
    clReleaseMemObject (bufs[i]);
  g_free (bufs);
}

/* START and END of completed command @ev (profiling info), in ns. */
static inline void
bench_event_times (cl_event ev, cl_ulong * t0, cl_ulong * t1)
{
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof (*t0), t0,
      NULL);
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof (*t1), t1,
      NULL);
}

/* Device time from the start of completed command @first to the end of
 * @last (profiling info), in ms. */
static inline gdouble
bench_span_ms (cl_event first, cl_event last)
{
  cl_ulong t0 = 0, t1 = 0;
  clGetEventProfilingInfo (first, CL_PROFILING_COMMAND_START, sizeof (t0),
      &t0, NULL);
  clGetEventProfilingInfo (last, CL_PROFILING_COMMAND_END, sizeof (t1), &t1,
      NULL);
  return (t1 - t0) / 1e6;
}

/* Execution time of a completed command, in ms. */
static inline gdouble
bench_event_ms (cl_event ev)
{
  return bench_span_ms (ev, ev);
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
