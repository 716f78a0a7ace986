/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Dense pyramidal Lucas-Kanade optical flow (gst/elements/gstcloptflow.c).
 * C references: gst/ref/optflow.c; docs/OPTFLOW.md explains the method.
 *
 * Every level plane is a float buffer of width x height, row stride = width.
 * The flow is float2 per pixel, OpenCV's convention
 * prev(y, x) ~ next(y + v, x + u).
 *
 * Built with:
 *   -DRADIUS=r     half the window side (window = 2r + 1), baked in so the
 *                  window sums unroll;
 *   -DWINDOW=w,... the 2r + 1 weights of the separable window
 *                  (gst_cl_ref_optflow_window: a Gaussian);
 *   -DWITH_IMAGES  on devices with image support: of_residual_img. */

#ifndef RADIUS
#define RADIUS 7
#endif
#ifndef WINDOW
#error "WINDOW (the window's weights) must be defined"
#endif
__constant float win[2 * RADIUS + 1] = { WINDOW };

/* Clamp-to-edge index (the box sums and bilinear sampling use it; the
 * pyramid and gradients use reflect-101 like cv2.pyrDown / cv2.Scharr). */
inline int
clampi (int p, int n)
{
  return clamp (p, 0, n - 1);
}

/* ---- luma ---------------------------------------------------------- */

__kernel void
of_luma_c1 (__global const uchar * restrict src, uint src_off, int src_stride,
    int w, int h, __global float *restrict dst)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  dst[y * w + x] = (float) src[src_off + y * src_stride + x];
}

/* BT.601 luma of 4-byte pixels: weights per byte (sum 256), /256. */
__kernel void
of_luma_c4 (__global const uchar * restrict src, uint src_off, int src_stride,
    int w, int h, float4 wts, __global float *restrict dst)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const float4 p = convert_float4 (vload4 (0, src + src_off + y * src_stride
          + 4 * x));
  dst[y * w + x] = (p.x * wts.x + p.y * wts.y + p.z * wts.z + p.w * wts.w)
      * (1.0f / 256.0f);
}

/* ---- pyramid: cv2.pyrDown (5x5 [1 4 6 4 1]^2 / 256, reflect-101, every
 * other pixel); dst is ((w + 1) / 2) x ((h + 1) / 2) --------------------- */

__kernel void
of_pyrdown (__global const float *restrict src, int w, int h,
    __global float *restrict dst, int dw, int dh)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= dw || y >= dh)
    return;
  const float k[5] = { 1.0f, 4.0f, 6.0f, 4.0f, 1.0f };
  int xs[5];
  for (int i = 0; i < 5; i++)
    xs[i] = reflect101 (2 * x + i - 2, w);
  float acc = 0.0f;
  for (int j = 0; j < 5; j++) {
    const __global float *row = src + reflect101 (2 * y + j - 2, h) * w;
    float r = 0.0f;
    for (int i = 0; i < 5; i++)
      r += k[i] * row[xs[i]];
    acc += k[j] * r;
  }
  dst[y * dw + x] = acc * (1.0f / 256.0f);
}

/* ---- gradients: Scharr / 32 (d/dx, d/dy in grey levels per pixel),
 * reflect-101 ------------------------------------------------------------ */

__kernel void
of_gradient (__global const float *restrict src, int w, int h,
    __global float2 * restrict grad)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const int xm = reflect101 (x - 1, w), xp = reflect101 (x + 1, w);
  const __global float *r0 = src + reflect101 (y - 1, h) * w;
  const __global float *r1 = src + y * w;
  const __global float *r2 = src + reflect101 (y + 1, h) * w;
  const float gx = 3.0f * (r0[xp] - r0[xm]) + 10.0f * (r1[xp] - r1[xm])
      + 3.0f * (r2[xp] - r2[xm]);
  const float gy = 3.0f * (r2[xm] - r0[xm]) + 10.0f * (r2[x] - r0[x])
      + 3.0f * (r2[xp] - r0[xp]);
  grad[y * w + x] = (float2) (gx, gy) * (1.0f / 32.0f);
}

/* ---- structure tensor over the window, as its regularised inverse ------ */

/* Horizontal weighted window sums of (gx^2, gx*gy, gy^2), clamp-to-edge. */
__kernel void
of_tensor_h (__global const float2 * restrict grad, int w, int h,
    __global float4 * restrict tmp)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const __global float2 *row = grad + y * w;
  float4 acc = 0.0f;
  for (int i = -RADIUS; i <= RADIUS; i++) {
    const float2 g = row[clampi (x + i, w)];
    acc += win[i + RADIUS] * (float4) (g.x * g.x, g.x * g.y, g.y * g.y, 0.0f);
  }
  tmp[y * w + x] = acc;
}

/* Vertical sums, then the inverse of G + reg * I as (a, b, c, 0) with
 * G^-1 = [a b; b c]. The regulariser keeps flat and edge-only windows
 * finite (see of_solve). */
__kernel void
of_tensor_v (__global const float4 * restrict tmp, int w, int h, float reg,
    __global float4 * restrict tinv)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  float4 acc = 0.0f;
  for (int j = -RADIUS; j <= RADIUS; j++)
    acc += win[j + RADIUS] * tmp[clampi (y + j, h) * w + x];
  const float a = acc.x + reg, b = acc.y, c = acc.z + reg;
  const float inv = 1.0f / (a * c - b * b);
  tinv[y * w + x] = (float4) (c * inv, -b * inv, a * inv, 0.0f);
}

/* ---- one refinement iteration: residual, window sums, solve ------------ */

/* Bilinear sample of a w x h float plane at (px, py), clamp-to-edge (what
 * an image with CLK_ADDRESS_CLAMP_TO_EDGE and CLK_FILTER_LINEAR gives). */
inline float
sample_bilinear (__global const float *img, int w, int h, float px, float py)
{
  px = clamp (px, -1.0f, (float) w);
  py = clamp (py, -1.0f, (float) h);
  const float fx0 = floor (px), fy0 = floor (py);
  const float ax = px - fx0, ay = py - fy0;
  const int x0 = (int) fx0, y0 = (int) fy0;
  const int xa = clampi (x0, w), xb = clampi (x0 + 1, w);
  const __global float *r0 = img + clampi (y0, h) * w;
  const __global float *r1 = img + clampi (y0 + 1, h) * w;
  const float t = mad (ax, r0[xb] - r0[xa], r0[xa]);
  const float b = mad (ax, r1[xb] - r1[xa], r1[xa]);
  return mad (ay, b - t, t);
}

/* Each pixel's own linearised constraint, g (g . flow - e) with g the
 * gradient of prev and e = next(p + flow(p)) - prev(p), so that the window
 * sum solved in of_solve is Lucas-Kanade's estimate for a window whose
 * pixels carry different flows: solving for an increment from summed
 * residuals instead amplifies what the box filter's negative lobes pass and
 * diverges after a few iterations. Next sampled by hand. */
__kernel void
of_residual_buf (__global const float *restrict prev,
    __global const float *restrict next, __global const float2 * restrict grad,
    __global const float2 * restrict flow, int w, int h,
    __global float2 * restrict res)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const int i = y * w + x;
  const float2 f = flow[i];
  const float px = x + f.x, py = y + f.y;
  float e = sample_bilinear (next, w, h, px, py) - prev[i];
  /* Moved out of the frame: nothing to match, so the pixel votes for its
   * current flow (e = 0) instead of for whatever the edge pixels say. */
  if (!(px >= 0.0f && px <= w - 1 && py >= 0.0f && py <= h - 1))
    e = 0.0f;
  const float2 g = grad[i];
  res[i] = g * (g.x * f.x + g.y * f.y - e);
}

#ifdef WITH_IMAGES
/* The same with next in an image, sampled by the texture unit (only
 * compiled for devices with images: image types do not compile without). */
__kernel void
of_residual_img (__global const float *restrict prev,
    __read_only image2d_t next, __global const float2 * restrict grad,
    __global const float2 * restrict flow, int w, int h,
    __global float2 * restrict res)
{
  const sampler_t smp = CLK_NORMALIZED_COORDS_FALSE |
      CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const int i = y * w + x;
  const float2 f = flow[i];
  const float2 pos = clamp ((float2) (x + f.x, y + f.y), -1.0f,
      (float2) (w, h));
  float e = read_imagef (next, smp, pos + 0.5f).x - prev[i];
  if (!(pos.x >= 0.0f && pos.x <= w - 1 && pos.y >= 0.0f && pos.y <= h - 1))
    e = 0.0f;
  const float2 g = grad[i];
  res[i] = g * (g.x * f.x + g.y * f.y - e);
}
#endif

/* Horizontal weighted window sums of the residual, clamp-to-edge. */
__kernel void
of_box_h (__global const float2 * restrict src, int w, int h,
    __global float2 * restrict dst)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const __global float2 *row = src + y * w;
  float2 acc = 0.0f;
  for (int i = -RADIUS; i <= RADIUS; i++)
    acc += win[i + RADIUS] * row[clampi (x + i, w)];
  dst[y * w + x] = acc;
}

/* Vertical window sums b, then flow = (G + reg I)^-1 b: regularised
 * towards zero, so windows without texture (flat background) report no
 * motion instead of inheriting a coarser level's estimate of a nearby
 * object, and edges give their normal flow. A pixel whose flow moved less
 * than eps stops (conv = 1) for the rest of the level; @first clears the
 * flags at the level's first iteration. */
__kernel void
of_solve (__global const float2 * restrict tmp,
    __global const float4 * restrict tinv, int w, int h, float eps2,
    int first, __global float2 * restrict flow,
    __global uchar * restrict conv)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const int i = y * w + x;
  if (!first && conv[i])
    return;
  float2 b = 0.0f;
  for (int j = -RADIUS; j <= RADIUS; j++)
    b += win[j + RADIUS] * tmp[clampi (y + j, h) * w + x];
  const float2 f = flow[i];
  const float4 t = tinv[i];
  const float2 n = (float2) (t.x * b.x + t.y * b.y, t.y * b.x + t.z * b.y);
  const float2 d = n - f;
  flow[i] = n;
  conv[i] = d.x * d.x + d.y * d.y < eps2;
}

/* Coarse-to-fine: flow at level l = 2 x bilinear(level l + 1) at (x/2, y/2). */
__kernel void
of_upsample (__global const float2 * restrict coarse, int cw, int ch,
    __global float2 * restrict fine, int w, int h)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const float px = 0.5f * x, py = 0.5f * y;
  const int x0 = (int) px, y0 = (int) py;
  const float ax = px - x0, ay = py - y0;
  const int xa = clampi (x0, cw), xb = clampi (x0 + 1, cw);
  const __global float2 *r0 = coarse + clampi (y0, ch) * cw;
  const __global float2 *r1 = coarse + clampi (y0 + 1, ch) * cw;
  const float2 t = r0[xa] + ax * (r0[xb] - r0[xa]);
  const float2 b = r1[xa] + ax * (r1[xb] - r1[xa]);
  fine[y * w + x] = 2.0f * (t + ay * (b - t));
}

__kernel void
of_zero (__global float2 * restrict flow, int n)
{
  const int i = get_global_id (0);
  if (i < n)
    flow[i] = 0.0f;
}

/* ---- flow data for messages: mean flow of each bs x bs block ---------- */

__kernel void
of_block_means (__global const float2 * restrict flow, int w, int h, int bs,
    int gw, int gh, __global float2 * restrict means)
{
  const int bx = get_global_id (0), by = get_global_id (1);
  if (bx >= gw || by >= gh)
    return;
  const int x0 = bx * bs, y0 = by * bs;
  const int x1 = min (x0 + bs, w), y1 = min (y0 + bs, h);
  float2 acc = 0.0f;
  for (int y = y0; y < y1; y++) {
    float2 racc = 0.0f;
    for (int x = x0; x < x1; x++)
      racc += flow[y * w + x];
    acc += racc;
  }
  means[by * gw + bx] = acc / (float) ((x1 - x0) * (y1 - y0));
}

/* ---- overlay --------------------------------------------------------- */

#define ARROW_GRID 16

/* Colour of a direction: hue = angle (0 = rightwards = red), full
 * saturation and value; RGB in 0..255. */
inline float3
flow_hue (float2 f)
{
  const float a = atan2 (-f.y, -f.x) * (1.0f / M_PI_F);  /* -1..1 */
  const float hh = (a + 1.0f) * 3.0f;   /* 0..6 */
  const float r = clamp (fabs (hh - 3.0f) - 1.0f, 0.0f, 1.0f);
  const float g = clamp (2.0f - fabs (hh - 2.0f), 0.0f, 1.0f);
  const float b = clamp (2.0f - fabs (hh - 4.0f), 0.0f, 1.0f);
  return (float3) (r, g, b) * 255.0f;
}

/* Squared distance from p to the segment a-b. */
inline float
seg_dist2 (float2 p, float2 a, float2 b)
{
  const float2 ab = b - a, ap = p - a;
  const float l2 = dot (ab, ab);
  const float t = l2 > 0.0f ? clamp (dot (ap, ab) / l2, 0.0f, 1.0f) : 0.0f;
  const float2 d = ap - t * ab;
  return dot (d, d);
}

/* Overlay colour (rgb) and opacity (w) at luma pixel (x, y).
 * style 0: colour by direction, opacity by magnitude / max_motion.
 * style 1: arrows from the centre of each ARROW_GRID cell, max_motion
 * drawn one cell long (at most 1.5 cells). */
inline float4
overlay_at (__global const float2 * flow, int w, int h, int x, int y,
    int style, float max_motion)
{
  if (style == 0) {
    const float2 f = flow[y * w + x];
    const float m = sqrt (f.x * f.x + f.y * f.y);
    return (float4) (flow_hue (f), min (m / max_motion, 1.0f));
  }
  const float2 p = (float2) (x, y);
  const int cx = x / ARROW_GRID, cy = y / ARROW_GRID;
  const float scale = ARROW_GRID / max_motion;
  for (int j = cy - 2; j <= cy + 2; j++) {
    for (int i = cx - 2; i <= cx + 2; i++) {
      const int ox = i * ARROW_GRID + ARROW_GRID / 2;
      const int oy = j * ARROW_GRID + ARROW_GRID / 2;
      if (i < 0 || j < 0 || ox >= w || oy >= h)
        continue;
      const float2 f = flow[oy * w + ox];
      float2 v = f * scale;
      const float len = sqrt (v.x * v.x + v.y * v.y);
      if (len < 1.0f)
        continue;
      if (len > 1.5f * ARROW_GRID)
        v *= 1.5f * ARROW_GRID / len;
      const float2 o = (float2) (ox, oy), t = o + v;
      /* head: two strokes at +-30 degrees back from the tip */
      const float hl = min (0.35f * len, 5.0f) / len;
      const float2 back = -v * hl;
      const float2 h1 = (float2) (0.866f * back.x - 0.5f * back.y,
          0.5f * back.x + 0.866f * back.y);
      const float2 h2 = (float2) (0.866f * back.x + 0.5f * back.y,
          -0.5f * back.x + 0.866f * back.y);
      if (seg_dist2 (p, o, t) <= 0.36f || seg_dist2 (p, t, t + h1) <= 0.36f
          || seg_dist2 (p, t, t + h2) <= 0.36f)
        return (float4) (flow_hue (f), 1.0f);
    }
  }
  return (float4) (0.0f);
}

inline uchar
blend (float s, float c, float a)
{
  return convert_uchar_sat_rte (s + a * (c - s));
}

inline float
rgb_y (float3 c)
{
  return 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
}

/* One-byte luma planes (GRAY8, the Y of NV12 and I420). */
__kernel void
of_overlay_c1 (__global const uchar * restrict src, uint src_off,
    int src_stride, __global uchar * restrict dst, uint dst_off,
    int dst_stride, __global const float2 * restrict flow, int w, int h,
    int style, float max_motion)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const float4 o = overlay_at (flow, w, h, x, y, style, max_motion);
  const float s = src[src_off + y * src_stride + x];
  dst[dst_off + y * dst_stride + x] = blend (s, rgb_y (o.xyz), o.w);
}

/* 4-byte pixels; @ri, @gi, @bi: byte of R, G and B (the 4th is kept). */
__kernel void
of_overlay_c4 (__global const uchar * restrict src, uint src_off,
    int src_stride, __global uchar * restrict dst, uint dst_off,
    int dst_stride, __global const float2 * restrict flow, int w, int h,
    int style, float max_motion, int ri, int gi, int bi)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= w || y >= h)
    return;
  const float4 o = overlay_at (flow, w, h, x, y, style, max_motion);
  const __global uchar *s = src + src_off + y * src_stride + 4 * x;
  __global uchar *d = dst + dst_off + y * dst_stride + 4 * x;
  uchar4 px = vload4 (0, s);
  uchar v[4] = { px.x, px.y, px.z, px.w };
  v[ri] = blend (v[ri], o.x, o.w);
  v[gi] = blend (v[gi], o.y, o.w);
  v[bi] = blend (v[bi], o.z, o.w);
  vstore4 ((uchar4) (v[0], v[1], v[2], v[3]), 0, d);
}

/* A 2x2-subsampled chroma plane: @pb bytes per pixel, U at byte @ui and V
 * at byte @vi (-1: not in this plane), the colour of luma pixel
 * (2x, 2y) in BT.601 full-range chroma. */
__kernel void
of_overlay_chroma (__global const uchar * restrict src, uint src_off,
    int src_stride, __global uchar * restrict dst, uint dst_off,
    int dst_stride, int cw, int ch, int pb, int ui, int vi,
    __global const float2 * restrict flow, int w, int h, int style,
    float max_motion)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= cw || y >= ch)
    return;
  const float4 o = overlay_at (flow, w, h, min (2 * x, w - 1),
      min (2 * y, h - 1), style, max_motion);
  const __global uchar *s = src + src_off + y * src_stride + pb * x;
  __global uchar *d = dst + dst_off + y * dst_stride + pb * x;
  const float u = 128.0f - 0.168736f * o.x - 0.331264f * o.y + 0.5f * o.z;
  const float v = 128.0f + 0.5f * o.x - 0.418688f * o.y - 0.081312f * o.z;
  if (ui >= 0)
    d[ui] = blend (s[ui], u, o.w);
  if (vi >= 0)
    d[vi] = blend (s[vi], v, o.w);
}

/* Bytes of a plane unchanged (output=passthrough, chroma of Y-only work). */
__kernel void
of_copy (__global const uchar * restrict src, uint src_off, int src_stride,
    __global uchar * restrict dst, uint dst_off, int dst_stride, int wb, int h)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (y >= h)
    return;
  const __global uchar *s = src + src_off + y * src_stride;
  __global uchar *d = dst + dst_off + y * dst_stride;
  const int x0 = 16 * x;
  if (x0 + 16 <= wb) {
    vstore16 (vload16 (0, s + x0), 0, d + x0);
  } else {
    for (int i = x0; i < wb; i++)
      d[i] = s[i];
  }
}
