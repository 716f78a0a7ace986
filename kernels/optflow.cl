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
  const bool a16 = planes_aligned16 (src + src_off, src_stride,
      dst + dst_off, dst_stride);
  const int x0 = 16 * x;
  if (x0 + 16 <= wb) {
    STORE16_G (a16, LOAD16_G (a16, s + x0), d + x0);
  } else {
    for (int i = x0; i < wb; i++)
      d[i] = s[i];
  }
}

/* ---- CPU kernels (-DOF_ROWS=1, CPU devices only) -----------------------
 * PoCL vectorises across work-items, and gives up where their loads go
 * through clamped indices, as in every kernel above: those ran a 1080p
 * frame in ~290 ms on two cores. These do the same arithmetic on explicit
 * float16 vectors along x, one work-item per band of rows and chunk of
 * columns, walking the rows in address order and keeping the window's
 * horizontal sums in a private ring (as blur_fixed_rows does): a whole
 * iteration (residual, window sums, solve) in one launch, gradient and
 * tensor in another. The sums are the kernels' above, in the same order;
 * docs/OPTFLOW.md, "CPU kernels". */
#if OF_ROWS

#define KW (2 * RADIUS + 1)
#define OF_NV (OF_CW / 16)                      /* output vectors a row */
#define OF_NR ((OF_CW + 2 * RADIUS + 15) / 16)  /* with the window's reach */
#define OF_TNV (OF_TCW / 16)
#define OF_TNR ((OF_TCW + 2 * RADIUS + 15) / 16)

#if X86_AVX2
/* One unaligned access each (see LOADU16_G in common.cl). */
typedef float16 __attribute__ ((aligned (4))) float16_u4;
#define LDG16(p) (*(__global const float16_u4 *) (p))
#define STG16(v, p) (*(__global float16_u4 *) (p) = (v))
#define CVT_F16(v) __builtin_convertvector (v, float16)
#define CVT_I16(v) __builtin_convertvector (v, int16)
#define CVT_UC16(v) __builtin_convertvector (v, uchar16)
#else
#define LDG16(p) vload16 (0, p)
#define STG16(v, p) vstore16 (v, 0, p)
#define CVT_F16(v) convert_float16 (v)
#define CVT_I16(v) convert_int16 (v)
#define CVT_UC16(v) convert_uchar16 (v)
#endif

/* 16 floats at p[i.s0] .. p[i.sf]. The gather builtin takes a pointer
 * without address space: on a CPU device every space is the same memory,
 * so the global pointer goes through an integer. */
#if X86_AVX512BW
#define GATHER16(p, i) __builtin_ia32_gathersiv16sf ((float16) 0.0f, \
    (const void *) (size_t) (p), (i), (ushort) 0xffff, 4)
#else
#define GATHER16(p, i) (float16) ((p)[(i).s0], (p)[(i).s1], (p)[(i).s2], \
    (p)[(i).s3], (p)[(i).s4], (p)[(i).s5], (p)[(i).s6], (p)[(i).s7], \
    (p)[(i).s8], (p)[(i).s9], (p)[(i).sa], (p)[(i).sb], (p)[(i).sc], \
    (p)[(i).sd], (p)[(i).se], (p)[(i).sf])
#endif

#define LANES16 ((int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))

/* Lanes s .. s + 15 of the 32 of a and b (s a constant). A window sum
 * reads each tap's 16 values this way from whole vectors: loads at every
 * offset of a row just stored to private memory stall on store
 * forwarding (docs/PERFORMANCE.md, "What we learned about PoCL"). */
#if X86_AVX512BW
/* valignd: one instruction, where LLVM 14 makes the shuffle a vpermt2ps
 * and a copy of the operand it overwrites */
#define SHIFT16(a, b, s) as_float16 (__builtin_ia32_alignd512 ( \
    as_int16 (b), as_int16 (a), (s)))
#else
#define SHIFT16(a, b, s) __builtin_shufflevector (a, b, s, (s) + 1, \
    (s) + 2, (s) + 3, (s) + 4, (s) + 5, (s) + 6, (s) + 7, (s) + 8, \
    (s) + 9, (s) + 10, (s) + 11, (s) + 12, (s) + 13, (s) + 14, (s) + 15)
#endif
/* Values t .. t + 15 of the row of vectors v from vector u on. */
#define WINDOW16(v, u, t) ((t) < 16 ? SHIFT16 (v[u], v[(u) + 1], (t) % 16) \
    : SHIFT16 (v[(u) + 1], v[(u) + 2], (t) % 16))
/* X (t) for every tap t of the window, in order (up to 31 taps). */
#define TAP(X, t) if ((t) < KW) { X (t) }
#define FOR_TAPS(X) TAP (X, 0) TAP (X, 1) TAP (X, 2) TAP (X, 3) TAP (X, 4) \
    TAP (X, 5) TAP (X, 6) TAP (X, 7) TAP (X, 8) TAP (X, 9) TAP (X, 10) \
    TAP (X, 11) TAP (X, 12) TAP (X, 13) TAP (X, 14) TAP (X, 15) \
    TAP (X, 16) TAP (X, 17) TAP (X, 18) TAP (X, 19) TAP (X, 20) \
    TAP (X, 21) TAP (X, 22) TAP (X, 23) TAP (X, 24) TAP (X, 25) \
    TAP (X, 26) TAP (X, 27) TAP (X, 28) TAP (X, 29) TAP (X, 30)

/* Interleaved pairs (x, y) of 16 pixels from @p (32 floats). */
inline void
load_pairs16 (__global const float *p, float16 * x, float16 * y)
{
  const float16 a = LDG16 (p), b = LDG16 (p + 16);
  *x = (float16) (a.even, b.even);
  *y = (float16) (a.odd, b.odd);
}

/* The same at pixel indices @i (edges). */
inline void
gather_pairs16 (__global const float *p, int16 i, float16 * x, float16 * y)
{
  *x = GATHER16 (p, 2 * i);
  *y = GATHER16 (p, 2 * i + 1);
}

inline void
store_pairs16 (__global float *p, float16 x, float16 y)
{
  STG16 ((float16) (x.s0, y.s0, x.s1, y.s1, x.s2, y.s2, x.s3, y.s3, x.s4,
          y.s4, x.s5, y.s5, x.s6, y.s6, x.s7, y.s7), p);
  STG16 ((float16) (x.s8, y.s8, x.s9, y.s9, x.sa, y.sa, x.sb, y.sb, x.sc,
          y.sc, x.sd, y.sd, x.se, y.se, x.sf, y.sf), p + 16);
}

/* Smallest and largest lane (a tree of swizzles: PoCL's all () and
 * any () test lane by lane). */
inline int
hmin16 (int16 v)
{
  const int8 a = min (v.lo, v.hi);
  const int4 b = min (a.lo, a.hi);
  const int2 c = min (b.lo, b.hi);
  return min (c.x, c.y);
}

inline int
hmax16 (int16 v)
{
  const int8 a = max (v.lo, v.hi);
  const int4 b = max (a.lo, a.hi);
  const int2 c = max (b.lo, b.hi);
  return max (c.x, c.y);
}

/* sample_bilinear at 16 positions. A smooth flow puts the top-left
 * corners of consecutive pixels at consecutive columns give or take one,
 * on two rows at most: then nine row loads and selects, else four
 * gathers. */
inline float16
sample_bilinear16 (__global const float *img, int w, int h, float16 px,
    float16 py)
{
  px = clamp (px, -1.0f, (float) w);
  py = clamp (py, -1.0f, (float) h);
  const float16 fx0 = floor (px), fy0 = floor (py);
  const float16 ax = px - fx0, ay = py - fy0;
  const int16 x0 = CVT_I16 (fx0), y0 = CVT_I16 (fy0);
  const int16 dx = x0 - LANES16;        /* x0 = lane + dx */
  const int xmin = hmin16 (dx), ymin = hmin16 (y0);
  float16 a0, a1, b0, b1;
  if (xmin >= 0 && xmin + 18 <= w && ymin >= 0 && ymin + 3 <= h
      && hmax16 (dx) - xmin <= 1 && hmax16 (y0) - ymin <= 1) {
    const int16 right = dx > xmin, down = y0 > ymin;
    __global const float *r = img + ymin * w + xmin;
    float16 p0 = LDG16 (r), p1 = LDG16 (r + 1), p2 = LDG16 (r + 2);
    const float16 t0 = select (p0, p1, right), t1 = select (p1, p2, right);
    r += w;
    p0 = LDG16 (r);
    p1 = LDG16 (r + 1);
    p2 = LDG16 (r + 2);
    const float16 m0 = select (p0, p1, right), m1 = select (p1, p2, right);
    r += w;
    p0 = LDG16 (r);
    p1 = LDG16 (r + 1);
    p2 = LDG16 (r + 2);
    const float16 u0 = select (p0, p1, right), u1 = select (p1, p2, right);
    a0 = select (t0, m0, down);
    a1 = select (t1, m1, down);
    b0 = select (m0, u0, down);
    b1 = select (m1, u1, down);
  } else {
    const int16 xa = clamp (x0, 0, w - 1), xb = clamp (x0 + 1, 0, w - 1);
    const int16 ra = clamp (y0, 0, h - 1) * w;
    const int16 rb = clamp (y0 + 1, 0, h - 1) * w;
    a0 = GATHER16 (img, ra + xa);
    a1 = GATHER16 (img, ra + xb);
    b0 = GATHER16 (img, rb + xa);
    b1 = GATHER16 (img, rb + xb);
  }
  const float16 t = mad (ax, a1 - a0, a0);
  const float16 b = mad (ax, b1 - b0, b0);
  return mad (ay, b - t, t);
}

/* of_gradient for the 16 pixels of rows @r0, @r1, @r2 (reflected around
 * the middle one) from column @xs, each column clamped into the row. */
inline void
gradient16 (__global const float *r0, __global const float *r1,
    __global const float *r2, int w, int xs, float16 * gx, float16 * gy)
{
  float16 a0, a2, b0, b2, c0, c2;       /* rows 0, 1, 2 at x - 1 and x + 1 */
  float16 m0, m2;                       /* rows 0 and 2 at x */
  if (xs >= 1 && xs + 17 <= w) {
    a0 = LDG16 (r0 + xs - 1);
    a2 = LDG16 (r0 + xs + 1);
    b0 = LDG16 (r1 + xs - 1);
    b2 = LDG16 (r1 + xs + 1);
    c0 = LDG16 (r2 + xs - 1);
    c2 = LDG16 (r2 + xs + 1);
    m0 = LDG16 (r0 + xs);
    m2 = LDG16 (r2 + xs);
  } else {
    /* reflect-101 neighbours of the clamped column */
    const int16 x = clamp (xs + LANES16, 0, w - 1);
    const int16 xm = select ((int16) min (1, w - 1), x - 1, x >= 1);
    const int16 xp = select ((int16) max (w - 2, 0), x + 1, x + 1 < w);
    a0 = GATHER16 (r0, xm);
    a2 = GATHER16 (r0, xp);
    b0 = GATHER16 (r1, xm);
    b2 = GATHER16 (r1, xp);
    c0 = GATHER16 (r2, xm);
    c2 = GATHER16 (r2, xp);
    m0 = GATHER16 (r0, x);
    m2 = GATHER16 (r2, x);
  }
  *gx = (3.0f * (a2 - a0) + 10.0f * (b2 - b0) + 3.0f * (c2 - c0))
      * (1.0f / 32.0f);
  *gy = (3.0f * (c0 - a0) + 10.0f * (m2 - m0) + 3.0f * (c2 - a2))
      * (1.0f / 32.0f);
}

/* of_residual_buf for the 16 pixels of row @y from column @xs, each
 * column clamped into the frame (the window sums' clamp-to-edge). The
 * gradients are of_gradient's, from prev's rows @y - 1, @y, @y + 1
 * (@p0, @p1, @p2, reflected): three rows the band walks anyway cost less
 * than another plane of 8 bytes a pixel to read. */
inline void
residual16 (__global const float *p0, __global const float *p1,
    __global const float *p2, __global const float *next,
    __global const float *flow, int w, int h, int y, int xs, float16 * rx,
    float16 * ry)
{
  const int16 col = clamp (xs + LANES16, 0, w - 1);
  float16 fx, fy, gx, gy, p;
  gradient16 (p0, p1, p2, w, xs, &gx, &gy);
  if (xs >= 0 && xs + 16 <= w) {
    load_pairs16 (flow + 2 * (y * w + xs), &fx, &fy);
    p = LDG16 (p1 + xs);
  } else {
    gather_pairs16 (flow, y * w + col, &fx, &fy);
    p = GATHER16 (p1, col);
  }
  const float16 px = CVT_F16 (col) + fx, py = (float) y + fy;
  const int16 inside = px >= 0.0f && px <= (float) (w - 1) && py >= 0.0f
      && py <= (float) (h - 1);
  const float16 e = select ((float16) 0.0f,
      sample_bilinear16 (next, w, h, px, py) - p, inside);
  const float16 c = gx * fx + gy * fy - e;
  *rx = gx * c;
  *ry = gy * c;
}

/* One iteration (of_residual_buf, of_box_h, of_solve) over a band of
 * @band rows and OF_CW columns: reads @flow, writes @flow_out (the bands
 * read each other's rows of @flow, so it cannot be updated in place).
 * @tinv: of_prep_rows' three planes. */
__kernel void
of_iter_rows (__global const float *restrict prev,
    __global const float *restrict next, __global const float *restrict tinv,
    __global const float *restrict flow, int w, int h, float eps2, int first,
    int band, __global float *restrict flow_out,
    __global uchar * restrict conv)
{
  const int x0 = get_global_id (0) * OF_CW, y0 = get_global_id (1) * band;
  if (x0 >= w || y0 >= h)
    return;
  const int nv = min (OF_NV, (w - x0 + 15) / 16);
  const int nr = (16 * nv + 2 * RADIUS + 15) / 16;
  const int rows = min (band, h - y0);
  const int n = w * h;
  float16 res_x[OF_NR], res_y[OF_NR];   /* a row's residuals from x0 - R */
  float16 ring[KW][2][OF_NV];           /* their horizontal sums, x and y */

  for (int i = 0; i < rows + 2 * RADIUS; i++) {
    const int yi = clamp (y0 - RADIUS + i, 0, h - 1);
    __global const float *p0 = prev + reflect101 (yi - 1, h) * w;
    __global const float *p1 = prev + yi * w;
    __global const float *p2 = prev + reflect101 (yi + 1, h) * w;
    for (int v = 0; v < nr; v++)
      residual16 (p0, p1, p2, next, flow, w, h, yi, x0 - RADIUS + 16 * v,
          &res_x[v], &res_y[v]);
    for (int u = 0; u < nv; u++) {
      float16 sx = 0.0f, sy = 0.0f;
#define H_TAP(t) \
      sx += win[t] * WINDOW16 (res_x, u, t); \
      sy += win[t] * WINDOW16 (res_y, u, t);
      FOR_TAPS (H_TAP);
#undef H_TAP
      ring[i % KW][0][u] = sx;
      ring[i % KW][1][u] = sy;
    }
    if (i < 2 * RADIUS)
      continue;
    /* output row y: ring slots of input rows y - RADIUS .. y + RADIUS */
    const int y = y0 + i - 2 * RADIUS;
    const float16 *slot[KW];
    for (int t = 0; t < KW; t++)
      slot[t] = &ring[(i + 1 + t) % KW][0][0];
    for (int u = 0; u < nv; u++) {
      float16 bx = 0.0f, by = 0.0f;
#define V_TAP(t) \
      bx += win[t] * slot[t][u]; \
      by += win[t] * slot[t][OF_NV + u];
      FOR_TAPS (V_TAP);
#undef V_TAP
      const int xs = x0 + 16 * u;
      const bool full = xs + 16 <= w;
      const int i0 = y * w + xs;
      float16 fx, fy, ta, tb, tc;
      uchar16 cv;
      if (full) {
        load_pairs16 (flow + 2 * i0, &fx, &fy);
        ta = LDG16 (tinv + i0);
        tb = LDG16 (tinv + n + i0);
        tc = LDG16 (tinv + 2 * n + i0);
        cv = LOADU16_G (conv + i0);
      } else {
        const int16 idx = y * w + min (xs + LANES16, w - 1);
        gather_pairs16 (flow, idx, &fx, &fy);
        ta = GATHER16 (tinv, idx);
        tb = GATHER16 (tinv, n + idx);
        tc = GATHER16 (tinv, 2 * n + idx);
        for (int l = 0; l < 16; l++)
          cv[l] = conv[idx[l]];
      }
      const float16 nx = ta * bx + tb * by, ny = tb * bx + tc * by;
      const float16 dx = nx - fx, dy = ny - fy;
      const int16 done = first ? (int16) 0 : CVT_I16 (cv) != 0;
      const int16 moved = dx * dx + dy * dy < eps2;
      const float16 ox = select (nx, fx, done), oy = select (ny, fy, done);
      const uchar16 oc = CVT_UC16 (-(done | moved));
      if (full) {
        store_pairs16 (flow_out + 2 * i0, ox, oy);
        STOREU16_G (oc, conv + i0);
      } else {
        for (int l = 0; l < w - xs; l++) {
          flow_out[2 * (i0 + l)] = ox[l];
          flow_out[2 * (i0 + l) + 1] = oy[l];
          conv[i0 + l] = oc[l];
        }
      }
    }
  }
}

/* of_gradient, of_tensor_h and of_tensor_v over a band of @band rows and
 * OF_TCW columns of level plane @src: the inverse tensors as three planes
 * (a, b, c of [a b; b c]) of w x h floats into @tinv. The gradients stay
 * private: of_iter_rows derives them again. */
__kernel void
of_prep_rows (__global const float *restrict src, int w, int h, float reg,
    int band, __global float *restrict tinv)
{
  const int x0 = get_global_id (0) * OF_TCW, y0 = get_global_id (1) * band;
  if (x0 >= w || y0 >= h)
    return;
  const int nv = min (OF_TNV, (w - x0 + 15) / 16);
  const int nr = (16 * nv + 2 * RADIUS + 15) / 16;
  const int rows = min (band, h - y0);
  const int n = w * h;
  float16 pa[OF_TNR], pb[OF_TNR], pc[OF_TNR];   /* gx^2, gx gy, gy^2 */
  float16 ring[KW][3][OF_TNV];          /* their horizontal sums */

  for (int i = 0; i < rows + 2 * RADIUS; i++) {
    const int yi = clamp (y0 - RADIUS + i, 0, h - 1);
    __global const float *r0 = src + reflect101 (yi - 1, h) * w;
    __global const float *r1 = src + yi * w;
    __global const float *r2 = src + reflect101 (yi + 1, h) * w;
    for (int v = 0; v < nr; v++) {
      float16 gx, gy;
      gradient16 (r0, r1, r2, w, x0 - RADIUS + 16 * v, &gx, &gy);
      pa[v] = gx * gx;
      pb[v] = gx * gy;
      pc[v] = gy * gy;
    }
    for (int u = 0; u < nv; u++) {
      float16 sa = 0.0f, sb = 0.0f, sc = 0.0f;
#define T_TAP(t) \
      sa += win[t] * WINDOW16 (pa, u, t); \
      sb += win[t] * WINDOW16 (pb, u, t); \
      sc += win[t] * WINDOW16 (pc, u, t);
      FOR_TAPS (T_TAP);
#undef T_TAP
      ring[i % KW][0][u] = sa;
      ring[i % KW][1][u] = sb;
      ring[i % KW][2][u] = sc;
    }
    if (i < 2 * RADIUS)
      continue;
    const int y = y0 + i - 2 * RADIUS;
    const float16 *slot[KW];
    for (int t = 0; t < KW; t++)
      slot[t] = &ring[(i + 1 + t) % KW][0][0];
    for (int u = 0; u < nv; u++) {
      float16 a = 0.0f, b = 0.0f, c = 0.0f;
#define V_TAP(t) \
      a += win[t] * slot[t][u]; \
      b += win[t] * slot[t][OF_TNV + u]; \
      c += win[t] * slot[t][2 * OF_TNV + u];
      FOR_TAPS (V_TAP);
#undef V_TAP
      a += reg;
      c += reg;
      const float16 inv = 1.0f / (a * c - b * b);
      const float16 ia = c * inv, ib = -b * inv, ic = a * inv;
      const int xs = x0 + 16 * u;
      __global float *o = tinv + y * w + xs;
      if (xs + 16 <= w) {
        STG16 (ia, o);
        STG16 (ib, o + n);
        STG16 (ic, o + 2 * n);
      } else {
        for (int l = 0; l < w - xs; l++) {
          o[l] = ia[l];
          o[n + l] = ib[l];
          o[2 * n + l] = ic[l];
        }
      }
    }
  }
}

/* of_pyrdown over a band of @band output rows and 16 * OF_NV output
 * columns: each output row from its five input rows, the even and odd
 * input columns of a vector's taps by shuffles of three loads. */
__kernel void
of_pyrdown_rows (__global const float *restrict src, int w, int h,
    __global float *restrict dst, int dw, int dh, int band)
{
  const int x0 = get_global_id (0) * 16 * OF_NV;
  const int y0 = get_global_id (1) * band;
  if (x0 >= dw || y0 >= dh)
    return;
  const int nv = min (OF_NV, (dw - x0 + 15) / 16);
  const int y1 = min (y0 + band, dh);

  for (int y = y0; y < y1; y++) {
    for (int u = 0; u < nv; u++) {
      const int xs = x0 + 16 * u, b = 2 * xs - 2;
      float16 acc = 0.0f;
      for (int j = 0; j < 5; j++) {
        __global const float *row = src + reflect101 (2 * y + j - 2, h) * w;
        float16 e0, o0, e1, o1, e2;     /* taps 0..4: columns 2x - 2 .. 2x + 2 */
        if (b >= 0 && b + 36 <= w) {
          const float16 a0 = LDG16 (row + b), c0 = LDG16 (row + b + 16);
          const float16 a1 = LDG16 (row + b + 2), c1 = LDG16 (row + b + 18);
          const float16 a2 = LDG16 (row + b + 4), c2 = LDG16 (row + b + 20);
          e0 = (float16) (a0.even, c0.even);
          o0 = (float16) (a0.odd, c0.odd);
          e1 = (float16) (a1.even, c1.even);
          o1 = (float16) (a1.odd, c1.odd);
          e2 = (float16) (a2.even, c2.even);
        } else {
          for (int l = 0; l < 16; l++) {
            const int c = b + 2 * l;
            e0[l] = row[reflect101 (c, w)];
            o0[l] = row[reflect101 (c + 1, w)];
            e1[l] = row[reflect101 (c + 2, w)];
            o1[l] = row[reflect101 (c + 3, w)];
            e2[l] = row[reflect101 (c + 4, w)];
          }
        }
        float16 r = 0.0f;
        r += 1.0f * e0;
        r += 4.0f * o0;
        r += 6.0f * e1;
        r += 4.0f * o1;
        r += 1.0f * e2;
        acc += (j == 2 ? 6.0f : j & 1 ? 4.0f : 1.0f) * r;
      }
      acc *= 1.0f / 256.0f;
      __global float *o = dst + y * dw + xs;
      if (xs + 16 <= dw) {
        STG16 (acc, o);
      } else {
        for (int l = 0; l < dw - xs; l++)
          o[l] = acc[l];
      }
    }
  }
}

/* of_upsample over a band of @band fine rows and 16 * OF_NV fine columns:
 * even columns take a coarse value, odd ones the mean of two (ax is 0 or
 * 1/2, and so is ay). */
__kernel void
of_upsample_rows (__global const float *restrict coarse, int cw, int ch,
    __global float *restrict fine, int w, int h, int band)
{
  const int x0 = get_global_id (0) * 16 * OF_NV;
  const int y0 = get_global_id (1) * band;
  if (x0 >= w || y0 >= h)
    return;
  const int nv = min (OF_NV, (w - x0 + 15) / 16);
  const int y1 = min (y0 + band, h);

  for (int y = y0; y < y1; y++) {
    const float ay = (y & 1) ? 0.5f : 0.0f;
    __global const float *c0 = coarse + 2 * clamp (y >> 1, 0, ch - 1) * cw;
    __global const float *c1 = coarse + 2 * clamp ((y >> 1) + 1, 0, ch - 1)
        * cw;
    for (int u = 0; u < nv; u++) {
      const int xs = x0 + 16 * u, k = xs >> 1;
      __global float *o = fine + 2 * (y * w + xs);
      if (xs + 16 <= w && k + 9 <= cw) {
        /* 8 coarse pairs from k and from k + 1, interleaved (x, y) */
        const float16 ta = LDG16 (c0 + 2 * k), tb = LDG16 (c0 + 2 * k + 2);
        const float16 ba = LDG16 (c1 + 2 * k), bb = LDG16 (c1 + 2 * k + 2);
        const float16 tm = ta + 0.5f * (tb - ta), bm = ba + 0.5f * (bb - ba);
        const float16 t_lo = (float16) (ta.s01, tm.s01, ta.s23, tm.s23,
            ta.s45, tm.s45, ta.s67, tm.s67);
        const float16 t_hi = (float16) (ta.s89, tm.s89, ta.sab, tm.sab,
            ta.scd, tm.scd, ta.sef, tm.sef);
        const float16 b_lo = (float16) (ba.s01, bm.s01, ba.s23, bm.s23,
            ba.s45, bm.s45, ba.s67, bm.s67);
        const float16 b_hi = (float16) (ba.s89, bm.s89, ba.sab, bm.sab,
            ba.scd, bm.scd, ba.sef, bm.sef);
        STG16 (2.0f * (t_lo + ay * (b_lo - t_lo)), o);
        STG16 (2.0f * (t_hi + ay * (b_hi - t_hi)), o + 16);
      } else {
        for (int l = 0; l < min (16, w - xs); l++) {
          const int x = xs + l, xa = clamp (x >> 1, 0, cw - 1);
          const int xb = clamp ((x >> 1) + 1, 0, cw - 1);
          const float ax = (x & 1) ? 0.5f : 0.0f;
          const float2 ta = vload2 (xa, c0), tb = vload2 (xb, c0);
          const float2 ba = vload2 (xa, c1), bb = vload2 (xb, c1);
          const float2 t = ta + ax * (tb - ta), bt = ba + ax * (bb - ba);
          vstore2 (2.0f * (t + ay * (bt - t)), l, o);
        }
      }
    }
  }
}

#endif /* OF_ROWS */
