/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel times of the blur variants on every OpenCL device, from profiling
 * events, beside the device's floor (a plain read+write kernel over the same
 * bytes, as ../shared/tools/cllimits.c measures) and the C reference. A
 * report, never a test: it prints figures and ratios.
 * Usage: bench_kernels [WIDTH HEIGHT [SIGMA [ITERATIONS [VARIANT [KSIZE]]]]] */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "elements/gstclblurkernel.h"

#include <stdlib.h>
#include <time.h>

#include "benchutil.h"
#include <string.h>

typedef struct
{
  GstCLContext *ctx;
  GstCLBlurProgram *prog;
  cl_kernel copy;
  cl_mem src, dst;
  GstCLPlane plane;
  size_t n16;
} Job;

/* CPU time of the whole process (all threads), ms: on a CPU device, the
 * work a frame costs the machine, less sensitive than the kernel's wall
 * time to other processes sharing the cores. */
static gdouble
process_cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static cl_int
launch_blur (gpointer data, cl_event * ev)
{
  Job *j = data;
  return gst_cl_blur_program_enqueue (j->prog, j->ctx->queue, j->src,
      &j->plane, j->dst, &j->plane, ev);
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
  gint width = argc > 2 ? atoi (argv[1]) : 1920;
  gint height = argc > 2 ? atoi (argv[2]) : 1080;
  gdouble sigma = argc > 3 ? g_ascii_strtod (argv[3], NULL) : 1.1;
  gint iters = argc > 4 ? atoi (argv[4]) : 30;
  const gchar *only = argc > 5 && *argv[5] ? argv[5] : NULL;  /* variant */
  gint ksize = argc > 6 ? atoi (argv[6]) : 0;
  const GPtrArray *devices;
  GError *err = NULL;

  devices = bench_devices (&argc, &argv);

  g_print ("blur %dx%d sigma %.2f (kernel %d), median of %d, times in ms\n",
      width, height, sigma, ksize ? ksize : gst_cl_gaussian_ksize (sigma),
      iters);
  g_print ("%-40s %3s %-6s %9s %9s %9s %7s %9s\n", "device", "cn", "variant",
      "kernel", "(min)", "floor", "ratio", "core-ms");

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    cl_int status;
    Job job = { .ctx = ctx };

    g_assert_no_error (err);
    job.copy = bench_build_kernel (ctx->context, dev->device, BENCH_COPY_SRC,
        "copy16");

    for (gint cn = 1; cn <= 4; cn *= 2) {
      gsize bytes = (gsize) width * cn * height;
      guint8 *host = g_malloc (bytes);
      for (gsize i = 0; i < bytes; i++)
        host[i] = g_random_int () >> 24;
      job.src = clCreateBuffer (ctx->context,
          CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &status);
      job.dst = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL,
          &status);
      job.plane = (GstCLPlane) {
      0, width * cn, width, height, cn};
      job.n16 = bytes / 16;
      gdouble floor_ms = bench_median_ms (launch_copy, &job, iters, &min_ms);

      for (gint v = GST_CL_BLUR_ROWS; v < GST_CL_BLUR_N_VARIANTS; v++) {
        GstCLBlurTaps taps;
        if (only && strcmp (only, gst_cl_blur_variant_name (v)))
          continue;
        GstCLBlurProgram prog;
        gst_cl_blur_taps_compute (&taps, sigma, sigma, ksize, 0, 0);
        if (!gst_cl_blur_program_init (&prog, ctx, &taps, v, &err)) {
          g_printerr ("%s\n", err->message);
          g_clear_error (&err);
          continue;
        }
        job.prog = &prog;
        gdouble cpu0 = process_cpu_ms ();
        gdouble ms = bench_median_ms (launch_blur, &job, iters, &min_ms);
        /* bench_median_ms runs 3 untimed launches first. */
        gdouble core_ms = (process_cpu_ms () - cpu0) / (iters + 3);
        g_print ("%-40.40s %3d %-6s %9.3f %9.3f %9.3f %6.2fx %9.3f%s\n",
            dev->name, cn, gst_cl_blur_variant_name (v), ms, min_ms, floor_ms,
            ms / floor_ms, core_ms, v == (gint) gst_cl_blur_preferred_variant (dev,
                &taps) ? "  (used)" : "");
        gst_cl_blur_program_clear (&prog);
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
