/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel times of clhisteq's kernels on every OpenCL device, from profiling
 * events (median of N frames), for noise and for a flat frame (the worst
 * case of histogram atomics: every work-item hits one bin), beside the C
 * reference. Each case runs twice in the same process: "old", the
 * separate launches (histogram, cut, LUT, apply), and "fused" (histogram,
 * cut and LUT in one launch, then apply; "sfused" on CPU devices, global
 * mode only), with the ratio of their totals.
 * Each device's line starts with the floors, timed the same way: one
 * read+write kernel over the frame, and "two passes": a kernel that only
 * reads the frame, then the read+write kernel, timed from the first's start
 * to the second's end. Exact equalisation needs the whole frame's histogram
 * before it writes a pixel, so two dependent passes is the least any
 * implementation can do.
 * Each frame is waited for before the next is queued;
 * BENCH_HISTEQ_QUEUED=1 queues them all back to back, as a pipeline does.
 * A report, never a test.
 * Usage: bench_histeq [WIDTH HEIGHT [ITERATIONS [DEVICES]]]
 *   DEVICES: all (default), gpu or cpu */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "elements/gstclhisteqkernel.h"

#include <stdlib.h>

#include "benchutil.h"

/* Reads every 16 bytes; the never-taken store keeps the loads alive. */
#define READ_ONLY_SRC \
    "__kernel void read16 (__global const uint4 * restrict s," \
    " __global uint * restrict out) { uint4 v = s[get_global_id (0)];" \
    " if ((v.x ^ v.y ^ v.z ^ v.w) == 0x9e3779b9u) atomic_inc (out); }"

/* BENCH_HISTEQ_QUEUED: frames queued back to back, not waited for one by
 * one */
static gboolean
bench_queued (void)
{
  return g_getenv ("BENCH_HISTEQ_QUEUED") != NULL;
}

#define N_STEPS 4
static const gchar *step_names[N_STEPS] = { "hist", "cut", "lut", "apply" };

static gdouble
run_case (GstCLContext * ctx, GstCLHisteqProgram * prog, gint width,
    gint height, gint cn, gboolean flat, GstCLHisteqMode mode, guint smoothing,
    gint iters)
{
  const gint stride = GST_ROUND_UP_64 (width * cn);
  const gsize size = (gsize) stride * height;
  guint8 *host = g_malloc (size), *ref = g_malloc (size);
  GstCLPlane plane = { 0, stride, width, height, cn };
  GstCLHisteqBuffers bufs = { 0 };
  GstCLHisteqParams params = { 1.0f, smoothing, 0.3f, FALSE };
  gdouble *t[N_STEPS + 1];
  gint w[4];
  guint32 state = 1;
  GError *err = NULL;
  cl_int status;
  cl_mem src, dst;

  gst_cl_histeq_luma_weights (0, 1, 2, w);
  for (gsize i = 0; i < size; i++) {
    state = state * 1664525u + 1013904223u;
    host[i] = flat ? 128 : state >> 24;
  }
  src = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      size, host, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  dst = clCreateBuffer (ctx->context, CL_MEM_WRITE_ONLY, size, NULL, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  if (!gst_cl_histeq_buffers_ensure (&bufs, ctx, width, height, mode, 8, 8,
          2.0, &err))
    g_error ("%s", err->message);
  for (gint s = 0; s <= N_STEPS; s++)
    t[s] = g_new0 (gdouble, iters);

  /* Each frame waited for (the default), or all queued back to back and
   * waited for once (BENCH_HISTEQ_QUEUED=1), as frames flow in a pipeline */
  const gboolean queued = bench_queued ();
  const gint n = iters + 3;
  cl_event *evs = g_new0 (cl_event, n), *steps = g_new0 (cl_event,
      (gsize) n * N_STEPS);
  for (gint k = 0; k < n; k++) {
    status = gst_cl_histeq_enqueue (prog, &bufs, ctx->queue, &params, w, src,
        &plane, dst, &plane, &evs[k], &steps[k * N_STEPS]);
    g_assert_cmpint (status, ==, CL_SUCCESS);
    if (!queued)
      clWaitForEvents (1, &evs[k]);
  }
  clFinish (ctx->queue);
  for (gint k = 0; k < n; k++) {
    cl_event *st = &steps[k * N_STEPS];
    const gint i = k - 3;
    if (i >= 0) {
      for (gint s = 0; s < N_STEPS; s++)
        t[s][i] = st[s] ? bench_event_ms (st[s]) : 0;
      t[N_STEPS][i] = bench_span_ms (st[0], evs[k]);
    }
    for (gint s = 0; s < N_STEPS; s++)
      if (st[s])
        clReleaseEvent (st[s]);
    clReleaseEvent (evs[k]);
  }
  g_free (evs);
  g_free (steps);

  g_print ("  %-6s %-5s %-5s smooth=%-2u %-6s", cn == 1 ? "GRAY8" : "RGBA",
      flat ? "flat" : "noise", mode ? "clahe" : "global", smoothing,
      prog->serial ? (prog->fused && !mode ? "sfused" : "serial") :
      prog->fused ? "fused" : "old");
  for (gint s = 0; s < N_STEPS; s++)
    g_print (" %s %7.3f", step_names[s], bench_median (t[s], iters));
  gdouble total = bench_median (t[N_STEPS], iters);
  g_print (" | total %7.3f ms", total);

  /* The C reference of the same work, on one core. */
  if (smoothing == 0) {
    gint tiles = bufs.geom.tiles_x * bufs.geom.tiles_y;
    guint32 *hist = g_new (guint32, tiles * 256);
    guint8 *luts = g_new (guint8, tiles * 256);
    gint64 t0 = g_get_monotonic_time ();
    gst_cl_ref_histeq_hist (host, stride, width, height, cn, w, &bufs.geom,
        hist);
    for (gint k = 0; k < tiles; k++) {
      gfloat f[256];
      gst_cl_ref_histeq_map (hist + k * 256, &bufs.geom, f);
      gst_cl_ref_histeq_lut (f, 1.0f, luts + k * 256);
    }
    gst_cl_ref_histeq_apply (host, stride, ref, stride, width, height, cn, w,
        &bufs.geom, luts);
    g_print (" (C reference %.1f ms)",
        (g_get_monotonic_time () - t0) / 1000.0);
    g_free (hist);
    g_free (luts);
  }
  g_print ("\n");

  for (gint s = 0; s <= N_STEPS; s++)
    g_free (t[s]);
  gst_cl_histeq_buffers_clear (&bufs);
  clReleaseMemObject (src);
  clReleaseMemObject (dst);
  g_free (host);
  g_free (ref);
  return total;
}

/* One case, old and fused, with the ratio (CPU devices' CLAHE and GPUs
 * without 256-item groups: their one path). */
static void
run_both (GstCLContext * ctx, GstCLHisteqProgram * prog, gint width,
    gint height, gint cn, gboolean flat, GstCLHisteqMode mode, guint smoothing,
    gint iters)
{
  const gboolean fused = prog->fused;
  gdouble old_ms, new_ms;

  /* BENCH_HISTEQ_BOTH=1: the GPUs' old and fused on CPU devices too */
  if (g_getenv ("BENCH_HISTEQ_BOTH")) {
    prog->serial = FALSE;
    prog->hist_local = 256;
  }
  if (prog->serial ? mode == GST_CL_HISTEQ_CLAHE : prog->hist_local != 256) {
    run_case (ctx, prog, width, height, cn, flat, mode, smoothing, iters);
    return;
  }
  prog->fused = FALSE;
  old_ms = run_case (ctx, prog, width, height, cn, flat, mode, smoothing,
      iters);
  prog->fused = TRUE;
  new_ms = run_case (ctx, prog, width, height, cn, flat, mode, smoothing,
      iters);
  prog->fused = fused;
  g_print ("  -> fused / old: %.2fx (%.3f -> %.3f ms per frame)\n",
      new_ms / old_ms, old_ms, new_ms);
}

/* Median ms of the read+write kernel alone and of the two passes (read, then
 * read+write), over one GRAY8 frame; the latter to @two_pass. */
static gdouble
floors (GstCLContext * ctx, gint width, gint height, gint iters,
    gdouble * two_pass)
{
  const gsize size = (gsize) GST_ROUND_UP_64 (width) * height;
  const size_t n16 = size / 16;
  gdouble *one = g_new (gdouble, iters), *two = g_new (gdouble, iters), med;
  cl_kernel copy = bench_build_kernel (ctx->context, ctx->device->device,
      BENCH_COPY_SRC, "copy16");
  cl_kernel read = bench_build_kernel (ctx->context, ctx->device->device,
      READ_ONLY_SRC, "read16");
  cl_mem a, b, counter;
  cl_int status;

  g_assert (copy && read);
  a = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, size, NULL, &status);
  b = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, size, NULL, &status);
  counter = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, 4, NULL,
      &status);
  clSetKernelArg (copy, 0, sizeof (cl_mem), &a);
  clSetKernelArg (copy, 1, sizeof (cl_mem), &b);
  clSetKernelArg (read, 0, sizeof (cl_mem), &a);
  clSetKernelArg (read, 1, sizeof (cl_mem), &counter);
  const gboolean queued = bench_queued ();
  const gint n = iters + 3;
  cl_event *e = g_new0 (cl_event, 3 * (gsize) n);
  for (gint k = 0; k < n; k++) {
    clEnqueueNDRangeKernel (ctx->queue, copy, 1, NULL, &n16, NULL, 0, NULL,
        &e[3 * k]);
    clEnqueueNDRangeKernel (ctx->queue, read, 1, NULL, &n16, NULL, 0, NULL,
        &e[3 * k + 1]);
    clEnqueueNDRangeKernel (ctx->queue, copy, 1, NULL, &n16, NULL, 0, NULL,
        &e[3 * k + 2]);
    if (!queued)
      clWaitForEvents (1, &e[3 * k + 2]);
  }
  clFinish (ctx->queue);
  for (gint k = 0; k < n; k++) {
    if (k >= 3) {
      one[k - 3] = bench_event_ms (e[3 * k]);
      two[k - 3] = bench_span_ms (e[3 * k + 1], e[3 * k + 2]);
    }
    for (gint j = 0; j < 3; j++)
      clReleaseEvent (e[3 * k + j]);
  }
  g_free (e);
  med = bench_median (one, iters);
  *two_pass = bench_median (two, iters);
  g_free (one);
  g_free (two);
  clReleaseMemObject (a);
  clReleaseMemObject (b);
  clReleaseMemObject (counter);
  clReleaseKernel (copy);
  clReleaseKernel (read);
  return med;
}

int
main (int argc, char **argv)
{
  gint width = argc > 2 ? atoi (argv[1]) : 1920;
  gint height = argc > 2 ? atoi (argv[2]) : 1080;
  gint iters = argc > 3 ? atoi (argv[3]) : 30;
  const gchar *which = argc > 4 ? argv[4] : "all";
  const GPtrArray *devices;
  GError *err = NULL;

  devices = bench_devices (&argc, &argv);
  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    if (!bench_device_wanted (dev, which))
      continue;
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    GstCLHisteqProgram prog;

    g_assert_no_error (err);
    if (!gst_cl_histeq_program_init (&prog, ctx, TRUE, &err))
      g_error ("%s", err->message);
    if (prog.serial)
      g_print ("%s: %dx%d, median of %d frames, ms (serial histogram kernel)"
          "\n", dev->name, width, height, iters);
    else
      g_print ("%s: %dx%d, median of %d frames, ms (histogram groups of %zu "
          "items, %d copies)\n", dev->name, width, height, iters,
          prog.hist_local, prog.copies);
    gdouble two_pass, floor_ms = floors (ctx, width, height, iters, &two_pass);
    g_print ("  GRAY8 floors: read+write %.4f ms; two passes (read, then "
        "read+write) %.4f ms = %.2fx the read+write\n", floor_ms, two_pass,
        two_pass / floor_ms);
    for (gint mode = 0; mode < 2; mode++) {
      run_both (ctx, &prog, width, height, 1, FALSE, mode, 0, iters);
      run_both (ctx, &prog, width, height, 1, TRUE, mode, 0, iters);
    }
    run_both (ctx, &prog, width, height, 1, FALSE, GST_CL_HISTEQ_GLOBAL, 8,
        iters);
    run_both (ctx, &prog, width, height, 1, FALSE, GST_CL_HISTEQ_CLAHE, 8,
        iters);
    run_both (ctx, &prog, width, height, 4, FALSE, GST_CL_HISTEQ_GLOBAL, 0,
        iters);
    run_both (ctx, &prog, width, height, 4, FALSE, GST_CL_HISTEQ_GLOBAL, 8,
        iters);
    run_both (ctx, &prog, width, height, 4, FALSE, GST_CL_HISTEQ_CLAHE, 0,
        iters);
    gst_cl_histeq_program_clear (&prog);
    gst_object_unref (ctx);
  }
  return 0;
}
