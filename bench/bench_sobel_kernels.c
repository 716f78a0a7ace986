/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel times of the Sobel variants on every OpenCL device, from profiling
 * events, beside the device's floor (a plain read+write kernel over the
 * bytes of the input plane). A report, never a test.
 * GST_CL_SOBEL_TILE (tile height, work-group) applies to the tiled variant.
 * Usage: bench_sobel_kernels [WIDTH HEIGHT [ITERATIONS [VARIANT [DEVICES]]]]
 *   DEVICES: all (default), gpu or cpu */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "elements/gstclsobelkernel.h"

#include <stdlib.h>

#include "benchutil.h"
#include <string.h>

typedef struct
{
  GstCLContext *ctx;
  GstCLSobelProgram *prog;
  GstCLSobelIn in;
  cl_kernel copy;
  cl_mem src, dst;
  GstCLPlane splane, dplane;
  size_t n16;
} Job;

static cl_int
launch_sobel (gpointer data, cl_event * ev)
{
  Job *j = data;
  return gst_cl_sobel_program_enqueue (j->prog, j->ctx->queue, j->src,
      &j->splane, j->in, j->dst, &j->dplane, GST_CL_SOBEL_OUT_1, ev);
}

static cl_int
launch_copy (gpointer data, cl_event * ev)
{
  Job *j = data;
  clSetKernelArg (j->copy, 0, sizeof (cl_mem), &j->src);
  clSetKernelArg (j->copy, 1, sizeof (cl_mem), &j->dst);
  return clEnqueueNDRangeKernel (j->ctx->queue, j->copy, 1, NULL, &j->n16,
      NULL, 0, NULL, ev);
}

int
main (int argc, char **argv)
{
  gdouble min_ms = 0;
  static const GstCLSobelParams params[] = {
    {3, GST_CL_SOBEL_MAGNITUDE, 1.0, 0, 0},
    {3, GST_CL_SOBEL_X, 1.0, 0, 0},
    {5, GST_CL_SOBEL_MAGNITUDE, 0.1, 0, 0},
    {7, GST_CL_SOBEL_MAGNITUDE, 0.01, 0, 0},
    {GST_CL_SCHARR, GST_CL_SOBEL_MAGNITUDE, 0.25, 0, 0},
  };
  gint width = argc > 2 ? atoi (argv[1]) : 1920;
  gint height = argc > 2 ? atoi (argv[2]) : 1080;
  gint iters = argc > 3 ? atoi (argv[3]) : 30;
  const gchar *only = argc > 4 && *argv[4] ? argv[4] : NULL;  /* variant */
  const gchar *which = argc > 5 ? argv[5] : "all";
  const GPtrArray *devices;
  GError *err = NULL;

  devices = bench_devices (&argc, &argv);

  g_print ("sobel %dx%d, GRAY8 out, median of %d, times in ms\n", width,
      height, iters);
  g_print ("%-32s %-4s %-6s %5s %-9s %9s %9s %9s %7s\n", "device", "in",
      "variant", "ksize", "mode", "kernel", "(min)", "floor", "ratio");

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    if (!bench_device_wanted (dev, which))
      continue;
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    cl_int status;
    Job job = { .ctx = ctx };

    g_assert_no_error (err);
    job.copy = bench_build_kernel (ctx->context, dev->device, BENCH_COPY_SRC,
        "copy16");

    for (gint in = GST_CL_SOBEL_IN_Y; in <= GST_CL_SOBEL_IN_RGB; in++) {
      gint cn = in == GST_CL_SOBEL_IN_Y ? 1 : 4;
      gsize bytes = (gsize) width * cn * height;
      guint8 *host = g_malloc (bytes);
      for (gsize i = 0; i < bytes; i++)
        host[i] = g_random_int () >> 24;
      job.in = in;
      job.src = clCreateBuffer (ctx->context,
          CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &status);
      job.dst = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL,
          &status);
      job.splane = (GstCLPlane) {
      0, width * cn, width, height, cn};
      job.dplane = (GstCLPlane) {
      0, width, width, height, 1};
      job.n16 = bytes / 16;
      gdouble floor_ms = bench_median_ms (launch_copy, &job, iters, &min_ms);

      for (gint v = 0; v < GST_CL_SOBEL_N_VARIANTS; v++) {
        if (only && strcmp (only, gst_cl_sobel_variant_name (v)))
          continue;
        for (guint pi = 0; pi < G_N_ELEMENTS (params); pi++) {
          GstCLSobelProgram prog;
          if (!gst_cl_sobel_program_init (&prog, ctx, &params[pi], v, &err)) {
            g_printerr ("%s\n", err->message);
            g_clear_error (&err);
            continue;
          }
          job.prog = &prog;
          gdouble ms = bench_median_ms (launch_sobel, &job, iters, &min_ms);
          g_print ("%-32.32s %-4s %-6s %5d %-9s %9.4f %9.4f %9.4f %6.2fx%s\n",
              dev->name, in == GST_CL_SOBEL_IN_Y ? "y" : "rgba",
              gst_cl_sobel_variant_name (v), params[pi].ksize,
              params[pi].mode == GST_CL_SOBEL_MAGNITUDE ? "magnitude" : "x",
              ms, min_ms, floor_ms, ms / floor_ms,
              v == (gint) gst_cl_sobel_preferred_variant (dev) ?
              "  (used)" : "");
          gst_cl_sobel_program_clear (&prog);
        }
      }
      clReleaseMemObject (job.src);
      clReleaseMemObject (job.dst);
      g_free (host);
    }
    clReleaseKernel (job.copy);
    gst_object_unref (ctx);
  }
  return 0;
}
