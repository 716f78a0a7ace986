/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel checker for the blur kernels, in the spirit of dav1d's checkasm:
 * every variant on every OpenCL device against the C reference, on random
 * and structured frames of awkward sizes, padded strides and unaligned plane
 * offsets. Prints the failing parameters. Exit 77 when no device exists.
 * Usage: check_blur_kernels [VARIANT] (default: every variant). */
#include "cl/gstclcontext.h"
#include "elements/gstclblurkernel.h"

#include <stdlib.h>
#include <string.h>
#include "kernelcheck.h"

typedef struct
{
  gint width, height;
} Size;

static const Size sizes[] = {
  {1, 1}, {2, 2}, {3, 7}, {17, 5}, {64, 3}, {640, 480}, {1921, 1081},
  {2060, 4}, {2083, 6},
};

typedef struct
{
  gdouble sx, sy;
  gint ksize;
} Params;

static const Params params[] = {
  {0.3, 0, 0}, {0.8, 0, 0}, {1.1, 0, 5}, {2.5, 0, 0}, {1.0, 3.0, 0},
  {0.0, 0, 7}, {8.0, 0, 0}, {3.0, 1.0, 0},
};

static gint n_checked, n_failed;
static gint n_half;              /* tiled programs built in packed halves */

/* Structured frames use 4-byte aligned rows (the fast path of some
 * variants), random ones odd offsets and strides. */
static gboolean
check_one (GstCLContext * ctx, GstCLBlurProgram * prog, const Params * pr,
    const Size * sz, gint cn, gboolean structured)
{
  const gint wb = sz->width * cn;
  const gint pad = structured ? 4 * (rnd () % 17) : rnd () % 67;
  GstCLPlane sp = { structured ? 4096 : 4096 + 13,
    structured ? GST_ROUND_UP_4 (wb) + pad : wb + pad, sz->width, sz->height,
    cn
  };
  GstCLPlane dp = { structured ? 64 : 64 + 7,
    structured ? GST_ROUND_UP_4 (wb) : wb + (pad ? 5 : 0), sz->width,
    sz->height, cn
  };
  gsize src_size = sp.offset + (gsize) sp.stride * sz->height;
  gsize dst_size = dp.offset + (gsize) dp.stride * sz->height + 64;
  guint8 *src = g_malloc (src_size), *dst = g_malloc (dst_size),
      *ref = g_malloc (dst_size);
  cl_int status;
  cl_mem s, d;
  cl_event ev = NULL;
  gint maxdiff = 0, bad_x = -1, bad_y = -1;
  gboolean guard_ok = TRUE;

  for (gsize i = 0; i < src_size; i++)
    src[i] = rnd ();
  fill_noise_or_edges (src + sp.offset, sp.stride, wb, sz->height, structured);
  memset (dst, 0xA5, dst_size);
  memcpy (ref, dst, dst_size);

  gst_cl_ref_blur_plane (src + sp.offset, sp.stride, ref + dp.offset,
      dp.stride, sz->width, sz->height, cn, prog->taps.wx, prog->taps.kx,
      prog->taps.wy, prog->taps.ky);

  s = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      src_size, src, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  d = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      dst_size, dst, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  status = gst_cl_blur_program_enqueue (prog, ctx->queue, s, &sp, d, &dp, &ev);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, d, CL_TRUE, 0, dst_size, dst, 1,
        &ev, NULL);
  if (ev)
    clReleaseEvent (ev);
  clReleaseMemObject (s);
  clReleaseMemObject (d);

  if (status == CL_SUCCESS)
    maxdiff = kernelcheck_compare (dst, ref, dst_size, dp.offset, dp.stride,
        wb, sz->height, 0xA5, &bad_x, &bad_y, &guard_ok);

  n_checked++;
  gboolean ok = status == CL_SUCCESS && maxdiff <= 1 && guard_ok;
  if (!ok) {
    n_failed++;
    g_printerr ("FAIL %s %s: %dx%d cn=%d sigma=%.2f/%.2f ksize=%d (taps %dx%d)"
        " %s stride=%d: status=%d max diff %d at byte (%d,%d)%s\n",
        ctx->device->name, gst_cl_blur_variant_name (prog->variant), sz->width, sz->height, cn, pr->sx, pr->sy, pr->ksize,
        prog->taps.kx, prog->taps.ky, structured ? "structured" : "random",
        sp.stride, status, maxdiff, bad_x, bad_y,
        guard_ok ? "" : ", wrote outside the plane");
  }
  g_free (src);
  g_free (dst);
  g_free (ref);
  return ok;
}

/* Every plane of an NV12 (@n_planes 2) or I420 (3) frame in one launch,
 * luma with the program's taps and chroma with its chroma taps, against the
 * reference plane by plane; planes at odd offsets with padded strides
 * (random) or 4-byte aligned (structured), in any order in the buffer. */
static void
check_planes (GstCLContext * ctx, GstCLBlurProgram * prog, const Params * pr,
    const Size * sz, guint n_planes, gboolean structured)
{
  GstCLPlane sp[3], dp[3];
  gsize src_size = 4096, dst_size = 64;
  guint8 *src, *dst, *ref;
  gint maxdiff = 0, bad_x = -1, bad_y = -1, bad_p = -1;
  gboolean guard_ok = TRUE;
  cl_int status;
  cl_mem s, d;
  cl_event ev = NULL;

  for (guint i = 0; i < n_planes; i++) {
    const gint w = i ? (sz->width + 1) / 2 : sz->width;
    const gint h = i ? (sz->height + 1) / 2 : sz->height;
    const gint cn = i && n_planes == 2 ? 2 : 1;
    const gint wb = w * cn, pad = structured ? 4 * (rnd () % 9) : rnd () % 37;
    sp[i] = (GstCLPlane) {
    src_size + (structured ? 0 : 1 + rnd () % 3),
          structured ? GST_ROUND_UP_4 (wb) + pad : wb + pad, w, h, cn};
    dp[i] = (GstCLPlane) {
    dst_size + (structured ? 0 : 1 + rnd () % 3),
          structured ? GST_ROUND_UP_4 (wb) : wb + (pad ? 3 : 0), w, h, cn};
    src_size = GST_ROUND_UP_64 (sp[i].offset + (gsize) sp[i].stride * h);
    dst_size = GST_ROUND_UP_64 (dp[i].offset + (gsize) dp[i].stride * h) + 64;
  }
  src = g_malloc (src_size);
  dst = g_malloc (dst_size);
  ref = g_malloc (dst_size);
  for (gsize i = 0; i < src_size; i++)
    src[i] = rnd ();
  memset (dst, 0xA5, dst_size);
  memcpy (ref, dst, dst_size);
  for (guint i = 0; i < n_planes; i++) {
    const GstCLBlurTaps *t = i ? &prog->chroma_taps : &prog->taps;
    const gint wb = sp[i].width * sp[i].pixel_bytes;
    fill_noise_or_edges (src + sp[i].offset, sp[i].stride, wb, sp[i].height,
        structured);
    gst_cl_ref_blur_plane (src + sp[i].offset, sp[i].stride, ref + dp[i].offset,
        dp[i].stride, sp[i].width, sp[i].height, sp[i].pixel_bytes, t->wx,
        t->kx, t->wy, t->ky);
  }

  s = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      src_size, src, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  d = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      dst_size, dst, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  status = gst_cl_blur_program_enqueue_planes (prog, ctx->queue, s, sp, d, dp,
      n_planes, &ev);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, d, CL_TRUE, 0, dst_size, dst, 1,
        &ev, NULL);
  if (ev)
    clReleaseEvent (ev);
  clReleaseMemObject (s);
  clReleaseMemObject (d);

  if (status == CL_SUCCESS)
    maxdiff = kernelcheck_compare_planes (dst, ref, dst_size, dp, n_planes,
        0xA5, &bad_p, &bad_x, &bad_y, &guard_ok);

  n_checked++;
  if (status != CL_SUCCESS || maxdiff > 1 || !guard_ok) {
    n_failed++;
    g_printerr ("FAIL %s %s %s one launch: %dx%d sigma=%.2f/%.2f ksize=%d "
        "(taps %dx%d, chroma %dx%d) %s: status=%d max diff %d in plane %d "
        "at byte (%d,%d)%s\n", ctx->device->name,
        gst_cl_blur_variant_name (prog->variant),
        n_planes == 2 ? "NV12" : "I420", sz->width, sz->height, pr->sx,
        pr->sy, pr->ksize, prog->taps.kx, prog->taps.ky, prog->chroma_taps.kx,
        prog->chroma_taps.ky, structured ? "structured" : "random", status,
        maxdiff, bad_p, bad_x, bad_y,
        guard_ok ? "" : ", wrote outside the planes");
  }
  g_free (src);
  g_free (dst);
  g_free (ref);
}

/* Host side of the fixed variant: every σ the element accepts (0..42) gets
 * taps that either keep the bound or are refused, and a CPU device then
 * falls back to the float bands (init of the fixed variant fails cleanly).
 * The bound is what makes "within 1 level" hold for inputs the random
 * frames never produce. */
static void
check_fixed_choice (GstCLContext * ctx)
{
  gint served = 0, refused = 0;
  GError *err = NULL;

  for (gint i = 1; i <= 4200; i++) {
    GstCLBlurTaps taps;
    GstCLBlurFixedTaps fx;
    gboolean ok;

    gst_cl_blur_taps_compute (&taps, i / 100.0, i / 100.0, 0, 0, 0);
    ok = gst_cl_blur_fixed_taps (&taps, &fx);
    n_checked++;
    if (ok != (fx.bound <= GST_CL_BLUR_FIXED_MAX_ERROR && fx.round < 256)
        || (!ctx->device->is_gpu && gst_cl_blur_preferred_variant
            (ctx->device, &taps) != (ok ? GST_CL_BLUR_FIXED :
                GST_CL_BLUR_BANDS))) {
      g_printerr ("FAIL fixed choice at sigma %.2f (%d taps): ok %d bound "
          "%.3f round %u\n", i / 100.0, taps.kx, ok, fx.bound, fx.round);
      n_failed++;
    }
    if (ok)
      served++;
    else
      refused++;
  }
  /* σ 1.1 (5x5) and up to ~28 must be served: that is the point of it. */
  if (served < 2700) {
    g_printerr ("FAIL fixed variant serves only %d of 4200 sigmas\n", served);
    n_failed++;
  }
  {
    GstCLBlurTaps taps;
    GstCLBlurProgram prog;
    gst_cl_blur_taps_compute (&taps, 40.0, 40.0, 0, 0, 0);
    n_checked++;
    if (gst_cl_blur_program_init (&prog, ctx, &taps, GST_CL_BLUR_FIXED,
            &err) || !err) {
      g_printerr ("FAIL fixed variant accepted sigma 40 (%d taps)\n",
          taps.kx);
      n_failed++;
      gst_cl_blur_program_clear (&prog);
    }
    g_clear_error (&err);
  }
  g_print ("%s fixed choice: %d sigmas served, %d refused (float bands)\n",
      ctx->device->name, served, refused);
}

/* Host side of the packed-half tile: every σ the element accepts gets
 * half taps within the bound or is refused (the float tile then serves);
 * σ 1.1 to 4 must be served, σ 40 refused. */
static void
check_half_choice (const GstCLDeviceInfo * dev)
{
  gint served = 0, last_served = 0;

  for (gint i = 1; i <= 4200; i++) {
    GstCLBlurTaps taps;
    GstCLBlurHalfTaps ht;
    gboolean ok;

    gst_cl_blur_taps_compute (&taps, i / 100.0, i / 100.0, 0, 0, 0);
    ok = gst_cl_blur_half_taps (&taps, &ht);
    n_checked++;
    if ((ok && ht.bound > GST_CL_BLUR_FIXED_MAX_ERROR) ||
        (!ok && i >= 110 && i <= 400) || (ok && i == 4000)) {
      g_printerr ("FAIL half choice at sigma %.2f (%d taps): ok %d bound "
          "%.3f\n", i / 100.0, taps.kx, ok, ht.bound);
      n_failed++;
    }
    if (ok) {
      served++;
      last_served = i;
    }
  }
  g_print ("%s half choice: %d sigmas of 4200 served, the largest %.2f\n",
      dev->name, served, last_served / 100.0);
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

    if (!only || !strcmp (only, "fixed"))
      check_fixed_choice (ctx);
    if (!only || !strcmp (only, "tiled"))
      check_half_choice (dev);
    for (gint variant = GST_CL_BLUR_ROWS; variant < GST_CL_BLUR_N_VARIANTS;
        variant++) {
      for (guint pi = 0; pi < G_N_ELEMENTS (params); pi++) {
        const Params *pr = &params[pi];
        GstCLBlurTaps taps, chroma;
        GstCLBlurProgram prog;
        gint before = n_failed, n_planes_checked = 0;
        GstCLBlurFixedTaps fx;

        if (only && strcmp (only, gst_cl_blur_variant_name (variant)))
          continue;
        gst_cl_blur_taps_compute (&taps, pr->sx, pr->sy > 0 ? pr->sy : pr->sx,
            pr->ksize, 0, 0);
        /* The fixed variant serves only taps whose error bound holds
         * (σ up to ~28); init refuses the others, which must be rare. */
        if (variant == GST_CL_BLUR_FIXED && !gst_cl_blur_fixed_taps (&taps,
                &fx)) {
          g_printerr ("FAIL %s: fixed refused %dx%d taps (bound %.3f)\n",
              dev->name, taps.kx, taps.ky, fx.bound);
          n_failed++;
          continue;
        }
        /* as the element does for 4:2:0 chroma */
        gst_cl_blur_taps_compute (&chroma, pr->sx,
            pr->sy > 0 ? pr->sy : pr->sx, pr->ksize, 1, 1);
        if (!gst_cl_blur_program_init_planes (&prog, ctx, &taps, &chroma,
                variant, &err)) {
          g_printerr ("FAIL %s: build: %s\n", dev->name, err->message);
          g_clear_error (&err);
          n_failed++;
          continue;
        }
        for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
          for (gint cn = 1; cn <= 4; cn *= 2) {
            /* Full HD frames of wide kernels: one channel count suffices. */
            if (sizes[si].width > 1000 && (cn != 1 || taps.kx > 9))
              continue;
            check_one (ctx, &prog, pr, &sizes[si], cn, FALSE);
            check_one (ctx, &prog, pr, &sizes[si], cn, TRUE);
          }
        /* The one-launch YUV kernels, where the variant has them (tiled). */
        for (guint n = 2; n <= 3; n++) {
          const GstCLPlane layout[3] = { {0, 0, 0, 0, 1}, {0, 0, 0, 0,
                  n == 2 ? 2 : 1}, {0, 0, 0, 0, 1} };
          if (!gst_cl_blur_program_has_planes (&prog, layout, n))
            continue;
          for (guint si = 0; si < G_N_ELEMENTS (sizes); si++) {
            if (sizes[si].width > 1000 && taps.kx > 9)
              continue;
            check_planes (ctx, &prog, pr, &sizes[si], n, FALSE);
            check_planes (ctx, &prog, pr, &sizes[si], n, TRUE);
            n_planes_checked += 2;
          }
        }
        if (variant == GST_CL_BLUR_TILED && prog.tile_h[0] > 0 &&
            n_planes_checked == 0) {
          g_printerr ("FAIL %s tiled: no one-launch YUV kernel built\n",
              dev->name);
          n_failed++;
        }
        n_half += prog.half;
        g_print ("%s %-5s%s%s%s sigma=%.2f/%.2f ksize=%d taps %dx%d tiles "
            "%d/%d/%d, chroma taps %dx%d tiles %d/%d, %d one-launch YUV "
            "frames: %s\n", dev->name, gst_cl_blur_variant_name (variant),
            variant != GST_CL_BLUR_FIXED ? "" : prog.fx_width == 32 ?
            " (32 bytes/item" : " (16 bytes/item",
            variant != GST_CL_BLUR_FIXED ? "" : prog.fx_span ? ", rows)" :
            ", bands)", variant != GST_CL_BLUR_TILED ? "" :
            !prog.vfirst ? " (across first)" : prog.half ?
            " (down first, halves)" : " (down first)", pr->sx, pr->sy,
            pr->ksize, taps.kx, taps.ky, prog.tile_h[0], prog.tile_h[1],
            prog.tile_h[2], chroma.kx, chroma.ky, prog.chroma_tile_h[0],
            prog.chroma_tile_h[1], n_planes_checked,
            n_failed == before ? "ok" : "FAILED");
        gst_cl_blur_program_clear (&prog);
      }
    }
    gst_object_unref (ctx);
  }
  /* GST_CL_BLUR_HALF=1 is meant to reach the packed-half tile (a
   * vertical-first one) */
  if (g_strcmp0 (g_getenv (GST_CL_BLUR_HALF_ENV), "1") == 0 &&
      g_strcmp0 (g_getenv (GST_CL_BLUR_VFIRST_ENV), "0") != 0 &&
      (!only || !strcmp (only, "tiled"))) {
    n_checked++;
    n_failed += !kernelcheck_switch_reached (GST_CL_BLUR_HALF_ENV, n_half);
  }

  g_print ("%d passed, %d failed\n", n_checked - n_failed, n_failed);
  return n_failed ? 1 : 0;
}
