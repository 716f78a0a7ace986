/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Why a blur kernel takes longer in a pipeline than back to back: the same
 * launch (the device's own variant, 5x5, GRAY8) timed by its profiling
 * events and from enqueue to completion, back to back on one buffer, after
 * the host sleeps 0.3 ms, after the host writes a fresh source frame (as a
 * GStreamer source does), over 8 rotating buffers, and with the host also
 * reading the output afterwards (as a sink does). Frames are wrapped host
 * memory (CL_MEM_USE_HOST_PTR, 4096-aligned), as the elements' pools give.
 * A report, never a test.
 * Usage: bench_blur_cold [WIDTH HEIGHT [FRAMES [DEVICE]]]   (DEVICE: gpu,
 * cpu or an index of gst_cl_device_list; default: the first device) */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"
#include "elements/gstclblurkernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"

#define N_BUFFERS 8

/* where the host's read of the output goes, so it is not optimised away */
static volatile guint read_sink;

typedef enum
{
  MODE_BACK_TO_BACK,
  MODE_SLEEP,
  MODE_WRITE_SOURCE,
  MODE_WRITE_SOURCE_ROTATE,
  MODE_READ_OUTPUT_ROTATE,
  MODE_PIPELINE,
  N_MODES
} Mode;

static const gchar *mode_names[N_MODES] = {
  "back to back, one buffer",
  "host sleeps 0.3 ms before each",
  "host writes the source first",
  "host writes the source first, 8 buffers",
  "8 buffers, host reads the output after",
  "8 buffers, host writes and reads (a pipeline)",
};

static const GstCLDeviceInfo *
pick_device (const GPtrArray * devices, const gchar * want)
{
  if (!want)
    return g_ptr_array_index (devices, 0);
  for (guint i = 0; i < devices->len; i++) {
    const GstCLDeviceInfo *d = g_ptr_array_index (devices, i);
    if ((!strcmp (want, "gpu") && d->is_gpu) ||
        (!strcmp (want, "cpu") && !d->is_gpu) || atoi (want) == (gint) i)
      return d;
  }
  return NULL;
}

int
main (int argc, char **argv)
{
  const gint w = argc > 2 ? atoi (argv[1]) : 1920;
  const gint h = argc > 2 ? atoi (argv[2]) : 1080;
  const gint n = MAX (argc > 3 ? atoi (argv[3]) : 300, 1);
  const gsize bytes = (gsize) w * h, alloc = GST_ROUND_UP_N (bytes, 4096);
  const GPtrArray *devices;
  const GstCLDeviceInfo *dev;
  GstCLContext *ctx;
  GstCLBlurTaps taps;
  GstCLBlurProgram prog;
  GstCLPlane plane = { 0, w, w, h, 1 };
  guint8 *host_src[N_BUFFERS], *host_dst[N_BUFFERS], *frames[N_BUFFERS];
  cl_mem src[N_BUFFERS], dst[N_BUFFERS];
  gdouble *kernel_ms = g_new (gdouble, n), *wall_ms = g_new (gdouble, n);
  GError *err = NULL;

  devices = bench_devices (&argc, &argv);
  dev = pick_device (devices, argc > 4 ? argv[4] : NULL);
  if (!dev) {
    g_printerr ("no such device: %s\n", argv[4]);
    return 1;
  }
  ctx = gst_cl_context_new (dev, &err);
  gst_cl_blur_taps_compute (&taps, 1.1, 1.1, 5, 0, 0);
  if (!ctx || !gst_cl_blur_program_init (&prog, ctx, &taps,
          gst_cl_blur_preferred_variant (dev, &taps), &err)) {
    g_printerr ("%s\n", err ? err->message : "no context");
    return 1;
  }
  for (gint i = 0; i < N_BUFFERS; i++) {
    host_src[i] = aligned_alloc (4096, alloc);
    host_dst[i] = aligned_alloc (4096, alloc);
    frames[i] = g_malloc (bytes);
    for (gsize k = 0; k < bytes; k++)
      frames[i][k] = g_random_int () >> 24;
    memcpy (host_src[i], frames[i], bytes);
    memset (host_dst[i], 0, alloc);
    src[i] = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE |
        CL_MEM_USE_HOST_PTR, alloc, host_src[i], NULL);
    dst[i] = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE |
        CL_MEM_USE_HOST_PTR, alloc, host_dst[i], NULL);
  }

  g_print ("blur 5x5 %dx%d GRAY8 on %s, %d frames, ms: kernel (events) "
      "and enqueue to completion, median and min\n", w, h, dev->name, n);
  for (gint m = 0; m < N_MODES; m++) {
    const gboolean rotate = m >= MODE_WRITE_SOURCE_ROTATE;
    const gboolean write = m == MODE_WRITE_SOURCE ||
        m == MODE_WRITE_SOURCE_ROTATE || m == MODE_PIPELINE;
    const gboolean read = m == MODE_READ_OUTPUT_ROTATE || m == MODE_PIPELINE;

    for (gint it = -5; it < n; it++) {
      const gint b = rotate ? (it + 5) % N_BUFFERS : 0;
      cl_event ev = NULL;
      cl_ulong t0, t1;
      gint64 w0, w1;

      if (m == MODE_SLEEP)
        g_usleep (300);
      if (write)
        memcpy (host_src[b], frames[(it + 5) % N_BUFFERS], bytes);
      w0 = g_get_monotonic_time ();
      if (gst_cl_blur_program_enqueue (&prog, ctx->queue, src[b], &plane,
              dst[b], &plane, &ev) != CL_SUCCESS || !ev) {
        g_printerr ("enqueue failed\n");
        return 1;
      }
      clWaitForEvents (1, &ev);
      w1 = g_get_monotonic_time ();
      /* On a device that shares host memory the output is in host_dst;
       * elsewhere this reads stale bytes, which is all the sink's read
       * costs the host there too. */
      if (read) {
        guint sum = 0;
        for (gsize q = 0; q < bytes; q += 64)
          sum += host_dst[b][q];
        read_sink = sum;
      }
      clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof (t0),
          &t0, NULL);
      clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof (t1),
          &t1, NULL);
      clReleaseEvent (ev);
      if (it >= 0) {
        kernel_ms[it] = (t1 - t0) / 1e6;
        wall_ms[it] = (w1 - w0) / 1e3;
      }
    }
    {
      gdouble kmin = kernel_ms[0], wmin = wall_ms[0];
      for (gint i = 1; i < n; i++) {
        kmin = MIN (kmin, kernel_ms[i]);
        wmin = MIN (wmin, wall_ms[i]);
      }
      g_print ("%-46s kernel %7.3f (min %6.3f) | enqueue..done %7.3f "
          "(min %6.3f)\n", mode_names[m], bench_median (kernel_ms, n), kmin,
          bench_median (wall_ms, n), wmin);
    }
  }
  for (gint i = 0; i < N_BUFFERS; i++) {
    clReleaseMemObject (src[i]);
    clReleaseMemObject (dst[i]);
    free (host_src[i]);
    free (host_dst[i]);
    g_free (frames[i]);
  }
  gst_cl_blur_program_clear (&prog);
  gst_object_unref (ctx);
  g_free (kernel_ms);
  g_free (wall_ms);
  return 0;
}
