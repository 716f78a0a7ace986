/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* C references of the optical-flow kernels (kernels/optflow.cl), in the
 * kernels' order of operations so float results agree closely. */
#include "gstclref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline int
clampi (int p, int n)
{
  return p < 0 ? 0 : p >= n ? n - 1 : p;
}

static inline float
clampf (float v, float lo, float hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

void
gst_cl_ref_optflow_window (int r, float *win)
{
  const double sigma = 0.5 * (r + 1);
  for (int i = -r; i <= r; i++)
    win[i + r] = (float) exp (-i * i / (2 * sigma * sigma));
}

void
gst_cl_ref_optflow_luma (const uint8_t * src, int stride, int w, int h,
    int cn, const float *wts, float *dst)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *p = src + (size_t) y * stride + (size_t) x * cn;
      dst[y * w + x] = cn == 1 ? p[0] :
          (p[0] * wts[0] + p[1] * wts[1] + p[2] * wts[2] + p[3] * wts[3])
          * (1.0f / 256.0f);
    }
}

void
gst_cl_ref_optflow_pyrdown (const float *src, int w, int h, float *dst)
{
  static const float k[5] = { 1, 4, 6, 4, 1 };
  const int dw = (w + 1) / 2, dh = (h + 1) / 2;

  for (int y = 0; y < dh; y++)
    for (int x = 0; x < dw; x++) {
      float acc = 0.0f;
      for (int j = 0; j < 5; j++) {
        const float *row = src + gst_cl_ref_reflect101 (2 * y + j - 2, h) * w;
        float r = 0.0f;
        for (int i = 0; i < 5; i++)
          r += k[i] * row[gst_cl_ref_reflect101 (2 * x + i - 2, w)];
        acc += k[j] * r;
      }
      dst[y * dw + x] = acc * (1.0f / 256.0f);
    }
}

void
gst_cl_ref_optflow_gradient (const float *src, int w, int h, float *grad)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const int xm = gst_cl_ref_reflect101 (x - 1, w);
      const int xp = gst_cl_ref_reflect101 (x + 1, w);
      const float *r0 = src + gst_cl_ref_reflect101 (y - 1, h) * w;
      const float *r1 = src + y * w;
      const float *r2 = src + gst_cl_ref_reflect101 (y + 1, h) * w;
      float gx = 3.0f * (r0[xp] - r0[xm]) + 10.0f * (r1[xp] - r1[xm])
          + 3.0f * (r2[xp] - r2[xm]);
      float gy = 3.0f * (r2[xm] - r0[xm]) + 10.0f * (r2[x] - r0[x])
          + 3.0f * (r2[xp] - r0[xp]);
      grad[2 * (y * w + x)] = gx * (1.0f / 32.0f);
      grad[2 * (y * w + x) + 1] = gy * (1.0f / 32.0f);
    }
}

void
gst_cl_ref_optflow_tensor (const float *grad, int w, int h, int r, float reg,
    float *tinv)
{
  float *tmp = malloc (sizeof (float) * 3 * w * h);
  float win[2 * 64 + 1];

  gst_cl_ref_optflow_window (r, win);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float a = 0, b = 0, c = 0;
      for (int i = -r; i <= r; i++) {
        const float *g = grad + 2 * (y * w + clampi (x + i, w));
        const float k = win[i + r];
        a += k * (g[0] * g[0]);
        b += k * (g[0] * g[1]);
        c += k * (g[1] * g[1]);
      }
      tmp[3 * (y * w + x)] = a;
      tmp[3 * (y * w + x) + 1] = b;
      tmp[3 * (y * w + x) + 2] = c;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float a = 0, b = 0, c = 0;
      for (int j = -r; j <= r; j++) {
        const float *t = tmp + 3 * (clampi (y + j, h) * w + x);
        const float k = win[j + r];
        a += k * t[0];
        b += k * t[1];
        c += k * t[2];
      }
      a += reg;
      c += reg;
      float inv = 1.0f / (a * c - b * b);
      float *o = tinv + 4 * (y * w + x);
      o[0] = c * inv;
      o[1] = -b * inv;
      o[2] = a * inv;
      o[3] = 0.0f;
    }
  free (tmp);
}

float
gst_cl_ref_optflow_sample (const float *img, int w, int h, float px, float py,
    int weight_bits)
{
  px = clampf (px, -1.0f, (float) w);
  py = clampf (py, -1.0f, (float) h);
  const float fx0 = floorf (px), fy0 = floorf (py);
  float ax = px - fx0, ay = py - fy0;
  if (weight_bits > 0) {
    const float one = (float) (1 << weight_bits);
    ax = floorf (ax * one + 0.5f) / one;
    ay = floorf (ay * one + 0.5f) / one;
  }
  const int x0 = (int) fx0, y0 = (int) fy0;
  const int xa = clampi (x0, w), xb = clampi (x0 + 1, w);
  const float *r0 = img + clampi (y0, h) * w;
  const float *r1 = img + clampi (y0 + 1, h) * w;
  const float t = ax * (r0[xb] - r0[xa]) + r0[xa];
  const float b = ax * (r1[xb] - r1[xa]) + r1[xa];
  return ay * (b - t) + t;
}

void
gst_cl_ref_optflow_iterate (const float *prev, const float *next,
    const float *grad, const float *tinv, int w, int h, int r, float eps,
    int first, int weight_bits, float *flow, uint8_t * conv)
{
  const size_t n = (size_t) w * h;
  float *res = malloc (sizeof (float) * 2 * n);
  float *tmp = malloc (sizeof (float) * 2 * n);
  float win[2 * 64 + 1];

  gst_cl_ref_optflow_window (r, win);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const int i = y * w + x;
      const float fx = flow[2 * i], fy = flow[2 * i + 1];
      const float gx = grad[2 * i], gy = grad[2 * i + 1];
      const float px = x + fx, py = y + fy;
      float e = gst_cl_ref_optflow_sample (next, w, h, px, py, weight_bits) -
          prev[i];
      /* out of the frame: votes for its current flow */
      if (!(px >= 0.0f && px <= w - 1 && py >= 0.0f && py <= h - 1))
        e = 0.0f;
      const float c = gx * fx + gy * fy - e;
      res[2 * i] = gx * c;
      res[2 * i + 1] = gy * c;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float sx = 0, sy = 0;
      for (int k = -r; k <= r; k++) {
        const float *p = res + 2 * (y * w + clampi (x + k, w));
        sx += win[k + r] * p[0];
        sy += win[k + r] * p[1];
      }
      tmp[2 * (y * w + x)] = sx;
      tmp[2 * (y * w + x) + 1] = sy;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const int i = y * w + x;
      if (!first && conv[i])
        continue;
      float bx = 0, by = 0;
      for (int k = -r; k <= r; k++) {
        const float *p = tmp + 2 * (clampi (y + k, h) * w + x);
        bx += win[k + r] * p[0];
        by += win[k + r] * p[1];
      }
      const float fx = flow[2 * i], fy = flow[2 * i + 1];
      const float *t = tinv + 4 * i;
      const float nx = t[0] * bx + t[1] * by, ny = t[1] * bx + t[2] * by;
      const float dx = nx - fx, dy = ny - fy;
      flow[2 * i] = nx;
      flow[2 * i + 1] = ny;
      conv[i] = dx * dx + dy * dy < eps * eps;
    }
  free (res);
  free (tmp);
}

void
gst_cl_ref_optflow_upsample (const float *coarse, int cw, int ch, float *fine,
    int w, int h)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const float px = 0.5f * x, py = 0.5f * y;
      const int x0 = (int) px, y0 = (int) py;
      const float ax = px - x0, ay = py - y0;
      const int xa = clampi (x0, cw), xb = clampi (x0 + 1, cw);
      const float *r0 = coarse + 2 * clampi (y0, ch) * cw;
      const float *r1 = coarse + 2 * clampi (y0 + 1, ch) * cw;
      for (int c = 0; c < 2; c++) {
        const float t = r0[2 * xa + c] + ax * (r0[2 * xb + c] - r0[2 * xa + c]);
        const float b = r1[2 * xa + c] + ax * (r1[2 * xb + c] - r1[2 * xa + c]);
        fine[2 * (y * w + x) + c] = 2.0f * (t + ay * (b - t));
      }
    }
}

float *
gst_cl_ref_optflow_dense (const uint8_t * a, int a_stride, const uint8_t * b,
    int b_stride, int w, int h, int levels, int finest, int r, float reg,
    int iterations, float eps)
{
  int lw[GST_CL_OPTFLOW_MAX_LEVELS], lh[GST_CL_OPTFLOW_MAX_LEVELS];
  float *pa[GST_CL_OPTFLOW_MAX_LEVELS], *pb[GST_CL_OPTFLOW_MAX_LEVELS];
  float *flow = NULL, *grad, *tinv;
  uint8_t *conv;

  for (int l = 0; l < levels; l++) {
    lw[l] = l ? (lw[l - 1] + 1) / 2 : w;
    lh[l] = l ? (lh[l - 1] + 1) / 2 : h;
    pa[l] = malloc (sizeof (float) * lw[l] * lh[l]);
    pb[l] = malloc (sizeof (float) * lw[l] * lh[l]);
    if (l == 0) {
      gst_cl_ref_optflow_luma (a, a_stride, w, h, 1, NULL, pa[0]);
      gst_cl_ref_optflow_luma (b, b_stride, w, h, 1, NULL, pb[0]);
    } else {
      gst_cl_ref_optflow_pyrdown (pa[l - 1], lw[l - 1], lh[l - 1], pa[l]);
      gst_cl_ref_optflow_pyrdown (pb[l - 1], lw[l - 1], lh[l - 1], pb[l]);
    }
  }
  grad = malloc (sizeof (float) * 2 * w * h);
  tinv = malloc (sizeof (float) * 4 * w * h);
  conv = calloc ((size_t) w * h, 1);
  for (int l = levels - 1; l >= 0; l--) {
    float *f = calloc (2 * (size_t) lw[l] * lh[l], sizeof (float));
    if (flow) {
      gst_cl_ref_optflow_upsample (flow, lw[l + 1], lh[l + 1], f, lw[l],
          lh[l]);
      free (flow);
    }
    flow = f;
    if (l < finest)
      continue;
    gst_cl_ref_optflow_gradient (pa[l], lw[l], lh[l], grad);
    gst_cl_ref_optflow_tensor (grad, lw[l], lh[l], r, reg, tinv);
    for (int it = 0; it < iterations; it++)
      gst_cl_ref_optflow_iterate (pa[l], pb[l], grad, tinv, lw[l], lh[l], r,
          eps, it == 0, 0, flow, conv);
  }
  for (int l = 0; l < levels; l++) {
    free (pa[l]);
    free (pb[l]);
  }
  free (grad);
  free (tinv);
  free (conv);
  return flow;
}

void
gst_cl_ref_optflow_block_means (const float *flow, int w, int h, int bs,
    float *means)
{
  const int gw = (w + bs - 1) / bs, gh = (h + bs - 1) / bs;

  for (int by = 0; by < gh; by++)
    for (int bx = 0; bx < gw; bx++) {
      const int x0 = bx * bs, y0 = by * bs;
      const int x1 = x0 + bs < w ? x0 + bs : w, y1 = y0 + bs < h ? y0 + bs : h;
      double sx = 0, sy = 0;
      for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
          sx += flow[2 * (y * w + x)];
          sy += flow[2 * (y * w + x) + 1];
        }
      means[2 * (by * gw + bx)] = sx / ((x1 - x0) * (y1 - y0));
      means[2 * (by * gw + bx) + 1] = sy / ((x1 - x0) * (y1 - y0));
    }
}

static void
flow_hue (float fx, float fy, float *rgb)
{
  const float a = atan2f (-fy, -fx) * (float) (1.0 / M_PI);
  const float hh = (a + 1.0f) * 3.0f;
  rgb[0] = clampf (fabsf (hh - 3.0f) - 1.0f, 0.0f, 1.0f) * 255.0f;
  rgb[1] = clampf (2.0f - fabsf (hh - 2.0f), 0.0f, 1.0f) * 255.0f;
  rgb[2] = clampf (2.0f - fabsf (hh - 4.0f), 0.0f, 1.0f) * 255.0f;
}

static float
seg_dist2 (float px, float py, float ax, float ay, float bx, float by)
{
  const float abx = bx - ax, aby = by - ay, apx = px - ax, apy = py - ay;
  const float l2 = abx * abx + aby * aby;
  const float t = l2 > 0.0f ? clampf ((apx * abx + apy * aby) / l2, 0.0f,
      1.0f) : 0.0f;
  const float dx = apx - t * abx, dy = apy - t * aby;
  return dx * dx + dy * dy;
}

void
gst_cl_ref_optflow_overlay_at (const float *flow, int w, int h, int x, int y,
    int style, float max_motion, float *rgba)
{
  const int G = GST_CL_OPTFLOW_ARROW_GRID;

  if (style == 0) {
    const float fx = flow[2 * (y * w + x)], fy = flow[2 * (y * w + x) + 1];
    const float m = sqrtf (fx * fx + fy * fy);
    flow_hue (fx, fy, rgba);
    rgba[3] = fminf (m / max_motion, 1.0f);
    return;
  }
  const int cx = x / G, cy = y / G;
  const float scale = G / max_motion;
  for (int j = cy - 2; j <= cy + 2; j++)
    for (int i = cx - 2; i <= cx + 2; i++) {
      const int ox = i * G + G / 2, oy = j * G + G / 2;
      if (i < 0 || j < 0 || ox >= w || oy >= h)
        continue;
      const float fx = flow[2 * (oy * w + ox)], fy = flow[2 * (oy * w + ox) + 1];
      float vx = fx * scale, vy = fy * scale;
      const float len = sqrtf (vx * vx + vy * vy);
      if (len < 1.0f)
        continue;
      if (len > 1.5f * G) {
        vx *= 1.5f * G / len;
        vy *= 1.5f * G / len;
      }
      const float tx = ox + vx, ty = oy + vy;
      const float hl = fminf (0.35f * len, 5.0f) / len;
      const float bx = -vx * hl, by = -vy * hl;
      const float h1x = 0.866f * bx - 0.5f * by, h1y = 0.5f * bx + 0.866f * by;
      const float h2x = 0.866f * bx + 0.5f * by, h2y = -0.5f * bx + 0.866f * by;
      if (seg_dist2 (x, y, ox, oy, tx, ty) <= 0.36f
          || seg_dist2 (x, y, tx, ty, tx + h1x, ty + h1y) <= 0.36f
          || seg_dist2 (x, y, tx, ty, tx + h2x, ty + h2y) <= 0.36f) {
        flow_hue (fx, fy, rgba);
        rgba[3] = 1.0f;
        return;
      }
    }
  rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0.0f;
}

static uint8_t
blend (float s, float c, float a)
{
  const float v = rintf (s + a * (c - s));
  return v < 0 ? 0 : v > 255 ? 255 : (uint8_t) v;
}

void
gst_cl_ref_optflow_overlay (const uint8_t * src, int src_stride,
    uint8_t * dst, int dst_stride, int pw, int ph, int kind, int pb, int a,
    int b, int c, const float *flow, int w, int h, int style,
    float max_motion)
{
  for (int y = 0; y < ph; y++)
    for (int x = 0; x < pw; x++) {
      float o[4];
      const uint8_t *s = src + (size_t) y * src_stride + (size_t) x * pb;
      uint8_t *d = dst + (size_t) y * dst_stride + (size_t) x * pb;
      if (kind == 2) {
        const int lx = 2 * x < w - 1 ? 2 * x : w - 1;
        const int ly = 2 * y < h - 1 ? 2 * y : h - 1;
        gst_cl_ref_optflow_overlay_at (flow, w, h, lx, ly, style, max_motion,
            o);
        const float u = 128.0f - 0.168736f * o[0] - 0.331264f * o[1]
            + 0.5f * o[2];
        const float v = 128.0f + 0.5f * o[0] - 0.418688f * o[1]
            - 0.081312f * o[2];
        if (a >= 0)
          d[a] = blend (s[a], u, o[3]);
        if (b >= 0)
          d[b] = blend (s[b], v, o[3]);
        continue;
      }
      gst_cl_ref_optflow_overlay_at (flow, w, h, x, y, style, max_motion, o);
      if (kind == 0) {
        d[0] = blend (s[0], 0.299f * o[0] + 0.587f * o[1] + 0.114f * o[2],
            o[3]);
      } else {
        memcpy (d, s, 4);
        d[a] = blend (s[a], o[0], o[3]);
        d[b] = blend (s[b], o[1], o[3]);
        d[c] = blend (s[c], o[2], o[3]);
      }
    }
}
