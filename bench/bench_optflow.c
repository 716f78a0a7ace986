/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel times of cloptflow on every OpenCL device, from profiling events:
 * per frame (median of ITERS frames) the span from the first command's
 * start to the last one's end, and the sum of the kernels split into the
 * pyramid (luma, downsample, gradients, tensors, images) and the flow
 * (iterations), for buffer and, where the device has them, image sampling,
 * beside the C reference's time for the same frame. A report, never a test.
 * Usage: bench_optflow [WIDTH HEIGHT [ITERS [LEVELS [ITERATIONS [WINDOW
 *        [FINEST]]]]]] (FINEST: the finest level refined, finest-level) */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "elements/gstcloptflowkernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"

/* A textured frame moved by (dx, dy): smooth noise from a few sines. */
static void
fill_frame (guint8 * p, gint stride, gint w, gint h, gfloat dx, gfloat dy)
{
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      gfloat u = x - dx, v = y - dy;
      gfloat s = sinf (u * 0.31f + v * 0.07f) + sinf (v * 0.23f - u * 0.11f)
          + 0.5f * sinf ((u + v) * 0.53f) + 0.5f * sinf ((u - 2 * v) * 0.41f);
      p[y * stride + x] = (guint8) CLAMP (128 + 40 * s, 0, 255);
    }
}

/* The C reference of one frame's flow (pyramid of both frames, coarse to
 * fine), for the CPU-figure beside the kernels. Returns ms. */
static gdouble
reference_ms (const guint8 * a, const guint8 * b, gint w, gint h, gint levels,
    gint finest, gint iterations, gint r)
{
  gint64 t0 = g_get_monotonic_time ();

  free (gst_cl_ref_optflow_dense (a, w, b, w, w, h,
          gst_cl_optflow_effective_levels (w, h, levels), finest, r,
          gst_cl_optflow_reg (r), iterations, 0.01f));
  return (g_get_monotonic_time () - t0) / 1000.0;
}

int
main (int argc, char **argv)
{
  gint width = argc > 2 ? atoi (argv[1]) : 1920;
  gint height = argc > 2 ? atoi (argv[2]) : 1080;
  gint iters = argc > 3 ? atoi (argv[3]) : 30;
  gint levels = argc > 4 ? atoi (argv[4]) : 5;
  gint iterations = argc > 5 ? atoi (argv[5]) : 5;
  gint window = argc > 6 ? atoi (argv[6]) : 15;
  gint finest = argc > 7 ? atoi (argv[7]) : 0;
  const GPtrArray *devices;
  GError *err = NULL;
  const gsize size = (gsize) width * height;
  guint8 *frames[2];
  gdouble ref_ms;

  devices = bench_devices (&argc, &argv);
  for (gint i = 0; i < 2; i++) {
    frames[i] = g_malloc (size);
    fill_frame (frames[i], width, width, height, i * 2.5f, i * -1.5f);
  }
  ref_ms = iters > 0 && (gsize) width * height <= 1920 * 1080 ?
      reference_ms (frames[0], frames[1], width, height, levels, finest,
      iterations,
      window / 2) : -1;

  g_print ("optflow %dx%d, %d levels, %d iterations, window %d; median of "
      "%d frames, ms\n", width, height, gst_cl_optflow_effective_levels (width,
          height, levels), iterations, window, iters);
  g_print ("C reference (one core): %.1f ms per frame\n", ref_ms);
  g_print ("%-40s %-7s %9s %9s %9s %9s %8s %9s\n", "device", "sampling",
      "frame", "(min)", "pyramid", "flow", "fps", "vs C ref");

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    GstCLOptflowProgram prog;
    cl_mem src[2], flow;
    cl_int status;

    if (!ctx || !gst_cl_optflow_program_init (&prog, ctx, window / 2, &err)) {
      g_printerr ("%s: %s\n", dev->name, err ? err->message : "?");
      g_clear_error (&err);
      continue;
    }
    for (gint i = 0; i < 2; i++)
      src[i] = clCreateBuffer (ctx->context,
          CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size, frames[i], &status);
    flow = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, size * 8, NULL,
        &status);

    for (gint img = 0; img <= 1; img++) {
      GstCLOptflowState st = { 0 };
      GstCLOptflowParams params = { iterations, 0.01f, finest };
      GstCLPlane plane = { 0, width, width, height, 1 };
      const gfloat wts[4] = { 0 };
      gdouble *span = g_new (gdouble, MAX (iters, 1)), *pyr = g_new (gdouble,
          MAX (iters, 1)), *fl = g_new (gdouble, MAX (iters, 1));
      /* residual, box_h, solve; on CPU devices' band kernels (one launch
       * an iteration): all iterations, level 0's, zero + upsamples */
      gdouble *kind[3];
      const gboolean rows = prog.rows && !img;
      gint n_pyr_steps, refined_from;

      if (img && !prog.images_ok)
        break;
      if (!gst_cl_optflow_state_ensure (&st, ctx, width, height, levels,
              prog.radius, img, &err)) {
        g_printerr ("%s: %s\n", dev->name, err->message);
        g_clear_error (&err);
        break;
      }
      refined_from = CLAMP (finest, 0, st.levels - 1);
      /* Commands of the pyramid: luma, downsamples, then per level
       * gradient, tensor (two kernels) and image copy, or the band
       * kernel doing gradient and tensor. */
      n_pyr_steps = 1 + (st.levels - 1) + (st.levels - refined_from) *
          (rows ? 1 : img ? 4 : 3);
      for (gint k = 0; k < 3; k++)
        kind[k] = g_new0 (gdouble, MAX (iters, 1));
      for (gint i = -3; i < iters; i++) {
        GPtrArray *events = g_ptr_array_new ();
        cl_event done = NULL;
        cl_ulong first = G_MAXUINT64, last = 0;
        gdouble sp = 0, sf = 0;

        status = gst_cl_optflow_enqueue_frame (&prog, &st, ctx->queue,
            &params, src[(i + 3) & 1], &plane, wts, flow, &done, events);
        if (status != CL_SUCCESS) {
          g_printerr ("%s: %s\n", dev->name, gst_cl_error_name (status));
          break;
        }
        clFinish (ctx->queue);
        for (guint e = 0; e < events->len; e++) {
          cl_ulong t0, t1;
          bench_event_times (g_ptr_array_index (events, e), &t0, &t1);
          first = MIN (first, t0);
          last = MAX (last, t1);
          if ((gint) e < n_pyr_steps) {
            sp += (t1 - t0) / 1e6;
          } else {
            /* per level, coarse to fine: zero or upsample, then 3 kernels
             * (1 on the bands) per iteration */
            const gint per = rows ? 1 : 3, q = (gint) e - n_pyr_steps;
            const gboolean refined = q < (st.levels - refined_from) *
                (1 + per * iterations);
            const gint k = refined ? q % (1 + per * iterations) : 0;
            const gdouble ms = (t1 - t0) / 1e6;
            sf += ms;
            if (i >= 0 && rows) {
              const gboolean level0 = refined &&
                  q / (1 + iterations) == st.levels - refined_from - 1;
              kind[k > 0 ? 0 : 2][i] += ms;
              if (k > 0 && level0)
                kind[1][i] += ms / iterations;
            } else if (k > 0 && i >= 0) {
              kind[(k - 1) % 3][i] += ms;
            }
          }
          clReleaseEvent (g_ptr_array_index (events, e));
        }
        g_ptr_array_free (events, TRUE);
        if (done)
          clReleaseEvent (done);
        if (i >= 0) {
          span[i] = (last - first) / 1e6;
          pyr[i] = sp;
          fl[i] = sf;
        }
      }
      if (iters > 0) {
        gdouble med = bench_median (span, iters);
        g_print ("%-40.40s %-7s %9.3f %9.3f %9.3f %9.3f %8.1f %8.1fx\n",
            dev->name, img ? "image" : "buffer", med, span[0],
            bench_median (pyr, iters), bench_median (fl, iters), 1000.0 / med,
            ref_ms > 0 ? ref_ms / med : 0.0);
        if (rows)
          g_print ("%-40s %-7s   flow kernels (bands): iterations %.3f "
              "(finest level: %.3f each), zero + upsample %.3f\n", "", "",
              bench_median (kind[0], iters), bench_median (kind[1], iters),
              bench_median (kind[2], iters));
        else
          g_print ("%-40s %-7s   flow kernels: residual %.3f, box_h %.3f, "
              "solve %.3f\n", "", "", bench_median (kind[0], iters),
              bench_median (kind[1], iters), bench_median (kind[2], iters));
      }
      for (gint k = 0; k < 3; k++)
        g_free (kind[k]);
      g_free (span);
      g_free (pyr);
      g_free (fl);
      gst_cl_optflow_state_clear (&st);
    }
    clReleaseMemObject (src[0]);
    clReleaseMemObject (src[1]);
    clReleaseMemObject (flow);
    gst_cl_optflow_program_clear (&prog);
    gst_object_unref (ctx);
  }
  g_free (frames[0]);
  g_free (frames[1]);
  return 0;
}
