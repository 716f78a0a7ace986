/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel checker for the histogram-equalisation kernels (dav1d checkasm
 * style): histograms, LUTs (CDF, clip, strength) and the apply (global and
 * CLAHE tiles + interpolation) against gst/ref/histeq.c on every OpenCL
 * device, on random, structured and flat frames of awkward sizes with padded
 * strides and unaligned plane offsets, and every other frame laid out as
 * the buffer pools do (64-byte aligned). Exit 77 when no device exists. */
#include "cl/gstclcontext.h"
#include "elements/gstclhisteqkernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kernelcheck.h"

#define BINS GST_CL_HISTEQ_BINS

typedef struct
{
  gint width, height;
} Size;

/* 256x96: three groups of histeq_equalize_keep_c1 (their slices fit its
 * kept chunks), so that kernel runs on every device; 1920x1088: on a GPU
 * of 132 compute units at one group each (GST_CL_HISTEQ_EQ_GROUPS=1),
 * slices of 1080 chunks, past those registers, in histeq_equalize_c1's
 * local memory as a 4K frame's are at two groups */
static const Size sizes[] = {
  {1, 1}, {3, 7}, {17, 5}, {64, 48}, {256, 96}, {640, 480}, {1920, 1088},
  {1921, 1081},
};

typedef struct
{
  GstCLHisteqMode mode;
  gint tiles_x, tiles_y;
  gdouble clip;
  gfloat strength;
} Params;

static const Params params[] = {
  {GST_CL_HISTEQ_GLOBAL, 1, 1, 0, 1.0f},
  {GST_CL_HISTEQ_GLOBAL, 1, 1, 0, 0.4f},
  {GST_CL_HISTEQ_CLAHE, 8, 8, 2.0, 1.0f},
  {GST_CL_HISTEQ_CLAHE, 3, 5, 0.0, 1.0f},
  {GST_CL_HISTEQ_CLAHE, 2, 2, 40.0, 0.7f},
  /* tiles narrower than the 64 pixels the CPU apply takes at a time, so
   * chunks span three tile intervals and more */
  {GST_CL_HISTEQ_CLAHE, 24, 4, 2.0, 1.0f},
};

enum
{ RANDOM, STRUCTURED, FLAT, DARK };
static const gchar *content_names[] = { "random", "structured", "flat",
  "dark"
};

static gint n_checked, n_failed;

static const gchar *
path_name (const GstCLHisteqProgram * prog)
{
  return prog->one_launch ? (prog->serial ? "serial-one" : "one") :
      prog->serial ? (prog->fused ? "serial-fused" : "serial") :
      prog->fused ? "fused" : "atomic";
}
static void
fill (guint8 * p, gint stride, gint wb, gint h, gint content)
{
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < wb; x++)
      p[y * stride + x] = content == RANDOM ? rnd () :
          content == STRUCTURED ? (((x / 7 + y / 5) & 1) ? 200 :
          (guint8) (x * 3 + y)) : content == FLAT ? 77 : 20 + rnd () % 40;
}

static gboolean
check_one (GstCLContext * ctx, GstCLHisteqProgram * prog, const Params * pr,
    const Size * sz, gint cn, gint content)
{
  const gint wb = sz->width * cn;
  const gint pad = rnd () % 67;
  const gboolean pooled = kernelcheck_next_pooled ();
  GstCLPlane sp = { kernelcheck_pooled (pooled, 4096 + 13 * (cn == 1)),
    kernelcheck_pooled (pooled, wb + pad * cn), sz->width, sz->height, cn
  };
  GstCLPlane dp = { kernelcheck_pooled (pooled, 64 + 7 * (cn == 1)),
    kernelcheck_pooled (pooled, wb + (pad ? 5 * cn : 0)), sz->width,
    sz->height, cn
  };
  gsize src_size = sp.offset + (gsize) sp.stride * sz->height;
  gsize dst_size = dp.offset + (gsize) dp.stride * sz->height + 64;
  guint8 *src = g_malloc (src_size), *dst = g_malloc (dst_size),
      *ref = g_malloc (dst_size);
  GstCLHisteqBuffers bufs = { 0 };
  GstCLHisteqParams hp = { pr->strength, 0, 0.3f, FALSE };
  GError *err = NULL;
  gint w[4];
  cl_int status;
  cl_mem s, d;
  cl_event ev = NULL;
  gint maxdiff = 0, bad_x = -1, bad_y = -1, hist_bad = -1, lut_bad = -1,
      repeat_bad = -1;
  gboolean guard_ok = TRUE;
  guint32 *rhist, *dhist, *parts;
  guint8 *rluts, *dluts;
  gint tiles, tol;

  gst_cl_histeq_luma_weights (2, 1, 0, w);      /* BGRA */
  for (gsize i = 0; i < src_size; i++)
    src[i] = rnd ();
  fill (src + sp.offset, sp.stride, wb, sz->height, content);
  memset (dst, 0xA5, dst_size);
  memcpy (ref, dst, dst_size);

  if (!gst_cl_histeq_buffers_ensure (&bufs, ctx, sz->width, sz->height,
          pr->mode, pr->tiles_x, pr->tiles_y, pr->clip, &err))
    g_error ("buffers: %s", err->message);
  tiles = bufs.geom.tiles_x * bufs.geom.tiles_y;
  rhist = g_new (guint32, tiles * BINS);
  dhist = g_new0 (guint32, tiles * BINS);
  parts = g_new (guint32, tiles * BINS * bufs.slices);
  rluts = g_new (guint8, tiles * BINS);
  dluts = g_new (guint8, tiles * BINS);

  /* reference */
  gst_cl_ref_histeq_hist (src + sp.offset, sp.stride, sz->width, sz->height,
      cn, w, &bufs.geom, rhist);
  for (gint t = 0; t < tiles; t++) {
    guint32 h[BINS];
    gfloat f[BINS];
    memcpy (h, rhist + t * BINS, sizeof (h));
    gst_cl_ref_histeq_map (h, &bufs.geom, f);
    gst_cl_ref_histeq_lut (f, pr->strength, rluts + t * BINS);
  }
  gst_cl_ref_histeq_apply (src + sp.offset, sp.stride, ref + dp.offset,
      dp.stride, sz->width, sz->height, cn, w, &bufs.geom, rluts);

  s = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      src_size, src, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  d = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      dst_size, dst, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  status = gst_cl_histeq_enqueue (prog, &bufs, ctx->queue, &hp, w, s, &sp, d,
      &dp, &ev, NULL);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, d, CL_TRUE, 0, dst_size, dst, 1,
        &ev, NULL);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, bufs.partial, CL_TRUE, 0,
        sizeof (guint32) * tiles * BINS * bufs.hist_slices, parts, 0, NULL,
        NULL);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, bufs.luts, CL_TRUE, 0,
        tiles * BINS, dluts, 0, NULL, NULL);
  /* The same frame again into a fresh output, twice: state kept between
   * frames (the one-launch path's band claims and LUT flag) must give the
   * same bytes every frame. */
  for (gint rep = 1; rep <= 2 && status == CL_SUCCESS; rep++) {
    const guint8 fresh = 0xA5;
    guint8 *again = g_malloc (dst_size);
    if (ev)
      clReleaseEvent (ev);
    ev = NULL;
    status = clEnqueueFillBuffer (ctx->queue, d, &fresh, 1, 0, dst_size, 0,
        NULL, NULL);
    if (status == CL_SUCCESS)
      status = gst_cl_histeq_enqueue (prog, &bufs, ctx->queue, &hp, w, s,
          &sp, d, &dp, &ev, NULL);
    if (status == CL_SUCCESS)
      status = clEnqueueReadBuffer (ctx->queue, d, CL_TRUE, 0, dst_size,
          again, 1, &ev, NULL);
    if (status == CL_SUCCESS && memcmp (again, dst, dst_size) != 0 &&
        repeat_bad < 0)
      repeat_bad = rep;
    g_free (again);
  }
  if (ev)
    clReleaseEvent (ev);
  clReleaseMemObject (s);
  clReleaseMemObject (d);

  if (status == CL_SUCCESS) {
    for (gint t = 0; t < tiles; t++)
      for (gint sl = 0; sl < bufs.hist_slices; sl++)
        for (gint b = 0; b < BINS; b++)
          dhist[t * BINS + b] += parts[(t * bufs.hist_slices + sl) * BINS + b];
    for (gint i = 0; i < tiles * BINS && hist_bad < 0; i++)
      if (dhist[i] != rhist[i])
        hist_bad = i;
    for (gint i = 0; i < tiles * BINS && lut_bad < 0; i++)
      if (dluts[i] != rluts[i])
        lut_bad = i;
    for (gint y = 0; y < sz->height; y++)
      for (gint x = 0; x < wb; x++) {
        gint diff = abs (dst[dp.offset + y * dp.stride + x] -
            ref[dp.offset + y * dp.stride + x]);
        if (diff > maxdiff) {
          maxdiff = diff;
          bad_x = x;
          bad_y = y;
        }
      }
    for (gsize i = 0; i < dst_size; i++) {
      gsize rel = i - dp.offset;
      gboolean in_plane = i >= dp.offset && rel / dp.stride < (gsize) sz->height
          && (gint) (rel % dp.stride) < wb;
      if (!in_plane && dst[i] != 0xA5)
        guard_ok = FALSE;
    }
  }

  /* Global luma is bit-exact; CLAHE's float interpolation and the colour
   * gain may round differently by one. */
  tol = (pr->mode == GST_CL_HISTEQ_GLOBAL && cn == 1) ? 0 : 1;
  n_checked++;
  gboolean ok = status == CL_SUCCESS && hist_bad < 0 && lut_bad < 0 &&
      maxdiff <= tol && guard_ok && repeat_bad < 0;
  if (!ok) {
    n_failed++;
    g_printerr ("FAIL %s %s hist: %dx%d cn=%d %s tiles=%dx%d clip=%.1f strength=%.2f"
        " %s stride=%d: status=%d, hist %s (first bad %d: %u vs %u), lut %s"
        " (first bad %d: %d vs %d), max diff %d at byte (%d,%d)%s\n",
        ctx->device->name, path_name (prog), sz->width,
        sz->height, cn,
        pr->mode ? "clahe" : "global", pr->tiles_x, pr->tiles_y, pr->clip,
        pr->strength, content_names[content], sp.stride, status,
        hist_bad < 0 ? "ok" : "BAD", hist_bad,
        hist_bad < 0 ? 0 : dhist[hist_bad], hist_bad < 0 ? 0 : rhist[hist_bad],
        lut_bad < 0 ? "ok" : "BAD", lut_bad,
        lut_bad < 0 ? 0 : dluts[lut_bad], lut_bad < 0 ? 0 : rluts[lut_bad],
        maxdiff, bad_x, bad_y, guard_ok ? "" : ", wrote outside the plane");
    if (repeat_bad >= 0)
      g_printerr ("FAIL %s %s hist: %dx%d cn=%d: frame %d of the same input "
          "differs from the first\n", ctx->device->name, path_name (prog),
          sz->width, sz->height, cn, repeat_bad + 1);
  }
  gst_cl_histeq_buffers_clear (&bufs);
  g_free (rhist);
  g_free (dhist);
  g_free (parts);
  g_free (rluts);
  g_free (dluts);
  g_free (src);
  g_free (dst);
  g_free (ref);
  return ok;
}

/* Temporal smoothing, brightness tracking and scene cuts over a sequence:
 * four frames of one scene, four of another (a cut), each with its own
 * noise and a brightness offset (a camera's jitter), against the reference
 * state machine. The LUTs and the tracked shift are compared bit for bit
 * every frame. The odd frames keep a checkpoint (device=auto's, for a
 * frame run again elsewhere): it must hold the whole state as it was
 * before the frame, which the frame changes. */
static gboolean
check_temporal (GstCLContext * ctx, GstCLHisteqProgram * prog,
    GstCLHisteqMode mode, const Size * sz, gfloat strength)
{
  static const gint offsets[8] = { 0, 1, -1, 2, 0, -1, 1, -2 };
  const gint w = sz->width, h = sz->height;
  GstCLPlane plane = { 0, w, w, h, 1 };
  GstCLHisteqBuffers bufs = { 0 };
  GstCLHisteqParams hp = { strength, 4, 0.3f, FALSE };
  const gfloat alpha = 1.0f / 4;
  const gint wts[4] = { 0 };
  GError *err = NULL;
  guint8 *src = g_malloc ((gsize) w * h), *dst = g_malloc ((gsize) w * h);
  gfloat *fs, *st, dshift = 0;
  guint32 *hist;
  guint8 *rluts, *dluts;
  gint tiles, bad_frame = -1, cuts = 0, want_cuts = 0, shifted = 0;
  gint bad_bin = -1, solved = 0, roots = 0;
  gint kept = 0, kept_bad = -1, kept_changed = 0, kept_where = 0;
  gfloat bad_shift = 0, want_shift = 0;
  gsize state_size;
  guint8 *before, *after, *saved;
  gdouble worst_root = 0;
  cl_mem s, d;
  cl_int status = CL_SUCCESS;

  if (!gst_cl_histeq_buffers_ensure (&bufs, ctx, w, h, mode, 4, 3, 2.0, &err))
    g_error ("buffers: %s", err->message);
  tiles = bufs.geom.tiles_x * bufs.geom.tiles_y;
  state_size = gst_cl_histeq_buffers_state_size (&bufs);
  before = g_malloc (state_size);
  after = g_malloc (state_size);
  saved = g_malloc (state_size);
  fs = g_new0 (gfloat, GST_CL_HISTEQ_FRAME_STATE (tiles));
  st = g_new0 (gfloat, tiles * BINS);
  hist = g_new (guint32, tiles * BINS);
  rluts = g_new (guint8, tiles * BINS);
  dluts = g_new (guint8, tiles * BINS);
  s = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, (gsize) w * h, NULL,
      &status);
  d = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, (gsize) w * h, NULL,
      &status);

  for (gint frame = 0; frame < 8 && status == CL_SUCCESS; frame++) {
    cl_event ev = NULL;
    gint cut;

    fill (src, w, w, h, frame < 4 ? DARK : STRUCTURED);
    /* noise on the structured scene, so its frames differ and a shift of
     * one level is no cut (as with a camera's noise) */
    for (gint i = 0; i < w * h; i++)
      src[i] = CLAMP (src[i] + offsets[frame] +
          (frame >= 4 ? (gint) (rnd () % 9) - 4 : 0), 0, 255);
    status = clEnqueueWriteBuffer (ctx->queue, s, CL_TRUE, 0, (gsize) w * h,
        src, 0, NULL, NULL);

    gst_cl_ref_histeq_hist (src, w, w, h, 1, wts, &bufs.geom, hist);
    cut = gst_cl_ref_histeq_cut (hist, tiles, mode == GST_CL_HISTEQ_CLAHE,
        alpha, hp.cut_threshold, frame == 0, fs);
    cuts += cut;
    want_cuts += frame == 0 || frame == 4;
    shifted += fabsf (fs[GST_CL_HISTEQ_FS_SHIFT]) > 0.05f;
    /* the reference's shift is the root: mapped at (level - shift) the
     * frame has the target mean (within float rounding), unless clamped */
    if (mode == GST_CL_HISTEQ_GLOBAL && !cut &&
        fabsf (fs[GST_CL_HISTEQ_FS_SHIFT]) < GST_CL_HISTEQ_MAX_SHIFT) {
      const gdouble off = fabs (gst_cl_ref_histeq_shifted_mean (hist,
              fs + GST_CL_HISTEQ_FS_MAP, fs[GST_CL_HISTEQ_FS_SHIFT]) -
          fs[GST_CL_HISTEQ_FS_TARGET]);
      solved++;
      roots += off <= 1e-3;
      worst_root = MAX (worst_root, off);
    }
    for (gint t = 0; t < tiles; t++) {
      gfloat f[BINS];
      gst_cl_ref_histeq_map (hist + t * BINS, &bufs.geom, f);
      gst_cl_ref_histeq_smooth (f, st + t * BINS, alpha, cut,
          fs[GST_CL_HISTEQ_FS_SHIFT]);
      gst_cl_ref_histeq_lut (f, strength, rluts + t * BINS);
    }

    hp.checkpoint = frame % 2 == 1;
    if (status == CL_SUCCESS && hp.checkpoint)
      status = clEnqueueReadBuffer (ctx->queue, bufs.state, CL_TRUE, 0,
          state_size, before, 0, NULL, NULL);
    if (status == CL_SUCCESS)
      status = gst_cl_histeq_enqueue (prog, &bufs, ctx->queue, &hp, wts, s,
          &plane, d, &plane, &ev, NULL);
    if (status == CL_SUCCESS)
      status = clEnqueueReadBuffer (ctx->queue, bufs.luts, CL_TRUE, 0,
          tiles * BINS, dluts, 1, &ev, NULL);
    /* where the state before the frame is: the checkpoint, or nowhere */
    if (status == CL_SUCCESS && bufs.state_before ==
        (hp.checkpoint ? bufs.checkpoint : NULL))
      kept_where++;
    if (status == CL_SUCCESS && hp.checkpoint) {
      kept++;
      status = clEnqueueReadBuffer (ctx->queue, bufs.checkpoint, CL_TRUE, 0,
          state_size, saved, 0, NULL, NULL);
      if (status == CL_SUCCESS)
        status = clEnqueueReadBuffer (ctx->queue, bufs.state, CL_TRUE, 0,
            state_size, after, 0, NULL, NULL);
      if (status == CL_SUCCESS && kept_bad < 0 &&
          memcmp (saved, before, state_size) != 0)
        kept_bad = frame;
      /* else a checkpoint left as it was would pass */
      kept_changed += status == CL_SUCCESS &&
          memcmp (after, before, state_size) != 0;
    }
    if (status == CL_SUCCESS)
      status = clEnqueueReadBuffer (ctx->queue, bufs.frame_state, CL_TRUE,
          sizeof (gfloat) * GST_CL_HISTEQ_FS_SHIFT, sizeof (gfloat), &dshift,
          0, NULL, NULL);
    if (ev)
      clReleaseEvent (ev);
    if (status == CL_SUCCESS && bad_frame < 0 &&
        (memcmp (dluts, rluts, tiles * BINS) != 0 ||
            dshift != fs[GST_CL_HISTEQ_FS_SHIFT])) {
      bad_frame = frame;
      bad_shift = dshift;
      want_shift = fs[GST_CL_HISTEQ_FS_SHIFT];
      for (gint i = 0; i < tiles * BINS && bad_bin < 0; i++)
        if (dluts[i] != rluts[i])
          bad_bin = i;
    }
  }

  /* The jitter must have been tracked (a shift on most frames that are
   * not cuts), or the comparison proves nothing about the tracking. */
  n_checked++;
  gboolean ok = status == CL_SUCCESS && bad_frame < 0 && cuts == want_cuts &&
      shifted >= 4 && (mode != GST_CL_HISTEQ_GLOBAL || (solved >= 4 && roots == solved)) &&
      kept == 4 && kept_bad < 0 && kept_changed == kept && kept_where == 8;
  if (!ok) {
    n_failed++;
    g_printerr ("FAIL %s %s hist: temporal %s %dx%d: status %d, LUTs or shift "
        "differ from frame %d (shift %.9g, want %.9g; first LUT entry off "
        "%d), %d cuts (want %d), %d frames shifted, %d of %d shifts the "
        "root (worst mean off by %.3g), strength %.2f\n",
        ctx->device->name, path_name (prog), mode ? "clahe" : "global", w, h,
        status, bad_frame, bad_shift, want_shift, bad_bin, cuts, want_cuts,
        shifted, roots, solved, worst_root, strength);
    g_printerr ("     checkpoint: %d frames kept it, the first wrong %d, %d "
        "changed the state, %d of 8 said where it is\n", kept, kept_bad,
        kept_changed, kept_where);
  }
  clReleaseMemObject (s);
  clReleaseMemObject (d);
  gst_cl_histeq_buffers_clear (&bufs);
  g_free (fs);
  g_free (st);
  g_free (hist);
  g_free (rluts);
  g_free (dluts);
  g_free (src);
  g_free (dst);
  g_free (before);
  g_free (after);
  g_free (saved);
  return ok;
}

/* A YUV frame (@n_planes 2: NV12, 3: I420) through
 * gst_cl_histeq_enqueue_planes (): luma equalised as the reference does,
 * chroma copied byte for byte (inside the fused launch on that path),
 * nothing written outside the planes. Planes at odd offsets, padded. */
static void
check_yuv (GstCLContext * ctx, GstCLHisteqProgram * prog, const Params * pr,
    const Size * sz, guint n_planes)
{
  GstCLPlane sp[3], dp[3];
  gsize src_size = 100, dst_size = 40;
  guint8 *src, *dst, *ref;
  GstCLHisteqBuffers bufs = { 0 };
  GstCLHisteqParams hp = { pr->strength, 0, 0.3f, FALSE };
  GError *err = NULL;
  gint w[4] = { 0 }, tiles, maxdiff = 0, bad_p = -1;
  gboolean guard_ok = TRUE;
  guint8 *luts;
  cl_int status;
  cl_mem s, d;
  cl_event ev = NULL;

  const gboolean pooled = kernelcheck_next_pooled ();

  for (guint i = 0; i < n_planes; i++) {
    const gint pw = i ? (sz->width + 1) / 2 : sz->width;
    const gint ph = i ? (sz->height + 1) / 2 : sz->height;
    const gint cn = i && n_planes == 2 ? 2 : 1, pad = rnd () % 37;
    sp[i] = (GstCLPlane) {
    kernelcheck_pooled (pooled, src_size + 1 + rnd () % 5),
          kernelcheck_pooled (pooled, pw * cn + pad), pw, ph, cn};
    dp[i] = (GstCLPlane) {
    kernelcheck_pooled (pooled, dst_size + 3),
          kernelcheck_pooled (pooled, pw * cn + (pad ? 7 : 0)), pw, ph, cn};
    src_size = sp[i].offset + (gsize) sp[i].stride * ph;
    dst_size = dp[i].offset + (gsize) dp[i].stride * ph + 32;
  }
  src = g_malloc (src_size);
  dst = g_malloc (dst_size);
  ref = g_malloc (dst_size);
  for (gsize i = 0; i < src_size; i++)
    src[i] = rnd ();
  fill (src + sp[0].offset, sp[0].stride, sz->width, sz->height, STRUCTURED);
  memset (dst, 0xA5, dst_size);
  memcpy (ref, dst, dst_size);

  if (!gst_cl_histeq_buffers_ensure (&bufs, ctx, sz->width, sz->height,
          pr->mode, pr->tiles_x, pr->tiles_y, pr->clip, &err))
    g_error ("buffers: %s", err->message);
  tiles = bufs.geom.tiles_x * bufs.geom.tiles_y;
  {
    guint32 *hist = g_new (guint32, tiles * BINS);
    luts = g_new (guint8, tiles * BINS);
    gst_cl_ref_histeq_hist (src + sp[0].offset, sp[0].stride, sz->width,
        sz->height, 1, w, &bufs.geom, hist);
    for (gint t = 0; t < tiles; t++) {
      gfloat f[BINS];
      gst_cl_ref_histeq_map (hist + t * BINS, &bufs.geom, f);
      gst_cl_ref_histeq_lut (f, pr->strength, luts + t * BINS);
    }
    gst_cl_ref_histeq_apply (src + sp[0].offset, sp[0].stride,
        ref + dp[0].offset, dp[0].stride, sz->width, sz->height, 1, w,
        &bufs.geom, luts);
    g_free (hist);
  }
  /* chroma is copied */
  for (guint i = 1; i < n_planes; i++)
    for (gint y = 0; y < sp[i].height; y++)
      memcpy (ref + dp[i].offset + (gsize) y * dp[i].stride,
          src + sp[i].offset + (gsize) y * sp[i].stride,
          sp[i].width * sp[i].pixel_bytes);

  s = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      src_size, src, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  d = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      dst_size, dst, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  status = gst_cl_histeq_enqueue_planes (prog, &bufs, ctx->queue, &hp, w, s,
      sp, d, dp, n_planes, &ev, NULL);
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer (ctx->queue, d, CL_TRUE, 0, dst_size, dst, 1,
        &ev, NULL);
  if (ev)
    clReleaseEvent (ev);
  clReleaseMemObject (s);
  clReleaseMemObject (d);

  if (status == CL_SUCCESS) {
    gint bad_x, bad_y;
    maxdiff = kernelcheck_compare_planes (dst, ref, dst_size, dp, n_planes,
        0xA5, &bad_p, &bad_x, &bad_y, &guard_ok);
  }
  n_checked++;
  /* luma: global bit-exact, CLAHE within 1; chroma: exact */
  if (status != CL_SUCCESS || !guard_ok ||
      maxdiff > (bad_p == 0 && pr->mode == GST_CL_HISTEQ_CLAHE ? 1 : 0)) {
    n_failed++;
    g_printerr ("FAIL %s %s hist: %s frame %dx%d %s tiles=%dx%d: status %d, "
        "max diff %d in plane %d%s\n", ctx->device->name, path_name (prog),
        n_planes == 2 ? "NV12" : "I420", sz->width, sz->height,
        pr->mode ? "clahe" : "global", pr->tiles_x, pr->tiles_y, status,
        maxdiff, bad_p, guard_ok ? "" : ", wrote outside the planes");
  }
  gst_cl_histeq_buffers_clear (&bufs);
  g_free (luts);
  g_free (src);
  g_free (dst);
  g_free (ref);
}

/* The histogram paths every device runs: 0 atomics in local memory, then
 * cut and LUT launches (GPUs before fusion); 1 one work-item per group,
 * then cut and LUT launches (CPUs' CLAHE, and global mode with
 * GST_CL_HISTEQ_FUSED=0); 2 histogram, cut and LUT in one launch (GPUs);
 * 3 the same from one-item groups (CPUs' global mode with
 * GST_CL_HISTEQ_ONE_LAUNCH=0; CLAHE takes path 1 there); 4 path 3 and the
 * apply in one launch (CPUs' global mode on one byte a pixel; the others
 * take path 3); 5 path 2 and the apply in one launch (GPUs' global mode
 * and CLAHE on one byte a pixel, CLAHE with up to
 * GST_CL_HISTEQ_CLAHE_ONE_MAX_TILES_X tiles across; the others take
 * path 2). */
#define N_PATHS 6
static void
set_path (GstCLHisteqProgram * prog, gint path)
{
  prog->serial = path == 1 || path == 3 || path == 4;
  prog->fused = path >= 2;
  prog->one_launch = path == 4 || path == 5;
}

/* HISTEQ_CHECK_PATHS=atomic,serial (any of atomic, serial, fused,
 * serial-fused, serial-one, one): only those paths; all by default. */
static gboolean
path_wanted (GstCLHisteqProgram * prog, gint path)
{
  const gchar *only = g_getenv ("HISTEQ_CHECK_PATHS");
  gboolean wanted;
  gchar **names;

  if (!only)
    return TRUE;
  set_path (prog, path);
  names = g_strsplit (only, ",", -1);
  wanted = g_strv_contains ((const gchar * const *) names, path_name (prog));
  g_strfreev (names);
  return wanted;
}

int
main (int argc, char **argv)
{
  const GPtrArray *devices;
  GError *err = NULL;

  devices = KERNELCHECK_DEVICES (argc, argv);

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    GstCLHisteqProgram prog;

    g_assert_no_error (err);
    if (!gst_cl_histeq_program_init (&prog, ctx, TRUE, &err)) {
      g_printerr ("FAIL %s: build: %s\n", dev->name, err->message);
      g_clear_error (&err);
      n_failed++;
      gst_object_unref (ctx);
      continue;
    }
    for (guint pi = 0; pi < N_PATHS * G_N_ELEMENTS (params); pi++) {
      const Params *pr = &params[pi / N_PATHS];
      gint before = n_failed;
      /* every histogram path on every device */
      if (!path_wanted (&prog, pi % N_PATHS))
        continue;
      set_path (&prog, pi % N_PATHS);
      for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
        for (gint cn = 1; cn <= 4; cn += 3)
          for (gint content = RANDOM; content <= DARK; content++) {
            if (sizes[si].width > 1000 && content != STRUCTURED &&
                content != FLAT)
              continue;
            check_one (ctx, &prog, pr, &sizes[si], cn, content);
          }
      /* YUV frames: chroma copied beside the luma */
      for (guint si = 1; si < G_N_ELEMENTS (sizes); si++)
        for (guint n = 2; n <= 3; n++)
          check_yuv (ctx, &prog, pr, &sizes[si], n);
      g_print ("%s %s hist, apply %d px/item, %s tiles %dx%d clip %.1f "
          "strength %.2f: %s\n", dev->name, path_name (&prog), prog.apply_w,
          pr->mode ? "clahe" : "global", pr->tiles_x, pr->tiles_y, pr->clip,
          pr->strength, n_failed == before ? "ok" : "FAILED");
    }
    for (gint path = 0; path < N_PATHS; path++) {
      gint before = n_failed;
      if (!path_wanted (&prog, path))
        continue;
      set_path (&prog, path);
      for (gint mode = 0; mode < 2; mode++) {
        check_temporal (ctx, &prog, mode, &sizes[3], 1.0f);
        check_temporal (ctx, &prog, mode, &sizes[4], 1.0f);
        check_temporal (ctx, &prog, mode, &sizes[4], 0.6f);
      }
      g_print ("%s %s hist, temporal smoothing and scene cuts: %s\n",
          dev->name, path_name (&prog),
          n_failed == before ? "ok" : "FAILED");
    }
    gst_cl_histeq_program_clear (&prog);
    gst_object_unref (ctx);
  }

  g_print ("%d passed, %d failed\n", n_checked - n_failed, n_failed);
  return n_failed ? 1 : 0;
}
