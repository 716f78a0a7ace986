/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the kernel checkers: one deterministic random
 * sequence per checker and the test frames. */
#pragma once

#include <gst/gst.h>
#include "cl/gstcldevice.h"
#include "cl/gstclfilter.h"
#include <stdlib.h>
#include <string.h>

static guint32 kernelcheck_rng = 0x12345678;

/* Next byte of a fixed linear congruential sequence (same every run). */
static inline guint8
rnd (void)
{
  kernelcheck_rng = kernelcheck_rng * 1664525u + 1013904223u;
  return kernelcheck_rng >> 24;
}

/* Plane layouts in turn: TRUE every other call, for a frame laid out as
 * the buffer pools lay planes out (the kernels' aligned accesses), FALSE
 * for odd offsets and strides. */
static inline gboolean
kernelcheck_next_pooled (void)
{
  static gboolean turn;
  return turn ^= 1;
}

/* An offset or stride of @n bytes, or where @pooled the next multiple of
 * 64 (the pools' alignment). */
static inline gint
kernelcheck_pooled (gboolean pooled, gint n)
{
  return pooled ? GST_ROUND_UP_64 (n) : n;
}

/* Random noise, or a structured frame: gradients and hard edges. */
static inline void
fill_noise_or_edges (guint8 * p, gint stride, gint wb, gint h,
    gboolean structured)
{
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < wb; x++)
      p[y * stride + x] = structured ?
          (((x / 7 + y / 5) & 1) ? 255 : (guint8) (x * 3 + y)) : rnd ();
}

/* Compares the @wb x @h bytes of a plane at @offset / @stride in @dst with
 * the same bytes of @ref: returns the largest difference and where it is.
 * *@guard_ok becomes FALSE if any byte of @dst outside the plane no longer
 * holds @guard (the kernel wrote beyond its plane). */
static inline gint
kernelcheck_compare (const guint8 * dst, const guint8 * ref, gsize size,
    gsize offset, gint stride, gint wb, gint h, guint8 guard, gint * bad_x,
    gint * bad_y, gboolean * guard_ok)
{
  gint maxdiff = 0;

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < wb; x++) {
      gint diff = abs (dst[offset + y * stride + x] -
          ref[offset + y * stride + x]);
      if (diff > maxdiff) {
        maxdiff = diff;
        *bad_x = x;
        *bad_y = y;
      }
    }
  for (gsize i = 0; i < size; i++) {
    gsize rel = i - offset;
    gboolean in_plane = i >= offset && rel / stride < (gsize) h &&
        (gint) (rel % stride) < wb;
    if (!in_plane && dst[i] != guard)
      *guard_ok = FALSE;
  }
  return maxdiff;
}

/* The same for a frame of @n planes @dp (all in @dst, @size bytes): the
 * largest difference over the planes, in plane order, and where it is. */
static inline gint
kernelcheck_compare_planes (const guint8 * dst, const guint8 * ref,
    gsize size, const GstCLPlane * dp, guint n, guint8 guard, gint * bad_p,
    gint * bad_x, gint * bad_y, gboolean * guard_ok)
{
  guint8 *mask = g_malloc0 (size);
  gint maxdiff = 0;

  for (guint i = 0; i < n; i++) {
    const gint wb = dp[i].width * dp[i].pixel_bytes;
    gint bx = -1, by = -1;
    gboolean unused = TRUE;
    gint m = kernelcheck_compare (dst, ref, 0, dp[i].offset, dp[i].stride,
        wb, dp[i].height, guard, &bx, &by, &unused);
    if (m > maxdiff) {
      maxdiff = m;
      *bad_p = i;
      *bad_x = bx;
      *bad_y = by;
    }
    for (gint y = 0; y < dp[i].height; y++)
      memset (mask + dp[i].offset + (gsize) y * dp[i].stride, 1, wb);
  }
  for (gsize i = 0; i < size; i++)
    if (!mask[i] && dst[i] != guard)
      *guard_ok = FALSE;
  g_free (mask);
  return maxdiff;
}

/* A switch that forces a kernel path (e.g. GST_CL_BLUR_HALF=1) must reach
 * it: FALSE, with a message, where the environment variable @env is "1"
 * but no program was built on that path (@n_built). */
static inline gboolean
kernelcheck_switch_reached (const gchar * env, gint n_built)
{
  if (g_strcmp0 (g_getenv (env), "1") != 0 || n_built > 0)
    return TRUE;
  g_printerr ("FAIL %s=1 built no program on its path\n", env);
  return FALSE;
}

/* Every OpenCL device, after gst_init(); exits 77 (skipped) with the reason
 * when there is none. KERNELCHECK_DEVICES=gpu or cpu keeps only those (a
 * GPU run need not wait for PoCL to build every variant). */
#define KERNELCHECK_DEVICES(argc, argv) kernelcheck_devices (&(argc), &(argv))
static inline const GPtrArray *
kernelcheck_devices (int *argc, char ***argv)
{
  const GPtrArray *devices;
  const gchar *only = g_getenv ("KERNELCHECK_DEVICES");
  GPtrArray *kept;
  GError *err = NULL;

  gst_init (argc, argv);
  devices = gst_cl_device_list (&err);
  if (!devices) {
    g_print ("SKIP: %s\n", err->message);
    exit (77);
  }
  if (!only || (strcmp (only, "gpu") && strcmp (only, "cpu")))
    return devices;
  kept = g_ptr_array_new ();    /* lives as long as the checker */
  for (guint i = 0; i < devices->len; i++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, i);
    if (dev->is_gpu == !strcmp (only, "gpu"))
      g_ptr_array_add (kept, (gpointer) dev);
  }
  if (kept->len == 0) {
    g_print ("SKIP: no %s device (KERNELCHECK_DEVICES)\n", only);
    exit (77);
  }
  return kept;
}
