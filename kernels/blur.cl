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
 *   -DWITH_ROWS=0|1 -DWITH_BANDS=0|1 -DWITH_FIXED=0|1  which other
 *                         kernels to compile (a program holds only what its
 *                         variant launches: compiling is slow on CPU devices)
 *   with WITH_FIXED=1 also (integers, see gstclblurkernel.c):
 *   -DFXC=n               centre tap across, weight * 65536
 *   -DFXP=p0,p1,...       RX + 1 values: pair j's weight * 2 * 65536 (the
 *                         last one unused, so that RX = 0 compiles)
 *   -DFXBH=n              rows per work-item
 *   -DFXPAIRS=0|1         1: FY holds RY pair weights * 2 * 65536, then the
 *                         centre's * 65536; 0: the KY taps down * 65536
 *   -DFY=q0,q1,...        weights down, as FXPAIRS says
 *   -DFXR=n               rounding constant added before the final >> 8
 * Optional:
 *   -DWG_X=32 -DWG_Y=8    work-group shape of the tiled kernels (a tuning
 *                         knob, GST_CL_BLUR_TILE)
 *   -DVFIRST=0|1          order of the tiled kernels' passes (see below)
 *   -DWITH_PLANES=1 -DKXC -DKYC -DWXC -DWYC -DTILE_HC1 -DTILE_HC2
 *                         the one-launch YUV kernels (blur_tiled_nv12,
 *                         blur_tiled_i420) with the chroma planes' taps
 *
 * Kernels, each for cn = 1, 2, 4 (suffix _c1, _c2, _c4), same arguments:
 *   blur_rows_cN   no local memory; each work-item writes 16 bytes of one
 *                  row; for CPU devices (and wide kernels on GPUs).
 *                  global = (ceil(width * cn / 16), height)
 *   blur_tiled_cN  for GPUs: a work-group (WG_X x WG_Y) writes a tile of
 *                  TILE_Hn rows. With -DVFIRST=1 (blur_vtiled: items sum
 *                  down from global memory, then across through local
 *                  memory) a tile is TW = 4 * (WG_X - 2 * halo words) bytes
 *                  wide, halo words = ceil(KX / 2 * cn / 4); otherwise
 *                  (blur_tiled: the tile staged in local memory, across
 *                  then down) TW = 4 * WG_X.
 *                  global = (ceil(width * cn / TW) * WG_X,
 *                            ceil(height / TILE_Hn) * WG_Y)
 *   blur_bands_cN  each work-item writes 16 bytes x 8 rows from register
 *                  accumulators; for CPU devices.
 *                  global = (ceil(width * cn / 16), ceil(height / 8))
 *   blur_fixed_cN  blur_bands in 16-bit fixed point; for CPU devices, where
 *                  the host has proven its error bound (see
 *                  gst_cl_blur_fixed_taps).  Same global size as bands.
 */

#define RX (KX / 2)
#define RY (KY / 2)
#define VW 16                   /* bytes per work-item, blur_rows */
/* blur_tiled: a work-group of WG_X x WG_Y items (default 32x8), each item
 * 4 bytes of a tile row, so a tile row is TW = 4 * WG_X bytes */
#ifndef WG_X
#define WG_X 32
#endif
#ifndef WG_Y
#define WG_Y 8
#endif
#define TW (4 * WG_X)

__constant float wx[KX] = { WX };
__constant float wy[KY] = { WY };

/* reflect101 (), reflect_byte (), row_reach (), reflect_row (),
 * rows_aligned4 () and UNROLL come from common.cl. */

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

/* Stores the first @n (up to 4) bytes of @out at @d; @aligned: @d is on a
 * 4-byte boundary. */
inline void
store4_word (uint out, __global uchar * d, int n, const bool aligned)
{
  if (n >= 4 && aligned) {
    *(__global uint *) d = out;
  } else if (n >= 4) {
    vstore4 (as_uchar4 (out), 0, d);
  } else {
    /* by component, not through a private array, which the compiler
     * stored for every row before testing n (docs/PERFORMANCE.md,
     * session 14) */
    d[0] = out & 0xff;
    if (n > 1)
      d[1] = (out >> 8) & 0xff;
    if (n > 2)
      d[2] = (out >> 16) & 0xff;
  }
}

/* store16's rounding for 4 bytes, then store4_word */
inline void
store4 (float4 acc, __global uchar * d, int n, const bool aligned)
{
  /* the same as store16's clamp, + 0.5, truncate, in one saturating
   * conversion per byte (NVIDIA: cvt.rzi.sat, no min and max) */
  store4_word (as_uint (convert_uchar4_sat (acc + 0.5f)), d, n, aligned);
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
#if WANT (blur_rows_c1)
__kernel void blur_rows_c1 (BLUR_ARGS) { blur_rows (1, BLUR_PASS); }
#endif
#if WANT (blur_rows_c2)
__kernel void blur_rows_c2 (BLUR_ARGS) { blur_rows (2, BLUR_PASS); }
#endif
#if WANT (blur_rows_c4)
__kernel void blur_rows_c4 (BLUR_ARGS) { blur_rows (4, BLUR_PASS); }
#endif
#endif

/* ---- tiled: stage tile + halo in local memory, across, then down ------ */

/* The horizontal results live in float4 local memory, not float: vload4 /
 * vstore4 on a float pointer only promise 4-byte alignment, so NVIDIA's
 * compiler issued four scalar accesses per work-item, 4-way bank conflicts;
 * typed float4 accesses are single 16-byte ones (H200, 4K GRAY8: 0.040 ->
 * 0.025 ms, docs/PERFORMANCE.md). */

/* The tile's left halo is rounded up to 4 bytes so that tile columns keep
 * the 4-byte alignment of the source rows: rows that are 4-byte aligned
 * (the usual case) are then staged with 32-bit loads. The taps are
 * arguments (compile-time constants at every call site, so the loops
 * unroll as before): the multi-plane kernels below blur luma and chroma,
 * whose taps differ, in one launch. */
#define HALO_L(rx, cn) (((rx) * (cn) + 3) & ~3)
#define TILE_COLS(rx, cn) (TW + 2 * HALO_L (rx, cn))
#define TILE_ROWS(th, ry) ((th) + 2 * (ry))
#define TILE_WORDS(th, rx, ry, cn) (TILE_ROWS (th, ry) * TILE_COLS (rx, cn) / 4)
#define TILE_VECS(th, ry) (TILE_ROWS (th, ry) * TW / 4)

/* Stages a tile whose columns all lie inside the plane and whose rows are
 * 4-byte aligned: every item issues all its loads (clamped to the tile, so
 * unconditional) before its first store, so it waits for memory once. */
#define STAGE_MAX_WORDS 32
inline void
stage_words (const int stage_rows, const int stage_cols, const int trows,
    const int twords, const int ry, __local uint * tile4,
    __global const uchar * first, int stride, int gy0, int height)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  uint w[STAGE_MAX_WORDS];

UNROLL
  for (int k = 0; k < stage_rows; k++) {
    const int r = min (ly + k * WG_Y, trows - 1);
    __global const uint *row = (__global const uint *) (first +
        reflect_row (gy0 + r - ry, height, ROWS_NEAR) * stride);
UNROLL
    for (int j = 0; j < stage_cols; j++)
      w[k * stage_cols + j] = row[min (lx + j * WG_X, twords - 1)];
  }
UNROLL
  for (int k = 0; k < stage_rows; k++)
UNROLL
    for (int j = 0; j < stage_cols; j++)
      if (ly + k * WG_Y < trows && lx + j * WG_X < twords)
        tile4[(ly + k * WG_Y) * twords + lx + j * WG_X] =
            w[k * stage_cols + j];
}

/* Any tile: byte by byte where a column needs reflecting (@inside: none
 * does). */
inline void
stage_bytes (const int cn, const int trows, const int tcols, const int ry,
    __local uchar * tile, __global const uchar * plane, int stride,
    int x_first, const bool inside, int gy0, int width, int height)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int wb = width * cn;

  for (int r = ly; r < trows; r += WG_Y) {
    __global const uchar *row = plane +
        reflect101 (gy0 + r - ry, height) * stride;
    __local uchar *t = tile + r * tcols;
    if (inside && ((size_t) (row + x_first) & 3) == 0) {
      __global const uint *row4 = (__global const uint *) (row + x_first);
      for (int c = lx; c < tcols / 4; c += WG_X)
        ((__local uint *) t)[c] = row4[c];
    } else {
      for (int c = lx; c < tcols; c += WG_X) {
        const int q = x_first + c;
        t[c] = row[(uint) q < (uint) wb ? q : reflect_byte (q, width, cn)];
      }
    }
  }
}

/* One tile of one plane: group (@gx, @gy) of the plane's grid of tiles. */
inline void
blur_tiled (const int cn, const int tile_h, const int kx, const int ky,
    __constant const float *tx, __constant const float *ty,
    __local uchar * tile, __local float4 * hs, const int gx, const int gy,
    BLUR_ARGS)
{
  const int rx = kx / 2, ry = ky / 2;
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int wb = width * cn;
  const int rxb = rx * cn, halo = HALO_L (rx, cn);
  const int tcols = TILE_COLS (rx, cn);
  const int trows = TILE_ROWS (tile_h, ry);
  const int gx0 = gx * TW;
  const int gy0 = gy * tile_h;
  const int x_first = gx0 - halo;
  /* Uniform: no column of this tile needs reflecting. */
  const bool inside = x_first >= 0 && x_first + tcols <= wb;

  const int stage_rows = (trows + WG_Y - 1) / WG_Y;
  const int stage_cols = (tcols / 4 + WG_X - 1) / WG_X;
  if (stage_rows * stage_cols <= STAGE_MAX_WORDS && inside &&
      row_reach (gy0 - ry, gy0 + trows - 1 - ry, height) != ROWS_ANY &&
      rows_aligned4 (src + src_off + x_first, src_stride)) {
    stage_words (stage_rows, stage_cols, trows, tcols / 4, ry,
        (__local uint *) tile, src + src_off + x_first, src_stride, gy0,
        height);
  } else {
    stage_bytes (cn, trows, tcols, ry, tile, src + src_off, src_stride,
        x_first, inside, gy0, width, height);
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  for (int r = ly; r < trows; r += WG_Y) {
    __local const uchar *t = tile + r * tcols + halo - rxb + 4 * lx;
    float4 acc = tx[rx] * convert_float4 (vload4 (0, t + rxb));
    for (int j = 0; j < rx; j++)
      acc += tx[j] * (convert_float4 (vload4 (0, t + j * cn)) +
          convert_float4 (vload4 (0, t + (kx - 1 - j) * cn)));
    hs[r * (TW / 4) + lx] = acc;
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  const int xb = gx0 + 4 * lx;
  if (xb >= wb)
    return;
  const bool out_aligned = rows_aligned4 (dst + dst_off, dst_stride);
  for (int rr = ly; rr < tile_h; rr += WG_Y) {
    const int y = gy0 + rr;
    if (y >= height)
      break;
    __local const float4 *h = hs + rr * (TW / 4) + lx;
    float4 acc = ty[ry] * h[ry * (TW / 4)];
    for (int j = 0; j < ry; j++)
      acc += ty[j] * (h[j * (TW / 4)] + h[(ky - 1 - j) * (TW / 4)]);
    store4 (acc, dst + dst_off + y * dst_stride + xb, wb - xb, out_aligned);
  }
}

/* ---- tiled, the vertical pass first (-DVFIRST=1) ---------------------- */

/* Each work-item owns one 4-byte column of the tile, halo columns included,
 * and ROWS = tile_h / WG_Y consecutive rows: it reads its ROWS + KY - 1
 * input words straight from global memory (its neighbours' rows meet in the
 * cache), sums them down into ROWS float4s, takes the rx * cn sums it
 * needs from each side (from local memory after one barrier: 4 floats in,
 * 2 * rx * cn out per 4 pixels, where blur_tiled reads KX unaligned byte
 * vectors and KY float4s; or by warp shuffles, -DWARP_XCHG=1: common.cl)
 * and sums across. The halo
 * columns take work-items, so a tile writes 4 * (WG_X - 2 * halo words)
 * bytes across (the host's tile width). */
#define VT_HALO_W(rx, cn) (((rx) * (cn) + 3) / 4)
#define VT_MAX_ROWS 16
#define VT_MAX_HALO_W 8
#define VT_MAX_KY 64            /* the host keeps taller kernels off */

/* The @n input words of one work-item's column, from row @y0 - @ry down:
 * every load is issued before the first sum, so a work-item waits for
 * memory once, not once a row. */
inline void
vtiled_load (const int cn, const int n, const int ry, const int reach,
    const bool words, uint * in, const int xb, const int y0,
    __global const uchar * plane, int stride, int width, int height)
{
UNROLL
  for (int i = 0; i < n; i++) {
    __global const uchar *row =
        plane + reflect_row (y0 + i - ry, height, reach) * stride;
    if (words)
      in[i] = *(__global const uint *) (row + xb);
    else
      in[i] = as_uint ((uchar4) (row[reflect_byte (xb, width, cn)],
              row[reflect_byte (xb + 1, width, cn)],
              row[reflect_byte (xb + 2, width, cn)],
              row[reflect_byte (xb + 3, width, cn)]));
  }
}

/* The vertical sums of one work-item's column. */
inline void
vtiled_down (const int cn, const int rows, const int ky, const int reach,
    const bool words, __constant const float *ty, float4 * acc,
    const int xb, const int y0, __global const uchar * plane, int stride,
    int width, int height)
{
  uint in[VT_MAX_ROWS + VT_MAX_KY - 1];

  vtiled_load (cn, rows + ky - 1, ky / 2, reach, words, in, xb, y0, plane,
      stride, width, height);
UNROLL
  for (int r = 0; r < rows; r++)
    acc[r] = 0.0f;
UNROLL
  for (int i = 0; i < rows + ky - 1; i++) {
    const float4 v = convert_float4 (as_uchar4 (in[i]));
UNROLL
    for (int r = 0; r < rows; r++)
      if (i - r >= 0 && i - r < ky)
        acc[r] += ty[i - r] * v;
  }
}

/* What both vertical-first tiles know of their work-item: its first byte
 * xb and row y0, its rows, the halo words hw, whether its columns load as
 * aligned words, and how near its rows reach the frame's edges. */
#define VTILED_ITEM \
  const int rx = kx / 2, ry = ky / 2; \
  const int hw = VT_HALO_W (rx, cn); \
  const int rows = tile_h / WG_Y; \
  const int lx = get_local_id (0), ly = get_local_id (1); \
  const int wb = width * cn; \
  const int xb = 4 * (gx * (WG_X - 2 * hw) + lx - hw); \
  const int y0 = gy * tile_h + ly * rows; \
  __global const uchar *plane = src + src_off; \
  const bool words = xb >= 0 && xb + 4 <= wb && \
      rows_aligned4 (plane, src_stride); \
  const int reach = row_reach (y0 - ry, y0 + rows - 1 + ry, height)

/* @down (vtiled_down or vtiled_down_h2) for a work-item's rows, branching
 * on nearly uniform values, each call unrolled apart */
#define VTILED_DOWN(down, ty) \
  do { \
    if (reach == ROWS_INSIDE && words) \
      down (cn, rows, ky, ROWS_INSIDE, true, ty, acc, xb, y0, plane, \
          src_stride, width, height); \
    else if (reach != ROWS_ANY && words) \
      down (cn, rows, ky, ROWS_NEAR, true, ty, acc, xb, y0, plane, \
          src_stride, width, height); \
    else if (reach != ROWS_ANY) \
      down (cn, rows, ky, ROWS_NEAR, false, ty, acc, xb, y0, plane, \
          src_stride, width, height); \
    else \
      down (cn, rows, ky, ROWS_ANY, false, ty, acc, xb, y0, plane, \
          src_stride, width, height); \
  } while (0)

inline void
blur_vtiled (const int cn, const int tile_h, const int kx, const int ky,
    __constant const float *tx, __constant const float *ty,
    __local float4 * vs, const int gx, const int gy, BLUR_ARGS)
{
  VTILED_ITEM;
  float4 acc[VT_MAX_ROWS];

  VTILED_DOWN (vtiled_down, ty);
  const int reach_b = rx * cn;  /* sums needed from each side */
#if WARP_XCHG
  /* by warp shuffles: byte -m of this column is byte 3 - (m - 1) % 4 of
   * the item (m + 3) / 4 to the left, byte 3 + m byte (m - 1) % 4 of the
   * item 1 + (m - 1) / 4 to the right; before any item returns */
  float left[VT_MAX_ROWS][4 * VT_MAX_HALO_W],
      right[VT_MAX_ROWS][4 * VT_MAX_HALO_W];
UNROLL
  for (int r = 0; r < rows; r++)
UNROLL
    for (int m = 1; m <= reach_b; m++) {
      left[r][m - 1] = shfl_up (comp4 (acc[r], 3 - (m - 1) % 4),
          (m + 3) / 4);
      right[r][m - 1] = shfl_down (comp4 (acc[r], (m - 1) % 4),
          1 + (m - 1) / 4);
    }
#else
  /* One plane per byte of the column, so that an item reads just the
   * sums it needs, each at a 4-byte stride; its own four stay in registers
   * (2 * halo words + 1 float4s read at a 16-byte stride were 1-3% slower:
   * docs/PERFORMANCE.md, session 11). */
  __local float *planes = (__local float *) vs;
  const int plane_n = tile_h * WG_X;
UNROLL
  for (int r = 0; r < rows; r++) {
    const int at = (ly * rows + r) * WG_X + lx;
    planes[at] = acc[r].x;
    planes[plane_n + at] = acc[r].y;
    planes[2 * plane_n + at] = acc[r].z;
    planes[3 * plane_n + at] = acc[r].w;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
#endif

  if (lx < hw || lx >= WG_X - hw || xb >= wb)
    return;
  /* the output row by a pointer stepped down, its alignment tested once
   * (docs/PERFORMANCE.md, session 14) */
  const bool out_aligned = rows_aligned4 (dst + dst_off, dst_stride);
  __global uchar *o = dst + dst_off + y0 * dst_stride + xb;
UNROLL
  for (int r = 0; r < rows; r++, o += dst_stride) {
    const int y = y0 + r;
    if (y >= height)
      break;
    float win[4 * (2 * VT_MAX_HALO_W + 1)];
UNROLL
    for (int m = 1; m <= reach_b; m++) {
      /* byte -m and byte 3 + m of this column */
#if WARP_XCHG
      win[4 * hw - m] = left[r][m - 1];
      win[4 * hw + 3 + m] = right[r][m - 1];
#else
      const int at = (ly * rows + r) * WG_X + lx;
      win[4 * hw - m] = planes[(3 - (m - 1) % 4) * plane_n + at -
          (m + 3) / 4];
      win[4 * hw + 3 + m] = planes[((m - 1) % 4) * plane_n + at + 1 +
          (m - 1) / 4];
#endif
    }
    vstore4 (acc[r], hw, win);
    const float *c = win + 4 * hw;      /* this item's first byte */
    float s[4];
UNROLL
    for (int b = 0; b < 4; b++) {
      float a = tx[rx] * c[b];
UNROLL
      for (int j = 0; j < rx; j++)
        a += tx[j] * (c[b + (j - rx) * cn] + c[b + (rx - j) * cn]);
      s[b] = a;
    }
    store4 (vload4 (0, s), o, wb - xb, out_aligned);
  }
}

/* ---- tiled, vertical first, in packed halves (-DHALF=1) -------------- */

/* blur_vtiled's work in IEEE half precision, two bytes' sums in each
 * 32-bit register (on NVIDIA, -DNV_PTX=1, by inline PTX: fma.rn.f16x2,
 * prmt), which halves the instructions the float tile spends on sums and
 * conversions (docs/PERFORMANCE.md, session 15). A byte b enters as
 * b - 128, exactly: a byte permute makes the half 1024 + b, an add of
 * -1152 the rest. Sums run from the outermost pair of taps in, the centre
 * last; down, each pair of inputs (integers) adds exactly. 128 comes back
 * with the rounding: + 1408 puts the result in 1024..2047, where a half's
 * ulp is 1, so that add rounds it to an integer whose low byte is the
 * output. The host serves only taps whose error it has bounded over every
 * input within 0.75 levels, none of which can wrap the low byte
 * (gst_cl_blur_half_taps). Elsewhere (-DNV_PTX=0) the same steps run in
 * float, each result rounded to half: for checking the tile on any device. */
#if HALF

/* the taps as half pairs (both halves one weight), outermost pair first */
__constant uint wx_h[RX + 1] = { HWX };
__constant uint wy_h[RY + 1] = { HWY };

#define H2_1024 0x64006400u     /* the high bytes of 1024 + b */
#define H2_MINUS_1152 0xe480e480u
#define H2_1408 0x65806580u

#if NV_PTX
DEFINE_PTX2 (h2_add, "add.rn.f16x2")
DEFINE_PTX2 (h2_mul, "mul.rn.f16x2")
DEFINE_PTX3 (h2_fma, "fma.rn.f16x2")
#else
inline float2
h2_float (uint a)
{
  const ushort2 h = as_ushort2 (a);
  return vload_half2 (0, (const __private half *) &h);
}

inline uint
h2_round (float2 f)
{
  ushort2 h;
  vstore_half2_rte (f, 0, (__private half *) &h);
  return as_uint (h);
}

inline uint
h2_add (uint a, uint b)
{
  return h2_round (h2_float (a) + h2_float (b));
}

inline uint
h2_mul (uint a, uint b)
{
  return h2_round (h2_float (a) * h2_float (b));
}

inline uint
h2_fma (uint a, uint b, uint c)
{
  return h2_round (fma (h2_float (a), h2_float (b), h2_float (c)));
}
#endif

/* @w * @v, or + @s where @s holds a sum already */
inline uint
h2_term (uint w, uint v, uint s, const bool first)
{
  return first ? h2_mul (w, v) : h2_fma (w, v, s);
}

/* The sums down of one work-item's column: .x bytes 0 and 1, .y 2 and 3. */
inline void
vtiled_down_h2 (const int cn, const int rows, const int ky, const int reach,
    const bool words, __constant const uint * hy, uint2 * acc,
    const int xb, const int y0, __global const uchar * plane, int stride,
    int width, int height)
{
  const int ry = ky / 2;
  uint in[VT_MAX_ROWS + VT_MAX_KY - 1];
  uint2 x[VT_MAX_ROWS + VT_MAX_KY - 1];

  vtiled_load (cn, rows + ky - 1, ry, reach, words, in, xb, y0, plane,
      stride, width, height);
UNROLL
  for (int i = 0; i < rows + ky - 1; i++)
    x[i] = (uint2) (h2_add (byte_perm (in[i], H2_1024, 0x7150),
            H2_MINUS_1152), h2_add (byte_perm (in[i], H2_1024, 0x7352),
            H2_MINUS_1152));
UNROLL
  for (int r = 0; r < rows; r++) {
    uint2 s = (uint2) (0);
UNROLL
    for (int j = 0; j < ry; j++) {
      const uint2 a = x[r + j], b = x[r + ky - 1 - j];
      s.x = h2_term (hy[j], h2_add (a.x, b.x), s.x, j == 0);
      s.y = h2_term (hy[j], h2_add (a.y, b.y), s.y, j == 0);
    }
    s.x = h2_term (hy[ry], x[r + ry].x, s.x, ry == 0);
    s.y = h2_term (hy[ry], x[r + ry].y, s.y, ry == 0);
    acc[r] = s;
  }
}

/* The half pair at bytes @o, @o + 1 of a row's window: @even holds the
 * pairs at even bytes -2 * @l.., @odd those at odd bytes -2 * @l + 1.. */
#define PAIR_AT(even, odd, l, o) \
  (((o) & 1) ? (odd)[((o) - 1) / 2 + (l)] : (even)[(o) / 2 + (l)])

inline void
blur_vtiled_h2 (const int cn, const int tile_h, const int kx, const int ky,
    __constant const uint * hx, __constant const uint * hy,
    __local float4 * vs, const int gx, const int gy, BLUR_ARGS)
{
  VTILED_ITEM;
  /* pairs needed from each side: bytes -1..-rx * cn, 4..3 + rx * cn */
  const int l = (rx * cn + 1) / 2;
  uint2 acc[VT_MAX_ROWS];

  VTILED_DOWN (vtiled_down_h2, hy);
  /* The pair at bytes q, q + 1 (q even, outside 0..3) is the .x (q % 4
   * == 0) or .y of the item floor (q / 4) away. */
#if WARP_XCHG
  uint left[VT_MAX_ROWS][2 * VT_MAX_HALO_W],
      right[VT_MAX_ROWS][2 * VT_MAX_HALO_W];
UNROLL
  for (int r = 0; r < rows; r++)
UNROLL
    for (int m = 1; m <= l; m++) {
      const int dl = (2 * m + 3) / 4, dr = (2 + 2 * m) / 4;
      left[r][m - 1] = as_uint (shfl_up (as_float (4 * dl - 2 * m == 0 ?
                  acc[r].x : acc[r].y), dl));
      right[r][m - 1] = as_uint (shfl_down (as_float (2 + 2 * m - 4 * dr
                  == 0 ? acc[r].x : acc[r].y), dr));
    }
#else
  __local uint *planes = (__local uint *) vs;
  const int plane_n = tile_h * WG_X;
UNROLL
  for (int r = 0; r < rows; r++) {
    const int at = (ly * rows + r) * WG_X + lx;
    planes[at] = acc[r].x;
    planes[plane_n + at] = acc[r].y;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
#endif

  if (lx < hw || lx >= WG_X - hw || xb >= wb)
    return;
  const bool out_aligned = rows_aligned4 (dst + dst_off, dst_stride);
  __global uchar *o = dst + dst_off + y0 * dst_stride + xb;
UNROLL
  for (int r = 0; r < rows; r++, o += dst_stride) {
    const int y = y0 + r;
    if (y >= height)
      break;
    uint even[4 * VT_MAX_HALO_W + 2], odd[4 * VT_MAX_HALO_W + 1];
UNROLL
    for (int m = 1; m <= l; m++) {
#if WARP_XCHG
      even[l - m] = left[r][m - 1];
      even[l + 1 + m] = right[r][m - 1];
#else
      const int at = (ly * rows + r) * WG_X + lx;
      const int dl = (2 * m + 3) / 4, dr = (2 + 2 * m) / 4;
      even[l - m] = planes[(4 * dl - 2 * m == 0 ? 0 : plane_n) + at - dl];
      even[l + 1 + m] = planes[(2 + 2 * m - 4 * dr == 0 ? 0 : plane_n) +
          at + dr];
#endif
    }
    even[l] = acc[r].x;
    even[l + 1] = acc[r].y;
    if (cn & 1) {
UNROLL
      for (int p = 0; p <= 2 * l; p++)
        odd[p] = byte_perm (even[p], even[p + 1], 0x5432);
    }
    uint out[2];
UNROLL
    for (int t = 0; t < 2; t++) {
      uint sum = 0;
UNROLL
      for (int j = 0; j < rx; j++)
        sum = h2_term (hx[j], h2_add (PAIR_AT (even, odd, l,
                    2 * t + (j - rx) * cn), PAIR_AT (even, odd, l,
                    2 * t + (rx - j) * cn)), sum, j == 0);
      sum = h2_term (hx[rx], PAIR_AT (even, odd, l, 2 * t), sum, rx == 0);
      out[t] = h2_add (sum, H2_1408);
    }
    store4_word (byte_perm (out[0], out[1], 0x6420), o, wb - xb,
        out_aligned);
  }
}
#endif /* HALF */

/* What a tiled kernel declares and calls, either order. */
#if VFIRST
#define TILE_LOCAL_WORDS(th, rx, ry, cn) 1
#define TILE_LOCAL_VECS(th, ry) ((th) * WG_X)
#if HALF
/* the taps' half tables: wx -> wx_h, wxc -> wxc_h */
#define BLUR_TILE(cn, th, kx, ky, tx, ty, tile, hs, gx, gy, plane) \
  blur_vtiled_h2 (cn, th, kx, ky, tx##_h, ty##_h, hs, gx, gy, plane)
#else
#define BLUR_TILE(cn, th, kx, ky, tx, ty, tile, hs, gx, gy, plane) \
  blur_vtiled (cn, th, kx, ky, tx, ty, hs, gx, gy, plane)
#endif
#else
#define TILE_LOCAL_WORDS(th, rx, ry, cn) TILE_WORDS (th, rx, ry, cn)
#define TILE_LOCAL_VECS(th, ry) TILE_VECS (th, ry)
#define BLUR_TILE(cn, th, kx, ky, tx, ty, tile, hs, gx, gy, plane) \
  blur_tiled (cn, th, kx, ky, tx, ty, tile, hs, gx, gy, plane)
#endif

#define DEFINE_TILED(cn, th) \
__kernel __attribute__ ((reqd_work_group_size (WG_X, WG_Y, 1))) \
void blur_tiled_c##cn (BLUR_ARGS) \
{ \
  __local uint tile4[TILE_LOCAL_WORDS (th, RX, RY, cn)]; \
  __local float4 hs[TILE_LOCAL_VECS (th, RY)]; \
  BLUR_TILE (cn, th, KX, KY, wx, wy, (__local uchar *) tile4, hs, \
      get_group_id (0), get_group_id (1), BLUR_PASS); \
}

#if TILE_H1 > 0 && WANT (blur_tiled_c1)
DEFINE_TILED (1, TILE_H1)
#endif
#if TILE_H2 > 0 && WANT (blur_tiled_c2)
DEFINE_TILED (2, TILE_H2)
#endif
#if TILE_H4 > 0 && WANT (blur_tiled_c4)
DEFINE_TILED (4, TILE_H4)
#endif

/* ---- tiled, every plane of a YUV 4:2:0 frame in one launch ------------ */

/* On a GPU a 1080p plane is about one wave of work-groups, so NV12 as two
 * launches (luma, then chroma) paid the launch and the ramp twice, 2.66x the
 * read+write floor against 1.44x for GRAY8 (H200). These kernels take the
 * tiles of all planes as one 1-D list of work-groups: a group's index says
 * its plane, then its tile. Luma uses the program's taps (KX, KY, WX, WY),
 * chroma the -DKXC, -DKYC, -DWXC, -DWYC ones (σ scaled by the
 * subsampling), with their own tile heights TILE_HC1 / TILE_HC2.
 * Each plane is an int8: (src offset, src stride, dst offset, dst stride,
 * width, height, tiles across, first group); one cl_mem holds every plane.
 * global = (WG_X * groups of all planes, WG_Y), local = (WG_X, WG_Y) */
#if WITH_PLANES

#define RXC (KXC / 2)
#define RYC (KYC / 2)
__constant float wxc[KXC] = { WXC };
__constant float wyc[KYC] = { WYC };
#if HALF
__constant uint wxc_h[RXC + 1] = { HWXC };
__constant uint wyc_h[RYC + 1] = { HWYC };
#endif

#define PLANES_ARGS __global const uchar * restrict src, \
    __global uchar * restrict dst, int8 p0, int8 p1, int8 p2

#define PLANE_PASS(p) src, (uint) (p).s0, (p).s1, dst, (uint) (p).s2, \
    (p).s3, (p).s4, (p).s5
#define MAX2(a, b) ((a) > (b) ? (a) : (b))

#if TILE_H1 > 0 && TILE_HC2 > 0 && WANT (blur_tiled_nv12)
/* NV12: luma (1 byte per pixel), then interleaved UV (2 bytes). */
__kernel __attribute__ ((reqd_work_group_size (WG_X, WG_Y, 1)))
void
blur_tiled_nv12 (PLANES_ARGS)
{
  __local uint tile4[MAX2 (TILE_LOCAL_WORDS (TILE_H1, RX, RY, 1),
          TILE_LOCAL_WORDS (TILE_HC2, RXC, RYC, 2))];
  __local float4 hs[MAX2 (TILE_LOCAL_VECS (TILE_H1, RY),
          TILE_LOCAL_VECS (TILE_HC2, RYC))];
  const int g = get_group_id (0);
  /* uniform per work-group, so the barriers inside are reached by all */
  if (g < p1.s7) {
    BLUR_TILE (1, TILE_H1, KX, KY, wx, wy, (__local uchar *) tile4, hs,
        g % p0.s6, g / p0.s6, PLANE_PASS (p0));
  } else {
    const int t = g - p1.s7;
    BLUR_TILE (2, TILE_HC2, KXC, KYC, wxc, wyc, (__local uchar *) tile4, hs,
        t % p1.s6, t / p1.s6, PLANE_PASS (p1));
  }
}
#endif

#if TILE_H1 > 0 && TILE_HC1 > 0 && WANT (blur_tiled_i420)
/* I420 (and YV12): luma, then two chroma planes of 1 byte per pixel. */
__kernel __attribute__ ((reqd_work_group_size (WG_X, WG_Y, 1)))
void
blur_tiled_i420 (PLANES_ARGS)
{
  __local uint tile4[MAX2 (TILE_LOCAL_WORDS (TILE_H1, RX, RY, 1),
          TILE_LOCAL_WORDS (TILE_HC1, RXC, RYC, 1))];
  __local float4 hs[MAX2 (TILE_LOCAL_VECS (TILE_H1, RY),
          TILE_LOCAL_VECS (TILE_HC1, RYC))];
  const int g = get_group_id (0);
  if (g < p1.s7) {
    BLUR_TILE (1, TILE_H1, KX, KY, wx, wy, (__local uchar *) tile4, hs,
        g % p0.s6, g / p0.s6, PLANE_PASS (p0));
  } else {
    const int8 p = g < p2.s7 ? p1 : p2;
    const int t = g - p.s7;
    BLUR_TILE (1, TILE_HC1, KXC, KYC, wxc, wyc, (__local uchar *) tile4, hs,
        t % p.s6, t / p.s6, PLANE_PASS (p));
  }
}
#endif

#endif /* WITH_PLANES */

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
#if WANT (blur_bands_c1)
__kernel void blur_bands_c1 (BLUR_ARGS) { blur_bands (1, BLUR_PASS); }
#endif
#if WANT (blur_bands_c2)
__kernel void blur_bands_c2 (BLUR_ARGS) { blur_bands (2, BLUR_PASS); }
#endif
#if WANT (blur_bands_c4)
__kernel void blur_bands_c4 (BLUR_ARGS) { blur_bands (4, BLUR_PASS); }
#endif
#endif

/* ---- fixed: the bands in 16-bit fixed point, for CPUs -------------------- */

/* As OpenCV does on CPUs: 16-bit lanes hold twice the pixels of float
 * lanes, and bytes widen to them in one step. Values are 8.8 fixed point
 * (pixel * 256) in ushort; every product is mul_hi (8.8 x 0.16 -> 8.8), so
 * weights keep 16 bits and each tap truncates by less than 1/256 of a
 * level. The host checks that weights and truncations together stay well
 * within one level of the exact result, and that no sum can overflow. */
#if WITH_FIXED
/* FXW: bytes per work-item and vector lanes. 32 (one 512-bit register of
 * 16-bit lanes) where the host saw AVX-512 in the device's name, else 16
 * (one 256-bit register). */
#ifndef FXW
#define FXW 16
#endif
#if FXW == 32
typedef ushort fx_us __attribute__ ((ext_vector_type (32)));
typedef uchar fx_uc __attribute__ ((ext_vector_type (32)));
typedef uint fx_ui __attribute__ ((ext_vector_type (32)));
#define FX_US(a) __builtin_convertvector (a, fx_us)
#define FX_UC(a) __builtin_convertvector (a, fx_uc)
#else
typedef ushort16 fx_us;
typedef uchar16 fx_uc;
#define FX_US(a) convert_ushort16 (a)
#define FX_UC(a) convert_uchar16 (a)
#endif

/* mul_hi (ushort16) as one instruction: PoCL's builtin is a generic
 * ~10-instruction sequence, and LLVM 14 lowers the portable form (widen,
 * multiply, shift, narrow) to 6; with AVX2 the x86 builtin is a single
 * vpmulhuw (AVX-512: one per 32 lanes). */
#if FXW == 32 && X86_AVX512BW
typedef short fx_vhi __attribute__ ((vector_size (64)));
#define FX_VHI(a) __builtin_convertvector ((fx_us) (a), fx_vhi)
#define MULHI(a, w) __builtin_convertvector ( \
      __builtin_ia32_pmulhuw512 (FX_VHI (a), FX_VHI (w)), fx_us)
#define RHADD(a, b) __builtin_convertvector ( \
      __builtin_ia32_pavgw512 (FX_VHI (a), FX_VHI (b)), fx_us)
#elif FXW == 16 && X86_AVX2
typedef short fx_vhi __attribute__ ((vector_size (32)));
#define FX_VHI(a) __builtin_convertvector ((fx_us) (a), fx_vhi)
#define MULHI(a, w) __builtin_convertvector ( \
      __builtin_ia32_pmulhuw256 (FX_VHI (a), FX_VHI (w)), fx_us)
/* rhadd likewise: PoCL's is ~5 instructions, vpavgw computes the same. */
#define RHADD(a, b) __builtin_convertvector ( \
      __builtin_ia32_pavgw256 (FX_VHI (a), FX_VHI (b)), fx_us)
#elif FXW == 32
#define MULHI(a, w) __builtin_convertvector ( \
      (__builtin_convertvector (a, fx_ui) * (fx_ui) (w)) >> 16, fx_us)
#define RHADD(a, b) (((a) >> (ushort) 1) + ((b) >> (ushort) 1) + \
      (((a) | (b)) & (ushort) 1))
#else
#define MULHI(a, w) \
  convert_ushort16 ((convert_uint16 (a) * (uint16) (w)) >> 16)
#define RHADD(a, b) rhadd (a, b)
#endif

/* One unaligned FXW-byte load or store: PoCL's vload16 / vstore16 of bytes
 * became narrower loads and byte stores; a 1-byte aligned vector type lets
 * LLVM emit single unaligned accesses. With 16 lanes and no AVX2 (GPUs run
 * this variant only in the checker) the standard calls. */
#if FXW == 32 || X86_AVX2
typedef fx_uc __attribute__ ((aligned (1))) fx_uc_u1;
#define LOAD_FX(p) (*(const fx_uc_u1 *) (p))
#define LOAD_FX_G(p) (*(__global const fx_uc_u1 *) (p))
#define STORE_FX_G(v, p) (*(__global fx_uc_u1 *) (p) = (v))
#define STORE_FX(v, p) (*(fx_uc_u1 *) (p) = (v))
#else
#define LOAD_FX(p) vload16 (0, p)
#define LOAD_FX_G(p) vload16 (0, p)
#define STORE_FX_G(v, p) vstore16 (v, 0, p)
#define STORE_FX(v, p) vstore16 (v, 0, p)
#endif

__constant ushort fxp[RX + 1] = { FXP };
__constant ushort fy[KY] = { FY };

/* The two bytes of a symmetric pair are added first (<= 510, << 7 stays
 * below 65536), so a pair costs one mul_hi with a doubled weight. */
#define ACROSS_FX(c, LOAD) \
  fx_us o = MULHI (FX_US (LOAD (c)) << (ushort) 8, \
      FXC); \
  _Pragma ("unroll") \
  for (int j = 0; j < RX; j++) { \
    const fx_us s = FX_US (LOAD (c + (j - RX) * cn)) + \
        FX_US (LOAD (c + (RX - j) * cn)); \
    o += MULHI (s << (ushort) 7, fxp[j]); \
  } \
  return o;

inline fx_us
across_fx (const int cn, const uchar * c)
{
ACROSS_FX (c, LOAD_FX)}

inline fx_us
across_fx_global (const int cn, __global const uchar * c)
{
ACROSS_FX (c, LOAD_FX_G)}

/* Stores FXW results (8.8 fixed point, rounding already added). */
inline void
store_fx (fx_us acc, __global uchar * d, int n)
{
  const fx_uc out = FX_UC (acc >> (ushort) 8);
  if (n >= FXW) {
    STORE_FX_G (out, d);
  } else {
    uchar tmp[FXW];
    STORE_FX (out, tmp);
    store_bytes (d, tmp, n);
  }
}

/* Horizontal pass of FXW bytes of @row from byte @xb; reflected at the
 * row's ends unless @inside (every tap within the row). */
inline fx_us
across_row_fx (const int cn, __global const uchar * row, int xb, int width,
    bool inside)
{
  if (inside)
    return across_fx_global (cn, row + xb);
  const int rxb = RX * cn;
  uchar span[FXW + 2 * RX * 4];
  for (int q = 0; q < FXW + 2 * RX * cn; q++)
    span[q] = row[reflect_byte (xb - rxb + q, width, cn)];
  return across_fx (cn, span + rxb);
}

/* Horizontal pass of input row i of the band (reflected as needed). */
#define ACROSS_ROW_FX(i, h) \
  h = across_row_fx (cn, src + src_off + \
      reflect101 (y0 - RY + (i), height) * src_stride, xb, width, inside)

inline void
blur_fixed (const int cn, BLUR_ARGS)
{
  const int xb = get_global_id (0) * FXW;
  const int y0 = get_global_id (1) * FXBH;
  const int wb = width * cn, rxb = RX * cn;
  if (xb >= wb || y0 >= height)
    return;
  const bool inside = xb - rxb >= 0 && xb + FXW + rxb <= wb;

#if FXPAIRS
  /* Short kernels: all the band's input rows stay in registers, and each
   * output row adds symmetric pairs of them first (rhadd: one vpavgw), so
   * a pair costs one mul_hi; FY holds pair weights * 2, then the centre. */
  fx_us hs[FXBH + 2 * RY];
#pragma unroll
  for (int i = 0; i < FXBH + 2 * RY; i++)
    ACROSS_ROW_FX (i, hs[i]);
#pragma unroll
  for (int r = 0; r < FXBH; r++) {
    if (y0 + r >= height)
      break;
    fx_us acc = (fx_us) FXR + MULHI (hs[r + RY], fy[RY]);
#pragma unroll
    for (int j = 0; j < RY; j++)
      acc += MULHI (RHADD (hs[r + j], hs[r + KY - 1 - j]), fy[j]);
    store_fx (acc, dst + dst_off + (y0 + r) * dst_stride + xb, wb - xb);
  }
#else
  /* Tall kernels: each input row is added, weighted, into the band's
   * output rows as soon as it is computed (FY: the KY taps). */
  fx_us acc[FXBH];
#pragma unroll
  for (int r = 0; r < FXBH; r++)
    acc[r] = (fx_us) FXR;
  for (int i = 0; i < FXBH + 2 * RY; i++) {
    fx_us h;
    ACROSS_ROW_FX (i, h);
#pragma unroll
    for (int r = 0; r < FXBH; r++) {
      const int k = i - r;
      if (k >= 0 && k < KY)
        acc[r] += MULHI (h, fy[k]);
    }
  }
#pragma unroll
  for (int r = 0; r < FXBH; r++) {
    if (y0 + r >= height)
      break;
    store_fx (acc[r], dst + dst_off + (y0 + r) * dst_stride + xb, wb - xb);
  }
#endif
}

/* Rows: the same sums, in address order. Each work-item walks a band of
 * FXBH rows across a span of FXSPAN bytes, one input row at a time from
 * left to right, and keeps the last KY rows' horizontal results in a ring;
 * an output row is finished as its last input row passes. The frame is
 * read and the result written as one stream each, which the prefetchers
 * follow when the frame arrives from another core or from memory, and
 * every input row's horizontal pass runs once per band. */
#ifdef FXSPAN
#define FX_CHUNKS (FXSPAN / FXW)

/* Constant byte shuffles (clang's vector extensions, as PoCL builds these
 * widths): the row's end chunks and the inner chunks in pairs below.
 *
 * The row's two end chunks from one in-bounds load of 2 * FXW bytes and a
 * constant byte shuffle per tap, where the reflected taps fit that window
 * and number at most 8 a side (FX_EDGES_FIT). The general path gathered
 * the reflected span byte by byte and read it back from private memory (a
 * store-forwarding stall): about a third of the 640x480 kernel. Lane
 * indices must be constants, hence macros per channel count and tap. */
#if FXW == 32 || X86_AVX2
#define FX_SHUFFLES 1
#define FX_EDGES_FIT(cn) (RX <= 8 && RX * (cn) <= FXW / 2)
typedef uchar fx_win __attribute__ ((ext_vector_type (2 * FXW)));
typedef fx_win __attribute__ ((aligned (1))) fx_win_u1;

/* Byte @p of a window that starts the row (p < 0 reflects, per channel),
 * or ends it (p >= 2 * FXW reflects); masked so that the lanes of taps
 * that do not fit still compile (never run: FX_EDGES_FIT). */
/* Left: pixel -k becomes k, channel kept: 2 * channel - p. Right: pixel
 * n + k (n pixels in the window) becomes n - 2 - k, channel kept. Each
 * argument appears four times (the left's five before), for PoCL's
 * preprocessor: it runs over the
 * source each time PoCL looks the program up in its cache, and these
 * lanes were most of a 7x7 program's 940 KB, 0.45 s of the lookup on 2
 * cores (now 301 KB, 0.10-0.12 s; docs/PERFORMANCE.md, "Session 40"). */
#define FX_LEFT_BYTE(p, CN) (((p) >= 0 ? (p) : 2 * ((p) & ((CN) - 1)) - (p)) \
    & (2 * FXW - 1))
#define FX_RIGHT_BYTE(q, CN) (((q) < 2 * FXW ? (q) : 4 * FXW - 2 * (CN) - \
    (q) + 2 * ((q) & ((CN) - 1))) & (2 * FXW - 1))
#define FX_LEFT_LANE(i, D, CN) FX_LEFT_BYTE ((i) + (D), CN)
#define FX_RIGHT_LANE(i, D, CN) FX_RIGHT_BYTE (FXW + (i) + (D), CN)
/* @F of each lane by number, written out: lists built by nesting macros
 * had the preprocessor expand each argument once a level */
#define FX_LANES_0_15(F, D, CN) F (0, D, CN), F (1, D, CN), F (2, D, CN), \
    F (3, D, CN), F (4, D, CN), F (5, D, CN), F (6, D, CN), F (7, D, CN), \
    F (8, D, CN), F (9, D, CN), F (10, D, CN), F (11, D, CN), F (12, D, CN), \
    F (13, D, CN), F (14, D, CN), F (15, D, CN)
#define FX_LANES_16_31(F, D, CN) F (16, D, CN), F (17, D, CN), \
    F (18, D, CN), F (19, D, CN), F (20, D, CN), F (21, D, CN), \
    F (22, D, CN), F (23, D, CN), F (24, D, CN), F (25, D, CN), \
    F (26, D, CN), F (27, D, CN), F (28, D, CN), F (29, D, CN), \
    F (30, D, CN), F (31, D, CN)
#define FX_LANES_32_47(F, D, CN) F (32, D, CN), F (33, D, CN), \
    F (34, D, CN), F (35, D, CN), F (36, D, CN), F (37, D, CN), \
    F (38, D, CN), F (39, D, CN), F (40, D, CN), F (41, D, CN), \
    F (42, D, CN), F (43, D, CN), F (44, D, CN), F (45, D, CN), \
    F (46, D, CN), F (47, D, CN)
#define FX_LANES_48_63(F, D, CN) F (48, D, CN), F (49, D, CN), \
    F (50, D, CN), F (51, D, CN), F (52, D, CN), F (53, D, CN), \
    F (54, D, CN), F (55, D, CN), F (56, D, CN), F (57, D, CN), \
    F (58, D, CN), F (59, D, CN), F (60, D, CN), F (61, D, CN), \
    F (62, D, CN), F (63, D, CN)
/* FX_LANES: one chunk's FXW lanes, FX_LANES_W: a window's 2 * FXW */
#if FXW == 32
#define FX_LANES(F, D, CN) FX_LANES_0_15 (F, D, CN), FX_LANES_16_31 (F, D, CN)
#define FX_LANES_W(F, D, CN) FX_LANES (F, D, CN), FX_LANES_32_47 (F, D, CN), \
    FX_LANES_48_63 (F, D, CN)
#else
#define FX_LANES(F, D, CN) FX_LANES_0_15 (F, D, CN)
#define FX_LANES_W(F, D, CN) FX_LANES_0_15 (F, D, CN), FX_LANES_16_31 (F, D, CN)
#endif
/* The FXW bytes of tap @d (pixels) of the end chunk, widened */
#define FX_TAP(w, SIDE, d, CN) FX_US (__builtin_shufflevector (w, w, \
    FX_LANES (FX_##SIDE##_LANE, (d) * (CN), CN)))
/* Symmetric pair of taps at distance @d, as ACROSS_FX adds them */
#define FX_EDGE_PAIR(w, SIDE, d, CN) \
    o += MULHI ((FX_TAP (w, SIDE, -(d), CN) + FX_TAP (w, SIDE, d, CN)) \
        << (ushort) 7, fxp[RX - (d)]);
/* the pairs the kernel has (d <= RX), and no text for the others */
#define FX_NO_PAIR(w, SIDE, d, CN)
#if RX >= 1
#define FX_PAIR1 FX_EDGE_PAIR
#else
#define FX_PAIR1 FX_NO_PAIR
#endif
#if RX >= 2
#define FX_PAIR2 FX_EDGE_PAIR
#else
#define FX_PAIR2 FX_NO_PAIR
#endif
#if RX >= 3
#define FX_PAIR3 FX_EDGE_PAIR
#else
#define FX_PAIR3 FX_NO_PAIR
#endif
#if RX >= 4
#define FX_PAIR4 FX_EDGE_PAIR
#else
#define FX_PAIR4 FX_NO_PAIR
#endif
#if RX >= 5
#define FX_PAIR5 FX_EDGE_PAIR
#else
#define FX_PAIR5 FX_NO_PAIR
#endif
#if RX >= 6
#define FX_PAIR6 FX_EDGE_PAIR
#else
#define FX_PAIR6 FX_NO_PAIR
#endif
#if RX >= 7
#define FX_PAIR7 FX_EDGE_PAIR
#else
#define FX_PAIR7 FX_NO_PAIR
#endif
#if RX >= 8
#define FX_PAIR8 FX_EDGE_PAIR
#else
#define FX_PAIR8 FX_NO_PAIR
#endif
#define FX_DEFINE_EDGE(SIDE, CN) \
inline fx_us \
across_##SIDE##_##CN (const fx_win w) \
{ \
  fx_us o = MULHI (FX_TAP (w, SIDE, 0, CN) << (ushort) 8, FXC); \
  FX_PAIR1 (w, SIDE, 1, CN) FX_PAIR2 (w, SIDE, 2, CN) \
  FX_PAIR3 (w, SIDE, 3, CN) FX_PAIR4 (w, SIDE, 4, CN) \
  FX_PAIR5 (w, SIDE, 5, CN) FX_PAIR6 (w, SIDE, 6, CN) \
  FX_PAIR7 (w, SIDE, 7, CN) FX_PAIR8 (w, SIDE, 8, CN) \
  return o; \
}
FX_DEFINE_EDGE (LEFT, 1)
FX_DEFINE_EDGE (LEFT, 2)
FX_DEFINE_EDGE (LEFT, 4)
FX_DEFINE_EDGE (RIGHT, 1)
FX_DEFINE_EDGE (RIGHT, 2)
FX_DEFINE_EDGE (RIGHT, 4)

/* Horizontal pass of the row's first FXW bytes (@right: its last) */
inline fx_us
across_end_fx (const int cn, __global const uchar * row, int wb, bool right)
{
  const fx_win w = *(__global const fx_win_u1 *) (right ? row + wb - 2 * FXW :
      row);
  if (right)
    return cn == 1 ? across_RIGHT_1 (w) : cn == 2 ? across_RIGHT_2 (w) :
        across_RIGHT_4 (w);
  return cn == 1 ? across_LEFT_1 (w) : cn == 2 ? across_LEFT_2 (w) :
      across_LEFT_4 (w);
}

/* Inner chunks two at a time (2 * FXW bytes), each byte unpacked into the
 * high half of a 16-bit lane, as vpunpck{l,h}bw interleave (per 16 bytes:
 * bytes 0-7 into the low vector, 8-15 into the high one). That is the
 * byte already shifted left by 8, and a symmetric pair is one vpavgw of
 * two such lanes ((a + b) << 7, exact), where a chunk paid a shift for
 * the centre and an add and a shift a pair; the results' high bytes go
 * back in order by one pack. The same sums to the bit. */
/* byte e of half @H: zero (even e) or the window's byte (odd e) */
#define FX_UNPACK_LANE(e, H, unused) (((e) & 1) ? 2 * FXW + 16 * ((e) / 16) + \
    8 * (H) + ((e) / 2) % 8 : 0)
/* output byte j: the high byte of its lane in the low or high half */
#define FX_PACK_LANE(j, unused1, unused2) (((j) % 16) < 8 ? \
    2 * (8 * ((j) / 16) + (j) % 16) + 1 : \
    2 * FXW + 2 * (8 * ((j) / 16) + (j) % 16 - 8) + 1)
#define FX_HIGH_HALVES(v, H) __builtin_astype (__builtin_shufflevector ( \
    (fx_win) (0), v, FX_LANES_W (FX_UNPACK_LANE, H, 0)), fx_us)

/* Horizontal pass of the 2 * FXW bytes at @p (every tap inside the row) */
inline void
across_pair_fx (const int cn, __global const uchar * p, fx_us * lo,
    fx_us * hi)
{
  const fx_win c = *(__global const fx_win_u1 *) p;
  fx_us l = MULHI (FX_HIGH_HALVES (c, 0), FXC),
      h = MULHI (FX_HIGH_HALVES (c, 1), FXC);
#pragma unroll
  for (int j = 0; j < RX; j++) {
    const fx_win a = *(__global const fx_win_u1 *) (p + (j - RX) * cn),
        b = *(__global const fx_win_u1 *) (p + (RX - j) * cn);
    l += MULHI (RHADD (FX_HIGH_HALVES (a, 0), FX_HIGH_HALVES (b, 0)), fxp[j]);
    h += MULHI (RHADD (FX_HIGH_HALVES (a, 1), FX_HIGH_HALVES (b, 1)), fxp[j]);
  }
  *lo = l;
  *hi = h;
}

/* Stores the high bytes of @lo and @hi (8.8 results) in byte order */
inline void
store_pair_fx (fx_us lo, fx_us hi, __global uchar * d)
{
  *(__global fx_win_u1 *) d = __builtin_shufflevector (
      __builtin_astype (lo, fx_win), __builtin_astype (hi, fx_win),
      FX_LANES_W (FX_PACK_LANE, 0, 0));
}
#else
#define FX_SHUFFLES 0
#define FX_EDGES_FIT(cn) 0
#endif

/* The vertical sum of ring column @c (8.8, rounding added); @slot: the
 * ring's rows, oldest first */
inline fx_us
down_fx (fx_us * const *slot, int c)
{
#if FXPAIRS
  fx_us acc = (fx_us) FXR + MULHI (slot[RY][c], fy[RY]);
#pragma unroll
  for (int j = 0; j < RY; j++)
    acc += MULHI (RHADD (slot[j][c], slot[KY - 1 - j][c]), fy[j]);
#else
  fx_us acc = (fx_us) FXR;
#pragma unroll
  for (int k = 0; k < KY; k++)
    acc += MULHI (slot[k][c], fy[k]);
#endif
  return acc;
}

inline void
blur_fixed_rows (const int cn, BLUR_ARGS)
{
  const int x0 = get_global_id (0) * FXSPAN;
  const int y0 = get_global_id (1) * FXBH;
  const int wb = width * cn, rxb = RX * cn;
  if (x0 >= wb || y0 >= height)
    return;
  const int chunks = min (FX_CHUNKS, (wb - x0 + FXW - 1) / FXW);
  const int rows = min (FXBH, height - y0);
  /* Fast ends: the left chunk from the row's first 2 * FXW bytes. On the
   * right, when this work-item ends the row: the first chunk whose taps
   * reach past the row's end moves left until they do not, if more than
   * FXW bytes remain from it, and the last chunk ends at the row's end.
   * Moved chunks overlap their left neighbours (the same bytes written
   * twice) and stay within this work-item's span. */
  const bool fast_ends = FX_EDGES_FIT (cn) && wb >= 2 * FXW;
  const bool fast_right = fast_ends && x0 + FXSPAN >= wb &&
      wb - x0 >= FXW + rxb;
  fx_us ring[KY][FX_CHUNKS];

  for (int i = 0; i < rows + 2 * RY; i++) {
    __global const uchar *row =
        src + src_off + reflect101 (y0 - RY + i, height) * src_stride;
    /* ring rows of input rows i - KY + 1 .. i, oldest first: pointers
     * made once a row (indexing the ring by slot in the chunk loop cost
     * four address instructions a tap) */
    fx_us *slot[KY];
#pragma unroll
    for (int k = 0; k < KY; k++)
      slot[k] = ring[(i + 1 + k) % KY];
    const int r = i - 2 * RY;   /* output row finished by this input row */
    __global uchar *out = dst + dst_off + (y0 + r) * dst_stride;
    for (int c = 0; c < chunks; c++) {
      int xb = x0 + c * FXW;
#if FX_SHUFFLES
      if (c + 1 < chunks && xb - rxb >= 0 && xb + 2 * FXW + rxb <= wb) {
        fx_us lo, hi;
        across_pair_fx (cn, row + xb, &lo, &hi);
        slot[KY - 1][c] = lo;
        slot[KY - 1][c + 1] = hi;
        if (r >= 0)
          store_pair_fx (down_fx (slot, c), down_fx (slot, c + 1), out + xb);
        c++;
        continue;
      }
#endif
      bool right_end = false;
      if (fast_right && xb + FXW + rxb > wb) {
        if (wb - xb > FXW)
          xb = wb - FXW - rxb;  /* inside again; the end chunk follows */
        else
          right_end = true;
      }
      fx_us h;
#if FX_SHUFFLES
      if (right_end) {
        xb = wb - FXW;
        h = across_end_fx (cn, row, wb, true);
      } else if (fast_ends && xb < rxb) {
        h = across_end_fx (cn, row, wb, false);
      } else
#endif
        h = across_row_fx (cn, row, xb, width,
            xb - rxb >= 0 && xb + FXW + rxb <= wb);
      slot[KY - 1][c] = h;
      if (r >= 0)
        store_fx (down_fx (slot, c), out + xb, wb - xb);
      if (right_end)
        break;
    }
  }
}

#if WANT (blur_fixed_rows_c1)
__kernel void blur_fixed_rows_c1 (BLUR_ARGS) { blur_fixed_rows (1, BLUR_PASS); }
#endif
#if WANT (blur_fixed_rows_c2)
__kernel void blur_fixed_rows_c2 (BLUR_ARGS) { blur_fixed_rows (2, BLUR_PASS); }
#endif
#if WANT (blur_fixed_rows_c4)
__kernel void blur_fixed_rows_c4 (BLUR_ARGS) { blur_fixed_rows (4, BLUR_PASS); }
#endif
#endif

#if WANT (blur_fixed_c1)
__kernel void blur_fixed_c1 (BLUR_ARGS) { blur_fixed (1, BLUR_PASS); }
#endif
#if WANT (blur_fixed_c2)
__kernel void blur_fixed_c2 (BLUR_ARGS) { blur_fixed (2, BLUR_PASS); }
#endif
#if WANT (blur_fixed_c4)
__kernel void blur_fixed_c4 (BLUR_ARGS) { blur_fixed (4, BLUR_PASS); }
#endif
#endif
