/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel checker for the Sobel kernels (dav1d checkasm style): every variant
 * on every OpenCL device against the C reference, every operator size and
 * mode, every input and output kind, on random and structured frames of
 * awkward sizes with padded strides and unaligned plane offsets. Prints the
 * failing parameters. Exit 77 when no device exists.
 * Usage: check_sobel_kernels [VARIANT] (default: every variant). */
#include "cl/gstclcontext.h"
#include "elements/gstclsobelkernel.h"

#include <stdlib.h>
#include <string.h>
#include "kernelcheck.h"

typedef struct
{
  gint width, height;
} Size;

static const Size sizes[] = {
  {1, 1}, {2, 2}, {3, 7}, {17, 5}, {640, 480}, {1921, 1081},
};

static const GstCLSobelParams params[] = {
  {3, GST_CL_SOBEL_MAGNITUDE, 1.0, 0, 0},
  {3, GST_CL_SOBEL_X, 1.0, 0, 0},
  {3, GST_CL_SOBEL_Y, 1.0, 0, 0},
  {5, GST_CL_SOBEL_MAGNITUDE, 0.125, 0, 0},
  {5, GST_CL_SOBEL_X, 0.25, 3.0, 0},
  {5, GST_CL_SOBEL_Y, 0.1, 0, 0},
  {7, GST_CL_SOBEL_MAGNITUDE, 0.01, 0, 0},
  {7, GST_CL_SOBEL_X, 0.02, -5.0, 0},
  {7, GST_CL_SOBEL_Y, 1.0, 0, 0},
  {GST_CL_SCHARR, GST_CL_SOBEL_MAGNITUDE, 0.25, 0, 0},
  {GST_CL_SCHARR, GST_CL_SOBEL_X, 1.0, 0, 0},
  {GST_CL_SCHARR, GST_CL_SOBEL_Y, 0.5, 10.0, 0},
  {3, GST_CL_SOBEL_MAGNITUDE, 1.0, 0, 100},
  {GST_CL_SCHARR, GST_CL_SOBEL_X, 0.3, 0, 40},
};

static const gchar *in_names[] = { "y", "rgb", "bgr" };

static gint n_checked, n_failed;
static gint n_packed;            /* tiled programs built with PACK_U16 */
/* Reference output of the kernel: luma, edges, then the output layout. */
static void
reference (const guint8 * src, const GstCLPlane * sp, GstCLSobelIn in,
    guint8 * dst, const GstCLPlane * dp, GstCLSobelOut out,
    const GstCLSobelParams * pr)
{
  const gint w = sp->width, h = sp->height;
  guint8 *luma = g_malloc ((gsize) w * h), *edges = g_malloc ((gsize) w * h);

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const guint8 *p = src + sp->offset + y * sp->stride + x * sp->pixel_bytes;
      luma[y * w + x] = in == GST_CL_SOBEL_IN_Y ? p[0] :
          in == GST_CL_SOBEL_IN_RGB ? gst_cl_ref_luma (p[0], p[1], p[2]) :
          gst_cl_ref_luma (p[2], p[1], p[0]);
    }
  gst_cl_ref_sobel_plane (luma, w, edges, w, w, h, pr->ksize, pr->mode,
      pr->scale, pr->delta, pr->threshold);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      guint8 *o = dst + dp->offset + y * dp->stride + x * dp->pixel_bytes;
      guint8 v = edges[y * w + x];
      if (out == GST_CL_SOBEL_OUT_1) {
        o[0] = v;
      } else {
        o[0] = o[1] = o[2] = v;
        o[3] = 255;
      }
    }
  g_free (luma);
  g_free (edges);
}

static void
check_one (GstCLContext * ctx, GstCLSobelProgram * prog, const Size * sz,
    GstCLSobelIn in, GstCLSobelOut out, gboolean structured)
{
  const GstCLSobelParams *pr = &prog->params;
  const gint icn = in == GST_CL_SOBEL_IN_Y ? 1 : 4;
  const gint ocn = out == GST_CL_SOBEL_OUT_1 ? 1 : 4;
  /* Structured frames, and random ones whose width is a multiple of 4
   * (640x480), have 4-byte aligned rows: the tiles' fast path, what
   * frames from a buffer pool take. The others odd offsets and strides. */
  const gboolean aligned = structured || sz->width % 4 == 0;
  const gint pad = aligned ? 4 * (rnd () % 17) : rnd () % 67;
  const gint iwb = sz->width * icn;
  GstCLPlane sp = { aligned ? 4096 : 4096 + 13,
    (aligned ? GST_ROUND_UP_4 (iwb) : iwb) + pad, sz->width, sz->height, icn
  };
  GstCLPlane dp = { aligned ? 64 : 64 + 7,
    aligned ? GST_ROUND_UP_4 (sz->width * ocn) : sz->width * ocn +
        (pad ? 5 : 0), sz->width, sz->height, ocn
  };
  const gint owb = sz->width * ocn;
  gsize src_size = sp.offset + (gsize) sp.stride * sz->height;
  gsize dst_size = dp.offset + (gsize) dp.stride * sz->height + 64;
  guint8 *src = g_malloc (src_size), *dst = g_malloc (dst_size),
      *ref = g_malloc (dst_size);
  cl_int status;
  cl_mem s, d;
  cl_event ev = NULL;
  gint maxdiff = 0, bad_x = -1, bad_y = -1, tolerance;
  gboolean guard_ok = TRUE;

  for (gsize i = 0; i < src_size; i++)
    src[i] = rnd ();
  fill_noise_or_edges (src + sp.offset, sp.stride, sz->width * icn, sz->height,
      structured);
  memset (dst, 0xA5, dst_size);
  memcpy (ref, dst, dst_size);
  reference (src, &sp, in, ref, &dp, out, pr);

  s = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      src_size, src, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  d = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      dst_size, dst, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  status = gst_cl_sobel_program_enqueue (prog, ctx->queue, s, &sp, in, d, &dp,
      out, &ev);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, d, CL_TRUE, 0, dst_size, dst, 1,
        &ev, NULL);
  if (ev)
    clReleaseEvent (ev);
  clReleaseMemObject (s);
  clReleaseMemObject (d);

  if (status == CL_SUCCESS)
    maxdiff = kernelcheck_compare (dst, ref, dst_size, dp.offset, dp.stride,
        owb, sz->height, 0xA5, &bad_x, &bad_y, &guard_ok);

  /* 1 LSB where scale or delta make the values fractional (a device's
   * float may round them the other way); none at scale 1, delta 0: the
   * derivatives are integers, and the square root of an integer n below
   * 65281 (above, the byte saturates) is at least 2^-11 from any k + 1/2,
   * far more than a device's square root errs. With a threshold that LSB
   * may flip a value across it. */
  tolerance = pr->threshold > 0 ? 255 : pr->scale == 1 && pr->delta == 0 ?
      0 : 1;
  if (pr->threshold > 0 && status == CL_SUCCESS) {
    /* Thresholded: recheck with 1 LSB slack around the threshold. */
    GstCLSobelParams lo = *pr, hi = *pr;
    guint8 *rlo = g_malloc (dst_size), *rhi = g_malloc (dst_size);
    lo.threshold = pr->threshold + 1;   /* what a value 1 low gives */
    hi.threshold = MAX (pr->threshold - 1, 1);
    memcpy (rlo, ref, dst_size);
    memcpy (rhi, ref, dst_size);
    reference (src, &sp, in, rlo, &dp, out, &lo);
    reference (src, &sp, in, rhi, &dp, out, &hi);
    maxdiff = 0;
    for (gint y = 0; y < sz->height; y++)
      for (gint x = 0; x < owb; x++) {
        gsize i = dp.offset + y * dp.stride + x;
        if (dst[i] != rlo[i] && dst[i] != rhi[i] && dst[i] != ref[i]) {
          maxdiff = 255;
          bad_x = x;
          bad_y = y;
        }
      }
    tolerance = 0;
    g_free (rlo);
    g_free (rhi);
  }

  n_checked++;
  if (status != CL_SUCCESS || maxdiff > tolerance || !guard_ok) {
    n_failed++;
    g_printerr ("FAIL %s %s: %dx%d in=%s out=o%d ksize=%d mode=%d scale=%g "
        "delta=%g threshold=%d %s stride=%d: status=%d max diff %d at byte "
        "(%d,%d)%s\n", ctx->device->name,
        gst_cl_sobel_variant_name (prog->variant), sz->width, sz->height,
        in_names[in], ocn, pr->ksize, pr->mode, pr->scale, pr->delta,
        pr->threshold, structured ? "structured" : "random", sp.stride,
        status, maxdiff, bad_x, bad_y,
        guard_ok ? "" : ", wrote outside the plane");
  }
  g_free (src);
  g_free (dst);
  g_free (ref);
}

int
main (int argc, char **argv)
{
  const GPtrArray *devices;
  GError *err = NULL;

  devices = KERNELCHECK_DEVICES (argc, argv);
  const gchar *only = argc > 1 ? argv[1] : NULL;

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    g_assert_no_error (err);

    for (gint variant = 0; variant < GST_CL_SOBEL_N_VARIANTS; variant++) {
      if (only && strcmp (only, gst_cl_sobel_variant_name (variant)))
        continue;
      for (guint pi = 0; pi < G_N_ELEMENTS (params); pi++) {
        const GstCLSobelParams *pr = &params[pi];
        GstCLSobelProgram prog;
        gint before = n_failed;

        if (!gst_cl_sobel_program_init (&prog, ctx, pr, variant, &err)) {
          g_printerr ("FAIL %s: build: %s\n", dev->name, err->message);
          g_clear_error (&err);
          n_failed++;
          continue;
        }
        for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
          for (gint in = 0; in < GST_CL_SOBEL_N_IN; in++)
            for (gint out = 0; out < GST_CL_SOBEL_N_OUT; out++) {
              /* Big frames: every kind once per operator size, the rest on
               * luma in, luma out (the reference is slow). */
              gboolean big = sizes[si].width > 600;
              if (big && pr->mode != GST_CL_SOBEL_MAGNITUDE &&
                  (in != GST_CL_SOBEL_IN_Y || out != GST_CL_SOBEL_OUT_1))
                continue;
              if (big && pr->threshold > 0)
                continue;
              check_one (ctx, &prog, &sizes[si], in, out, FALSE);
              if (!big)
                check_one (ctx, &prog, &sizes[si], in, out, TRUE);
            }
        n_packed += prog.pack_u16;
        g_print ("%s %-5s ksize=%d mode=%d scale=%g delta=%g threshold=%d%s: "
            "%s\n", dev->name, gst_cl_sobel_variant_name (variant),
            pr->ksize, pr->mode, pr->scale, pr->delta, pr->threshold,
            prog.pack_u16 ? " (packed bytes)" : "",
            n_failed == before ? "ok" : "FAILED");
        gst_cl_sobel_program_clear (&prog);
      }
    }
    gst_object_unref (ctx);
  }

  /* GST_CL_SOBEL_PACK=1 is meant to reach the PACK_U16 store */
  if (!only || !strcmp (only, "tiled"))
    n_failed += !kernelcheck_switch_reached (GST_CL_SOBEL_PACK_ENV, n_packed);
  g_print ("%d passed, %d failed\n", n_checked - n_failed, n_failed);
  return n_failed ? 1 : 0;
}
