/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reference of kernels/histeq.cl: cv::equalizeHist and cv::CLAHE (8 bits)
 * step by step, in the same float arithmetic as OpenCV. */
#include "gstclref.h"

#include <math.h>
#include <string.h>

#define BINS GST_CL_HISTEQ_BINS

void
gst_cl_ref_histeq_geometry (GstCLHisteqGeometry * g, int width, int height,
    int clahe, int tiles_x, int tiles_y, double clip_limit)
{
  memset (g, 0, sizeof (*g));
  g->clahe = clahe;
  if (!clahe) {
    g->tiles_x = g->tiles_y = 1;
    g->tw = width;
    g->th = height;
  } else {
    g->tiles_x = tiles_x;
    g->tiles_y = tiles_y;
    if (width % tiles_x == 0 && height % tiles_y == 0) {
      g->tw = width / tiles_x;
      g->th = height / tiles_y;
    } else {
      g->tw = (width + tiles_x - width % tiles_x) / tiles_x;
      g->th = (height + tiles_y - height % tiles_y) / tiles_y;
    }
    if (clip_limit > 0.0) {
      g->clip = (int) (clip_limit * (g->tw * g->th) / BINS);
      if (g->clip < 1)
        g->clip = 1;
    }
  }
  g->lut_scale = (float) (BINS - 1) / (float) (g->tw * g->th);
  g->inv_tw = 1.0f / (float) g->tw;
  g->inv_th = 1.0f / (float) g->th;
}

int
gst_cl_ref_histeq_luma (const uint8_t * p, int cn, const int *w)
{
  if (cn == 1)
    return p[0];
  return (w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + 128) >> 8;
}

void
gst_cl_ref_histeq_hist (const uint8_t * src, int stride, int width,
    int height, int cn, const int *w, const GstCLHisteqGeometry * g,
    uint32_t * hist)
{
  memset (hist, 0, sizeof (uint32_t) * BINS * g->tiles_x * g->tiles_y);
  for (int ty = 0; ty < g->tiles_y; ty++)
    for (int tx = 0; tx < g->tiles_x; tx++) {
      uint32_t *h = hist + (ty * g->tiles_x + tx) * BINS;
      for (int y = 0; y < g->th; y++) {
        const uint8_t *row = src +
            (size_t) gst_cl_ref_reflect101 (ty * g->th + y, height) * stride;
        for (int x = 0; x < g->tw; x++) {
          int sx = gst_cl_ref_reflect101 (tx * g->tw + x, width);
          h[gst_cl_ref_histeq_luma (row + sx * cn, cn, w)]++;
        }
      }
    }
}

/* equalizeHist's unrounded mapping of a histogram of @total pixels. */
static void
equalize_map (const uint32_t * hist, int total, float *f)
{
  int i0 = 0;
  while (i0 < BINS - 1 && hist[i0] == 0)
    i0++;
  if ((int) hist[i0] == total) {
    for (int j = 0; j < BINS; j++)
      f[j] = (float) j;
  } else {
    const float scale = 255.0f / (float) (total - (int) hist[i0]);
    int sum = 0;
    for (int j = 0; j <= i0; j++)
      f[j] = 0.0f;
    for (int j = i0 + 1; j < BINS; j++) {
      sum += hist[j];
      f[j] = (float) sum * scale;
    }
  }
}

/* Mapping @g read at @x (linear between bins, the end bins outside). */
static float
shifted (const float *g, float x)
{
  if (x <= 0.0f)
    return g[0];
  if (x >= (float) (BINS - 1))
    return g[BINS - 1];
  int k = (int) x;
  return g[k] + (x - (float) k) * (g[k + 1] - g[k]);
}

/* Sum of the BINS values of @v, pairwise (v[i] += v[i + s] for s = 128, 64,
 * ..., 1): the order the kernels add in (a work-group's tree on GPUs, the
 * same pairs in one work-item elsewhere), so all round alike. Clobbers @v. */
static float
tree_sum (float *v)
{
  for (int s = BINS / 2; s > 0; s >>= 1)
    for (int i = 0; i < s; i++)
      v[i] += v[i + s];
  return v[0];
}

/* tree_sum ()'s pairs with the low levels first: within each block of 32
 * values 16, 8, 4, 2 and 1 apart (a warp's butterfly shuffles), then the
 * blocks' sums 128, 64 and 32 apart. Clobbers @v. */
static float
block_tree_sum (float *v)
{
  for (int c = 0; c < BINS; c += 32)
    for (int s = 16; s > 0; s >>= 1)
      for (int i = 0; i < s; i++)
        v[c + i] += v[c + i + s];
  for (int s = BINS / 2; s >= 32; s >>= 1)
    for (int i = 0; i < s; i += 32)
      v[i] += v[i + s];
  return v[0];
}

#define SHIFTS (2 * (int) GST_CL_HISTEQ_MAX_SHIFT + 1)

/* The shift d (|d| <= MAX_SHIFT) for which m (d) = sum_j p_j g(j - d) is
 * @target. g is linear between bins, so m is linear between whole shifts:
 * @m[i] = m (i - MAX_SHIFT), non-increasing as g is non-decreasing, and d
 * by linear interpolation in the interval that holds the root, clamped at
 * the ends; 0 where m hardly moves over the range (a flat mapping). */
static float
solve_shift (const float *m, float target)
{
  if (!(m[0] - m[SHIFTS - 1] > 8e-3f))
    return 0.0f;
  if (target >= m[0])
    return -GST_CL_HISTEQ_MAX_SHIFT;
  for (int i = 0; i < SHIFTS - 1; i++)
    if (target >= m[i + 1])     /* m[i] > target >= m[i + 1] */
      return (float) (i - (int) GST_CL_HISTEQ_MAX_SHIFT) +
          (m[i] - target) / (m[i] - m[i + 1]);
  return GST_CL_HISTEQ_MAX_SHIFT;
}

double
gst_cl_ref_histeq_shifted_mean (const uint32_t * hist, const float *g,
    float d)
{
  uint64_t count = 0;
  double sum = 0.0;

  for (int j = 0; j < BINS; j++) {
    count += hist[j];
    sum += (double) hist[j] * shifted (g, (float) j - d);
  }
  return count ? sum / (double) count : 0.0;
}

/* The shift for which the frame (@hist, 1 / its count @inv) mapped by @g
 * at (level - d) has the mean @target; empty bins add 0. */
static float
find_shift (const uint32_t * hist, float inv, const float *g, float target)
{
  float m[SHIFTS], terms[BINS];

  for (int i = 0; i < SHIFTS; i++) {
    for (int j = 0; j < BINS; j++) {
      int x = j + (int) GST_CL_HISTEQ_MAX_SHIFT - i;
      x = x < 0 ? 0 : x > BINS - 1 ? BINS - 1 : x;
      terms[j] = hist[j] ? ((float) hist[j] * inv) * g[x] : 0.0f;
    }
    m[i] = block_tree_sum (terms);
  }
  return solve_shift (m, target);
}

void
gst_cl_ref_histeq_map (uint32_t * hist, const GstCLHisteqGeometry * g,
    float *f)
{
  const int total = g->tw * g->th;

  if (g->clahe) {
    if (g->clip > 0) {
      int clipped = 0, batch, residual;
      for (int j = 0; j < BINS; j++)
        if ((int) hist[j] > g->clip) {
          clipped += hist[j] - g->clip;
          hist[j] = g->clip;
        }
      batch = clipped / BINS;
      residual = clipped - batch * BINS;
      for (int j = 0; j < BINS; j++)
        hist[j] += batch;
      if (residual != 0) {
        int step = BINS / residual > 1 ? BINS / residual : 1;
        for (int j = 0; j < BINS && residual > 0; j += step, residual--)
          hist[j]++;
      }
    }
    int sum = 0;
    for (int j = 0; j < BINS; j++) {
      sum += hist[j];
      f[j] = (float) sum * g->lut_scale;
    }
  } else {
    equalize_map (hist, total, f);
  }
}

/* Median of @n shifts, clamped to +-MAX_SHIFT (NaN to -MAX_SHIFT) and
 * quantised to 1/SHIFT_STEPS level. */
static float
median_shift (const float *d, int n)
{
  enum
  { STEPS = GST_CL_HISTEQ_SHIFT_STEPS,
    NB = 2 * (int) GST_CL_HISTEQ_MAX_SHIFT * STEPS + 1
  };
  const float mx = GST_CL_HISTEQ_MAX_SHIFT;
  int bins[NB] = { 0 }, acc = 0;

  for (int k = 0; k < n; k++) {
    const float v = d[k] > -mx ? (d[k] < mx ? d[k] : mx) : -mx;
    bins[(int) ((v + mx) * (float) STEPS + 0.5f)]++;
  }
  for (int i = 0; i < NB; i++) {
    acc += bins[i];
    if (2 * acc >= n)
      return (float) i / (float) STEPS - mx;
  }
  return 0.0f;
}

int
gst_cl_ref_histeq_cut (const uint32_t * tile_hist, int tiles, int clahe,
    float alpha, float cut_threshold, int reset, float *frame_state)
{
  float tv[BINS], inv;
  uint32_t hist[BINS] = { 0 };
  int cut = reset || frame_state[GST_CL_HISTEQ_FS_VALID] == 0.0f, count = 0;

  for (int t = 0; t < tiles; t++)
    for (int j = 0; j < BINS; j++)
      hist[j] += tile_hist[t * BINS + j];
  for (int j = 0; j < BINS; j++)
    count += hist[j];
  inv = 1.0f / (float) count;
  for (int j = 0; j < BINS; j++)
    tv[j] = fabsf ((float) hist[j] * inv - frame_state[j]);
  if (0.5f * tree_sum (tv) > cut_threshold)
    cut = 1;
  for (int j = 0; j < BINS; j++) {
    float q = (float) hist[j] * inv;
    frame_state[j] = cut ? q : frame_state[j] + alpha * (q - frame_state[j]);
  }
  frame_state[GST_CL_HISTEQ_FS_VALID] = 1.0f;
  frame_state[GST_CL_HISTEQ_FS_CUT] = cut ? 1.0f : 0.0f;

  if (!clahe) {
    float f[BINS], *g = frame_state + GST_CL_HISTEQ_FS_MAP, terms[BINS], own,
        target;
    equalize_map (hist, count, f);
    for (int j = 0; j < BINS; j++) {
      terms[j] = ((float) hist[j] * inv) * f[j];
      g[j] = cut ? f[j] : g[j] + alpha * (f[j] - g[j]);
    }
    own = tree_sum (terms);
    target = frame_state[GST_CL_HISTEQ_FS_TARGET];
    target = cut ? own : target + alpha * (own - target);
    frame_state[GST_CL_HISTEQ_FS_TARGET] = target;
    frame_state[GST_CL_HISTEQ_FS_SHIFT] = cut ? 0.0f :
        find_shift (hist, inv, g, target);
  } else {
    float *ms = frame_state + GST_CL_HISTEQ_FS_TILES, *ds = ms + tiles;
    for (int t = 0; t < tiles; t++) {
      uint64_t sum = 0;
      uint32_t n = 0;
      for (int j = 0; j < BINS; j++) {
        n += tile_hist[t * BINS + j];
        sum += (uint64_t) j * tile_hist[t * BINS + j];
      }
      const float mu = (float) sum / (float) n, prev = ms[t];
      const float m = cut ? mu : prev + alpha * (mu - prev);
      ms[t] = m;
      ds[t] = mu - m;
    }
    frame_state[GST_CL_HISTEQ_FS_SHIFT] = cut ? 0.0f : median_shift (ds, tiles);
  }
  return cut;
}

void
gst_cl_ref_histeq_smooth (float *f, float *st, float alpha, int cut,
    float shift)
{
  for (int j = 0; j < BINS; j++)
    st[j] = cut ? f[j] : st[j] + alpha * (f[j] - st[j]);
  for (int j = 0; j < BINS; j++)
    f[j] = shifted (st, (float) j - shift);
}

static uint8_t
sat_rte (float v)
{
  float r = rintf (v);
  return r < 0 ? 0 : r > 255 ? 255 : (uint8_t) r;
}

void
gst_cl_ref_histeq_lut (const float *f, float strength, uint8_t * lut)
{
  for (int j = 0; j < BINS; j++)
    lut[j] = sat_rte (strength >= 1.0f ? f[j] :
        (float) j + strength * (f[j] - (float) j));
}

static int
clahe_value (const GstCLHisteqGeometry * g, const uint8_t * luts, int v,
    int x, int y)
{
  float txf = (float) x * g->inv_tw - 0.5f, tyf = (float) y * g->inv_th - 0.5f;
  int tx1 = (int) floorf (txf), ty1 = (int) floorf (tyf);
  int tx2 = tx1 + 1, ty2 = ty1 + 1;
  float xa = txf - (float) tx1, xa1 = 1.0f - xa;
  float ya = tyf - (float) ty1, ya1 = 1.0f - ya;
  const uint8_t *l1, *l2;

  tx1 = tx1 < 0 ? 0 : tx1;
  tx2 = tx2 > g->tiles_x - 1 ? g->tiles_x - 1 : tx2;
  ty1 = ty1 < 0 ? 0 : ty1;
  ty2 = ty2 > g->tiles_y - 1 ? g->tiles_y - 1 : ty2;
  l1 = luts + (size_t) ty1 * g->tiles_x * BINS + v;
  l2 = luts + (size_t) ty2 * g->tiles_x * BINS + v;
  return sat_rte ((l1[tx1 * BINS] * xa1 + l1[tx2 * BINS] * xa) * ya1 +
      (l2[tx1 * BINS] * xa1 + l2[tx2 * BINS] * xa) * ya);
}

void
gst_cl_ref_histeq_apply (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int cn, const int *w,
    const GstCLHisteqGeometry * g, const uint8_t * luts)
{
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++) {
      const uint8_t *p = src + (size_t) y * src_stride + x * cn;
      uint8_t *d = dst + (size_t) y * dst_stride + x * cn;
      int l = gst_cl_ref_histeq_luma (p, cn, w);
      int n = g->clahe ? clahe_value (g, luts, l, x, y) : luts[l];

      if (cn == 1) {
        d[0] = n;
      } else if (l == 0) {
        d[0] = d[1] = d[2] = n;
        d[3] = p[3];
      } else {
        int mx = p[0] > p[1] ? p[0] : p[1];
        float m = (float) (mx > p[2] ? mx : p[2]);
        float gain = fminf ((float) n / (float) l, 255.0f / m);
        for (int c = 0; c < 3; c++)
          d[c] = sat_rte ((float) p[c] * gain);
        d[3] = p[3];
      }
    }
}
