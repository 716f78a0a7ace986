/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sobel / Scharr edges of the luma of 8-bit frames, reflect-101 border, as
 * cv2.Sobel (ddepth CV_32F) and cv2.Scharr compute gx and gy (correlation
 * with the separable taps of cv2.getDerivKernels), then
 *   MODE 0: v = sqrt (gx^2 + gy^2), MODE 1: v = |gx|, MODE 2: v = |gy|
 *   out = sat (rint (v * SCALE + DELTA)), and with THRESH > 0:
 *   out = out >= THRESH ? 255 : 0.
 * gx and gy are sums of integers below 2^24: exact in float.
 *
 * Build options (all required):
 *   -DK=n              taps per axis (3, 5 or 7)
 *   -DSM=s0,s1,...     K smoothing taps, float literals (symmetric)
 *   -DDV=d0,d1,...     K derivative taps (antisymmetric)
 *   -DMODE=m -DSCALE=f -DDELTA=f -DTHRESH=t   as above
 *   -DBAND_H=n         rows per work-item of the bands kernels
 *   -DTILED=0|1        which kernels the program holds: bands or tiled
 *   -DVFIRST=0|1       with TILED=1: the order of the passes (see below)
 *
 * Input kinds: _y (one byte per pixel: GRAY8, the Y plane of NV12/I420),
 * _rgb (4 bytes, R G B first: RGBA, RGBx), _bgr (BGRA, BGRx); the luma of
 * RGB is cv2.cvtColor's (OpenCV 4) (9798 R + 19235 G + 3735 B + 2^14) >> 15,
 * exact.
 * Output kinds: _o1 (one byte per pixel) and _o4 (v, v, v, 255).
 *
 * Kernels, same arguments:
 *   sobel_bands_IN_OUT  16 pixels x BAND_H rows per work-item in float16
 *                       registers; for CPU devices (PoCL vectorises the
 *                       explicit vector types, never loops in a work-item).
 *                       global = (ceil(width / 16), ceil(height / BAND_H))
 *   sobel_tiled_IN_OUT  for GPUs, each work-item 4 pixels of TH / WG_Y
 *                       rows (-DWG_X, -DWG_Y, -DTH: the group and tile).
 *                       -DVFIRST=1 (sobel_vtiled): items sum their columns
 *                       down from global memory, then across with their
 *                       neighbours' edge sums (local memory, or warp
 *                       shuffles with -DWARP_XCHG=1: common.cl); a tile is
 *                       4 * (WG_X - 2) pixels wide.
 *                       -DVFIRST=0 (sobel_tiled): the luma of the tile plus
 *                       halo is staged in local memory (RGB converted once
 *                       per pixel); a tile is 4 * WG_X pixels wide.
 *                       global = (ceil(width / tile width) * WG_X,
 *                                 ceil(height / TH) * WG_Y)
 *   fill_plane          writes @value to width_bytes bytes of every row
 *                       (neutral chroma). global = (ceil(wb / 16), height)
 */

#define R (K / 2)
#define IN_Y 0
#define IN_RGB 1
#define IN_BGR 2

__constant float sm[K] = { SM };
__constant float dv[K] = { DV };

/* reflect101 (), row_reach (), reflect_row (), rows_aligned4 () and UNROLL
 * come from common.cl. */

inline uchar
luma_px (const int in_kind, __global const uchar * row, int x)
{
  if (in_kind == IN_Y)
    return row[x];
  const uchar4 p = vload4 (x, row);
  const int r = in_kind == IN_RGB ? p.s0 : p.s2;
  const int b = in_kind == IN_RGB ? p.s2 : p.s0;
  return (uchar) ((r * 9798 + p.s1 * 19235 + b * 3735 + (1 << 14)) >> 15);
}

/* Luma of the 16 pixels from pixel x of @row. */
inline uchar16
luma16 (const int in_kind, __global const uchar * row, int x)
{
  if (in_kind == IN_Y)
    return LOADU16_G (row + x);
  __global const uchar *p = row + 4 * x;
  const uchar16 a = LOADU16_G (p), b = LOADU16_G (p + 16),
      c = LOADU16_G (p + 32), d = LOADU16_G (p + 48);
  const int16 c0 = convert_int16 ((uchar16) (a.s048c, b.s048c, c.s048c,
          d.s048c));
  const int16 c1 = convert_int16 ((uchar16) (a.s159d, b.s159d, c.s159d,
          d.s159d));
  const int16 c2 = convert_int16 ((uchar16) (a.s26ae, b.s26ae, c.s26ae,
          d.s26ae));
  const int16 r = in_kind == IN_RGB ? c0 : c2;
  const int16 bl = in_kind == IN_RGB ? c2 : c0;
  return convert_uchar16 ((r * 9798 + c1 * 19235 + bl * 3735 + (1 << 14))
      >> 15);
}

#define SOBEL_ARGS \
    __global const uchar * restrict src, uint src_off, int src_stride, \
    __global uchar * restrict dst, uint dst_off, int dst_stride, \
    int width, int height
#define SOBEL_PASS src, src_off, src_stride, dst, dst_off, dst_stride, width, height

#if MODE == 0
#define NEED_X 1
#define NEED_Y 1
#elif MODE == 1
#define NEED_X 1
#define NEED_Y 0
#else
#define NEED_X 0
#define NEED_Y 1
#endif

/* v * SCALE + DELTA; no add when DELTA is 0 (IEEE keeps x + 0.0f, as x
 * may be -0), no multiply when SCALE is 1 */
#define SCALED(v) (DELTA == 0.0f ? (v) * SCALE : (v) * SCALE + DELTA)
/* the output value before rounding, the magnitude's root by @root */
#define FINISH_BY(gx, gy, root) \
    SCALED (MODE == 0 ? root (gx * gx + gy * gy) : MODE == 1 ? fabs (gx) : \
        fabs (gy))
#define FINISH(gx, gy) FINISH_BY (gx, gy, sqrt)

/* The K taps of the smoothing (symmetric) and the derivative
 * (antisymmetric, its middle tap 0) applied to @v[0 .. K-1], each sum
 * started from its first term. Sums started from 0.0f kept every add of 0
 * and every multiply by the middle 0 (IEEE: x + 0 is not x for x = -0, nor
 * x * 0 zero for infinities): NVIDIA's compiler emitted twice the float
 * work of the GPU tile (docs/PERFORMANCE.md, session 14). The sums are of
 * integers: exact in any order. */
inline float4
smooth_taps (const float4 * v)
{
  /* the middle tap last, by fma: x * 2 + y became x + x + y */
  float4 s = sm[0] * (v[0] + v[K - 1]);
UNROLL
  for (int j = 1; j < R; j++)
    s = fma ((float4) sm[j], v[j] + v[K - 1 - j], s);
  return fma ((float4) sm[R], v[R], s);
}

inline float4
deriv_taps (const float4 * v)
{
  float4 d = dv[K - 1] * (v[K - 1] - v[0]);
UNROLL
  for (int j = 1; j < R; j++)
    d += dv[K - 1 - j] * (v[K - 1 - j] - v[j]);
  return d;
}

/* ---- bands: for CPUs ------------------------------------------------------ */

/* Lane t of tap J's window (pixel xp - R + J + t): from lo (pixels
 * xp - R ..) while J + t < 16, else from hi (pixels xp + R ..). The
 * indices must be constants, hence a macro per tap. */
#define TAP_LANE(J, t) ((J) + (t) < 16 ? (J) + (t) : 16 + (J) + (t) - 2 * R)
#define TAP_WINDOW(lo, hi, J) __builtin_shufflevector (lo, hi, \
    TAP_LANE (J, 0), TAP_LANE (J, 1), TAP_LANE (J, 2), TAP_LANE (J, 3), \
    TAP_LANE (J, 4), TAP_LANE (J, 5), TAP_LANE (J, 6), TAP_LANE (J, 7), \
    TAP_LANE (J, 8), TAP_LANE (J, 9), TAP_LANE (J, 10), TAP_LANE (J, 11), \
    TAP_LANE (J, 12), TAP_LANE (J, 13), TAP_LANE (J, 14), TAP_LANE (J, 15))

inline void
sobel_bands (const int in_kind, const int out_kind, SOBEL_ARGS)
{
  const int xp = get_global_id (0) * 16;
  const int y0 = get_global_id (1) * BAND_H;
  if (xp >= width || y0 >= height)
    return;
  /* Edge work-items gather reflected pixels; the rest load in place. */
  const bool inside = xp - R >= 0 && xp + 16 + R <= width;
  float16 gx[BAND_H], gy[BAND_H];

#pragma unroll
  for (int r = 0; r < BAND_H; r++)
    gx[r] = gy[r] = 0.0f;

#pragma unroll
  for (int i = 0; i < BAND_H + 2 * R; i++) {
    __global const uchar *row =
        src + src_off + reflect101 (y0 - R + i, height) * src_stride;
    /* The row's luma from pixel xp - R (lo) and from xp + R (hi) cover the
     * 16 + 2R pixels the taps read; each tap's 16 are a shuffle of the two
     * (a byte copy through private memory instead, read back at every
     * offset, stalled each load on store forwarding: 3-4x slower). */
    float16 lo, hi;
    if (inside) {
      lo = convert_float16 (luma16 (in_kind, row, xp - R));
      hi = convert_float16 (luma16 (in_kind, row, xp + R));
    } else {
      uchar span[16 + 2 * R];
      for (int q = 0; q < 16 + 2 * R; q++)
        span[q] = luma_px (in_kind, row, reflect101 (xp - R + q, width));
      lo = convert_float16 (vload16 (0, span));
      hi = convert_float16 (vload16 (0, span + 2 * R));
    }
    float16 l[K];
    l[0] = TAP_WINDOW (lo, hi, 0);
    l[1] = TAP_WINDOW (lo, hi, 1);
    l[2] = TAP_WINDOW (lo, hi, 2);
#if K > 3
    l[3] = TAP_WINDOW (lo, hi, 3);
    l[4] = TAP_WINDOW (lo, hi, 4);
#endif
#if K > 5
    l[5] = TAP_WINDOW (lo, hi, 5);
    l[6] = TAP_WINDOW (lo, hi, 6);
#endif
    float16 s = sm[R] * l[R], d = 0.0f;
#pragma unroll
    for (int j = 0; j < R; j++) {
      s += sm[j] * (l[j] + l[K - 1 - j]);
      d += dv[K - 1 - j] * (l[K - 1 - j] - l[j]);
    }
#pragma unroll
    for (int r = 0; r < BAND_H; r++) {
      const int k = i - r;
      if (k >= 0 && k < K) {
        if (NEED_X)
          gx[r] += sm[k] * d;
        if (NEED_Y)
          gy[r] += dv[k] * s;
      }
    }
  }

#pragma unroll
  for (int r = 0; r < BAND_H; r++) {
    if (y0 + r >= height)
      break;
    /* convert_uchar16_sat_rte spelt out, as PoCL's (and its rint) are
     * generic code with NaN tests and masked moves: adding 2^23 to a value
     * in 0..255 rounds it to even and leaves it in the low mantissa bits.
     * FINISH is never NaN: the element bounds scale and delta. */
    uchar16 out = convert_uchar16 (as_int16 (clamp (FINISH (gx[r], gy[r]),
                0.0f, 255.0f) + 0x1.0p23f));
    if (THRESH > 0)
      out = select ((uchar16) 0, (uchar16) 255, out >= (uchar16) THRESH);
    const int n = min (16, width - xp);
    if (out_kind == 1) {
      __global uchar *o = dst + dst_off + (y0 + r) * dst_stride + xp;
      if (n == 16) {
        STOREU16_G (out, o);
      } else {
        uchar tmp[16];
        vstore16 (out, 0, tmp);
        for (int q = 0; q < n; q++)
          o[q] = tmp[q];
      }
    } else {
      __global uchar *o = dst + dst_off + (y0 + r) * dst_stride + 4 * xp;
      const uint16 w = convert_uint16 (out) * 0x010101u + 0xff000000u;
      if (n == 16) {
        STOREU16_G (as_uchar16 (w.s0123), o);
        STOREU16_G (as_uchar16 (w.s4567), o + 16);
        STOREU16_G (as_uchar16 (w.s89ab), o + 32);
        STOREU16_G (as_uchar16 (w.scdef), o + 48);
      } else {
        uint tmp[16];
        vstore16 (w, 0, tmp);
        for (int q = 0; q < n; q++)
          vstore4 (as_uchar4 (tmp[q]), q, o);
      }
    }
  }
}

/* FINISH of the tiled kernels' four pixels. On NVIDIA the square root is
 * sqrt.approx.ftz.f32: sqrt () compiles to the form that keeps denormals,
 * which costs more (docs/PERFORMANCE.md, session 16). n is a sum of
 * squares of integers, never denormal, so both give the same. */
#if NV_PTX
inline float
sqrt_ftz (float n)
{
  float r;
  asm ("sqrt.approx.ftz.f32 %0, %1;" : "=f" (r) : "f" (n));
  return r;
}

inline float4
sqrt4_ftz (float4 n)
{
  return (float4) (sqrt_ftz (n.x), sqrt_ftz (n.y), sqrt_ftz (n.z),
      sqrt_ftz (n.w));
}
#endif

inline float4
finish4 (float4 gx, float4 gy)
{
#if NV_PTX
  return FINISH_BY (gx, gy, sqrt4_ftz);
#else
  return FINISH (gx, gy);
#endif
}

/* -DPACK_U16=1, from the host where 0 <= @v < 65536 whatever the input
 * (NVIDIA's default): the four output bytes without cvt.rni.sat.u8.f32,
 * which runs on the quarter-rate conversion unit and cost 9% of clsobel's
 * 4K time (docs/PERFORMANCE.md, session 16). v + 2^23 rounds v to an
 * integer, half to even as convert_uchar_sat_rte, in the low bits of its
 * word. One permute puts two words' low halves side by side, min.u16x2
 * clamps both to 255, and one more permute packs the four bytes. */
#ifndef PACK_U16
#define PACK_U16 0
#endif
inline uchar4
bytes_u16 (float4 v)
{
  const uint4 b = as_uint4 (v + 8388608.0f);
  return as_uchar4 (byte_perm (min_u16x2 (byte_perm (b.x, b.y, 0x5410),
              0x00ff00ffu), min_u16x2 (byte_perm (b.z, b.w, 0x5410),
              0x00ff00ffu), 0x6420));
}

/* Finishes gx, gy of pixels x .. x + 3 and stores those inside the row
 * @o as @out_kind (1: one byte, 4: v, v, v, 255). @aligned: the rows
 * start on 4-byte boundaries (x is a multiple of 4). */
inline void
sobel_store4 (const int out_kind, float4 gx, float4 gy, __global uchar * o,
    int x, int width, const bool aligned)
{
  const float4 v = finish4 (gx, gy);
  uchar4 out = PACK_U16 ? bytes_u16 (v) : convert_uchar4_sat_rte (v);
  if (THRESH > 0)
    out = select ((uchar4) 0, (uchar4) 255, out >= (uchar4) THRESH);
  const int n = min (4, width - x);
  /* the last pixels of a row by component, not through a private array,
   * which the compiler stored for every row before testing n */
  if (out_kind == 1) {
    o += x;
    if (n == 4 && aligned) {
      *(__global uint *) o = as_uint (out);
    } else if (n == 4) {
      vstore4 (out, 0, o);
    } else {
      o[0] = out.s0;
      if (n > 1)
        o[1] = out.s1;
      if (n > 2)
        o[2] = out.s2;
    }
  } else {
    o += 4 * x;
    const uint4 w = convert_uint4 (out) * 0x010101u + 0xff000000u;
    if (n == 4) {
      vstore16 (as_uchar16 (w), 0, o);
    } else {
      vstore4 (as_uchar4 (w.s0), 0, o);
      if (n > 1)
        vstore4 (as_uchar4 (w.s1), 1, o);
      if (n > 2)
        vstore4 (as_uchar4 (w.s2), 2, o);
    }
  }
}

/* ---- tiled: for GPUs --------------------------------------------------- */

/* Work-group WG_X x WG_Y (default 16x16), each item 4 pixels of a row, a
 * tile TH rows tall (default 16; the items loop over the rows when TH >
 * WG_Y): a tuning knob, GST_CL_SOBEL_TILE. */
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif
#ifndef TH
#define TH 16
#endif
#define TW (4 * WG_X)           /* pixels per tile row */
#define TCOLS (TW + 2 * R)
#define TROWS (TH + 2 * R)

inline void
sobel_tiled (const int in_kind, const int out_kind, __local uchar * tile,
    SOBEL_ARGS)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int gx0 = get_group_id (0) * TW, gy0 = get_group_id (1) * TH;
  const int li = ly * WG_X + lx;

  /* Luma of tile + halo, each pixel converted once. */
  for (int e = li; e < TROWS * TCOLS; e += WG_X * WG_Y) {
    const int tr = e / TCOLS, tc = e - tr * TCOLS;
    __global const uchar *row = src + src_off +
        reflect101 (gy0 + tr - R, height) * src_stride;
    tile[e] = luma_px (in_kind, row, reflect101 (gx0 + tc - R, width));
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  const int x = gx0 + 4 * lx;
  if (x >= width)
    return;
  const bool out_aligned = rows_aligned4 (dst + dst_off, dst_stride);
  for (int r = ly; r < TH; r += WG_Y) {
    const int y = gy0 + r;
    if (y >= height)
      return;
    /* each tile row across, then those sums down */
    float4 s[K], d[K], gx = 0.0f, gy = 0.0f;
  #pragma unroll
    for (int k = 0; k < K; k++) {
      __local const uchar *t = tile + (r + k) * TCOLS + 4 * lx;
      float4 l[K];
  #pragma unroll
      for (int j = 0; j < K; j++)
        l[j] = convert_float4 (vload4 (0, t + j));
      s[k] = smooth_taps (l);
      d[k] = deriv_taps (l);
    }
    if (NEED_X)
      gx = smooth_taps (d);
    if (NEED_Y)
      gy = deriv_taps (s);
    sobel_store4 (out_kind, gx, gy, dst + dst_off + y * dst_stride, x,
        width, out_aligned);
  }
}

/* ---- tiled, the vertical pass first (-DVFIRST=1) ---------------------- */

/* As blur_vtiled (blur.cl): each work-item owns 4 pixels of a tile row,
 * the halo columns included (one each side, R <= 3), and VROWS = TH / WG_Y
 * consecutive rows. It reads all its input rows first, sums them down
 * (smoothing and derivative, integers: exact in any order), takes the R
 * edge sums it needs from each neighbour and sums across. A tile writes
 * 4 * (WG_X - 2) pixels across (the host's tile width). */
#define VROWS (TH / WG_Y)

/* The vertical-first tile sums luma + LUMA_BIAS: a byte b becomes the
 * float 32768 + b by one byte permute (its bits 0x4700bb00), with no
 * conversion and no subtract. Every sum is of integers below 2^24, so
 * exact; the bias cancels in the derivative's differences (across, the
 * smoothed sums' differences; down, the inputs'), so gx and gy come out
 * as without it (docs/PERFORMANCE.md, session 15). */
#define LUMA_BIAS 32768.0f

inline float4
biased_bytes (uint w)
{
  return as_float4 ((uint4) (byte_perm (w, 0x47000000u, 0x7404),
          byte_perm (w, 0x47000000u, 0x7414),
          byte_perm (w, 0x47000000u, 0x7424),
          byte_perm (w, 0x47000000u, 0x7434)));
}

/* Luma of one RGB / BGR pixel read as a little-endian word (luma_px). */
inline float
luma_word (const int in_kind, uint w)
{
  const uint r = in_kind == IN_RGB ? w & 0xff : (w >> 16) & 0xff;
  const uint b = in_kind == IN_RGB ? (w >> 16) & 0xff : w & 0xff;
  return (float) ((r * 9798 + ((w >> 8) & 0xff) * 19235 + b * 3735 +
          (1 << 14)) >> 15);
}

/* Luma of pixels x .. x + 3 of @row. @words (a constant where the call is
 * to unroll apart): they lie inside the row, whose start is 4-byte aligned,
 * so one word (Y) or four (RGB) hold them; else each pixel is read alone,
 * reflected. */
inline float4
luma4 (const int in_kind, __global const uchar * row, int x, int width,
    const bool words)
{
  if (words && in_kind == IN_Y)
    return biased_bytes (*(__global const uint *) (row + x));
  if (words) {
    const uint4 p = vload4 (0, (__global const uint *) (row + 4 * x));
    return (float4) (luma_word (in_kind, p.s0), luma_word (in_kind, p.s1),
        luma_word (in_kind, p.s2), luma_word (in_kind, p.s3)) + LUMA_BIAS;
  }
  return (float4) (luma_px (in_kind, row, reflect101 (x, width)),
      luma_px (in_kind, row, reflect101 (x + 1, width)),
      luma_px (in_kind, row, reflect101 (x + 2, width)),
      luma_px (in_kind, row, reflect101 (x + 3, width))) + LUMA_BIAS;
}

/* The luma of one work-item's rows: every load before the first sum, with
 * no branch between them where @reach and @words allow. */
inline void
sobel_vload (const int in_kind, const int reach, const bool words,
    float4 * in, __global const uchar * plane, int stride, int x, int y0,
    int width, int height)
{
  if (reach == ROWS_INSIDE) {
    /* a pointer stepped down the rows: one add a row, not a multiply and
     * 64-bit adds */
    __global const uchar *row = plane + (y0 - R) * stride;
UNROLL
    for (int i = 0; i < VROWS + K - 1; i++, row += stride)
      in[i] = luma4 (in_kind, row, x, width, words);
    return;
  }
UNROLL
  for (int i = 0; i < VROWS + K - 1; i++) {
    in[i] = luma4 (in_kind, plane +
        reflect_row (y0 + i - R, height, reach) * stride, x, width, words);
  }
}

/* The R sums an item needs from each side of its row's sums (@v its own):
 * @l the left neighbour's last R components, @r the right one's first R.
 * By warp shuffles (WARP_XCHG), or through local memory @p, one plane
 * per component (whole float4s, read at a 16-byte stride, were up to 12%
 * slower: docs/PERFORMANCE.md, session 11): every item stores its own
 * edges at @at, then after a barrier loads its neighbours'. */
#if WARP_XCHG
inline void
edges_by_shfl (float4 v, float *l, float *r)
{
UNROLL
  for (int q = 0; q < R; q++) {
    l[q] = shfl_up (comp4 (v, 4 - R + q), 1);
    r[q] = shfl_down (comp4 (v, q), 1);
  }
}
#else
inline void
edges_store (float4 v, __local float (*p)[TH * WG_X], int at)
{
UNROLL
  for (int q = 0; q < R; q++) {
    p[q][at] = comp4 (v, q);
    p[R + q][at] = comp4 (v, 4 - R + q);
  }
}

inline void
edges_load (__local float (*p)[TH * WG_X], int at, float *l, float *r)
{
UNROLL
  for (int q = 0; q < R; q++) {
    l[q] = p[R + q][at - 1];
    r[q] = p[q][at + 1];
  }
}
#endif

/* The sums tap j of pixel q reads, w[q + j]: @l, then @v, then @r (pixel
 * q of this item's four is w[R + q], tap j reads it at j - R). */
inline void
edge_window (float4 v, const float *l, const float *r, float *w)
{
UNROLL
  for (int q = 0; q < R; q++) {
    w[q] = l[q];
    w[4 + R + q] = r[q];
  }
  vstore4 (v, 0, w + R);
}

inline void
sobel_vtiled (const int in_kind, const int out_kind,
    __local float (*vs)[TH * WG_X], __local float (*vd)[TH * WG_X],
    SOBEL_ARGS)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int x = 4 * (get_group_id (0) * (WG_X - 2) + lx - 1);
  const int y0 = get_group_id (1) * TH + ly * VROWS;
  __global const uchar *plane = src + src_off;
  const bool words = x >= 0 && x + 4 <= width &&
      rows_aligned4 (plane, src_stride);
  const int reach = row_reach (y0 - R, y0 + VROWS - 1 + R, height);
  float4 in[VROWS + K - 1], s[VROWS], d[VROWS];

  /* branches on nearly uniform values, each call unrolled apart, so that
   * the loads of the inner items have no branch between them */
  if (reach == ROWS_INSIDE && words)
    sobel_vload (in_kind, ROWS_INSIDE, true, in, plane, src_stride, x, y0,
        width, height);
  else if (reach != ROWS_ANY && words)
    sobel_vload (in_kind, ROWS_NEAR, true, in, plane, src_stride, x, y0,
        width, height);
  else
    sobel_vload (in_kind, ROWS_ANY, false, in, plane, src_stride, x, y0,
        width, height);
UNROLL
  for (int r = 0; r < VROWS; r++) {
    s[r] = NEED_X ? smooth_taps (in + r) : (float4) 0.0f;
    d[r] = NEED_Y ? deriv_taps (in + r) : (float4) 0.0f;
  }
  /* Across, an item needs R sums from each neighbour (its own four stay
   * in registers): sl/dl the left one's last R components, sr/dr the right
   * one's first R. */
  float sl[VROWS][R], sr[VROWS][R], dl[VROWS][R], dr[VROWS][R];
#if WARP_XCHG
UNROLL
  for (int r = 0; r < VROWS; r++) {
    if (NEED_X)
      edges_by_shfl (s[r], sl[r], sr[r]);
    if (NEED_Y)
      edges_by_shfl (d[r], dl[r], dr[r]);
  }
  if (lx == 0 || lx == WG_X - 1 || x >= width)
    return;
#else
UNROLL
  for (int r = 0; r < VROWS; r++) {
    const int at = (ly * VROWS + r) * WG_X + lx;
    if (NEED_X)
      edges_store (s[r], vs, at);
    if (NEED_Y)
      edges_store (d[r], vd, at);
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  if (lx == 0 || lx == WG_X - 1 || x >= width)
    return;
UNROLL
  for (int r = 0; r < VROWS; r++) {
    const int at = (ly * VROWS + r) * WG_X + lx;
    if (NEED_X)
      edges_load (vs, at, sl[r], sr[r]);
    if (NEED_Y)
      edges_load (vd, at, dl[r], dr[r]);
  }
#endif
  /* the output row by a pointer stepped down, its alignment tested once */
  const bool out_aligned = rows_aligned4 (dst + dst_off, dst_stride);
  __global uchar *o = dst + dst_off + y0 * dst_stride;
UNROLL
  for (int r = 0; r < VROWS; r++, o += dst_stride) {
    const int y = y0 + r;
    if (y >= height)
      return;
    float a[4 + 2 * R], b[4 + 2 * R];
    float4 ta[K], tb[K], gx = 0.0f, gy = 0.0f;
    if (NEED_X)
      edge_window (s[r], sl[r], sr[r], a);
    if (NEED_Y)
      edge_window (d[r], dl[r], dr[r], b);
UNROLL
    for (int j = 0; j < K; j++) {
      ta[j] = NEED_X ? vload4 (0, a + j) : (float4) 0.0f;
      tb[j] = NEED_Y ? vload4 (0, b + j) : (float4) 0.0f;
    }
    if (NEED_X)
      gx = deriv_taps (ta);
    if (NEED_Y)
      gy = smooth_taps (tb);
    sobel_store4 (out_kind, gx, gy, o, x, width, out_aligned);
  }
}

/* One variant per program: PoCL compiles each kernel for a long time. */
#if TILED && VFIRST
#define DEFINE_SOBEL(name, ik, ok) \
__kernel __attribute__ ((reqd_work_group_size (WG_X, WG_Y, 1))) \
void sobel_tiled_##name (SOBEL_ARGS) \
{ \
  __local float vs[2 * R][TH * WG_X], vd[2 * R][TH * WG_X]; \
  sobel_vtiled (ik, ok, vs, vd, SOBEL_PASS); \
}
#elif TILED
#define DEFINE_SOBEL(name, ik, ok) \
__kernel __attribute__ ((reqd_work_group_size (WG_X, WG_Y, 1))) \
void sobel_tiled_##name (SOBEL_ARGS) \
{ \
  __local uchar tile[TROWS * TCOLS]; \
  sobel_tiled (ik, ok, tile, SOBEL_PASS); \
}
#else
#define DEFINE_SOBEL(name, ik, ok) \
__kernel void sobel_bands_##name (SOBEL_ARGS) \
{ sobel_bands (ik, ok, SOBEL_PASS); }
#endif

DEFINE_SOBEL (y_o1, IN_Y, 1)
DEFINE_SOBEL (y_o4, IN_Y, 4)
DEFINE_SOBEL (rgb_o1, IN_RGB, 1)
DEFINE_SOBEL (rgb_o4, IN_RGB, 4)
DEFINE_SOBEL (bgr_o1, IN_BGR, 1)
DEFINE_SOBEL (bgr_o4, IN_BGR, 4)

__kernel void
fill_plane (__global uchar * restrict dst, uint dst_off, int dst_stride,
    int width_bytes, int height, uchar value)
{
  const int xb = get_global_id (0) * 16, y = get_global_id (1);
  if (xb >= width_bytes || y >= height)
    return;
  __global uchar *o = dst + dst_off + y * dst_stride + xb;
  if (xb + 16 <= width_bytes) {
    vstore16 ((uchar16) value, 0, o);
  } else {
    for (int q = 0; q < width_bytes - xb; q++)
      o[q] = value;
  }
}
