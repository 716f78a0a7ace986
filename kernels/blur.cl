/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Separable Gaussian blur of 8-bit planes, reflect-101 border
 * (cv2.BORDER_REFLECT_101). A plane is a byte array of width * cn bytes per
 * row; the cn interleaved channels are blurred independently.
 *
 * Build options (all required):
 *   -DKX=n -DKY=n         taps across / down (odd)
 *   -DWX=w0,w1,...        KX taps, float literals (symmetric)
 *   -DWY=w0,w1,...        KY taps
 *   -DTILE_H1, -DTILE_H2, -DTILE_H4   rows per work-group of the tiled
 *                         kernels for 1, 2 and 4 channels; 0 leaves that
 *                         kernel out (its tile would not fit local memory)
 *   -DWITH_ROWS=0|1 -DWITH_BANDS=0|1  which other kernels to compile (a
 *                         program holds only what its variant launches:
 *                         compiling is slow on CPU devices)
 *
 * Kernels, each for cn = 1, 2, 4 (suffix _c1, _c2, _c4), same arguments:
 *   blur_rows_cN   no local memory; each work-item writes 16 bytes of one
 *                  row; for CPU devices (and wide kernels on GPUs).
 *                  global = (ceil(width * cn / 16), height)
 *   blur_tiled_cN  a work-group (32x8) stages a tile in local memory and
 *                  writes 128 bytes x TILE_Hn rows; for GPUs.
 *                  global = (ceil(width * cn / 128) * 32,
 *                            ceil(height / TILE_Hn) * 8), local = (32, 8)
 *   blur_bands_cN  each work-item writes 16 bytes x 8 rows from register
 *                  accumulators; for CPU devices.
 *                  global = (ceil(width * cn / 16), ceil(height / 8))
 */

#define RX (KX / 2)
#define RY (KY / 2)
#define VW 16                   /* bytes per work-item, blur_rows */
#define TW 128                  /* bytes per tile row, blur_tiled */

__constant float wx[KX] = { WX };
__constant float wy[KY] = { WY };

/* reflect101 () and reflect_byte () come from common.cl. */

#define BLUR_ARGS \
    __global const uchar * restrict src, uint src_off, int src_stride, \
    __global uchar * restrict dst, uint dst_off, int dst_stride, \
    int width, int height
#define BLUR_PASS src, src_off, src_stride, dst, dst_off, dst_stride, width, height

inline void
store_bytes (__global uchar * d, const uchar * v, int n)
{
  for (int i = 0; i < n; i++)
    d[i] = v[i];
}

/* Rounds half up and saturates (the C reference's rounding), then stores
 * the first @n (up to 16) bytes at @d. */
inline void
store16 (float16 acc, __global uchar * d, int n)
{
  const uchar16 out = convert_uchar16 (clamp (acc, 0.0f, 255.0f) + 0.5f);
  if (n >= 16) {
    vstore16 (out, 0, d);
  } else {
    uchar tmp[16];
    vstore16 (out, 0, tmp);
    store_bytes (d, tmp, n);
  }
}

inline void
store4 (float4 acc, __global uchar * d, int n)
{
  const uchar4 out = convert_uchar4 (clamp (acc, 0.0f, 255.0f) + 0.5f);
  if (n >= 4 && ((size_t) d & 3) == 0) {
    *(__global uint *) d = as_uint (out);
  } else if (n >= 4) {
    vstore4 (out, 0, d);
  } else {
    uchar tmp[4];
    vstore4 (out, 0, tmp);
    store_bytes (d, tmp, n);
  }
}

/* ---- row-wise: vertical pass into a private segment, then across ----- */

#define SEG_VECS(cn) ((VW + 2 * RX * (cn) + 15) / 16)

inline void
blur_rows (const int cn, BLUR_ARGS)
{
  const int xb = get_global_id (0) * VW;
  const int y = get_global_id (1);
  const int wb = width * cn;
  if (xb >= wb || y >= height)
    return;

  const int rxb = RX * cn;
  const int x0 = xb - rxb;
  const int nv = SEG_VECS (cn);
  const bool inside = x0 >= 0 && x0 + nv * 16 <= wb;
  float16 seg[SEG_VECS (4)];

  for (int v = 0; v < nv; v++)
    seg[v] = 0.0f;
  for (int k = 0; k < KY; k++) {
    __global const uchar *row =
        src + src_off + reflect101 (y + k - RY, height) * src_stride;
    const float w = wy[k];
    if (inside) {
      for (int v = 0; v < nv; v++)
        seg[v] += w * convert_float16 (vload16 (0, row + x0 + 16 * v));
    } else {
      float *f = (float *) seg;
      for (int i = 0; i < nv * 16; i++)
        f[i] += w * row[reflect_byte (x0 + i, width, cn)];
    }
  }

  const float *f = (const float *) seg;
  float16 acc = wx[RX] * vload16 (0, f + rxb);
  for (int j = 0; j < RX; j++)
    acc += wx[j] * (vload16 (0, f + j * cn) + vload16 (0, f + (KX - 1 - j) * cn));

  store16 (acc, dst + dst_off + y * dst_stride + xb, wb - xb);
}

#if WITH_ROWS
__kernel void blur_rows_c1 (BLUR_ARGS) { blur_rows (1, BLUR_PASS); }
__kernel void blur_rows_c2 (BLUR_ARGS) { blur_rows (2, BLUR_PASS); }
__kernel void blur_rows_c4 (BLUR_ARGS) { blur_rows (4, BLUR_PASS); }
#endif

/* ---- tiled: stage tile + halo in local memory, across, then down ------ */

/* The horizontal results live in float4 local memory, not float: vload4 /
 * vstore4 on a float pointer only promise 4-byte alignment, so NVIDIA's
 * compiler issued four scalar accesses per work-item, 4-way bank conflicts;
 * typed float4 accesses are single 16-byte ones (H200, 4K GRAY8: 0.040 ->
 * 0.025 ms, docs/PERFORMANCE.md). */

/* The tile's left halo is rounded up to 4 bytes so that tile columns keep
 * the 4-byte alignment of the source rows: rows that are 4-byte aligned
 * (the usual case) are then staged with 32-bit loads. */
#define HALO_L(cn) ((RX * (cn) + 3) & ~3)
#define TILE_COLS(cn) (TW + 2 * HALO_L (cn))
#define TILE_ROWS(th) ((th) + 2 * RY)

inline void
blur_tiled (const int cn, const int tile_h, __local uchar * tile,
    __local float4 * hs, BLUR_ARGS)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int wb = width * cn;
  const int rxb = RX * cn, halo = HALO_L (cn);
  const int tcols = TILE_COLS (cn);
  const int trows = TILE_ROWS (tile_h);
  const int gx0 = get_group_id (0) * TW;
  const int gy0 = get_group_id (1) * tile_h;
  const int x_first = gx0 - halo;
  /* Uniform: no column of this tile needs reflecting. */
  const bool inside = x_first >= 0 && x_first + tcols <= wb;

  for (int r = ly; r < trows; r += 8) {
    __global const uchar *row = src + src_off +
        reflect101 (gy0 + r - RY, height) * src_stride;
    __local uchar *t = tile + r * tcols;
    if (inside && ((size_t) (row + x_first) & 3) == 0) {
      __global const uint *row4 = (__global const uint *) (row + x_first);
      for (int c = lx; c < tcols / 4; c += 32)
        ((__local uint *) t)[c] = row4[c];
    } else {
      for (int c = lx; c < tcols; c += 32) {
        const int q = x_first + c;
        t[c] = row[(uint) q < (uint) wb ? q : reflect_byte (q, width, cn)];
      }
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  for (int r = ly; r < trows; r += 8) {
    __local const uchar *t = tile + r * tcols + halo - rxb + 4 * lx;
    float4 acc = wx[RX] * convert_float4 (vload4 (0, t + rxb));
    for (int j = 0; j < RX; j++)
      acc += wx[j] * (convert_float4 (vload4 (0, t + j * cn)) +
          convert_float4 (vload4 (0, t + (KX - 1 - j) * cn)));
    hs[r * (TW / 4) + lx] = acc;
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  const int xb = gx0 + 4 * lx;
  if (xb >= wb)
    return;
  for (int rr = ly; rr < tile_h; rr += 8) {
    const int y = gy0 + rr;
    if (y >= height)
      break;
    __local const float4 *h = hs + rr * (TW / 4) + lx;
    float4 acc = wy[RY] * h[RY * (TW / 4)];
    for (int j = 0; j < RY; j++)
      acc += wy[j] * (h[j * (TW / 4)] + h[(KY - 1 - j) * (TW / 4)]);
    store4 (acc, dst + dst_off + y * dst_stride + xb, wb - xb);
  }
}

#define DEFINE_TILED(cn, th) \
__kernel __attribute__ ((reqd_work_group_size (32, 8, 1))) \
void blur_tiled_c##cn (BLUR_ARGS) \
{ \
  __local uint tile4[TILE_ROWS (th) * TILE_COLS (cn) / 4]; \
  __local float4 hs[TILE_ROWS (th) * TW / 4]; \
  blur_tiled (cn, th, (__local uchar *) tile4, hs, BLUR_PASS); \
}

#if TILE_H1 > 0
DEFINE_TILED (1, TILE_H1)
#endif
#if TILE_H2 > 0
DEFINE_TILED (2, TILE_H2)
#endif
#if TILE_H4 > 0
DEFINE_TILED (4, TILE_H4)
#endif

/* ---- bands: 16 columns x BAND_H rows per work-item, for CPUs ----------- */

/* PoCL never vectorises loops inside a work-item, but keeps explicit vector
 * types: so each work-item works on float16 vectors, computes every input
 * row's horizontal pass once and adds it, weighted, into BAND_H output
 * accumulators. With the loops unrolled the accumulators live in registers;
 * no local memory and no barrier (both cost much on CPU devices). */
#define BAND_H 8
#define BAND_SPAN(cn) (16 + 2 * RX * (cn))

/* Horizontal taps around 16 bytes whose first byte is at c. */
inline float16
across16 (const int cn, const uchar * c)
{
  float16 o = wx[RX] * convert_float16 (vload16 (0, c));
  for (int j = 0; j < RX; j++)
    o += wx[j] * (convert_float16 (vload16 (0, c + (j - RX) * cn)) +
        convert_float16 (vload16 (0, c + (RX - j) * cn)));
  return o;
}

inline float16
across16_global (const int cn, __global const uchar * c)
{
  float16 o = wx[RX] * convert_float16 (vload16 (0, c));
  for (int j = 0; j < RX; j++)
    o += wx[j] * (convert_float16 (vload16 (0, c + (j - RX) * cn)) +
        convert_float16 (vload16 (0, c + (RX - j) * cn)));
  return o;
}

inline void
blur_bands (const int cn, BLUR_ARGS)
{
  const int xb = get_global_id (0) * 16;
  const int y0 = get_global_id (1) * BAND_H;
  const int wb = width * cn, rxb = RX * cn;
  if (xb >= wb || y0 >= height)
    return;
  /* Edge work-items gather reflected bytes; the rest load in place. */
  const bool inside = xb - rxb >= 0 && xb + 16 + rxb <= wb;
  float16 acc[BAND_H];

#pragma unroll
  for (int r = 0; r < BAND_H; r++)
    acc[r] = 0.0f;

#if KY <= 15
#pragma unroll
#endif
  for (int i = 0; i < BAND_H + 2 * RY; i++) {
    __global const uchar *row =
        src + src_off + reflect101 (y0 - RY + i, height) * src_stride;
    float16 h;
    if (inside) {
      h = across16_global (cn, row + xb);
    } else {
      uchar span[BAND_SPAN (4)];
      for (int q = 0; q < BAND_SPAN (cn); q++)
        span[q] = row[reflect_byte (xb - rxb + q, width, cn)];
      h = across16 (cn, span + rxb);
    }
#pragma unroll
    for (int r = 0; r < BAND_H; r++) {
      const int k = i - r;
      if (k >= 0 && k < KY)
        acc[r] += wy[k] * h;
    }
  }

#pragma unroll
  for (int r = 0; r < BAND_H; r++) {
    if (y0 + r < height)
      store16 (acc[r], dst + dst_off + (y0 + r) * dst_stride + xb, wb - xb);
  }
}

#if WITH_BANDS
__kernel void blur_bands_c1 (BLUR_ARGS) { blur_bands (1, BLUR_PASS); }
__kernel void blur_bands_c2 (BLUR_ARGS) { blur_bands (2, BLUR_PASS); }
__kernel void blur_bands_c4 (BLUR_ARGS) { blur_bands (4, BLUR_PASS); }
#endif
