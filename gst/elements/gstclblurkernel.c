/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclblurkernel.h"
#include "cl/gstclutils.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BAND_H 8
/* Rows per work-item of blur_fixed: each band computes KY - 1 input rows
 * twice, so taller bands do less work; 24 ran 1080p GRAY8 ~12% faster than
 * 8 on one core (0.45 against 0.51 ms, best of 200), 32 and 48 no faster. */
#define FIXED_BAND_H 24
#define FIXED_PAIRS_MAX_KY 15   /* taller: blur_fixed's scatter form */
#define FIXED_RING_BYTES 32768  /* blur_fixed_rows: private ring, at most */
#define FIXED_MAX_SPAN 2048     /* blur_fixed_rows: bytes across, at most */
#define TILE_HEIGHTS { 32, 16, 8 }
#define WG_X 32                 /* default work-group of the tiled kernels */
#define WG_Y 8
#define MAX_TILE_H 256
/* Vertical-first tiles: 16 rows of 32 x 4 work-items by default, the
 * fastest of 22 shapes on the H200 at 1080p and 4K (docs/PERFORMANCE.md). */
#define VFIRST_TILE_H 16
#define VFIRST_WG_Y 4
#define VFIRST_MAX_ROWS 16      /* VT_MAX_ROWS in blur.cl */
#define VFIRST_MAX_HALO_W 8     /* VT_MAX_HALO_W */
#define VFIRST_MAX_KY 64        /* VT_MAX_KY */

GST_DEBUG_CATEGORY_STATIC (gst_cl_blur_kernel_debug);
#define GST_CAT_DEFAULT gst_cl_blur_kernel_debug

/* The tile order (@vfirst) with its default height (0: the tallest that
 * fits) and work-group shape, or what GST_CL_BLUR_TILE asks for instead;
 * malformed values are ignored with a warning. */
typedef struct
{
  gint rows, wg_x, wg_y;
  gboolean vfirst;
} TileKnob;

static void
tile_knob (const GstCLDeviceInfo * dev, gboolean vfirst, TileKnob * knob)
{
  const gchar *env = g_getenv (GST_CL_BLUR_TILE_ENV);
  gint rows = 0, wx = WG_X, wy = vfirst ? VFIRST_WG_Y : WG_Y, n;

  GST_DEBUG_CATEGORY_INIT (gst_cl_blur_kernel_debug, "clblurkernel", 0,
      "OpenCL blur kernels");
  knob->vfirst = vfirst;
  knob->rows = vfirst ? VFIRST_TILE_H : 0;
  knob->wg_x = wx;
  knob->wg_y = wy;
  if (!env || !*env)
    return;
  n = sscanf (env, "%d:%dx%d", &rows, &wx, &wy);
  if ((n != 1 && n != 3) || rows < 1 || rows > MAX_TILE_H || wx < 4
      || wy < 1 || (wx & (wx - 1)) || (wy & (wy - 1))
      || (gsize) wx * wy > dev->max_work_group_size) {
    GST_WARNING ("%s=\"%s\" ignored: want ROWS or ROWS:WXxWY, rows 1..%d, "
        "WX and WY powers of two, WX >= 4, WX*WY <= %zu", GST_CL_BLUR_TILE_ENV,
        env, MAX_TILE_H, (gsize) dev->max_work_group_size);
    return;
  }
  knob->rows = rows;
  knob->wg_x = wx;
  knob->wg_y = wy;
}

static size_t
round_up (size_t n, size_t multiple)
{
  return (n + multiple - 1) / multiple * multiple;
}

static gint
cn_index (gint cn)
{
  return cn == 1 ? 0 : cn == 2 ? 1 : cn == 4 ? 2 : -1;
}

static gint
scaled_ksize (gint ksize, gdouble sigma, gint sub)
{
  if (ksize <= 0)
    return sigma > 0 ? MIN (gst_cl_gaussian_ksize (sigma),
        GST_CL_GAUSSIAN_MAX_TAPS) : 1;
  return MAX (ksize >> sub, 1) | 1;
}

void
gst_cl_blur_taps_compute (GstCLBlurTaps * taps, gdouble sigma_x,
    gdouble sigma_y, gint ksize, gint x_sub, gint y_sub)
{
  gdouble sx = sigma_x / (1 << x_sub), sy = sigma_y / (1 << y_sub);

  memset (taps, 0, sizeof (*taps));
  taps->kx = scaled_ksize (ksize, sx, x_sub);
  taps->ky = scaled_ksize (ksize, sy, y_sub);
  gst_cl_gaussian_taps (taps->kx, sx, taps->wx);
  gst_cl_gaussian_taps (taps->ky, sy, taps->wy);
}

/* Halo words on each side of a vertical-first tile (VT_HALO_W). */
static gint
vfirst_halo_words (const GstCLBlurTaps * taps, gint cn)
{
  return ((taps->kx / 2) * cn + 3) / 4;
}

static gboolean
tile_fits (const GstCLDeviceInfo * dev, const GstCLBlurTaps * taps, gint cn,
    gint height, const TileKnob * knob)
{
  guint64 budget = MIN (dev->local_mem_size, 48 * 1024) - 1024;
  guint64 tw = 4 * knob->wg_x;

  if (knob->vfirst) {
    /* at least half of the items' columns are the tile's own */
    gint hw = vfirst_halo_words (taps, cn);
    return height % knob->wg_y == 0
        && height / knob->wg_y <= VFIRST_MAX_ROWS
        && hw <= VFIRST_MAX_HALO_W && 4 * hw <= knob->wg_x
        && taps->ky <= VFIRST_MAX_KY
        && (guint64) height * knob->wg_x * 4 * sizeof (gfloat) <= budget;
  }
  guint64 rows = height + 2 * (taps->ky / 2);
  guint64 halo = ((taps->kx / 2) * cn + 3) & ~3;
  return rows * (tw + 2 * halo) + rows * tw * sizeof (gfloat) <= budget;
}

/* Tallest tile whose local arrays fit the device (or the knob's height
 * where it fits), 0 if none does. */
static gint
tile_height (const GstCLDeviceInfo * dev, const GstCLBlurTaps * taps, gint cn,
    const TileKnob * knob)
{
  static const gint heights[] = TILE_HEIGHTS;

  if (dev->max_work_group_size < (gsize) knob->wg_x * knob->wg_y)
    return 0;
  if (knob->rows > 0 && tile_fits (dev, taps, cn, knob->rows, knob))
    return knob->rows;
  for (guint i = 0; i < G_N_ELEMENTS (heights); i++)
    if (tile_fits (dev, taps, cn, heights[i], knob))
      return heights[i];
  return 0;
}

/* The vertical-first tiles where every channel count's fits (chroma taps
 * are narrower than luma's, so theirs fit too), unless
 * GST_CL_BLUR_VFIRST=0; the horizontal-first ones otherwise. */
static void
choose_tiles (const GstCLDeviceInfo * dev, const GstCLBlurTaps * taps,
    TileKnob * knob)
{
  if (g_strcmp0 (g_getenv (GST_CL_BLUR_VFIRST_ENV), "0") != 0) {
    tile_knob (dev, TRUE, knob);
    if (tile_height (dev, taps, 1, knob) > 0 &&
        tile_height (dev, taps, 2, knob) > 0 &&
        tile_height (dev, taps, 4, knob) > 0)
      return;
  }
  tile_knob (dev, FALSE, knob);
}

/* Bytes across that one work-group writes. */
static gint
tile_width (const GstCLBlurProgram * prog, const GstCLBlurTaps * taps,
    gint cn)
{
  return 4 * (prog->vfirst ? prog->wg_x - 2 * vfirst_halo_words (taps, cn) :
      prog->wg_x);
}

const gchar *
gst_cl_blur_variant_name (GstCLBlurVariant variant)
{
  static const gchar *names[] = { "rows", "tiled", "bands", "fixed" };
  return variant < GST_CL_BLUR_N_VARIANTS ? names[variant] : "?";
}

GstCLBlurVariant
gst_cl_blur_preferred_variant (const GstCLDeviceInfo * dev,
    const GstCLBlurTaps * taps)
{
  const gchar *env = g_getenv (GST_CL_BLUR_VARIANT_ENV);
  GstCLBlurFixedTaps fx;
  gboolean fixed_ok = gst_cl_blur_fixed_taps (taps, &fx);
  TileKnob knob;

  tile_knob (dev, FALSE, &knob);
  if (env && *env) {
    /* a testing and tuning knob: any variant runs on any device */
    for (gint v = 0; v < GST_CL_BLUR_N_VARIANTS; v++)
      if (!strcmp (env, gst_cl_blur_variant_name (v)) &&
          (v != GST_CL_BLUR_TILED || tile_height (dev, taps, 1, &knob) > 0) &&
          (v != GST_CL_BLUR_FIXED || fixed_ok))
        return v;
    GST_WARNING ("%s=\"%s\" ignored: want rows, tiled, bands or fixed (tiled "
        "only where a tile fits, fixed where its error bound holds)",
        GST_CL_BLUR_VARIANT_ENV, env);
  }
  if (!dev->is_gpu)
    return fixed_ok ? GST_CL_BLUR_FIXED : GST_CL_BLUR_BANDS;
  if (tile_height (dev, taps, 4, &knob) > 0)
    return GST_CL_BLUR_TILED;
  return GST_CL_BLUR_ROWS;
}

static guint16
quantise (gdouble w)
{
  return (guint16) MIN (lround (w * 65536), 65535);
}

/* Lowers the largest of @n weights until they sum to at most 65536, so no
 * 16-bit sum can overflow. */
static void
cap_sum (guint16 * w, gint n)
{
  guint sum = 0;
  for (gint i = 0; i < n; i++)
    sum += w[i];
  while (sum > 65536) {
    gint big = 0;
    for (gint i = 1; i < n; i++)
      if (w[i] > w[big])
        big = i;
    w[big]--;
    sum--;
  }
}

gboolean
gst_cl_blur_fixed_taps (const GstCLBlurTaps * taps, GstCLBlurFixedTaps * fx)
{
  const gint rx = taps->kx / 2, ry = taps->ky / 2;
  gdouble a[GST_CL_GAUSSIAN_MAX_TAPS], b[GST_CL_GAUSSIAN_MAX_TAPS];
  gdouble pos = 0, neg = 0, up;
  gint n_trunc;

  memset (fx, 0, sizeof (*fx));
  /* Pair weights first, centre last: cap_sum lowers the centre if needed
   * (it is the largest), and the kernel adds each pair's two inputs before
   * one mul_hi with the doubled weight. */
  for (gint j = 0; j < rx; j++)
    fx->p[j] = quantise (2 * taps->wx[j]);
  fx->p[rx] = quantise (taps->wx[rx]);
  cap_sum (fx->p, rx + 1);
  fx->pairs = taps->ky <= FIXED_PAIRS_MAX_KY;
  if (fx->pairs) {
    for (gint j = 0; j < ry; j++)
      fx->y[j] = quantise (2 * taps->wy[j]);
    fx->y[ry] = quantise (taps->wy[ry]);
    cap_sum (fx->y, ry + 1);
  } else {
    for (gint k = 0; k < taps->ky; k++)
      fx->y[k] = quantise (taps->wy[k]);
    cap_sum (fx->y, taps->ky);
  }

  /* The weights the kernel really applies, per tap. */
  for (gint j = 0; j < taps->kx; j++) {
    gint pj = MIN (j, taps->kx - 1 - j);
    a[j] = fx->p[pj] / (pj == rx ? 65536.0 : 131072.0);
  }
  for (gint k = 0; k < taps->ky; k++) {
    gint pk = MIN (k, taps->ky - 1 - k);
    b[k] = !fx->pairs ? fx->y[k] / 65536.0 :
        pk == ry ? fx->y[ry] / 65536.0 : fx->y[pk] / 131072.0;
  }

  /* Quantisation: the output's error is sum d * x over the 2D weights'
   * errors d, largest with x = 255 where d has one sign and 0 elsewhere. */
  for (gint k = 0; k < taps->ky; k++)
    for (gint j = 0; j < taps->kx; j++) {
      gdouble d = a[j] * b[k] - taps->wx[j] * taps->wy[k];
      if (d > 0)
        pos += d;
      else
        neg -= d;
    }
  /* Truncation: each mul_hi drops less than 1/256 of a level (the
   * horizontal ones reach the output scaled by down weights summing to at
   * most 1), so together (-n_trunc, 0] /256; the pairs' rhadd rounds up by
   * at most half a unit, scaled by weights summing to less than 1, so
   * (-n_trunc, up); half of n_trunc is added back. */
  n_trunc = rx + 1 + (fx->pairs ? ry + 1 : taps->ky);
  up = fx->pairs ? 0.5 : 0;
  fx->round = 128 + n_trunc / 2;
  fx->bound = 255 * MAX (pos, neg) +
      MAX (n_trunc - n_trunc / 2, n_trunc / 2 + up) / 256.0;
  /* Sums stay <= 255 * 256 (weights sum to <= 1) plus the rounding. */
  return fx->round + 255 * 256 <= 65535 &&
      fx->bound <= GST_CL_BLUR_FIXED_MAX_ERROR;
}

/* @w (>= 0) rounded to an IEEE half, the nearest (ties to even) or the
 * next one down (@down), and its bits. */
static gdouble
half_round (gdouble w, gboolean down, guint16 * bits)
{
  const gint e = w > 0 ? MAX (ilogb (w), -14) : -14;
  const gdouble m = ldexp (w, 10 - e);
  const gdouble r = ldexp (down ? floor (m) : nearbyint (m), e - 10);
  const gint er = r > 0 ? ilogb (r) : -15;

  *bits = er < -14 ? (guint16) ldexp (r, 24) :
      (guint16) (((er + 15) << 10) | ((gint) ldexp (r, 10 - er) - 1024));
  return r;
}

/* One side's weights @w (@r pairs, then the centre) as halves: @q their
 * values, @bits theirs. The pairs to the nearest, the centre to the next
 * half down from what the pairs leave of 1. Returns the halves' sum. */
static gdouble
half_side (const gdouble * w, gint r, gdouble * q, guint16 * bits)
{
  gdouble sum = 0;

  for (gint j = 0; j < r; j++)
    sum += 2 * (q[j] = half_round (w[j], FALSE, &bits[j]));
  q[r] = half_round (1 - sum, TRUE, &bits[r]);
  return sum + q[r];
}

/* Half of a half's ulp for values of magnitude up to @m: the largest error
 * of one rounding there. */
static gdouble
half_err (gdouble m)
{
  return m > 0 ? ldexp (1.0, MAX (ilogb (m), -14) - 11) : 0;
}

/* One pass of blur_vtiled_h2 over inputs of magnitude up to @in_max: each
 * pair of inputs is added (exactly when @exact_pairs, integers), then
 * multiplied and added into the sum, outermost pair first, the centre
 * last, every step rounded once. Returns the worst-case rounding error of
 * the output; *@out_max bounds its magnitude. */
static gdouble
half_pass_error (const gdouble * wq, gint r, gdouble in_max,
    gboolean exact_pairs, gdouble * out_max)
{
  gdouble err = 0, reach = 0;

  for (gint j = 0; j <= r; j++) {
    const gdouble span = j < r ? 2 * in_max : in_max;
    if (j < r && !exact_pairs)
      err += wq[j] * half_err (span);
    reach += wq[j] * span;
    err += half_err (reach + err);
  }
  *out_max = reach + err;
  return err;
}

gboolean
gst_cl_blur_half_taps (const GstCLBlurTaps * taps, GstCLBlurHalfTaps * ht)
{
  const gint rx = taps->kx / 2, ry = taps->ky / 2;
  gdouble qx[GST_CL_GAUSSIAN_MAX_TAPS / 2 + 1];
  gdouble qy[GST_CL_GAUSSIAN_MAX_TAPS / 2 + 1];
  gdouble pos = 0, neg = 0, sum_x, sum_y, down_max, out_max;
  gdouble err_down, err_across, err_round, scale;

  memset (ht, 0, sizeof (*ht));
  /* The pairs to the nearest half, the centre to what keeps each side's
   * sum at most 1 and closest to it: then a flat frame stays flat and no
   * result can grow past 255. */
  sum_x = half_side (taps->wx, rx, qx, ht->x);
  sum_y = half_side (taps->wy, ry, qy, ht->y);
  /* Quantisation: the kernel sums x = byte - 128 in -128..127 and adds
   * 128 exactly at the end, so the output is off by sum d * x over the 2D
   * weights' errors d; largest with x at the end of its range that d's
   * sign favours. */
  for (gint k = 0; k < taps->ky; k++)
    for (gint j = 0; j < taps->kx; j++) {
      const gint pj = MIN (j, taps->kx - 1 - j), pk = MIN (k, taps->ky - 1 - k);
      const gdouble d = qx[pj] * qy[pk] - taps->wx[j] * taps->wy[k];
      if (d > 0)
        pos += d;
      else
        neg -= d;
    }
  /* Rounding: down, the pairs of integers add exactly; the errors of the
   * sums down reach the output through the weights across. */
  err_down = half_pass_error (qy, ry, 128, TRUE, &down_max);
  err_across = half_pass_error (qx, rx, down_max, FALSE, &out_max);
  err_round = sum_x * err_down + err_across;
  ht->bound = MAX (127 * pos + 128 * neg, 128 * pos + 127 * neg) + err_round;
  /* The result must round into -128..127 (the kernel keeps its low byte),
   * for the smallest and largest inputs. */
  scale = sum_x * sum_y;
  return ht->bound <= GST_CL_BLUR_FIXED_MAX_ERROR &&
      -128 * scale - err_round > -128.5 && 127 * scale + err_round < 127.5;
}

static void
append_ints (GString * s, const gchar * name, const guint16 * w, gint n)
{
  g_string_append_printf (s, " -D%s=", name);
  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%u", i ? "," : "", w[i]);
}

/* Bytes per work-item of blur_fixed: 32 (one 512-bit register of 16-bit
 * lanes) on CPU devices with AVX-512, else 16. GST_CL_BLUR_FXW=16|32 overrides on
 * CPU devices, so the checker runs both widths there. GPUs run this
 * variant only in the checker, at 16: the 32-lane build on an H200 got
 * through one checker configuration in 100 s, against five at 16. */
static gint
fixed_width (const GstCLDeviceInfo * dev)
{
  if (dev->is_gpu)
    return 16;
  return gst_cl_env_choice ("GST_CL_BLUR_FXW", 16, 32,
      gst_cl_device_has_avx512 (dev) ? 32 : 16);
}

/* Bytes of a row that one work-item of blur_fixed_rows walks: as much of
 * the row as keeps its ring of KY horizontal results within 32 KiB of
 * private memory (L1-sized), at most 2048 bytes (1080p GRAY8 in one span),
 * so 4K RGBA still spreads over several work-items across. 0 where the
 * device runs the bands instead: GPUs (a work-item per band and a private
 * ring is the opposite of what they want), or GST_CL_BLUR_FIXED_ROWS=0,
 * which lets the checker reach the bands on a CPU device. */
static gint
fixed_span (const GstCLDeviceInfo * dev, gint ky, gint fx_width)
{
  const gint chunks = FIXED_RING_BYTES / (ky * fx_width * 2);

  if (!gst_cl_env_choice ("GST_CL_BLUR_FIXED_ROWS", 0, 1, !dev->is_gpu))
    return 0;
  return fx_width * CLAMP (chunks, 1, FIXED_MAX_SPAN / fx_width);
}

/* -DNAME=0x...u,...: each half weight in both halves of a 32-bit word */
static void
append_half_pairs (GString * s, const gchar * name, const guint16 * h, gint n)
{
  g_string_append_printf (s, " -D%s=", name);
  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s0x%08xu", i ? "," : "",
        ((guint) h[i] << 16) | h[i]);
}

static void
append_taps (GString * s, const gchar * name, const gdouble * w, gint n)
{
  g_string_append_printf (s, " -D%s=", name);
  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%.9ef", i ? "," : "", w[i]);
}

gboolean
gst_cl_blur_program_init (GstCLBlurProgram * prog, GstCLContext * ctx,
    const GstCLBlurTaps * taps, GstCLBlurVariant variant, GError ** error)
{
  return gst_cl_blur_program_init_planes (prog, ctx, taps, NULL, variant,
      error);
}

static gboolean
create_kernel (cl_program program, const gchar * name, cl_kernel * kernel,
    GError ** error)
{
  cl_int status;
  *kernel = clCreateKernel (program, name, &status);
  return gst_cl_set_error (status, name, error);
}

gboolean
gst_cl_blur_program_init_planes (GstCLBlurProgram * prog, GstCLContext * ctx,
    const GstCLBlurTaps * taps, const GstCLBlurTaps * chroma_taps,
    GstCLBlurVariant variant, GError ** error)
{
  static const gint cns[GST_CL_BLUR_N_CN] = { 1, 2, 4 };
  const gboolean nvidia = gst_cl_device_is_nvidia_gpu (ctx->device);
  GString *opts = g_string_new ("-cl-std=CL1.2");
  gboolean planes = FALSE;
  TileKnob knob;

  memset (prog, 0, sizeof (*prog));
  prog->variant = variant;
  prog->taps = *taps;
  if (variant == GST_CL_BLUR_TILED)
    choose_tiles (ctx->device, taps, &knob);
  else
    tile_knob (ctx->device, FALSE, &knob);
  prog->wg_x = knob.wg_x;
  prog->wg_y = knob.wg_y;
  prog->vfirst = knob.vfirst;
  g_string_append_printf (opts, " -DKX=%d -DKY=%d", taps->kx, taps->ky);
  append_taps (opts, "WX", taps->wx, taps->kx);
  append_taps (opts, "WY", taps->wy, taps->ky);
  for (gint i = 0; i < GST_CL_BLUR_N_CN; i++) {
    prog->tile_h[i] = variant == GST_CL_BLUR_TILED ?
        tile_height (ctx->device, taps, cns[i], &knob) : 0;
    g_string_append_printf (opts, " -DTILE_H%d=%d", cns[i], prog->tile_h[i]);
  }
  if (variant == GST_CL_BLUR_TILED) {
    g_string_append_printf (opts, " -DWG_X=%d -DWG_Y=%d -DVFIRST=%d"
        " -DWARP_XCHG=%d -DNV_PTX=%d", prog->wg_x, prog->wg_y, prog->vfirst,
        gst_cl_device_has_warp_shuffles (ctx->device, prog->wg_x), nvidia);
    if (chroma_taps && prog->tile_h[0] > 0) {
      prog->chroma_taps = *chroma_taps;
      for (gint i = 0; i < 2; i++)
        prog->chroma_tile_h[i] = tile_height (ctx->device, chroma_taps,
            cns[i], &knob);
      planes = prog->chroma_tile_h[0] > 0 || prog->chroma_tile_h[1] > 0;
    }
  }
  if (planes) {
    g_string_append_printf (opts, " -DWITH_PLANES=1 -DKXC=%d -DKYC=%d"
        " -DTILE_HC1=%d -DTILE_HC2=%d", chroma_taps->kx, chroma_taps->ky,
        prog->chroma_tile_h[0], prog->chroma_tile_h[1]);
    append_taps (opts, "WXC", chroma_taps->wx, chroma_taps->kx);
    append_taps (opts, "WYC", chroma_taps->wy, chroma_taps->ky);
  }
  if (variant == GST_CL_BLUR_TILED && prog->vfirst &&
      gst_cl_env_choice (GST_CL_BLUR_HALF_ENV, 0, 1, nvidia)) {
    GstCLBlurHalfTaps ht, htc;
    /* luma's and chroma's bounds both, or the float tile for both */
    prog->half = gst_cl_blur_half_taps (taps, &ht) &&
        (!planes || gst_cl_blur_half_taps (chroma_taps, &htc));
    if (prog->half) {
      g_string_append (opts, " -DHALF=1");
      append_half_pairs (opts, "HWX", ht.x, taps->kx / 2 + 1);
      append_half_pairs (opts, "HWY", ht.y, taps->ky / 2 + 1);
      if (planes) {
        append_half_pairs (opts, "HWXC", htc.x, chroma_taps->kx / 2 + 1);
        append_half_pairs (opts, "HWYC", htc.y, chroma_taps->ky / 2 + 1);
      }
    }
  }
  /* The tiled variant falls back to rows where a tile does not fit. */
  g_string_append_printf (opts, " -DWITH_ROWS=%d -DWITH_BANDS=%d"
      " -DWITH_FIXED=%d", variant == GST_CL_BLUR_ROWS
      || variant == GST_CL_BLUR_TILED, variant == GST_CL_BLUR_BANDS,
      variant == GST_CL_BLUR_FIXED);
  if (variant == GST_CL_BLUR_FIXED) {
    GstCLBlurFixedTaps fx;
    if (!gst_cl_blur_fixed_taps (taps, &fx)) {
      g_set_error (error, GST_CL_ERROR, CL_INVALID_BUILD_OPTIONS,
          "blur: the fixed-point kernel cannot keep %dx%d taps within %.2f levels (bound "
          "%.3f)", taps->kx, taps->ky, GST_CL_BLUR_FIXED_MAX_ERROR, fx.bound);
      g_string_free (opts, TRUE);
      return FALSE;
    }
    prog->fx_width = fixed_width (ctx->device);
    g_string_append_printf (opts, " -DFXC=%u -DFXR=%u -DFXBH=%d"
        " -DFXPAIRS=%d -DFXW=%d", fx.p[taps->kx / 2], fx.round,
        FIXED_BAND_H, fx.pairs, prog->fx_width);
    prog->fx_span = fixed_span (ctx->device, taps->ky, prog->fx_width);
    if (prog->fx_span)
      g_string_append_printf (opts, " -DFXSPAN=%d", prog->fx_span);
    append_ints (opts, "FXP", fx.p, taps->kx / 2 + 1);
    append_ints (opts, "FY", fx.y, fx.pairs ? taps->ky / 2 + 1 : taps->ky);
  }

  /* One kernel a pixel size: the tile where it fits, rows where not (and
   * the YUV 4:2:0 kernels where the chroma tiles fit); the program holds
   * those only. */
  gchar *names[GST_CL_BLUR_N_CN + 3] = { NULL };
  cl_kernel *fields[GST_CL_BLUR_N_CN + 2];
  gint n = 0;
  for (gint i = 0; i < GST_CL_BLUR_N_CN; i++) {
    const gboolean tiled = variant == GST_CL_BLUR_TILED &&
        prog->tile_h[i] > 0;
    fields[n] = &prog->kernels[i];
    names[n++] = g_strdup_printf ("blur_%s_c%d",
        prog->fx_span ? "fixed_rows" :
        variant == GST_CL_BLUR_BANDS || variant == GST_CL_BLUR_FIXED ?
        gst_cl_blur_variant_name (variant) : tiled ? "tiled" : "rows",
        cns[i]);
    if (!tiled)
      prog->tile_h[i] = 0;
  }
  if (planes && prog->chroma_tile_h[1] > 0) {
    fields[n] = &prog->nv12;
    names[n++] = g_strdup ("blur_tiled_nv12");
  }
  if (planes && prog->chroma_tile_h[0] > 0) {
    fields[n] = &prog->i420;
    names[n++] = g_strdup ("blur_tiled_i420");
  }
  gst_cl_program_options_want (opts, (const gchar * const *) names);

  prog->program = gst_cl_context_get_program (ctx, "blur", opts->str, error);
  g_string_free (opts, TRUE);
  gboolean ok = prog->program != NULL;
  for (gint i = 0; ok && i < n; i++)
    ok = create_kernel (prog->program, names[i], fields[i], error);
  for (gint i = 0; i < n; i++)
    g_free (names[i]);
  if (!ok)
    gst_cl_blur_program_clear (prog);
  return ok;
}

void
gst_cl_blur_program_clear (GstCLBlurProgram * prog)
{
  for (gint i = 0; i < GST_CL_BLUR_N_CN; i++)
    if (prog->kernels[i])
      clReleaseKernel (prog->kernels[i]);
  if (prog->nv12)
    clReleaseKernel (prog->nv12);
  if (prog->i420)
    clReleaseKernel (prog->i420);
  if (prog->program)
    clReleaseProgram (prog->program);
  memset (prog, 0, sizeof (*prog));
}

cl_int
gst_cl_blur_program_enqueue (GstCLBlurProgram * prog, cl_command_queue queue,
    cl_mem src, const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    cl_event * event)
{
  gint i = cn_index (sp->pixel_bytes);
  cl_kernel k;
  cl_int status = CL_SUCCESS;
  size_t global[2], local[2] = { prog->wg_x, prog->wg_y };
  const size_t wb = (size_t) sp->width * sp->pixel_bytes;
  cl_uint arg = 0;

  if (i < 0 || !prog->kernels[i])
    return CL_INVALID_KERNEL;
  k = prog->kernels[i];
  status |= gst_cl_plane_set_args (k, &arg, src, sp, dst, dp);
  status |= clSetKernelArg (k, arg++, sizeof (cl_int), &sp->width);
  status |= clSetKernelArg (k, arg++, sizeof (cl_int), &sp->height);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;

  if (prog->variant == GST_CL_BLUR_BANDS ||
      prog->variant == GST_CL_BLUR_FIXED) {
    /* 8x8 groups: PoCL's own choice (whole rows) left one of two cores idle
     * on some frames; see docs/PERFORMANCE.md. */
    const gboolean fixed = prog->variant == GST_CL_BLUR_FIXED;
    const gint band_h = fixed ? FIXED_BAND_H : BAND_H;
    const gint band_w = fixed ? prog->fx_width : 16;
    if (prog->fx_span) {
      /* one work-item per group: each is a band, walked row by row */
      local[0] = local[1] = 1;
      global[0] = (wb + prog->fx_span - 1) / prog->fx_span;
      global[1] = (sp->height + band_h - 1) / band_h;
      return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0,
          NULL, event);
    }
    local[0] = local[1] = 8;
    global[0] = round_up ((wb + band_w - 1) / band_w, local[0]);
    global[1] = round_up ((sp->height + band_h - 1) / band_h, local[1]);
    return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        event);
  }

  if (prog->tile_h[i] > 0) {
    const size_t tw = tile_width (prog, &prog->taps, sp->pixel_bytes);
    global[0] = (wb + tw - 1) / tw * prog->wg_x;
    global[1] = (sp->height + prog->tile_h[i] - 1) / prog->tile_h[i] *
        prog->wg_y;
    return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        event);
  }
  global[0] = (wb + 15) / 16;
  global[1] = sp->height;
  return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, NULL, 0, NULL,
      event);
}

gboolean
gst_cl_blur_program_has_planes (const GstCLBlurProgram * prog,
    const GstCLPlane * planes, guint n_planes)
{
  if (n_planes == 2)
    return prog->nv12 && planes[0].pixel_bytes == 1 &&
        planes[1].pixel_bytes == 2;
  if (n_planes == 3)
    return prog->i420 && planes[0].pixel_bytes == 1 &&
        planes[1].pixel_bytes == 1 && planes[2].pixel_bytes == 1;
  return FALSE;
}

cl_int
gst_cl_blur_program_enqueue_planes (GstCLBlurProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, guint n_planes, cl_event * event)
{
  /* (src offset, src stride, dst offset, dst stride, width, height, tiles
   * across, first group), as blur_tiled_nv12 / _i420 read them */
  cl_int p[3][8];
  size_t global[2], local[2] = { prog->wg_x, prog->wg_y };
  cl_kernel k = n_planes == 2 ? prog->nv12 : prog->i420;
  cl_int status = CL_SUCCESS;
  gint groups = 0;

  if (!gst_cl_blur_program_has_planes (prog, sp, n_planes))
    return CL_INVALID_KERNEL;
  memset (p, 0, sizeof (p));
  for (guint i = 0; i < n_planes; i++) {
    const gint th = i == 0 ? prog->tile_h[0] :
        prog->chroma_tile_h[sp[i].pixel_bytes == 2];
    const gint tw = tile_width (prog, i == 0 ? &prog->taps :
        &prog->chroma_taps, sp[i].pixel_bytes);
    const gint across = (sp[i].width * sp[i].pixel_bytes + tw - 1) / tw;
    p[i][0] = sp[i].offset;
    p[i][1] = sp[i].stride;
    p[i][2] = dp[i].offset;
    p[i][3] = dp[i].stride;
    p[i][4] = sp[i].width;
    p[i][5] = sp[i].height;
    p[i][6] = across;
    p[i][7] = groups;
    groups += across * ((sp[i].height + th - 1) / th);
  }
  /* NV12 has no third plane: its first group lies past every group. */
  if (n_planes == 2)
    p[2][7] = groups;
  status |= clSetKernelArg (k, 0, sizeof (cl_mem), &src);
  status |= clSetKernelArg (k, 1, sizeof (cl_mem), &dst);
  for (guint i = 0; i < 3; i++)
    status |= clSetKernelArg (k, 2 + i, sizeof (p[i]), p[i]);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  global[0] = (size_t) groups * prog->wg_x;
  global[1] = prog->wg_y;
  return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
      event);
}
