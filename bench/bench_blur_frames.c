/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel time of the GPU blur (the device's variant; GST_CL_BLUR_VARIANT
 * picks another) on whole frames, GRAY8, NV12 and
 * I420: the planes one launch each (as clblur did before) against every
 * plane in one launch, beside the device's floor for the frame (a plain
 * read+write kernel over all its bytes, timed the same way). Time per frame
 * is from the first command's start to the last one's end (profiling
 * events), median of ITERATIONS. GST_CL_BLUR_TILE (tile height and
 * work-group shape) applies, so bench/tile-sweep.sh can sweep it.
 * Beside them, "b2b": the figure ../shared/tools/cllimits.c measures for the
 * floor that ../shared/device/README.md lists: ITERATIONS launches back to
 * back, each from one buffer to the next of a set rotating through 256 MiB
 * (no cache reuse), on a queue without profiling, one clFinish at the end;
 * wall time per frame, for the read+write kernel and the blur alike.
 * A report, never a test.
 * Usage: bench_blur_frames [WIDTH HEIGHT [SIGMA [KSIZE [ITERATIONS [DEVICES]]]]]
 *   DEVICES: gpu (default), cpu or all */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "elements/gstclblurkernel.h"

#include <stdlib.h>

#include "benchutil.h"

typedef struct
{
  GstCLContext *ctx;
  GstCLBlurProgram *full, *half;
  cl_kernel copy;
  cl_mem src, dst;
  GstCLPlane planes[3];
  guint n_planes;
  gboolean one_launch;
  size_t n16;
} Job;

/* The frame's launches from @src to @dst; with @first and @last NULL, no
 * events (the back-to-back mode). */
static cl_int
enqueue_frame (Job * j, cl_command_queue queue, cl_mem src, cl_mem dst,
    cl_event * first, cl_event * last)
{
  if (j->one_launch) {
    cl_int s = gst_cl_blur_program_enqueue_planes (j->full, queue, src,
        j->planes, dst, j->planes, j->n_planes, last);
    if (s == CL_SUCCESS && last)
      clRetainEvent (*first = *last);
    return s;
  }
  for (guint p = 0; p < j->n_planes; p++) {
    cl_event ev = NULL;
    cl_int s = gst_cl_blur_program_enqueue (p ? j->half : j->full, queue,
        src, &j->planes[p], dst, &j->planes[p], last ? &ev : NULL);
    if (s != CL_SUCCESS)
      return s;
    if (!last)
      continue;
    if (p == 0)
      clRetainEvent (*first = ev);
    if (*last)
      clReleaseEvent (*last);
    *last = ev;
  }
  return CL_SUCCESS;
}

static cl_int
launch_frame (Job * j, cl_event * first, cl_event * last)
{
  return enqueue_frame (j, j->ctx->queue, j->src, j->dst, first, last);
}

/* Wall ms per frame of @iters frames enqueued back to back on @queue (no
 * profiling, as cllimits.c's) over the @n rotating @bufs (the blur, or with
 * @copy the read+write kernel), after one untimed round. */
static gdouble
back_to_back_ms (Job * j, cl_command_queue queue, cl_mem * bufs, gint n,
    gboolean copy, gint iters)
{
  gdouble t0 = 0;
  for (gint i = -n; i < iters; i++) {
    cl_mem src = bufs[(i + n) % n];
    cl_mem dst = bufs[(i + n + 1) % n];
    cl_int s;
    if (i == 0) {
      if (clFinish (queue) != CL_SUCCESS)
        return -1;
      t0 = g_get_monotonic_time ();
    }
    if (copy) {
      clSetKernelArg (j->copy, 0, sizeof (cl_mem), &src);
      clSetKernelArg (j->copy, 1, sizeof (cl_mem), &dst);
      s = clEnqueueNDRangeKernel (queue, j->copy, 1, NULL, &j->n16, NULL,
          0, NULL, NULL);
    } else {
      s = enqueue_frame (j, queue, src, dst, NULL, NULL);
    }
    if (s != CL_SUCCESS)
      return -1;
  }
  if (clFinish (queue) != CL_SUCCESS)
    return -1;
  return (g_get_monotonic_time () - t0) / 1e3 / iters;
}

static gdouble
median_frame_ms (Job * j, gint iters)
{
  gdouble *t = g_new (gdouble, iters), med;
  for (gint i = -3; i < iters; i++) {
    cl_event first = NULL, last = NULL;
    if (launch_frame (j, &first, &last) != CL_SUCCESS) {
      g_free (t);
      return -1;
    }
    clWaitForEvents (1, &last);
    if (i >= 0)
      t[i] = bench_span_ms (first, last);
    clReleaseEvent (first);
    clReleaseEvent (last);
  }
  med = bench_median (t, iters);
  g_free (t);
  return med;
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
  static const gchar *formats[] = { "GRAY8", "NV12", "I420" };
  gint width = argc > 2 ? atoi (argv[1]) : 1920;
  gint height = argc > 2 ? atoi (argv[2]) : 1080;
  gdouble sigma = argc > 3 ? g_ascii_strtod (argv[3], NULL) : 1.1;
  gint ksize = argc > 4 ? atoi (argv[4]) : 5;
  gint iters = argc > 5 ? atoi (argv[5]) : 50;
  const gchar *which = argc > 6 ? argv[6] : "gpu";
  const gchar *knob = g_getenv (GST_CL_BLUR_TILE_ENV);
  const GPtrArray *devices;
  GError *err = NULL;
  gdouble min_ms;

  devices = bench_devices (&argc, &argv);
  g_print ("blur frames %dx%d sigma %.2f ksize %d, median of %d, ms; %s=%s\n",
      width, height, sigma, ksize, iters, GST_CL_BLUR_TILE_ENV,
      knob ? knob : "(auto)");
  g_print ("%-28s %-6s %-10s %9s %9s %8s %9s %9s %8s %s\n", "device",
      "format", "path", "kernel", "floor", "k/floor", "b2b", "b2b-floor",
      "b2b/fl", "tiles=luma,chroma c1/c2 wg=work-group");

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    if (!bench_device_wanted (dev, which))
      continue;
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    GstCLBlurProgram full, half;
    GstCLBlurTaps taps, ctaps;
    cl_int status;
    Job job = {.ctx = ctx,.full = &full,.half = &half };

    g_assert_no_error (err);
    job.copy = bench_build_kernel (ctx->context, dev->device, BENCH_COPY_SRC,
        "copy16");
    cl_command_queue plain = clCreateCommandQueue (ctx->context, dev->device,
        0, &status);
    gst_cl_blur_taps_compute (&taps, sigma, sigma, ksize, 0, 0);
    gst_cl_blur_taps_compute (&ctaps, sigma, sigma, ksize, 1, 1);
    const GstCLBlurVariant variant = gst_cl_blur_preferred_variant (dev,
        &taps);
    g_print ("%s: variant %s\n", dev->name, gst_cl_blur_variant_name (variant));
    if (!gst_cl_blur_program_init_planes (&full, ctx, &taps, &ctaps, variant,
            &err) ||
        !gst_cl_blur_program_init (&half, ctx, &ctaps, variant, &err)) {
      g_printerr ("%s: %s\n", dev->name, err->message);
      g_clear_error (&err);
      continue;
    }

    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      const gint cw = (width + 1) / 2, ch = (height + 1) / 2;
      gsize bytes = 0;
      guint8 *host;

      job.n_planes = f == 0 ? 1 : f == 1 ? 2 : 3;
      for (guint p = 0; p < job.n_planes; p++) {
        const gint cn = f == 1 && p ? 2 : 1;
        const gint w = p ? cw : width, h = p ? ch : height;
        job.planes[p] = (GstCLPlane) {
        bytes, GST_ROUND_UP_64 (w * cn), w, h, cn};
        bytes += (gsize) job.planes[p].stride * h;
      }
      bytes = GST_ROUND_UP_64 (bytes);
      host = g_malloc (bytes);
      for (gsize i = 0; i < bytes; i++)
        host[i] = g_random_int () >> 24;
      job.src = clCreateBuffer (ctx->context,
          CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &status);
      job.dst = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL,
          &status);
      job.n16 = bytes / 16;
      gdouble floor_ms = bench_median_ms (launch_copy, &job, iters, &min_ms);
      gint nbuf = 0;
      cl_mem *bufs = plain ? bench_rotating_buffers (ctx->context, plain,
          bytes, &nbuf) : NULL;
      gdouble b2b_floor = bufs ?
          back_to_back_ms (&job, plain, bufs, nbuf, TRUE, iters * 4) : -1;

      for (gint one = 0; one < 2; one++) {
        if (one && !gst_cl_blur_program_has_planes (&full, job.planes,
                job.n_planes))
          continue;
        job.one_launch = one;
        gdouble ms = median_frame_ms (&job, iters);
        gdouble b2b = bufs ? back_to_back_ms (&job, plain, bufs, nbuf, FALSE,
            iters * 4) : -1;
        g_print ("%-28.28s %-6s %-10s %9.4f %9.4f %7.2fx %9.4f %9.4f %7.2fx "
            "tiles=%d,%d/%d wg=%dx%d\n", dev->name, formats[f],
            one ? "one-launch" : job.n_planes > 1 ? "per-plane" : "plane", ms,
            floor_ms, ms / floor_ms, b2b, b2b_floor, b2b / b2b_floor,
            full.tile_h[0], full.chroma_tile_h[0],
            full.chroma_tile_h[1], full.wg_x, full.wg_y);
      }
      if (bufs)
        bench_release_buffers (bufs, nbuf);
      clReleaseMemObject (job.src);
      clReleaseMemObject (job.dst);
      g_free (host);
    }
    gst_cl_blur_program_clear (&full);
    gst_cl_blur_program_clear (&half);
    clReleaseKernel (job.copy);
    if (plain)
      clReleaseCommandQueue (plain);
    gst_object_unref (ctx);
  }
  return 0;
}
