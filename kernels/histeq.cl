/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Histogram equalisation of 8-bit luma, global (cv2.equalizeHist) and CLAHE
 * (cv2.createCLAHE), entirely on the device: histogram -> LUT -> apply, with
 * nothing read back. gst/ref/histeq.c is the reference of every kernel.
 *
 * A frame is split into tiles_x x tiles_y tiles of tw x th pixels over the
 * frame padded with reflect-101 (as OpenCV pads for CLAHE when the size is
 * not a multiple of the grid); global mode is one tile, the frame itself.
 *
 * Build options:
 *   -DNCOPIES=n   copies of the local histogram per work-group (power of
 *                 two); bin b of copy c lives at b * NCOPIES + c, so work-items
 *                 hitting the same bin (a flat frame) land in different banks
 *   -cl-fp32-correctly-rounded-divide-sqrt   (equalizeHist's scale is an
 *                 IEEE float division; bit-exactness needs it)
 *   -DPAR_TAIL=1  (GPUs) the frame-wide steps spread over the work-group
 *   -DCUT_WAIT=1, -DCLAHE_ONE=1 (GPUs) CLAHE's tiles' LUTs after the cut
 *                 in the histogram's launch, and the apply there too: below
 *   -DWARP_XCHG=1 (NVIDIA GPUs) the one-launch kernel's frame-step sums by
 *                 warps' shuffles (warp_tree_sum () below, by common.cl's
 *                 shfl_xor ())
 *
 * Kernels (suffix _c1: one byte per pixel; _c4: 4 bytes, luma from
 * (w.x*b0 + w.y*b1 + w.z*b2 + 128) >> 8 with the weights in @w):
 *   histeq_hist_cN    per (slice, tile) work-group: the luma histogram of
 *                     a slice of the tile's rows, into partial[tile][slice]
 *                     global = (local * slices, tiles), local = (L, 1)
 *   histeq_hist_serial_cN   the same for CPU devices: one work-item per group
 *                     global = (slices, tiles), local = (1, 1)
 *   histeq_hist_lut_cN, histeq_hist_lut_serial_cN   histogram, cut and LUT
 *                     in one launch (GPUs; CPUs in global mode): below
 *   histeq_equalize_serial_c1   histeq_hist_lut_serial_c1 and the apply
 *                     in one launch (CPUs, global mode): below
 *   histeq_equalize_c1   histeq_hist_lut_c1 and the apply in one launch
 *                     (GPUs, global mode): below
 *   histeq_clahe_one_c1   the same for CLAHE (GPUs, CLAHE_ONE): below
 *   histeq_cut        with smoothing on: scene-cut verdict and brightness
 *                     shift of the frame
 *                     global = local = (256)
 *   histeq_lut        per tile: sums the slices, clip (CLAHE), CDF,
 *                     temporal smoothing (reset on a cut) read at the
 *                     frame's brightness shift, strength;
 *                     writes lut[tile][256]
 *                     global = (256, tiles), local = (256, 1)
 *   histeq_cut_lut    histeq_cut then histeq_lut in one launch, global
 *                     mode (one tile), global = local = (256)
 *   histeq_apply_global_cN / histeq_apply_clahe_cN   16 pixels of a row
 *                     per work-item, global = (ceil(width / 16), height)
 *   histeq_copy       bytes of a plane (chroma), 16 per work-item
 */
#pragma OPENCL FP_CONTRACT OFF

#define BINS 256
/* Floats of temporal state per tile: the smoothed mapping. The frame's
 * state (smoothed pdf, valid, cut) follows the tiles'. */
#define TILE_STATE 256

/* reflect101 () comes from common.cl. */

/* rint() for 0 <= v < 2^23 without the library call (which PoCL does not
 * inline): adding 2^23 rounds to an integer, half to even, in the default
 * rounding mode. Exact, as FP_CONTRACT is off and no fast-math is used. */
#define RNE_MAGIC 8388608.0f
inline float
rne (float v)
{
  return (v + RNE_MAGIC) - RNE_MAGIC;
}

inline float4
rne4 (float4 v)
{
  return (v + RNE_MAGIC) - RNE_MAGIC;
}

inline uint
luma4 (uchar4 p, uint4 w)
{
  return (w.x * p.x + w.y * p.y + w.z * p.z + 128) >> 8;
}

#define LUMA_c1(row, x, w) ((uint) (row)[x])
#define LUMA_c4(row, x, w) luma4 (vload4 ((x), (row)), (w))

#define HIST_KERNEL(CN) \
__kernel void \
histeq_hist_##CN (__global const uchar * restrict src, uint src_off, \
    int src_stride, int width, int height, int tw, int th, int tiles_x, \
    int slices, uint4 w, __global uint * restrict partial) \
{ \
  __local uint h[NCOPIES * BINS]; \
  const int lid = get_local_id (0), lsize = get_local_size (0); \
  const int slice = get_group_id (0), tile = get_group_id (1); \
  const int tx = tile % tiles_x, ty = tile / tiles_x; \
  const int rows = (th + slices - 1) / slices; \
  const int y0 = slice * rows, y1 = min (y0 + rows, th); \
  const int copy = lid & (NCOPIES - 1); \
  for (int i = lid; i < NCOPIES * BINS; i += lsize) \
    h[i] = 0; \
  barrier (CLK_LOCAL_MEM_FENCE); \
  for (int y = y0; y < y1; y++) { \
    __global const uchar *row = src + src_off + \
        (size_t) reflect101 (ty * th + y, height) * src_stride; \
    for (int x = lid; x < tw; x += lsize) { \
      const uint v = LUMA_##CN (row, reflect101 (tx * tw + x, width), w); \
      atomic_inc (&h[v * NCOPIES + copy]); \
    } \
  } \
  barrier (CLK_LOCAL_MEM_FENCE); \
  __global uint *out = partial + ((size_t) tile * slices + slice) * BINS; \
  for (int b = lid; b < BINS; b += lsize) { \
    uint s = 0; \
    for (int c = 0; c < NCOPIES; c++) \
      s += h[b * NCOPIES + c]; \
    out[b] = s; \
  } \
}

#if WANT (histeq_hist_c1)
HIST_KERNEL (c1)
#endif
#if WANT (histeq_hist_c4)
HIST_KERNEL (c4)
#endif

/* The same histograms for CPU devices: one work-item per work-group, so no
 * atomics and no barriers (PoCL runs a group's items as loops on one core;
 * a locked increment per pixel costs more than the rest of the frame). Four
 * sub-histograms, by pixel position, break the store-to-load chain a flat
 * frame would make on one counter: a flat frame is no slower than noise.
 * global = (slices, tiles), local = (1, 1) */
#define HIST_SERIAL_ARGS \
    __global const uchar * restrict src, uint src_off, int src_stride, \
    int width, int height, int tw, int th, int tiles_x, int slices, uint4 w, \
    __global uint * restrict partial

/* Slice @slice of tile @tile (ints in scope) into @h (__local uint
 * [4 * BINS] in scope), then into partial[tile][slice]. */
#define HIST_SERIAL_SLICE(CN, BODY16) { \
  const int tx = tile % tiles_x, ty = tile / tiles_x; \
  const int rows = (th + slices - 1) / slices; \
  const int y0 = slice * rows, y1 = min (y0 + rows, th); \
  const int x0 = tx * tw; \
  /* pixels of the tile's rows inside the plane (the rest is padding) */ \
  const int direct = clamp (width - x0, 0, tw); \
  for (int i = 0; i < 4 * BINS; i++) \
    h[i] = 0; \
  for (int y = y0; y < y1; y++) { \
    __global const uchar *row = src + src_off + \
        (size_t) reflect101 (ty * th + y, height) * src_stride; \
    int x = 0; \
    for (; x + 4 <= direct; x += 4) { \
      BODY16 \
    } \
    for (; x < tw; x++) \
      h[(x & 3) * BINS + LUMA_##CN (row, reflect101 (x0 + x, width), w)]++; \
  } \
  __global uint *out = partial + ((size_t) tile * slices + slice) * BINS; \
  for (int b = 0; b < BINS; b++) \
    out[b] = h[b] + h[BINS + b] + h[2 * BINS + b] + h[3 * BINS + b]; \
}

/* This group's slice of its tile into partial[tile][slice]. */
#define HIST_SERIAL_BODY(CN, BODY16) \
  __local uint h[4 * BINS]; \
  const int slice = get_group_id (0), tile = get_group_id (1); \
  HIST_SERIAL_SLICE (CN, BODY16)

#define HIST_SERIAL_KERNEL(CN, BODY16) \
__kernel void \
histeq_hist_serial_##CN (HIST_SERIAL_ARGS) \
{ \
  HIST_SERIAL_BODY (CN, BODY16) \
}

#define SERIAL_ROWS_c1 \
    const uchar4 v = vload4 (0, row + x0 + x); \
    h[v.s0]++; h[BINS + v.s1]++; h[2 * BINS + v.s2]++; h[3 * BINS + v.s3]++;
#define SERIAL_ROWS_c4 \
    const uchar16 v = LOADU16_G (row + (x0 + x) * 4); \
    h[luma4 (v.s0123, w)]++; h[BINS + luma4 (v.s4567, w)]++; \
    h[2 * BINS + luma4 (v.s89ab, w)]++; h[3 * BINS + luma4 (v.scdef, w)]++;
#if WANT (histeq_hist_serial_c1)
HIST_SERIAL_KERNEL (c1, SERIAL_ROWS_c1)
#endif
#if WANT (histeq_hist_serial_c4)
HIST_SERIAL_KERNEL (c4, SERIAL_ROWS_c4)
#endif

/* The frame's state after the smoothed pdf (as gst/ref/gstclref.h) */
#define FS_VALID 256
#define FS_CUT 257
#define FS_SHIFT 258
#define FS_TARGET 259
#define FS_MAP 260
#define FS_TILES (FS_MAP + BINS)
/* Largest brightness shift tracked (levels): a camera's frame-to-frame
 * jitter. The CLAHE median shift has a resolution of 1/SHIFT_STEPS. */
#define MAX_SHIFT 4.0f
#define MAX_SHIFT_I 4
#define SHIFTS (2 * MAX_SHIFT_I + 1)   /* the whole shifts -4 .. 4 */
#define SHIFT_STEPS 256
#define SHIFT_BINS (2 * 4 * SHIFT_STEPS + 1)

/* equalizeHist's unrounded mapping of a histogram of @total pixels. */
inline void
equalize_map (__local const int *hist, int total, __local float *f)
{
  int i0 = 0;
  while (i0 < BINS - 1 && hist[i0] == 0)
    i0++;
  if (hist[i0] == total) {
    /* One value: equalizeHist leaves the frame as it is. */
    for (int j = 0; j < BINS; j++)
      f[j] = (float) j;
  } else {
    const float scale = 255.0f / (float) (total - hist[i0]);
    int sum = 0;
    for (int j = 0; j <= i0; j++)
      f[j] = 0.0f;
    for (int j = i0 + 1; j < BINS; j++) {
      sum += hist[j];
      f[j] = (float) sum *scale;
    }
  }
}

/* equalize_map ()'s value of bin @b from its inclusive prefix sum @sum,
 * for the group forms: the first non-empty bin (@at_first pixels) and
 * those before it map to 0; one value, the frame as it is. */
inline float
equalized_bin (int b, int sum, int at_first, int total)
{
  if (at_first == total)
    return (float) b;
  if (sum == 0)
    return 0.0f;
  return (float) (sum - at_first) * (255.0f / (float) (total - at_first));
}

/* Mapping @g read at @x, linear between bins, the end bins outside: one
 * float-to-int conversion, one pair of loads and selects, no branches.
 * Inside (0, 255) k is the floor of x (x > 0); at or below 0 the clamped k
 * is 0 and the value g[0]; at or above 255 k + 1 is 255 and the value
 * g[255]. */
inline float
shifted (__local const float *g, float x)
{
  const int k = clamp ((int) x, 0, BINS - 2);
  const float g0 = g[k], g1 = g[k + 1];
  const bool inside = x > 0.0f && x < (float) (BINS - 1);
  return inside ? g0 + (x - (float) k) * (g1 - g0) : x <= 0.0f ? g0 : g1;
}

/* The brightness shift (gst/ref/histeq.c, find_shift ()): the d for which
 * m (d) = sum_j p_j g (j - d) is the target. g is linear between bins, so
 * m is linear between whole shifts: its values there and one
 * interpolation give d exactly, where three Newton steps (until session
 * 31) were three dependent rounds of sums (docs/HISTEQ.md). */

/* bin @j's term (@v pixels, share @p) at whole shift i - MAX_SHIFT: the
 * mapping @g at j - (i - MAX_SHIFT), the end bins outside */
inline float
shift_term (__local const float *g, int j, int v, float p, int i)
{
  return v ? p * g[clamp (j + MAX_SHIFT_I - i, 0, BINS - 1)] : 0.0f;
}

/* the sum of block @w's 32 terms (bins 32 w ..) at whole shift @i -
 * MAX_SHIFT, in one work-item, pairs 16, 8, 4, 2 and 1 apart: the low
 * levels of block_tree_sum () in gst/ref/histeq.c (and a warp's butterfly
 * shuffles) */
inline float
shift_block_sum (__local const int *q, __local const float *g, float inv,
    int i, int w)
{
  float t[32];
  for (int j = 0; j < 32; j++) {
    const int bin = (w << 5) + j, v = q[bin];
    t[j] = shift_term (g, bin, v, (float) v * inv, i);
  }
  for (int s = 16; s > 0; s >>= 1)
    for (int j = 0; j < s; j++)
      t[j] += t[j + s];
  return t[0];
}

/* d from the blocks' sums (@blk: entry i * 8 + w, block w at whole shift
 * i - MAX_SHIFT; two vectors a shift) and the @target: m at each whole
 * shift (block_tree_sum ()'s last levels, blocks 4, 2 and 1 apart), then
 * solve_shift () of gst/ref/histeq.c: m[i] = m (i - MAX_SHIFT) does not
 * increase with i; d by linear interpolation in the first interval where
 * m[i] > target >= m[i + 1], clamped at the ends, 0 where m hardly moves
 * (a flat mapping). Unrolled with selects, so m stays in registers (a
 * loop with an early return put it on the stack). Every caller's items
 * get the same bits. */
inline float
shift_from_blocks (__local const float4 * blk, float target)
{
  float m[SHIFTS];
  UNROLL
  for (int i = 0; i < SHIFTS; i++) {
    const float4 y = blk[2 * i] + blk[2 * i + 1];
    m[i] = (y.s0 + y.s2) + (y.s1 + y.s3);
  }
  float hi = m[SHIFTS - 1], lo = m[SHIFTS - 1];
  int k = MAX_SHIFT_I;
  bool found = target >= m[0];
  UNROLL
  for (int i = 0; i < SHIFTS - 1; i++) {
    const bool here = !found && target >= m[i + 1];
    hi = here ? m[i] : hi;
    lo = here ? m[i + 1] : lo;
    k = here ? i - MAX_SHIFT_I : k;
    found = found || here;
  }
  const float d = target >= m[0] ? -MAX_SHIFT : k == MAX_SHIFT_I ?
      MAX_SHIFT : (float) k + (hi - target) / (hi - lo);
  return m[0] - m[SHIFTS - 1] > 8e-3f ? d : 0.0f;
}

/* @prev moved toward @now by @alpha, or @now alone after a scene cut
 * (@cut): the temporal smoothing of every pdf, mapping and LUT. */
inline float
smoothed (float prev, float now, float alpha, int cut)
{
  return cut ? now : prev + alpha * (now - prev);
}

/* Bin @j's LUT entry from its mapping @v, blended toward the identity by
 * @strength. */
inline uchar
lut_entry (float v, int j, float strength)
{
  const float o = strength >= 1.0f ? v : (float) j + strength * (v - (float) j);
  return convert_uchar_sat (rint (o));
}

/* Median of @n shifts, clamped to +-MAX_SHIFT (NaN to -MAX_SHIFT) and
 * quantised to 1/SHIFT_STEPS level: counted into bins, O(n). */
inline int
shift_bin (float d)
{
  const float v = d > -MAX_SHIFT ? (d < MAX_SHIFT ? d : MAX_SHIFT)
      : -MAX_SHIFT;
  return (int) ((v + MAX_SHIFT) * (float) SHIFT_STEPS + 0.5f);
}

/* the quantised bin of shift 0 */
#define ZERO_SHIFT_BIN (MAX_SHIFT_I * SHIFT_STEPS)

/* the shift of quantised bin @i */
inline float
shift_of_bin (int i)
{
  return (float) i / (float) SHIFT_STEPS - MAX_SHIFT;
}

/* the median's bin (the zero shift's if none) */
inline int
median_shift_bin (__global const float *d, int n, __local int *bins)
{
  int acc = 0;
  for (int i = 0; i < SHIFT_BINS; i++)
    bins[i] = 0;
  for (int k = 0; k < n; k++)
    bins[shift_bin (d[k])]++;
  for (int i = 0; i < SHIFT_BINS; i++) {
    acc += bins[i];
    if (2 * acc >= n)
      return i;
  }
  return ZERO_SHIFT_BIN;
}

/* tree_sum ()'s pairing (v[i] += v[i + s], s = 128, 64, ..., 1) in one
 * work-item: the order gst/ref/histeq.c sums in. Clobbers @v. */
inline float
tree_sum_serial (__local float *v)
{
  for (int s = BINS / 2; s > 0; s >>= 1)
    for (int i = 0; i < s; i++)
      v[i] += v[i + s];
  return v[0];
}

/* tree_sum ()'s first three levels (pairs 128, 64 and 32 apart) for entry
 * @i < 32 of @v */
inline float
tree_top (__local const float *v, int i)
{
  return ((v[i] + v[i + 128]) + (v[i + 64] + v[i + 192])) +
      ((v[i + 32] + v[i + 160]) + (v[i + 96] + v[i + 224]));
}

/* its last five levels on tree_top ()'s 32 values (@y: 8 vectors), by
 * every item in its registers: the sum without a barrier after. Vector
 * adds pair the same entries (y[i] + y[i + 16], then 8, 4, 2, 1 apart);
 * 8 broadcast loads an item, where 32 scalar ones by all 8 warps were 256
 * shared-memory loads a sum. */
inline float
tree_low (__local const float4 * y)
{
  const float4 u0 = (y[0] + y[4]) + (y[2] + y[6]);
  const float4 u1 = (y[1] + y[5]) + (y[3] + y[7]);
  const float4 w = u0 + u1;
  const float2 z = w.s01 + w.s23;
  return z.s0 + z.s1;
}

/* The sum of the integers @v[0 .. BINS - 1] (every item has written its
 * v[b]) to every item in two barriers: 16 items sum 16 entries each into
 * @part, then each item the 16 (exact in any order; a tree takes 6 to 8
 * barriers). @part is free again after the caller's next barrier. */
#define SUM_BINS(NAME, T) \
inline T \
NAME (__local const T * v, __local T * part) \
{ \
  const int b = get_local_id (0); \
  barrier (CLK_LOCAL_MEM_FENCE); \
  if (b < 16) { \
    T s = 0; \
    UNROLL \
    for (int j = 0; j < 16; j++) \
      s += v[b * 16 + j]; \
    part[b] = s; \
  } \
  barrier (CLK_LOCAL_MEM_FENCE); \
  T sum = 0; \
  UNROLL \
  for (int j = 0; j < 16; j++) \
    sum += part[j]; \
  return sum; \
}
SUM_BINS (sum_bins_int, int)
SUM_BINS (sum_bins_ulong, ulong)

#if PAR_TAIL
/* The same sums by the whole work-group (local size BINS); every work-item
 * has written its v[b]. Two levels of the tree a step, each item adding
 * its four values in the tree's pairs, (v[b] + v[b + s]) + (v[b + s/2] +
 * v[b + s/2 + s]): the same additions in the same order, with half the
 * barriers (the frame-wide step with smoothing is ~110 barriers on one
 * compute unit while every other group waits for it). */
#define TREE_STEP2(v, b, s) \
  ((v)[b] + (v)[(b) + (s)]) + ((v)[(b) + (s) / 2] + (v)[(b) + (s) / 2 + (s)])
#define TREE_SUM(NAME, T) \
inline T \
NAME (__local T * v) \
{ \
  const int b = get_local_id (0); \
  for (int s = BINS / 2; s > 1; s >>= 2) { \
    barrier (CLK_LOCAL_MEM_FENCE); \
    if (b < s / 2) \
      v[b] = TREE_STEP2 (v, b, s); \
  } \
  barrier (CLK_LOCAL_MEM_FENCE); \
  const T r = v[0]; \
  barrier (CLK_LOCAL_MEM_FENCE); \
  return r; \
}
TREE_SUM (tree_sum, float)

/* equalize_map () by the whole work-group: @hist becomes its inclusive
 * prefix sums (integers: exactly the serial loop's sums); @i0: a local int
 * for the first non-empty bin. */
inline void
equalize_map_group (__local int *hist, int total, __local float *f,
    __local int *i0)
{
  const int b = get_local_id (0);
  for (int off = 1; off < BINS; off <<= 1) {
    barrier (CLK_LOCAL_MEM_FENCE);
    const int t = b >= off ? hist[b - off] : 0;
    barrier (CLK_LOCAL_MEM_FENCE);
    hist[b] += t;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  const int sum = hist[b];
  /* the serial search stops at the last bin if all before it are empty */
  if ((sum > 0 && (b == 0 || hist[b - 1] == 0)) ||
      (b == BINS - 1 && sum == 0))
    *i0 = b;
  barrier (CLK_LOCAL_MEM_FENCE);
  /* the first non-empty bin's own count (none before it) */
  f[b] = equalized_bin (b, sum, hist[*i0], total);
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* The sum of chunk_sums16 ()'s first @n sums in @c (ints as bits) */
inline int
chunks_below (__local const float *c, int n)
{
  int s = 0;
  for (int j = 0; j < n; j++)
    s += as_int (c[j]);
  return s;
}

/* @c[i] = the sum of the ints @v[16 i .. 16 i + 15] (bits in floats), by
 * items 0 to 15, then a barrier */
inline void
chunk_sums16 (__local const float *v, __local float *c)
{
  const int b = get_local_id (0);
  if (b < BINS / 16) {
    int s = 0;
    for (int j = 0; j < 16; j++)
      s += as_int (v[b * 16 + j]);
    c[b] = as_float (s);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* lut_body ()'s CLAHE map (item 0's loops there, CPU devices) by the
 * whole work-group: the clip, its redistribution and the CDF, all in
 * integers, so the same values; 6 barriers where one item's ~800
 * sequential steps took most of a tile LUT's time (H200, 1080p: the LUT
 * launch of CLAHE with smoothing 0.014-0.015 -> 0.007 ms; bench.py
 * CLAHE kernel time 0.035 -> 0.024, docs/results/gpu-session24 run 5).
 * Clip 0 (none) runs the same steps with nothing clipped: no barrier
 * under a branch. @g: scratch (ints as bits). */
inline void
clahe_map_group (__local int *hist, int clip, float lut_scale,
    __local float *f, __local float *g)
{
  const int b = get_local_id (0);
  const int v = hist[b];
  g[b] = as_float (clip > 0 ? max (v - clip, 0) : 0);
  barrier (CLK_LOCAL_MEM_FENCE);
  chunk_sums16 (g, f);
  const int clipped = chunks_below (f, BINS / 16);
  const int batch = clipped / BINS, residual = clipped - batch * BINS;
  /* the serial loop adds 1 to bins 0, step, 2 step, ... while residual
   * lasts */
  const int step = max (BINS / max (residual, 1), 1);
  const int c = clip > 0 ? min (v, clip) + batch +
      (residual > 0 && b % step == 0 && b / step < residual) : v;
  barrier (CLK_LOCAL_MEM_FENCE);
  hist[b] = c;
  g[b] = as_float (c);
  barrier (CLK_LOCAL_MEM_FENCE);
  chunk_sums16 (g, f);
  int sum = chunks_below (f, b >> 4);
  for (int j = b & ~15; j <= b; j++)
    sum += as_int (g[j]);
  barrier (CLK_LOCAL_MEM_FENCE);
  f[b] = (float) sum * lut_scale;
}
#endif

/* The frame's temporal state, one work-group, run before histeq_lut when
 * smoothing is on.
 * Scene cut: the frame's histogram (sum of every tile's) is compared with
 * its smoothed pdf in total-variation distance; above @cut_threshold, or
 * on @reset, the frame is a cut and the smoothing restarts in every tile.
 * Brightness tracking: a smoothed mapping passes a camera's frame-to-frame
 * brightness jitter (and the mean of the sensor noise) on, amplified by its
 * slope, where equalising each frame on its own would cancel it. So every
 * tile reads its smoothed mapping at (level - d), d (0 on a cut) being:
 * - global: the frame's own equalizeHist mapping is smoothed here too, and
 *   d makes the frame, mapped by that at (level - d), have the smoothed
 *   mean of its own equalised output (which equalising alone pins);
 * - CLAHE: the median over the tiles of (tile mean - its smoothed mean): a
 *   jitter moves every tile, an object moving through a few does not move
 *   the median (a frame-wide estimate would brighten far tiles for it).
 * global = local = (256) */
/* Local memory of cut_body (): declared by the kernel (OpenCL 1.2 has no
 * __local variables in other functions). */
typedef struct
{
  int q[BINS], bins[SHIFT_BINS];
  float f[BINS], g[BINS], tm[BINS], ts[BINS];
  float4 blk[SHIFTS * 2];        /* the shift's block sums */
  float4 ym[8];                 /* tree_top ()'s 32 values of a sum */
  int part[16];                 /* sum_bins_int ()'s */
  float target_l;
  int cut_l, stop_l, i0_l;
} CutLocal;

/* The frame's part of histeq_cut in one work-item (CPU devices): scene
 * cut and smoothed pdf from the frame's histogram in L->q and, in global
 * mode (@clahe 0), the smoothed mapping, target mean and the brightness
 * shift (as find_shift () in gst/ref/histeq.c), all sums in the
 * reference's order. Sets L->cut_l for CLAHE's part. */
inline void
cut_serial (int clahe, float alpha, float cut_threshold, int reset,
    __global float * restrict frame_state, __local CutLocal * L)
{
  /* frame_state[0..255]: the smoothed pdf, [FS_MAP..]: the mapping */
  int count = 0;
  for (int j = 0; j < BINS; j++)
    count += L->q[j];
  const float inv = 1.0f / (float) count;
  int cut = reset || frame_state[FS_VALID] == 0.0f;
  for (int j = 0; j < BINS; j++)
    L->tm[j] = fabs ((float) L->q[j] * inv - frame_state[j]);
  if (0.5f * tree_sum_serial (L->tm) > cut_threshold)
    cut = 1;
  for (int j = 0; j < BINS; j++) {
    const float p = (float) L->q[j] * inv, pdf = frame_state[j];
    frame_state[j] = smoothed (pdf, p, alpha, cut);
  }
  frame_state[FS_VALID] = 1.0f;
  frame_state[FS_CUT] = cut ? 1.0f : 0.0f;
  L->cut_l = cut;
  if (clahe)
    return;

  equalize_map (L->q, count, L->f);
  for (int j = 0; j < BINS; j++) {
    const float g = frame_state[FS_MAP + j];
    L->ts[j] = ((float) L->q[j] * inv) * L->f[j];
    L->g[j] = smoothed (g, L->f[j], alpha, cut);
    frame_state[FS_MAP + j] = L->g[j];
  }
  const float own = tree_sum_serial (L->ts);
  float target = frame_state[FS_TARGET];
  target = smoothed (target, own, alpha, cut);
  frame_state[FS_TARGET] = target;
  float shift = 0.0f;
  if (!cut) {
    for (int k = 0; k < SHIFTS * 8; k++)
      ((__local float *) L->blk)[k] =
          shift_block_sum (L->q, L->g, inv, k >> 3, k & 7);
    shift = shift_from_blocks (L->blk, target);
  }
  frame_state[FS_SHIFT] = shift;
}

/* The frame's part of histeq_cut, for the whole work-group. Before it the
 * caller has put the frame's histogram in L->q and, for CLAHE, every
 * tile's mean level at frame_state[FS_TILES + tiles + tile] (they may come
 * from other work-groups of the same launch: read through a volatile
 * pointer). @par_median: the median shift computed by all work-items (the
 * same result as median_shift_bin (), for at most MEDIAN_PAR tiles). */
#define MEDIAN_PAR 1024
inline void
cut_body (int tiles, int clahe, float alpha, float cut_threshold, int reset,
    int par_median, __global float * restrict frame_state,
    __local CutLocal * L)
{
#define q L->q
#define bins L->bins
#define f L->f
#define g L->g
#define tm L->tm
#define ts L->ts
#define target_l L->target_l
#define cut_l L->cut_l
#define stop_l L->stop_l
#define i0_l L->i0_l
  const int b = get_local_id (0), lsize = get_local_size (0);
#if PAR_TAIL
  /* GPUs: every step spread over the work-group. In one work-item
   * (cut_serial ())
   * the sums, the map and the shift took ~0.02 ms a frame on an
   * H100, as long as the whole histogram launch. Integer sums and the scan
   * are exact in any order; float sums go through tree_sum (), the order of
   * tree_sum_serial () and of gst/ref/histeq.c, so all paths round alike.
   * Not on CPU devices: there the barriers cost more than they save (PoCL
   * 3.1, 2 cores, 1080p: the cut kernel 0.05 ms against 0.018). */
  const int qb = q[b];
  const float pdf_b = frame_state[b];
  float g_b = frame_state[FS_MAP + b];
  int is_cut = reset || frame_state[FS_VALID] == 0.0f;

  /* the count and the distance's sum (tree_top () and tree_low ():
   * tree_sum ()'s order) in two barriers each, where tree_sum () takes
   * six */
  bins[b] = qb;
  const int count = sum_bins_int (bins, L->part);
  const float inv = 1.0f / (float) count;
  const float p = (float) qb * inv;
  tm[b] = fabs (p - pdf_b);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (b < 32)
    ((__local float *) L->ym)[b] = tree_top (tm, b);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (0.5f * tree_low (L->ym) > cut_threshold)
    is_cut = 1;
  frame_state[b] = smoothed (pdf_b, p, alpha, is_cut);
  if (b == 0) {
    frame_state[FS_VALID] = 1.0f;
    frame_state[FS_CUT] = is_cut ? 1.0f : 0.0f;
    cut_l = is_cut;
  }
  if (!clahe) {
    bins[b] = qb;
    equalize_map_group (bins, count, f, &i0_l);
    const float fb = f[b];
    tm[b] = p * fb;
    const float own = tree_sum (tm);
    g_b = smoothed (g_b, fb, alpha, is_cut);
    g[b] = g_b;
    frame_state[FS_MAP + b] = g_b;
    if (b == 0) {
      float target = frame_state[FS_TARGET];
      target = smoothed (target, own, alpha, is_cut);
      frame_state[FS_TARGET] = target;
      target_l = target;
    }
    /* the shift's block sums by 72 items, once every bin's g is in */
    barrier (CLK_LOCAL_MEM_FENCE);
    if (b < SHIFTS * 8)
      ((__local float *) L->blk)[b] =
          shift_block_sum (q, g, inv, b >> 3, b & 7);
    barrier (CLK_LOCAL_MEM_FENCE);
    if (b == 0)
      frame_state[FS_SHIFT] = is_cut ? 0.0f :
          shift_from_blocks (L->blk, target_l);
    return;
  }
#else
  /* One work-item (CPU devices): cut_serial (), the same sums, once every
   * item's bin of L->q is in */
  barrier (CLK_LOCAL_MEM_FENCE);
  if (b == 0)
    cut_serial (clahe, alpha, cut_threshold, reset, frame_state, L);
  if (!clahe)
    return;
#endif

  /* CLAHE: every tile's mean level against its smoothed mean */
  barrier (CLK_LOCAL_MEM_FENCE);
  const int cut = cut_l;
  __global float *ms = frame_state + FS_TILES, *ds = ms + tiles;
  __global volatile const float *mus = ds;
  for (int k = b; k < tiles; k += lsize) {
    const float mu = mus[k], prev = ms[k];
    /* against the smoothed mean with this frame in, as the mappings are */
    const float m = smoothed (prev, mu, alpha, cut);
    ms[k] = m;
    ds[k] = mu - m;
  }
  barrier (CLK_GLOBAL_MEM_FENCE);
  if (par_median && tiles <= MEDIAN_PAR) {
    /* the smallest quantised shift that at least half the tiles do not
     * exceed: what median_shift_bin () finds by counting into bins */
    if (cut) {
      if (b == 0)
        frame_state[FS_SHIFT] = 0.0f;
      return;
    }
    if (b == 0)
      stop_l = SHIFT_BINS;
    for (int k = b; k < tiles; k += lsize)
      bins[k] = shift_bin (ds[k]);
    barrier (CLK_LOCAL_MEM_FENCE);
    for (int k = b; k < tiles; k += lsize) {
      int c = 0;
      for (int j = 0; j < tiles; j++)
        c += bins[j] <= bins[k];
      if (2 * c >= tiles)
        atomic_min (&stop_l, bins[k]);
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (b == 0)
      frame_state[FS_SHIFT] = shift_of_bin (stop_l);
    return;
  }
  /* stop_l: the median's bin here too (CLAHE's fused launch reads it) */
  if (b == 0) {
    const int bin = cut ? ZERO_SHIFT_BIN :
        median_shift_bin (ds, tiles, bins);
    stop_l = bin;
    frame_state[FS_SHIFT] = shift_of_bin (bin);
  }
#undef q
#undef bins
#undef f
#undef g
#undef tm
#undef ts
#undef target_l
#undef cut_l
#undef stop_l
#undef i0_l
}

#if WANT (histeq_cut)
__kernel void
histeq_cut (__global const uint * restrict partial, int tiles, int slices,
    int clahe, float alpha, float cut_threshold, int reset,
    __global float * restrict frame_state)
{
  __local CutLocal L;
  const int b = get_local_id (0), lsize = get_local_size (0);
  const int n_partials = tiles * slices;
  uint c = 0;

  for (int i = 0; i < n_partials; i++)
    c += partial[i * BINS + b];
  L.q[b] = (int) c;
  if (clahe) {
    /* every tile's mean level, where cut_body () expects it */
    __global float *mus = frame_state + FS_TILES + tiles;
    for (int k = b; k < tiles; k += lsize) {
      __global const uint *h = partial + (size_t) k * slices * BINS;
      ulong sum = 0;
      uint n = 0;
      for (int s = 0; s < slices; s++)
        for (int j = 0; j < BINS; j++) {
          const uint v = h[s * BINS + j];
          n += v;
          sum += (ulong) j * v;
        }
      mus[k] = (float) sum / (float) n;
    }
    barrier (CLK_GLOBAL_MEM_FENCE);
  }
  cut_body (tiles, clahe, alpha, cut_threshold, reset, 0, frame_state, &L);
}
#endif

/* CLAHE_QUAD 1 (the host's, GPUs): lut_body () also stores each CLAHE
 * tile's LUT into the quad table after the tiles' LUTs (@lut + tiles *
 * BINS): for each cell between tile centres ((tiles_x + 1) x (tiles_y + 1),
 * the borders' cells clamped to the edge tiles) and each level, one word
 * holding the four LUTs a pixel of that cell reads (top left, top right,
 * bottom left, bottom right, byte 0 first), so the apply reads one word a
 * pixel instead of four bytes from four tiles' LUTs. */
#ifndef CLAHE_QUAD
#define CLAHE_QUAD 0
#endif
/* the quad table, after the @tiles tiles' LUTs in @lut */
#define CLAHE_QUAD_TABLE(lut, tiles) ((lut) + (size_t) (tiles) * BINS)

/* Entry @e of tile @tile's LUT at level @b into the quad table @quad of
 * @tiles tiles, @tiles_x a row: the tile is the top (then bottom) of cell
 * rows ty + 1 (ty) and, at the frame's edge, 0 (tiles_y); left (right)
 * likewise across. */
inline void
clahe_quad_put (__global uchar * quad, int tile, int tiles_x, int tiles,
    int b, uchar e)
{
  const int tx = tile % tiles_x, ty = tile / tiles_x;
  const int tiles_y = tiles / tiles_x;
  for (int v = 0; v < 2; v++)
    for (int j = 0; j < 2; j++) {
      const int cy = j == 0 ? ty + 1 - v : v == 0 ? (ty == 0 ? 0 : -1) :
          (ty == tiles_y - 1 ? tiles_y : -1);
      for (int h = 0; h < 2 && cy >= 0; h++)
        for (int i = 0; i < 2; i++) {
          const int cx = i == 0 ? tx + 1 - h : h == 0 ? (tx == 0 ? 0 : -1) :
              (tx == tiles_x - 1 ? tiles_x : -1);
          if (cx >= 0)
            quad[(((size_t) cy * (tiles_x + 1) + cx) * BINS + b) * 4 +
                v * 2 + h] = e;
        }
    }
}

/* The tile's map into @f from its histogram @hist (clip for CLAHE, CDF):
 * lut_body_at ()'s first step, unless made before (@mapped there); @hist
 * is left changed (clipped, or in global mode its prefix sums), @g is
 * scratch */
inline void
tile_map (__local int *hist, int total, int clahe, int clip,
    float lut_scale, __local float *f, __local float *g, __local int *i0)
{
  const int b = get_local_id (0);

  /* 256 sequential steps per tile: cheaper than a parallel scan's barriers
   * on CPU devices, and exactly OpenCV's order of operations. On GPUs the
   * whole group computes the same integers. */
#if PAR_TAIL
  if (!clahe)
    equalize_map_group (hist, total, f, i0);
  else
    clahe_map_group (hist, clip, lut_scale, f, g);
#else
  if (b == 0) {
    if (clahe) {
      if (clip > 0) {
        int clipped = 0;
        for (int j = 0; j < BINS; j++)
          if (hist[j] > clip) {
            clipped += hist[j] - clip;
            hist[j] = clip;
          }
        const int batch = clipped / BINS;
        int residual = clipped - batch * BINS;
        for (int j = 0; j < BINS; j++)
          hist[j] += batch;
        if (residual != 0) {
          const int step = max (BINS / residual, 1);
          for (int j = 0; j < BINS && residual > 0; j += step, residual--)
            hist[j]++;
        }
      }
      int sum = 0;
      for (int j = 0; j < BINS; j++) {
        sum += hist[j];
        f[j] = (float) sum *lut_scale;
      }
    } else {
      equalize_map (hist, total, f);
    }
  }
#endif
}

/* @clahe: 0 global (equalizeHist), 1 CLAHE. @clip: OpenCV's integer clip
 * limit, 0 for none. @alpha: weight of the new frame in the temporal
 * smoothing, 1 for none; then histeq_cut ran first and its verdict is in
 * frame_state[FS_CUT], and its brightness shift in frame_state[FS_SHIFT]. */
/* The LUT of @tile from its histogram @hist (local, complete): clip
 * (CLAHE), CDF, temporal smoothing, strength; where CLAHE_QUAD, also
 * into the quad table of the @tiles tiles, @tiles_x a row. The frame's
 * @cut and shift @d and this item's entry of the tile's smoothed mapping
 * (@st_b, state[tile][b]) are given: CLAHE's fused launch takes them from
 * the cut's flag and reads @st_b before it waits, so no read of device
 * memory follows the wait; @mapped: @f holds tile_map ()'s already (made
 * there while the frame's histogram completes). @hist ends holding the
 * LUT's bytes. */
inline void
lut_body_at (int tile, __local int *hist, int total, int clahe, int clip,
    float lut_scale, float strength, float alpha, __global float * state,
    int cut, float d, float st_b, int mapped, __global uchar * lut,
    __local float *f, __local float *g, __local int *i0, int tiles_x,
    int tiles)
{
  const int b = get_local_id (0);

  if (!mapped)
    tile_map (hist, total, clahe, clip, lut_scale, f, g, i0);
  barrier (CLK_LOCAL_MEM_FENCE);

  /* Temporal smoothing and the frame's brightness shift (histeq_cut), one
   * bin per work-item (serially in one work-item, the global reads cost
   * ~0.1 ms per frame on the H200). */
  if (alpha < 1.0f) {
    const float v = smoothed (st_b, f[b], alpha, cut);
    state[(size_t) tile * TILE_STATE + b] = v;
    g[b] = v;
    barrier (CLK_LOCAL_MEM_FENCE);
    f[b] = shifted (g, (float) b - d);
  }

  const uchar e = lut_entry (f[b], b, strength);
  lut[(size_t) tile * BINS + b] = e;
  /* the LUT's words for CLAHE_LUT_MADE () to publish (@hist is done) */
  ((__local uchar *) hist)[b] = e;
#if CLAHE_QUAD
  if (clahe)
    clahe_quad_put (CLAHE_QUAD_TABLE (lut, tiles), tile, tiles_x, tiles, b,
        e);
#endif
}

/* lut_body_at () with the cut, the shift and the tile's state read from
 * @frame_state and @state (where @alpha < 1) */
inline void
lut_body (int tile, __local int *hist, int total, int clahe, int clip,
    float lut_scale, float strength, float alpha, __global float * state,
    __global const float * frame_state, __global uchar * lut,
    __local float *f, __local float *g, __local int *i0, int tiles_x,
    int tiles)
{
  int cut = 0;
  float d = 0.0f, st_b = 0.0f;
  if (alpha < 1.0f) {
    /* volatile: the fused launch (one tile) writes them in the same launch */
    volatile __global const float *fs = frame_state;
    cut = fs[FS_CUT] != 0.0f;
    d = fs[FS_SHIFT];
    st_b = state[(size_t) tile * TILE_STATE + get_local_id (0)];
  }
  lut_body_at (tile, hist, total, clahe, clip, lut_scale, strength, alpha,
      state, cut, d, st_b, 0, lut, f, g, i0, tiles_x, tiles);
}

/* ---- global mode's frame step and LUT with few barriers (GPUs) -------- */

/* cut_body () and lut_body () one after the other took some 80 barriers on
 * one group while every other group of the one-launch kernel waited (the
 * tree sums 6 each, the scan 19, the mapping computed twice): 3.8 us of
 * the H200's 1080p frame with smoothing, 1.2-1.4 us without (session 22's
 * trace). Here (H200, docs/results/gpu-session23 run 6: 1080p with
 * smoothing 0.017-0.018 -> 0.015-0.016 ms, 4K 0.025-0.026 -> 0.024) a sum
 * takes two barriers, the scan two, the shift one (session 31), and sums
 * that do not depend on each other share barriers. The same additions in
 * the same order, so the same bits. */

typedef struct
{
  int q[BINS];
  int2 chunk[BINS / 16];        /* a chunk's count and first non-zero bin's */
  float tm[BINS], tq[BINS], g[BINS], gs[BINS];
  float4 ym[8], yq[8];          /* tree_top ()'s 32 values of a sum */
  float4 blk[SHIFTS * 2];       /* the shift's block sums */
} FrameLocal;

#if WARP_XCHG
/* tree_sum () of @v by the first warp alone (lanes 0 .. 31, NVIDIA):
 * lane i's tree_top (), then tree_low ()'s levels by butterfly shuffles,
 * lane i adding lane i + 16's (i < 16), then 8, 4, 2 and 1 apart: the
 * pairs tree_low () adds, in its order (the upper lanes add the same
 * pairs the other way round, a + b being b + a), so every lane has the
 * sum, the same bits. */
inline float
warp_tree_sum (__local const float *v, int lane)
{
  float y = tree_top (v, lane);
  y = y + shfl_xor (y, 16);
  y = y + shfl_xor (y, 8);
  y = y + shfl_xor (y, 4);
  y = y + shfl_xor (y, 2);
  return y + shfl_xor (y, 1);
}
#endif

/* Global mode (one tile): the frame's histogram, @v being this item's bin,
 * to the LUT in @table (the group's) with, where @smooth, cut_body ()'s
 * frame state and lut_body ()'s tile state: what those two compute, for
 * the whole group (local size BINS). */
inline void
frame_lut_group (int v, int total, int smooth, float alpha,
    float cut_threshold, int reset, float strength,
    __global float * restrict frame_state, __global float * restrict state,
    __local FrameLocal * L, __local uchar * table)
{
  const int b = get_local_id (0), r = b & 15, chunk = b >> 4;
  /* the global reads first, their latency under the first sums */
  float pdf_b = 0.0f, map_b = 0.0f, st_b = 0.0f, target0 = 0.0f;
  float target = 0.0f;
  int is_cut = 0;
  if (smooth) {
    pdf_b = frame_state[b];
    map_b = frame_state[FS_MAP + b];
    st_b = state[b];
    target0 = frame_state[FS_TARGET];
    is_cut = reset || frame_state[FS_VALID] == 0.0f;
  }
  const float inv = 1.0f / (float) total;
  const float p = (float) v * inv;

  L->q[b] = v;
  L->tm[b] = fabs (p - pdf_b);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (b < 32)
    ((__local float *) L->ym)[b] = tree_top (L->tm, b);
  /* the scan (integers: any order is exact): this item's sum within its
   * chunk of 16 bins, then the chunks' below it; the chunk's 16 items load
   * the same vectors (broadcast) */
  __local const int4 *q4 = (__local const int4 *) L->q + (chunk << 2);
  __local const int4 *chunks4 = (__local const int4 *) L->chunk;
  int within = 0, chunk_sum = 0, chunk_first = 0;
  UNROLL
  for (int j = 0; j < 4; j++) {
    const int4 x = q4[j];
    const int k = j << 2;
    chunk_sum += (x.s0 + x.s1) + (x.s2 + x.s3);
    within += (k <= r ? x.s0 : 0) + (k + 1 <= r ? x.s1 : 0) +
        (k + 2 <= r ? x.s2 : 0) + (k + 3 <= r ? x.s3 : 0);
    chunk_first = chunk_first ? chunk_first : x.s0 ? x.s0 : x.s1 ? x.s1 :
        x.s2 ? x.s2 : x.s3;
  }
  if (r == 15)
    L->chunk[chunk] = (int2) (chunk_sum, chunk_first);
  barrier (CLK_LOCAL_MEM_FENCE);
  /* the chunks below this one's, and the first non-empty bin's count */
  int sum = within, at_first = 0;
  UNROLL
  for (int c = 0; c < BINS / 32; c++) {
    const int4 e = chunks4[c];
    sum += (2 * c < chunk ? e.s0 : 0) + (2 * c + 1 < chunk ? e.s2 : 0);
    at_first = at_first ? at_first : e.s1 ? e.s1 : e.s3;
  }
  const float fb = equalized_bin (b, sum, at_first, total);

  if (!smooth) {
    table[b] = lut_entry (fb, b, strength);
    return;
  }

  /* cut_body (): the cut, the smoothed pdf and mapping */
  if (0.5f * tree_low (L->ym) > cut_threshold)
    is_cut = 1;
  frame_state[b] = smoothed (pdf_b, p, alpha, is_cut);
  L->tq[b] = p * fb;
  const float g_b = smoothed (map_b, fb, alpha, is_cut);
  L->g[b] = g_b;
  frame_state[FS_MAP + b] = g_b;
  /* lut_body ()'s smoothing of the tile's mapping */
  const bool tile_smooth = alpha < 1.0f;
  if (tile_smooth) {
    const float s_b = smoothed (st_b, fb, alpha, is_cut);
    state[b] = s_b;
    L->gs[b] = s_b;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  /* the brightness shift (shift_from_blocks ()) from the block sums at
   * the 9 whole shifts, and the target's sum, in one barrier */
#if WARP_XCHG
  /* NVIDIA: each warp sums its 32 bins' terms by butterfly shuffles, all
   * 9 shifts side by side, and every warp sums the target itself (the
   * same bits in each). Three Newton steps took 0.7 us each on the H200,
   * their sums by the first warp between two barriers (gpu-session27). */
  {
    const int lane = b & 31, w = b >> 5;
    float y[SHIFTS];
    UNROLL
    for (int i = 0; i < SHIFTS; i++)
      y[i] = shift_term (L->g, b, v, p, i);
    UNROLL
    for (int s = 16; s > 0; s >>= 1) {
      UNROLL
      for (int i = 0; i < SHIFTS; i++)
        y[i] = y[i] + shfl_xor (y[i], s);
    }
    if (lane == 0) {
      UNROLL
      for (int i = 0; i < SHIFTS; i++)
        ((__local float *) L->blk)[i * 8 + w] = y[i];
    }
    target = smoothed (target0, warp_tree_sum (L->tq, lane), alpha, is_cut);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
#else
  if (b < SHIFTS * 8)
    ((__local float *) L->blk)[b] =
        shift_block_sum (L->q, L->g, inv, b >> 3, b & 7);
  if (b < 32)
    ((__local float *) L->yq)[b] = tree_top (L->tq, b);
  barrier (CLK_LOCAL_MEM_FENCE);
  target = smoothed (target0, tree_low (L->yq), alpha, is_cut);
#endif
  const float shift = is_cut ? 0.0f : shift_from_blocks (L->blk, target);
  if (b == 0) {
    frame_state[FS_VALID] = 1.0f;
    frame_state[FS_CUT] = is_cut ? 1.0f : 0.0f;
    frame_state[FS_TARGET] = target;
    frame_state[FS_SHIFT] = shift;
  }
  /* lut_body (): the smoothed mapping read at the shift */
  table[b] = lut_entry (tile_smooth ? shifted (L->gs, (float) b - shift) :
      fb, b, strength);
}

#if WANT (histeq_lut)
__kernel void
histeq_lut (__global const uint * restrict partial, int slices, int total,
    int clahe, int clip, float lut_scale, float strength, float alpha,
    __global float * restrict state, __global const float * restrict
    frame_state, __global uchar * restrict lut, int tiles_x)
{
  __local int hist[BINS];
  __local float f[BINS], g[BINS];
  __local int i0;
  const int b = get_local_id (0), tile = get_group_id (1);
  __global const uint *p = partial + (size_t) tile * slices * BINS + b;
  uint c = 0;

  for (int s = 0; s < slices; s++)
    c += p[s * BINS];
  hist[b] = c;
  barrier (CLK_LOCAL_MEM_FENCE);
  lut_body (tile, hist, total, clahe, clip, lut_scale, strength, alpha, state,
      frame_state, lut, f, g, &i0, tiles_x, (int) get_num_groups (1));
}
#endif

/* Global mode with smoothing, one launch for histeq_cut then histeq_lut
 * (CPU devices, where each launch costs ~0.1 ms of worker wake-ups in a
 * pipeline, more than both kernels): the same bodies, with a barrier
 * between them for cut_body ()'s verdict and shift in @frame_state. The
 * arguments start as histeq_cut's (@tiles 1, @clahe 0 here).
 * global = local = (256) */
#if WANT (histeq_cut_lut)
__kernel __attribute__ ((reqd_work_group_size (BINS, 1, 1))) void
histeq_cut_lut (__global const uint * restrict partial, int tiles, int slices,
    int clahe, float alpha, float cut_threshold, int reset,
    __global float * restrict frame_state, int total, float lut_scale,
    float strength, __global float * restrict state,
    __global uchar * restrict lut)
{
  __local CutLocal L;
  __local int hist[BINS];
  __local float f[BINS], g[BINS];
  __local int i0;
  const int b = get_local_id (0);
  uint c = 0;

  for (int s = 0; s < slices; s++)
    c += partial[s * BINS + b];
  L.q[b] = (int) c;
  hist[b] = (int) c;
  cut_body (1, 0, alpha, cut_threshold, reset, 0, frame_state, &L);
  barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  lut_body (0, hist, total, 0, 0, lut_scale, strength, alpha, state,
      frame_state, lut, f, g, &i0, 1, 1);
}
#endif

/* ---- fused: histogram, scene cut and LUT in one launch (GPUs) ---------- */

/* The launches before the apply were a chain of small latency-bound
 * kernels (H200, 1080p: histogram 0.035 ms on 64 work-groups, cut 0.013,
 * LUT 0.012-0.019, against a 0.005 ms read+write floor). Here many groups
 * (several per compute unit) each add their local histogram into the
 * tile's global one (@ghist, zero between frames) with atomics, and the
 * last group of a tile to finish (an atomic counter per tile, after a
 * global fence) takes the sum, resetting @ghist and the counter for the
 * next frame, and finishes the job in the same launch:
 * - @smooth 0: the tile's LUT;
 * - @smooth 1 (one tile, global mode): the scene cut and the LUT;
 * - @smooth 2 (CLAHE): the tile's histogram into @partial, its mean level
 *   (for the cut) and its share of the frame's histogram (@ghist's last
 *   row); the last tile (a frame counter) runs the scene cut. Where
 *   CUT_WAIT (GPUs), it publishes the cut (counters[tiles + 1] =
 *   CUT_WORD (): the tag, the cut and the median shift's bin), the other
 *   tiles' last groups wait for it (await_flag_bits (), their claims
 *   at counters[tiles + 2 + tile]) and make their tiles' LUTs, and the
 *   cut's maker makes its own and those given up: the LUT launch after
 *   the cut (histeq_lut, which follows where not CUT_WAIT) cost some
 *   0.005-0.008 ms of 0.024 at 1080p (H200, gpu-session24).
 * The sums are integers, so the order of the atomics changes nothing:
 * bit-identical to the other path. @partial gets each tile's histogram
 * ([tiles][256], one slice) in every mode. The groups also copy the rows
 * of up to two more planes (@cp0, @cp1: src offset, src stride, dst offset,
 * dst stride, width in bytes, height; height 0: none) from @src to @dst:
 * NV12 or I420 chroma, which took a launch of its own.
 * global = (256 * slices, tiles), local = (256, 1); @ghist: tiles + 1
 * rows of 256, @counters: 2 tiles + 2 */
/* Adds @v to *@p and uses the old value, so the add is complete in device
 * memory by the next barrier. Unused, NVIDIA issues a fire-and-forget
 * reduction that neither the barrier nor mem_fence (work-group scope
 * there) waits for: the tile's last group then summed a bin before
 * another group's add had landed (H200: bin 0 of a 640x480 frame 14
 * short). The old value of a bin never reaches 2^32 - 1 (a tile has
 * fewer pixels), so @sink is never written. */
inline void
add_complete (volatile __global uint * p, uint v, volatile __local uint * sink)
{
  if (atomic_add (p, v) == 0xffffffffu)
    *sink = 1;
}

/* polls of a flag before a group gives up waiting (a -D: 0 makes every
 * waiter give up, the checkers' test of the marks) */
#ifndef EQG_MAX_POLLS
#define EQG_MAX_POLLS 4096
#endif

/* await_flag_bits (): item 0 of a group that waits for *@flag >> @low ==
 * @key, the flag's bits below @low a payload: (1 when seen, the flag's
 * last value read); await_flag (): for *@flag == @tag, which a group of the
 * same launch sets once it has done what the waiter needs: 1 when seen.
 * No group waits on a group that might not be running: bounded by
 * EQG_MAX_POLLS, the waiter then gives its work up (*@claim = ~@tag)
 * before it looks at the flag a last time; 0: given up, the flag's writer
 * claims it (~@tag to @tag) once the flag is out and does it. Published
 * since, the work is the writer's or the waiter's, whoever claims it
 * first. Seen, what the writer stored by atomics (old values used) before
 * the flag is in L2 for volatile reads; an atomic read as well would cost
 * every waiter another trip to L2. @tag (and @key) differs from the last
 * frame's, so nothing is reset between frames. */
inline uint2
await_flag_bits (__global uint * flag, __global uint * claim, uint tag,
    uint key, int low, volatile __local uint * sink)
{
  volatile __global const uint *polled = flag;
  bool seen = false;
  uint w = 0;
  for (int i = 0; i < EQG_MAX_POLLS && !(seen = ((w = *polled) >> low) == key);
      i++)
    ;
  if (!seen)
    seen = ((w = atomic_add (flag, 0)) >> low) == key;
  if (seen)
    return (uint2) (1, w);
  if (atomic_xchg (claim, ~tag) == ~tag)
    *sink = 1;
  w = atomic_add (flag, 0);
  return (uint2) ((w >> low) == key &&
      atomic_cmpxchg (claim, ~tag, tag) == ~tag, w);
}

inline int
await_flag (__global uint * flag, __global uint * claim, uint tag,
    volatile __local uint * sink)
{
  return (int) await_flag_bits (flag, claim, tag, tag, 0, sink).x;
}

/* @checkpoint (not NULL): the temporal state as it was before this frame,
 * in @state's layout (the frame's state after the tiles'), kept so that a
 * frame that fails can run again from it on another device. A copy
 * command before the launch cost the H200 8.5 us a frame, against 5.5 for
 * the launch (bench/copy_cost.c, gpu-session39), so the launch keeps it:
 * a tile's slice 0 saves the tile's part before it is counted, so before
 * the tile's last group (or the frame's cut, after every tile's) changes
 * any of it; tile 0's also saves the frame's part. */
inline void
save_tile_state (__global float * restrict checkpoint,
    __global const float * restrict state,
    __global const float * restrict frame_state, int tile, int tiles,
    int lid)
{
  __global float *saved_frame = checkpoint + (size_t) tiles * TILE_STATE;
  /* TILE_STATE is BINS: a float an item */
  const size_t at = (size_t) tile * TILE_STATE + lid;

  checkpoint[at] = state[at];
  if (lid == 0) {
    saved_frame[FS_TILES + tile] = frame_state[FS_TILES + tile];
    saved_frame[FS_TILES + tiles + tile] =
        frame_state[FS_TILES + tiles + tile];
  }
  if (tile == 0)
    for (int i = lid; i < FS_TILES; i += BINS)
      saved_frame[i] = frame_state[i];
}

/* The group's part of a fused launch (histeq_hist_lut_cN, histeq_equalize_c1):
 * slice @slice of tile @tile's rows into row @GROW of @ghist (the tile's,
 * or one of its copies), its share of the copied planes, then is_last:
 * whether it is the tile's last group to finish. In scope: the kernels'
 * arguments, lid, lsize, tx, ty and the __local h, sink and last. */
#define FUSED_SLICE(CN, GROW) \
  const int rows = (th + slices - 1) / slices; \
  const int y0 = slice * rows, y1 = min (y0 + rows, th); \
  const int copy = lid & (NCOPIES - 1); \
  for (int i = lid; i < NCOPIES * BINS; i += lsize) \
    h[i] = 0; \
  barrier (CLK_LOCAL_MEM_FENCE); \
  HIST_TILE_##CN \
  /* the planes copied unchanged (chroma), a share per group: no launch */ \
  copy_rows (src, dst, cp0, tile * slices + slice, tiles * slices); \
  copy_rows (src, dst, cp1, tile * slices + slice, tiles * slices); \
  barrier (CLK_LOCAL_MEM_FENCE); \
  uint sum = 0; \
  for (int c = 0; c < NCOPIES; c++) \
    sum += h[lid * NCOPIES + c]; \
  if (sum) \
    add_complete (&ghist[(GROW) * BINS + lid], sum, &sink); \
  if (checkpoint && slice == 0) \
    save_tile_state (checkpoint, state, frame_state, tile, tiles, lid); \
  /* this group's additions (and saved state) are done before it is \
   * counted (the fence: visible to the whole device, not just the group) */ \
  mem_fence (CLK_GLOBAL_MEM_FENCE); \
  barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
  if (lid == 0) \
    last = atomic_inc (&counters[tile]) == (uint) slices - 1; \
  barrier (CLK_LOCAL_MEM_FENCE); \
  /* branch on a private copy (see frame_last below) */ \
  const int is_last = last;

/* The tile's last group: the sum @V (taken from @ghist, which it leaves
 * zero) into partial, and the tile's counter zeroed for the next frame;
 * FUSED_TAKE_SUM: the tile's sum taken, also into hist for lut_body (). */
#define FUSED_KEEP_SUM(V) \
  partial[tile * BINS + lid] = (V); \
  if (lid == 0) \
    counters[tile] = 0;
#define FUSED_TAKE_SUM \
  const uint v = atomic_xchg (&ghist[tile * BINS + lid], 0); \
  hist[lid] = v; \
  FUSED_KEEP_SUM (v)

/* CUT_WAIT (a -D, the host's: GPUs) 1: CLAHE's tiles wait for the cut in
 * histeq_hist_lut (@smooth 2) and make their LUTs there; 0: the cut's
 * maker returns after it, and histeq_lut follows. PoCL 3.1 took minutes
 * to compile the kernel with the wait (its copies of the code after
 * branches that hold barriers), so CPU devices leave it out. */
#ifndef CUT_WAIT
#define CUT_WAIT 0
#endif

/* CLAHE's cut flag where CUT_WAIT: the frame's tag in its bits from
 * CUT_KEY_LOW up, the cut in bit 12 and the median shift's bin below
 * (SHIFT_BINS < 4096), so a tile's LUT reads nothing else once the flag
 * is seen (the cut and the shift stored again and read back after it
 * were two more trips to L2 on the frame's critical path) */
#define CUT_KEY_LOW 13
#define CUT_KEY(tag) ((tag) & (0xffffffffu >> CUT_KEY_LOW))
#define CUT_WORD(tag, cut, bin) ((CUT_KEY (tag) << CUT_KEY_LOW) | \
    ((uint) (cut) << 12) | (uint) (bin))
#define CUT_WORD_CUT(w) ((int) (((w) >> 12) & 1))
#define CUT_WORD_SHIFT(w) \
  (CUT_WORD_CUT (w) ? 0.0f : shift_of_bin ((int) ((w) & 0xfff)))

#define FUSED_KERNEL(NAME, CN, ONE_ARGS, ONE_LOCALS, LUT_MADE, ONE_TAIL) \
__kernel __attribute__ ((reqd_work_group_size (BINS, 1, 1))) void \
NAME (__global const uchar * restrict src, uint src_off, \
    int src_stride, int width, int height, int tw, int th, int tiles_x, \
    int slices, uint4 w, __global uint * restrict ghist, \
    __global uint * restrict counters, __global uint * restrict partial, \
    int tiles, int total, int clahe, int clip, float lut_scale, \
    float strength, float alpha, float cut_threshold, int reset, \
    int smooth, __global float * restrict state, \
    __global float * restrict frame_state, __global uchar * restrict lut, \
    __global uchar * restrict dst, int8 cp0, int8 cp1, \
    __global float * restrict checkpoint, uint tag ONE_ARGS) \
{ \
  __local uint h[NCOPIES * BINS]; \
  __local int hist[BINS]; \
  __local float f[BINS], g[BINS]; \
  __local CutLocal L; \
  __local int last, frame_last, i0, ready; \
  __local uint sink; \
  __local int given_up, next_tile; \
  __local ulong rsum[BINS], rpart[16]; \
  __local uint cut_word; \
  ONE_LOCALS \
  const int lid = get_local_id (0), lsize = BINS; \
  const int slice = get_group_id (0), tile = get_group_id (1); \
  const int tx = tile % tiles_x, ty = tile / tiles_x; \
  do { \
  FUSED_SLICE (CN, tile) \
  if (!is_last) \
    break; \
  FUSED_TAKE_SUM \
  if (smooth == 0) { \
    barrier (CLK_LOCAL_MEM_FENCE); \
    lut_body (tile, hist, total, clahe, clip, lut_scale, strength, 1.0f, \
        state, frame_state, lut, f, g, &i0, tiles_x, tiles); \
    LUT_MADE (tile) \
    break; \
  } \
  if (clahe) { \
    /* the tile's mean level for the cut (two barriers, where a tree \
     * took eight on the frame's critical path); a tile's histogram counts \
     * its @total pixels, the padding's included */ \
    rsum[lid] = (ulong) lid * v; \
    const ulong level_sum = sum_bins_ulong (rsum, rpart); \
    if (lid == 0) \
      frame_state[FS_TILES + tiles + tile] = (float) level_sum / \
          (float) total; \
  } \
  if (smooth == 2) { \
    /* the frame's histogram; the last tile to add into it runs the scene \
     * cut and publishes it, the other tiles' groups wait for it (their \
     * claims at counters[tiles + 2 + tile]) */ \
    __global uint *cut_flag = counters + tiles + 1; \
    __global uint *claims = counters + tiles + 2; \
    /* the tile's smoothed mapping, read while the frame completes */ \
    const float st_b = state[(size_t) tile * TILE_STATE + lid]; \
    /* add_complete () with the tile's map made while the add is in flight \
     * (its old value used after), not after the cut's flag: the waiters' \
     * LUT is then the smoothing alone */ \
    const uint add_old = v ? atomic_add (&ghist[tiles * BINS + lid], v) : 0; \
    if (CUT_WAIT) \
      tile_map (hist, total, clahe, clip, lut_scale, f, g, &i0); \
    if (add_old == 0xffffffffu) \
      sink = 1; \
    mem_fence (CLK_GLOBAL_MEM_FENCE); \
    barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
    if (lid == 0) \
      frame_last = atomic_inc (&counters[tiles]) + 1 == (uint) tiles; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    /* Branching on the local flag itself, PoCL 3.1 ran the code between \
     * the branch and cut_body ()'s first barrier for one work-item only \
     * (the counter was never reset): a private copy, and the work before \
     * the barrier done by every item under the flag. */ \
    const int fl = frame_last; \
    if (!fl) { \
      if (CUT_WAIT) { \
        if (lid == 0) { \
          const uint2 seen = await_flag_bits (cut_flag, &claims[tile], tag, \
              CUT_KEY (tag), CUT_KEY_LOW, &sink); \
          ready = (int) seen.x; \
          cut_word = seen.y; \
        } \
        barrier (CLK_LOCAL_MEM_FENCE); \
        const int go = ready; \
        if (go) { \
          const uint cw = cut_word; \
          lut_body_at (tile, hist, total, clahe, clip, lut_scale, strength, \
              alpha, state, CUT_WORD_CUT (cw), CUT_WORD_SHIFT (cw), st_b, \
              1, lut, f, g, &i0, tiles_x, tiles); \
          LUT_MADE (tile) \
        } \
      } \
      break; \
    } \
    if (lid == 0) \
      counters[tiles] = 0; \
    L.q[lid] = atomic_xchg (&ghist[tiles * BINS + lid], 0); \
    barrier (CLK_LOCAL_MEM_FENCE); \
    cut_body (tiles, clahe, alpha, cut_threshold, reset, 1, frame_state, \
        &L); \
    if (!CUT_WAIT) \
      break; \
    /* the cut and the median's bin (cut_body ()'s) in the flag */ \
    barrier (CLK_LOCAL_MEM_FENCE); \
    const int cut = L.cut_l; \
    const uint cw = CUT_WORD (tag, cut, cut ? 0 : L.stop_l); \
    if (lid == 0) { \
      const uint flag_old = atomic_xchg (cut_flag, cw); \
      /* the flag is out (its old value used) before the claims are read \
       * below */ \
      if (flag_old == cw) \
        sink = 1; \
    } \
    barrier (CLK_LOCAL_MEM_FENCE); \
    /* its own tile's LUT, then one at a time those of tiles whose groups \
     * gave up waiting (normally none) */ \
    for (int t = tile; t >= 0; ) { \
      /* another tile's histogram, counted before that tile was (a fence \
       * between) */ \
      if (t != tile) \
        hist[lid] = ((volatile __global const int *) partial)[t * BINS + \
            lid]; \
      barrier (CLK_LOCAL_MEM_FENCE); \
      lut_body_at (t, hist, total, clahe, clip, lut_scale, strength, alpha, \
          state, cut, CUT_WORD_SHIFT (cw), t == tile ? st_b : \
          state[(size_t) t * TILE_STATE + lid], t == tile, lut, \
          f, g, &i0, tiles_x, tiles); \
      LUT_MADE (t) \
      /* the lowest tile given up, if any */ \
      if (lid == 0) \
        given_up = tiles; \
      barrier (CLK_LOCAL_MEM_FENCE); \
      for (int u = lid; u < tiles; u += BINS) \
        if (((volatile __global const uint *) claims)[u] == ~tag) \
          atomic_min (&given_up, u); \
      barrier (CLK_LOCAL_MEM_FENCE); \
      /* claimed from there on (one taken back by its group meanwhile is \
       * that group's; those below were not given up when looked at, and \
       * a group giving up now sees the flag and takes its tile back) */ \
      if (lid == 0) { \
        int next = -1; \
        for (int u = given_up; u < tiles && next < 0; u++) \
          if (atomic_cmpxchg (&claims[u], ~tag, tag) == ~tag) \
            next = u; \
        next_tile = next; \
      } \
      barrier (CLK_LOCAL_MEM_FENCE); \
      t = next_tile; \
    } \
    break; \
  } \
  /* one tile: its last group is the frame's */ \
  L.q[lid] = v; \
  barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
  cut_body (tiles, clahe, alpha, cut_threshold, reset, 1, frame_state, &L); \
  barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
  lut_body (tile, hist, total, clahe, clip, lut_scale, strength, alpha, \
      state, frame_state, lut, f, g, &i0, tiles_x, tiles); \
  LUT_MADE (tile) \
  } while (0); \
  ONE_TAIL \
}

/* Rows @gi, @gi + @n, ... of plane @p = (src offset, src stride, dst
 * offset, dst stride, width in bytes, height), copied 16 bytes per item
 * (the work-group's items share each row). */
inline void
copy_rows (__global const uchar * src, __global uchar * dst, int8 p, int gi,
    int n)
{
  const int lid = get_local_id (0);
  const bool a16 = planes_aligned16 (src + (uint) p.s0, p.s1,
      dst + (uint) p.s2, p.s3);
  for (int r = gi; r < p.s5; r += n) {
    __global const uchar *s = src + (uint) p.s0 + (size_t) r * p.s1;
    __global uchar *d = dst + (uint) p.s2 + (size_t) r * p.s3;
    for (int x = 16 * lid; x < p.s4; x += 16 * (int) get_local_size (0)) {
      if (x + 16 <= p.s4) {
        STORE16_G (a16, LOAD16_G (a16, s + x), d + x);
      } else {
        for (int i = x; i < p.s4; i++)
          d[i] = s[i];
      }
    }
  }
}

/* The 16 bytes of @v into copy @copy of the histogram @h */
#define HIST16(h, copy, v) do { \
    atomic_inc (&(h)[(v).s0 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s1 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s2 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s3 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s4 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s5 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s6 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s7 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s8 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).s9 * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).sa * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).sb * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).sc * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).sd * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).se * NCOPIES + (copy)]); \
    atomic_inc (&(h)[(v).sf * NCOPIES + (copy)]); \
  } while (0)

/* Rows @y0 .. @y1 - 1 of @n bytes at @p (stride @stride, every row
 * start 16-byte aligned) into @h: 16 bytes an item, the group's items
 * spread over the rows and their 16-byte chunks together, so a narrow
 * slice leaves no item idle. A uchar4 an item kept too few loads in
 * flight: the 4K histogram ran at a third of the read floor (H200). */
inline void
hist_rows16_c1 (__local uint * h, int copy, __global const uchar * p,
    int stride, int n, int y0, int y1)
{
  const int chunks = (n + 15) >> 4, count = chunks * (y1 - y0);
  for (int i = get_local_id (0); i < count; i += get_local_size (0)) {
    const int r = i / chunks, x = (i - r * chunks) << 4;
    __global const uchar *s = p + (size_t) (y0 + r) * stride + x;
    if (x + 16 <= n) {
      const uchar16 v = *(__global const uchar16 *) s;
      HIST16 (h, copy, v);
    } else {
      for (int k = 0; k < n - x; k++)
        atomic_inc (&h[s[k] * NCOPIES + copy]);
    }
  }
}

/* The group's rows y0 .. y1 - 1 of the tile into h: through
 * hist_rows16_c1 () where the tile lies inside the plane and its rows are
 * 16-byte aligned (global mode on our pools' frames), else a row at a
 * time, one byte per item and step (c4: one pixel), or for c1 4 bytes
 * per item where they lie inside the plane (the padding of the last
 * tiles is reflected byte by byte). */
#define HIST_TILE_c1 { \
    const int x0 = tx * tw; \
    __global const uchar *tile0 = src + src_off + x0 + \
        (size_t) (ty * th) * src_stride; \
    if (x0 + tw <= width && ty * th + y1 <= height && \
        rows_aligned16 (tile0, src_stride)) { \
      hist_rows16_c1 (h, copy, tile0, src_stride, tw, y0, y1); \
    } else { \
      const int direct = clamp (width - x0, 0, tw) & ~3; \
      for (int y = y0; y < y1; y++) { \
        __global const uchar *row = src + src_off + \
            (size_t) reflect101 (ty * th + y, height) * src_stride; \
        for (int x = 4 * lid; x < direct; x += 4 * BINS) { \
          const uchar4 p = vload4 (0, row + x0 + x); \
          atomic_inc (&h[p.s0 * NCOPIES + copy]); \
          atomic_inc (&h[p.s1 * NCOPIES + copy]); \
          atomic_inc (&h[p.s2 * NCOPIES + copy]); \
          atomic_inc (&h[p.s3 * NCOPIES + copy]); \
        } \
        for (int x = direct + lid; x < tw; x += BINS) \
          atomic_inc (&h[row[reflect101 (x0 + x, width)] * NCOPIES + copy]); \
      } \
    } }
#define HIST_TILE_c4 \
    for (int y = y0; y < y1; y++) { \
      __global const uchar *row = src + src_off + \
          (size_t) reflect101 (ty * th + y, height) * src_stride; \
      for (int x = lid; x < tw; x += lsize) { \
        const uint v = LUMA_c4 (row, reflect101 (tx * tw + x, width), w); \
        atomic_inc (&h[v * NCOPIES + copy]); \
      } \
    }

/* the two-launch kernels: nothing after the LUTs */
#define NO_ONE_ARGS
#define NO_ONE_LOCALS
#define NO_LUT_MADE(t)
#define NO_ONE_TAIL
#if WANT (histeq_hist_lut_c1)
FUSED_KERNEL (histeq_hist_lut_c1, c1, NO_ONE_ARGS, NO_ONE_LOCALS,
    NO_LUT_MADE, NO_ONE_TAIL)
#endif
#if WANT (histeq_hist_lut_c4)
FUSED_KERNEL (histeq_hist_lut_c4, c4, NO_ONE_ARGS, NO_ONE_LOCALS,
    NO_LUT_MADE, NO_ONE_TAIL)
#endif

/* ---- serial fused: histogram, scene cut and LUT in one launch (CPUs) --- */

/* Global mode on CPU devices, where a launch costs more than the frame
 * step it carries (PoCL 3.1, 2 cores, 480p: histogram 0.06 ms, cut+LUT
 * 0.03 ms, and a launch and its wake-ups on top of each): the serial
 * histogram's groups (one work-item each, so no barriers), then the last
 * group to finish (an atomic counter, zero at rest) runs the frame's step
 * alone: histeq_cut_lut's sums in the same order (tree_sum_serial ()), its
 * per-bin steps as loops. The same floats, so the same LUT. The groups
 * also copy their share of the rows of up to two more planes (@cp0, @cp1,
 * as histeq_hist_lut's). @smooth: 0 the LUT alone (no temporal state), 1
 * scene cut, smoothing, then the LUT.
 * global = (slices, 1), local = (1, 1); @counter: one uint */
/* The frame's scene cut (cut_serial ()) and LUT (lut_body ()'s global
 * path, tile 0, as loops) from the frame's histogram in L->q. */
inline void
frame_lut_serial (__local CutLocal * L, int total,
    float strength, float alpha, float cut_threshold, int reset, int smooth,
    __global float * restrict state, __global float * restrict frame_state,
    __global uchar * restrict lut)
{
  if (smooth)
    cut_serial (0, alpha, cut_threshold, reset, frame_state, L);

  /* histeq_lut: lut_body ()'s global path, tile 0 */
  equalize_map (L->q, total, L->f);
  if (smooth) {
    const int cut = frame_state[FS_CUT] != 0.0f;
    const float d = frame_state[FS_SHIFT];
    for (int j = 0; j < BINS; j++) {
      const float v = smoothed (state[j], L->f[j], alpha, cut);
      state[j] = v;
      L->g[j] = v;      /* the frame's mapping is in frame_state by now */
    }
    for (int j = 0; j < BINS; j++)
      L->f[j] = shifted (L->g, (float) j - d);
  }
  for (int j = 0; j < BINS; j++)
    lut[j] = lut_entry (L->f[j], j, strength);
}

/* The last group's step: @slices histograms of @partial summed into the
 * frame's, then frame_lut_serial (). Slice by slice, in address order
 * (bin by bin, each sum was a chain of dependent strided loads: 0.06 ms
 * at 64 slices); volatile, as other groups wrote them in this launch. */
inline void
slices_lut_serial (__local CutLocal * L, __global const uint * partial,
    int slices, int total, float strength, float alpha, float cut_threshold,
    int reset, int smooth, __global float * restrict state,
    __global float * restrict frame_state, __global uchar * restrict lut)
{
  volatile __global const uint *all = partial;
  for (int b = 0; b < BINS; b++)
    L->q[b] = 0;
  for (int k = 0; k < slices; k++)
    for (int b = 0; b < BINS; b++)
      L->q[b] += (int) all[k * BINS + b];
  frame_lut_serial (L, total, strength, alpha, cut_threshold, reset, smooth,
      state, frame_state, lut);
}

#define SERIAL_FUSED_KERNEL(CN) \
__kernel void \
histeq_hist_lut_serial_##CN (HIST_SERIAL_ARGS, \
    __global uint * restrict counter, int total, float strength, \
    float alpha, float cut_threshold, int reset, int smooth, \
    __global float * restrict state, __global float * restrict frame_state, \
    __global uchar * restrict lut, __global uchar * restrict dst, int8 cp0, \
    int8 cp1) \
{ \
  __local CutLocal L; \
  HIST_SERIAL_BODY (CN, SERIAL_ROWS_##CN) \
  /* the planes copied unchanged (chroma), a share per group: no launch */ \
  copy_rows (src, dst, cp0, slice, slices); \
  copy_rows (src, dst, cp1, slice, slices); \
  /* this group's histogram is in memory before it is counted */ \
  mem_fence (CLK_GLOBAL_MEM_FENCE); \
  if (atomic_inc (counter) != (uint) slices - 1) \
    return; \
  /* the last group: every slice's histogram is in; zero for next frame */ \
  *counter = 0; \
  mem_fence (CLK_GLOBAL_MEM_FENCE); \
  slices_lut_serial (&L, partial, slices, total, strength, alpha, \
      cut_threshold, reset, smooth, state, frame_state, lut); \
}

#if WANT (histeq_hist_lut_serial_c1)
SERIAL_FUSED_KERNEL (c1)
#endif
#if WANT (histeq_hist_lut_serial_c4)
SERIAL_FUSED_KERNEL (c4)
#endif

/* Colour scaled by the luma gain, clamped so no channel clips: the ratios
 * of the channels, hence the hue, are kept. */
inline uchar4
scale_colour (uchar4 p, uint y, uint ynew)
{
  if (y == 0)
    return (uchar4) ((uchar) ynew, (uchar) ynew, (uchar) ynew, p.w);
  const float m = (float) max (p.x, max (p.y, p.z));
  const float gy = (float) ynew / (float) y, gm = 255.0f / m;
  const float g = gm < gy ? gm : gy;
  const float4 q = convert_float4 (p) * g;
  const uchar4 o = convert_uchar4_sat (rne4 (q));
  return (uchar4) (o.xyz, p.w);
}

#define APPLY_ARGS \
    __global const uchar * restrict src, uint src_off, int src_stride, \
    __global uchar * restrict dst, uint dst_off, int dst_stride, \
    int width, int height, uint4 w, __global const uchar * restrict lut

/* 16 pixels of a row per work-item, global = (ceil(width / 16), height) */
/* APPLY_W: pixels of a row per work-item of histeq_apply_global_c1: 16, or
 * a multiple of 64 on CPUs with AVX-512, where 64 pixels at a time go
 * through the LUT by byte shuffles (below) instead of 64 scalar loads. */
#ifndef APPLY_W
#define APPLY_W 16
#endif
/* CLAHE_W: pixels of a row per work-item of histeq_apply_clahe_c1, 64
 * (through the same byte shuffles) or 16; the host sets it with APPLY_W. */
#ifndef CLAHE_W
#define CLAHE_W 16
#endif

#if (APPLY_W > 16 || CLAHE_W > 16) && X86_AVX512BW
typedef uchar apply_u64 __attribute__ ((ext_vector_type (64)));
typedef char apply_c64 __attribute__ ((ext_vector_type (64)));
typedef char apply_v64qi __attribute__ ((vector_size (64)));
typedef apply_u64 __attribute__ ((aligned (1))) apply_u64_u1;
#define LANES16 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define PSHUFB(t, i) __builtin_convertvector (__builtin_ia32_pshufb512 ( \
        __builtin_convertvector (t, apply_v64qi), \
        __builtin_convertvector (i, apply_v64qi)), apply_u64)

/* lut[v] for 64 bytes: table part k (entries 16k .. 16k + 15, copied into
 * each 128-bit lane) looked up by the low nibble (vpshufb) where the high
 * nibble is k: a compare and a masked shuffle per part, into four
 * accumulators (one chain of 16 merging shuffles ran 1.7x slower). */
inline apply_u64
lut64 (const apply_u64 * part, apply_u64 v)
{
  const apply_u64 lo = v & (uchar) 15, hi = v >> (uchar) 4;
  apply_u64 out[4] = { 0, 0, 0, 0 };
#pragma unroll
  for (int k = 0; k < 16; k++)
    out[k & 3] = __builtin_convertvector (hi == (uchar) k, apply_c64) ?
        PSHUFB (part[k], lo) : out[k & 3];
  return (out[0] | out[1]) | (out[2] | out[3]);
}

#if X86_VBMI
/* lut[v] for 64 bytes where the CPU has AVX-512 VBMI: two 128-entry byte
 * permutes (vpermi2b) and a select on the top bit, for lut64's 16
 * compares and masked shuffles. @q: the table's four 64-byte quarters. */
X86_VBMI_FN inline apply_u64
lut64_vbmi (const apply_u64 * q, apply_u64 v)
{
  const apply_v64qi i = __builtin_convertvector (v, apply_v64qi);
  const apply_u64 lo = __builtin_convertvector (
      __builtin_ia32_vpermi2varqi512 (__builtin_convertvector (q[0],
              apply_v64qi), i, __builtin_convertvector (q[1], apply_v64qi)),
      apply_u64);
  const apply_u64 hi = __builtin_convertvector (
      __builtin_ia32_vpermi2varqi512 (__builtin_convertvector (q[2],
              apply_v64qi), i, __builtin_convertvector (q[3], apply_v64qi)),
      apply_u64);
  return __builtin_convertvector (v >= (uchar) 128, apply_c64) ? hi : lo;
}
#endif

/* lut64's parts of the 256-entry table @lut */
inline void
lut64_parts (__global const uchar * lut, apply_u64 * part)
{
#pragma unroll
  for (int k = 0; k < 16; k++) {
    const uchar16 c = LOADU16_G (lut + 16 * k);
    part[k] = __builtin_shufflevector (c, c, LANES16, LANES16, LANES16,
        LANES16);
  }
}
#endif

/* Rows @y0 .. @y1 - 1 of @width bytes through the 256-entry @lut, 64 at a
 * time where the CPU has AVX-512 (byte permutes with VBMI, else lut64's
 * shuffles), the rest one by one: histeq_apply_global_c1's span of a row
 * and histeq_equalize_serial_c1's bands (a function of its own:
 * X86_VBMI_FN may not be inlined into a kernel built for another CPU). */
X86_VBMI_FN void
apply_rows_c1 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int y0, int y1,
    __global const uchar * lut)
{
#if APPLY_W > 16 && X86_AVX512BW
#if X86_VBMI
  apply_u64 quarter[4];
  for (int k = 0; k < 4; k++)
    quarter[k] = *(__global const apply_u64_u1 *) (lut + 64 * k);
#define APPLY_LUT64(v) lut64_vbmi (quarter, v)
#else
  apply_u64 part[16];
  lut64_parts (lut, part);
#define APPLY_LUT64(v) lut64 (part, v)
#endif
  const int w64 = width & ~63;
#endif
  for (int y = y0; y < y1; y++) {
    __global const uchar *s = src + (size_t) y * src_stride;
    __global uchar *d = dst + (size_t) y * dst_stride;
    int x = 0;
#if APPLY_W > 16 && X86_AVX512BW
    for (; x < w64; x += 64)
      *(__global apply_u64_u1 *) (d + x) =
          APPLY_LUT64 (*(__global const apply_u64_u1 *) (s + x));
#undef APPLY_LUT64
#endif
    for (; x < width; x++)
      d[x] = lut[s[x]];
  }
}

/* o = lut[v], 16 bytes */
#define LUT16(o, v, lut) do { \
    (o).s0 = (lut)[(v).s0]; (o).s1 = (lut)[(v).s1]; \
    (o).s2 = (lut)[(v).s2]; (o).s3 = (lut)[(v).s3]; \
    (o).s4 = (lut)[(v).s4]; (o).s5 = (lut)[(v).s5]; \
    (o).s6 = (lut)[(v).s6]; (o).s7 = (lut)[(v).s7]; \
    (o).s8 = (lut)[(v).s8]; (o).s9 = (lut)[(v).s9]; \
    (o).sa = (lut)[(v).sa]; (o).sb = (lut)[(v).sb]; \
    (o).sc = (lut)[(v).sc]; (o).sd = (lut)[(v).sd]; \
    (o).se = (lut)[(v).se]; (o).sf = (lut)[(v).sf]; \
  } while (0)

/* 16 bytes at @s through @lut into @d (one access each way where @a16),
 * or the @n < 16 left at a row's end one by one */
#define LUT_CHUNK16(a16, s, d, n, lut) do { \
    if ((n) >= 16) { \
      const uchar16 v_ = LOAD16_G (a16, s); \
      uchar16 o_; \
      LUT16 (o_, v_, lut); \
      STORE16_G (a16, o_, d); \
    } else { \
      for (int k_ = 0; k_ < (n); k_++) \
        (d)[k_] = (lut)[(s)[k_]]; \
    } \
  } while (0)

#if WANT (histeq_apply_global_c1)
__kernel void
histeq_apply_global_c1 (APPLY_ARGS)
{
#if APPLY_W > 16
  const int x0 = get_global_id (0) * APPLY_W, y = get_global_id (1);
  if (x0 >= width || y >= height)
    return;
  apply_rows_c1 (src + src_off + (size_t) y * src_stride + x0, 0,
      dst + dst_off + (size_t) y * dst_stride + x0, 0,
      min (APPLY_W, width - x0), 0, 1, lut);
#else
  const int x0 = get_global_id (0) * 16, y = get_global_id (1);
  if (x0 >= width || y >= height)
    return;
  __global const uchar *s = src + src_off + (size_t) y * src_stride + x0;
  __global uchar *d = dst + dst_off + (size_t) y * dst_stride + x0;
  const bool a16 = planes_aligned16 (src + src_off, src_stride,
      dst + dst_off, dst_stride);
  LUT_CHUNK16 (a16, s, d, width - x0, lut);
#endif
}
#endif

/* ---- one launch a frame: histogram, cut, LUT and apply (CPUs, c1) ------ */

/* On a CPU device every launch wakes the workers and then the host, which
 * costs more than the apply itself at 480p (PoCL 3.1, 2 cores: two launches
 * took 0.05 ms of a 0.137 ms frame). histeq_equalize_serial_c1 does
 * histeq_hist_lut_serial_c1's work and the apply in one launch of one
 * group per worker:
 *  - each group claims the histogram's slices one at a time until none is
 *    left (its histogram and its share of the chroma rows, as before);
 *  - the group that finishes the last slice makes the LUT and publishes it
 *    by writing the frame's end of the band claims (@band_base + bands,
 *    a value no other frame near it has) into counter[EQ_LUT_FLAG]; the
 *    others wait for it (bounded);
 *  - then every group claims bands of @band_rows rows and equalises them.
 * A group waits only for slices that running groups have claimed, and the
 * last one makes the LUT and claims bands until none is left, so the frame
 * is complete whatever order or number of workers PoCL runs the groups
 * on; a wait that times out only leaves the bands to the others. Claims
 * are counted from @slice_base and @band_base, which the host advances by
 * the frame's slices and bands (counters never go past them, never reset).
 * counter: uint [4], EQ_* below. global = (groups, 1), local = (1, 1);
 * global mode only (one tile). */
#define EQ_SLICES 0
#define EQ_FINISHED 1
#define EQ_BANDS 2
#define EQ_LUT_FLAG 3
/* polls of the LUT's flag before a group gives up waiting (about 0.2 ms
 * with pauses; the wait is normally the last slice and the LUT) */
#define EQ_MAX_POLLS 8192

#if defined(__x86_64__) || defined(__i386__)
#define EQ_PAUSE() __builtin_ia32_pause ()
#else
#define EQ_PAUSE() ((void) 0)
#endif

/* The next of this frame's @n items (0 .. @n - 1), or @n when all are
 * taken; @claimed runs from @base to @base + @n, never past it. */
inline uint
claim_next (__global uint * claimed, uint base, uint n)
{
  for (;;) {
    const uint old = *(volatile __global uint *) claimed;
    if (old - base >= n)
      return n;
    if (atomic_cmpxchg (claimed, old, old + 1) == old)
      return old - base;
  }
}

#if WANT (histeq_equalize_serial_c1)
__kernel void
histeq_equalize_serial_c1 (HIST_SERIAL_ARGS,
    __global uint * restrict counter, int total, float strength,
    float alpha, float cut_threshold, int reset, int smooth,
    __global float * restrict state, __global float * restrict frame_state,
    __global uchar * restrict lut, __global uchar * restrict dst, int8 cp0,
    int8 cp1, uint dst_off, int dst_stride, uint slice_base, uint band_base,
    int band_rows)
{
  __local CutLocal L;
  __local uint h[4 * BINS];
  const int tile = 0;
  const uint bands = (uint) ((height + band_rows - 1) / band_rows);
  /* this frame's LUT flag */
  const uint published = band_base + bands;
  int last = 0;

  for (int slice = (int) claim_next (&counter[EQ_SLICES], slice_base, slices);
      slice < slices;
      slice = (int) claim_next (&counter[EQ_SLICES], slice_base, slices)) {
    HIST_SERIAL_SLICE (c1, SERIAL_ROWS_c1)
    copy_rows (src, dst, cp0, slice, slices);
    copy_rows (src, dst, cp1, slice, slices);
    /* the slice's histogram is in memory before it is counted */
    mem_fence (CLK_GLOBAL_MEM_FENCE);
    if (atomic_inc (&counter[EQ_FINISHED]) == (uint) slices - 1)
      last = 1;
  }
  if (last) {
    /* every slice's histogram is in; zero for the next frame */
    counter[EQ_FINISHED] = 0;
    mem_fence (CLK_GLOBAL_MEM_FENCE);
    slices_lut_serial (&L, partial, slices, total, strength, alpha,
        cut_threshold, reset, smooth, state, frame_state, lut);
    /* the LUT is in memory before it is published (a locked exchange) */
    mem_fence (CLK_GLOBAL_MEM_FENCE);
    atomic_xchg (&counter[EQ_LUT_FLAG], published);
  } else {
    volatile __global const uint *flag = counter + EQ_LUT_FLAG;
    for (int i = 0; i < EQ_MAX_POLLS && *flag != published; i++)
      EQ_PAUSE ();
    /* a locked read: no load of the LUT moves above it */
    if (atomic_add (&counter[EQ_LUT_FLAG], 0) != published)
      return;
  }
  for (uint b = claim_next (&counter[EQ_BANDS], band_base, bands); b < bands;
      b = claim_next (&counter[EQ_BANDS], band_base, bands))
    apply_rows_c1 (src + src_off, src_stride, dst + dst_off, dst_stride,
        width, (int) b * band_rows, min ((int) (b + 1) * band_rows, height),
        lut);
}
#endif

/* ---- one launch a frame on GPUs: histogram, cut, LUT and apply (c1) ---- */

/* histeq_hist_lut_c1 then the apply cost two launches' start and drain,
 * each most of a read+write floor's time at 1080p on the H100 and H200.
 * histeq_equalize_c1 is histeq_equalize_serial_c1's scheme in 256-item
 * groups, one slice of rows each (global mode, @smooth 0 or 1):
 *  - every group histograms its slice, adds it into one of the frame's
 *    copies of the histogram (rows of @ghist, by its slice; one row under
 *    EQ_SPREAD_GROUPS groups) and copies
 *    its share of the other planes; the last to finish takes the copies'
 *    sum, runs the cut and the LUT, and publishes the LUT: its 64 words
 *    rewritten by atomics (so they are in the device's L2 cache when the
 *    atomics return), then the frame's flag (counters[EQ_LUT_FLAG] =
 *    @tag);
 *  - the others wait for the flag, bounded (EQG_MAX_POLLS), and read the
 *    LUT past their own L1 cache (volatile) into local memory;
 *  - every group applies the LUT to its own slice: to the chunks it kept
 *    where the slices fit (histeq_equalize_keep_c1 in registers,
 *    histeq_equalize_c1 in local memory; below), else to the slice read
 *    again (mostly from L2).
 * The copies: of 253 groups at 1080p (H200) all adding into one row, the
 * last was counted 2.0 us after its histogram; with 8 copies 0.9 us, of a
 * frame's 7 (globaltimer stamps, docs/results/gpu-session22); own slices
 * instead of bands claimed by atomic increments took 0.003 ms off a 4K
 * frame (0.025 to 0.022 ms). The LUT in 128 words tagged with the frame,
 * each item of a waiting group polling its own, ran 0.001-0.002 ms
 * slower at 480p and 1080p (H200, run 3).
 * The waits are await_flag ()'s: a group that gives up marks its slice
 * (counters[EQ_CLAIMS + slice]), and the maker, once its flag is in L2
 * (the old value returned), claims every slice so marked and applies it.
 * Each slice is written once, and the maker takes no slice from a group
 * still waiting: claiming those too left most of a 4K frame to the
 * maker, 0.044 ms against 0.024 (H200). The host launches no more groups
 * than the device holds, so normally none gives up. */
#define EQ_CLAIMS 4

/* histeq_equalize_keep_c1: where a group's slice fits in its registers
 * (EQ_KEEP 16-byte chunks an item, GST_CL_HISTEQ_EQ_KEEP: 480p to 1080p
 * frames on an H100 or H200), a waiting group keeps the chunks it
 * histograms and applies the LUT to them, so most of the frame is read
 * once (H200: 480p and 1080p 0.002-0.003 ms faster). 12 chunks in
 * registers (a 4K frame's 9) spilled 452 bytes an item, and 4K ran
 * 0.002-0.003 ms slower; histeq_equalize_c1 keeps up to EQ_LKEEP chunks
 * an item in local memory instead (the host's -D: as many as fit beside
 * the other local arrays, 9 on NVIDIA), and every group applies the LUT
 * to them, the maker too (4K GRAY8 0.020 -> 0.019 ms, NV12 0.024 ->
 * 0.020; H200, gpu-session24). */
#ifndef EQ_LKEEP
#define EQ_LKEEP 0
#endif

/* The item's kept chunk @k of rows @y0 .. @y1 - 1 (@chunks 16-byte chunks
 * a row, the group's items spread over rows and chunks together): its row
 * and byte, or row -1 past the slice */
inline int2
kept_chunk (int k, int chunks, int y0, int y1)
{
  const int i = get_local_id (0) + k * BINS, r = i / chunks;
  return y0 + r < y1 ? (int2) (y0 + r, (i - r * chunks) << 4) : (int2) (-1);
}

/* EQUALIZE_KERNEL's histogram of its slice: where @keep, as
 * hist_rows16_c1 () with the chunks also kept in @kept (@kept_n an item);
 * else HIST_TILE_c1 */
#define HIST_TILE_keep { \
    if (keep) { \
      /* unrolled, so each chunk's place (register or local) is fixed */ \
      UNROLL \
      for (int k = 0; k < kept_n + lkept_n; k++) { \
        const int2 at = kept_chunk (k, chunks, y0, y1); \
        if (at.x >= 0) { \
          const uchar16 v = *(__global const uchar16 *) (src + src_off + \
              (size_t) at.x * src_stride + at.y); \
          if (k < kept_n) \
            kept[k] = v; \
          else \
            lkept[k - kept_n][lid] = as_uint4 (v); \
          HIST16 (h, copy, v); \
        } \
      } \
    } else HIST_TILE_c1 }

/* Rows @y0 .. @y1 - 1 of @width bytes through the table @t, 16 bytes an
 * item, the group's items spread over rows and chunks together. */
inline void
apply_rows16_c1 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int y0, int y1,
    __local const uchar * t, bool a16)
{
  const int chunks = (width + 15) >> 4, count = chunks * (y1 - y0);
  for (int i = get_local_id (0); i < count; i += get_local_size (0)) {
    const int r = i / chunks, x = (i - r * chunks) << 4;
    __global const uchar *s = src + (size_t) (y0 + r) * src_stride + x;
    __global uchar *d = dst + (size_t) (y0 + r) * dst_stride + x;
    LUT_CHUNK16 (a16, s, d, width - x, t);
  }
}

/* groups from which EQUALIZE_KERNEL adds into EQ_GCOPIES copies (a
 * -D: checkers on CPU devices, whose groups are few, can lower it) */
#ifndef EQ_SPREAD_GROUPS
#define EQ_SPREAD_GROUPS 64
#endif

#define EQUALIZE_KERNEL(NAME, KEEPN, LKEEPN) \
__kernel __attribute__ ((reqd_work_group_size (BINS, 1, 1))) void \
NAME (__global const uchar * restrict src, uint src_off, \
    int src_stride, int width, int height, int tw, int th, int tiles_x, \
    int slices, uint4 w, __global uint * restrict ghist, \
    __global uint * restrict counters, __global uint * restrict partial, \
    int tiles, int total, int clahe, int clip, float lut_scale, \
    float strength, float alpha, float cut_threshold, int reset, \
    int smooth, __global float * restrict state, \
    __global float * restrict frame_state, __global uchar * restrict lut, \
    __global uchar * restrict dst, int8 cp0, int8 cp1, \
    __global float * restrict checkpoint, uint dst_off, int dst_stride, \
    uint tag) \
{ \
  __local uint h[NCOPIES * BINS]; \
  __local FrameLocal F; \
  __local int last, ready; \
  __local uint sink; \
  __local uint table[BINS / 4]; \
  __local int stolen[BINS], n_stolen; \
  /* item i's local kept chunk k at [k][i]: 16 bytes an item, in order */ \
  __local uint4 lkept[LKEEPN > 0 ? LKEEPN : 1][LKEEPN > 0 ? BINS : 1]; \
  const int lid = get_local_id (0), lsize = BINS; \
  /* one tile (@tiles is 1) */ \
  const int slice = get_group_id (0), tile = 0, tx = 0, ty = 0; \
  const bool a16 = planes_aligned16 (src + src_off, src_stride, \
      dst + dst_off, dst_stride); \
  const int chunks = width >> 4; \
  /* the host's choice (enqueue_equalize), checked: a slice past the \
   * kept chunks would lose pixels */ \
  const bool keep = KEEPN + LKEEPN > 0 && a16 && (width & 15) == 0 && \
      chunks * ((height + slices - 1) / slices) <= (KEEPN + LKEEPN) * BINS; \
  const int kept_n = KEEPN, lkept_n = LKEEPN; \
  uint flag_old = 0; \
  uchar16 kept[KEEPN > 0 ? KEEPN : 1]; \
  __global uint *lut_words = (__global uint *) lut; \
 \
  /* the histogram's copies where the groups are many (a few dozen gain \
   * nothing from them, and the sum costs the maker) */ \
  const bool spread = slices >= EQ_SPREAD_GROUPS; \
 \
  FUSED_SLICE (keep, spread ? slice % EQ_GCOPIES : 0) \
  if (is_last) { \
    /* every slice is in: the copies' sum, and zeros left (every copy, \
     * the exchanges in flight together: only those a frame's groups used, \
     * 253>>5 at 1080p, took 1.4-1.6 us against 0.4, H200 runs 4 and 5) */ \
    uint v = 0; \
    if (spread) { \
      UNROLL \
      for (int c = 0; c < EQ_GCOPIES; c++) \
        v += atomic_xchg (&ghist[c * BINS + lid], 0); \
    } else { \
      v = atomic_xchg (&ghist[lid], 0); \
    } \
    FUSED_KEEP_SUM (v) \
    frame_lut_group ((int) v, total, smooth, alpha, cut_threshold, reset, \
        strength, frame_state, state, &F, (__local uchar *) table); \
    barrier (CLK_LOCAL_MEM_FENCE); \
    /* the LUT stored from the table; the old value is used, so the store \
     * is done (in L2) before the flag below (sink: a dummy) */ \
    if (lid < BINS / 4 && \
        atomic_xchg (&lut_words[lid], table[lid]) == ~table[lid]) \
      sink = 1; \
    barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
    /* published; the old value is used (after the apply, which so runs \
     * while it comes back), so the flag is in L2 before the slices' \
     * marks are read below */ \
    if (lid == 0) \
      flag_old = atomic_xchg (&counters[EQ_LUT_FLAG], tag); \
    /* The maker applies its slice from @src, not from its kept chunks: \
     * dead here, they are overwritten so the compiler knows (kept live \
     * through the LUT's sums, ptxas spilled 180 bytes an item and the \
     * keeping kernel lost 0.001-0.002 ms at 1080p: gpu-session23 run 3) */ \
    UNROLL \
    for (int k = 0; k < kept_n; k++) \
      kept[k] = (uchar16) (0); \
  } else { \
    /* the LUT, or the slice given up for the maker */ \
    if (lid == 0) \
      ready = await_flag (&counters[EQ_LUT_FLAG], \
          &counters[EQ_CLAIMS + slice], tag, &sink); \
    barrier (CLK_LOCAL_MEM_FENCE); \
    if (ready && lid < BINS / 4) \
      table[lid] = ((volatile __global const uint *) lut_words)[lid]; \
  } \
  /* the table is in where go (a private copy of the flag: see frame_last \
   * in histeq_hist_lut) */ \
  barrier (CLK_LOCAL_MEM_FENCE); \
  const int go = is_last || ready; \
  /* the maker's registers were overwritten; its local chunks are there */ \
  if (go && keep && (KEEPN == 0 || !is_last)) { \
    UNROLL \
    for (int k = 0; k < kept_n + lkept_n; k++) { \
      const int2 at = kept_chunk (k, chunks, y0, y1); \
      if (at.x >= 0) { \
        const uchar16 v = k < kept_n ? kept[k] : \
            as_uchar16 (lkept[k - kept_n][lid]); \
        uchar16 o; \
        LUT16 (o, v, (__local const uchar *) table); \
        *(__global uchar16 *) (dst + dst_off + (size_t) at.x * dst_stride + \
            at.y) = o; \
      } \
    } \
  } else if (go && a16) { \
    /* the aligned case compiled on its own */ \
    apply_rows16_c1 (src + src_off, src_stride, dst + dst_off, dst_stride, \
        width, y0, y1, (__local const uchar *) table, true); \
  } else if (go) { \
    apply_rows16_c1 (src + src_off, src_stride, dst + dst_off, dst_stride, \
        width, y0, y1, (__local const uchar *) table, false); \
  } \
  if (!is_last) \
    return; \
  if (lid == 0 && flag_old == tag) \
    sink = 1; \
  /* the LUT's maker: the slices given up by groups that stopped waiting, \
   * listed in @stolen (normally none) */ \
  for (int s0 = 0; s0 < slices; s0 += BINS) { \
    if (lid == 0) \
      n_stolen = 0; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    if (s0 + lid < slices && \
        atomic_cmpxchg (&counters[EQ_CLAIMS + s0 + lid], ~tag, tag) == ~tag) \
      stolen[atomic_inc (&n_stolen)] = s0 + lid; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    for (int j = 0; j < n_stolen; j++) \
      apply_rows16_c1 (src + src_off, src_stride, dst + dst_off, dst_stride, \
          width, stolen[j] * rows, min ((stolen[j] + 1) * rows, th), \
          (__local const uchar *) table, a16); \
    barrier (CLK_LOCAL_MEM_FENCE); \
  } \
}

/* 4K frames (a slice too big for the registers) in a kernel that keeps
 * its chunks in local memory: 64 registers, against the keeping one's
 * 128. 4 chunks in registers and 5 in local memory (128 registers) ran
 * no faster, nor did 1080p's chunks in local memory instead of registers
 * (H200, docs/results/gpu-session24, run 1). */
#if WANT (histeq_equalize_c1)
EQUALIZE_KERNEL (histeq_equalize_c1, 0, EQ_LKEEP)
#endif
#if WANT (histeq_equalize_keep_c1)
EQUALIZE_KERNEL (histeq_equalize_keep_c1, EQ_KEEP, 0)
#endif

/* scale_colour () on 4 pixels at once in explicit vectors (PoCL vectorises
 * those, not loops): the same operations, so the same results. */
inline uint4
luma4x4 (uchar16 p, uint4 w)
{
  return (w.x * convert_uint4 (p.s048c) + w.y * convert_uint4 (p.s159d) +
      w.z * convert_uint4 (p.s26ae) + 128) >> 8;
}

inline uchar16
scale_colour4x4 (uchar16 p, uint4 y, uint4 ynew)
{
  const float4 c0 = convert_float4 (p.s048c), c1 = convert_float4 (p.s159d),
      c2 = convert_float4 (p.s26ae);
  /* integer max and a select: fmax/fmin are library calls on PoCL */
  const float4 m = convert_float4 (max (max (p.s048c, p.s159d), p.s26ae));
  const float4 gy = convert_float4 (ynew) / convert_float4 (max (y, (uint4) 1));
  const float4 gm = 255.0f / max (m, 1.0f);
  const float4 g = select (gy, gm, gm < gy);
  const char4 dark = convert_char4 (y == 0);
  const uchar4 yn = convert_uchar4 (ynew);
  uchar16 o;
  o.s048c = select (convert_uchar4_sat (rne4 (c0 * g)), yn, dark);
  o.s159d = select (convert_uchar4_sat (rne4 (c1 * g)), yn, dark);
  o.s26ae = select (convert_uchar4_sat (rne4 (c2 * g)), yn, dark);
  o.s37bf = p.s37bf;
  return o;
}

#if WANT (histeq_apply_global_c4)
__kernel void
histeq_apply_global_c4 (APPLY_ARGS)
{
  const int x0 = get_global_id (0) * 16, y = get_global_id (1);
  if (x0 >= width || y >= height)
    return;
  __global const uchar *s = src + src_off + (size_t) y * src_stride;
  __global uchar *d = dst + dst_off + (size_t) y * dst_stride;
  const bool a16 = planes_aligned16 (src + src_off, src_stride,
      dst + dst_off, dst_stride);
  if (x0 + 16 <= width) {
    for (int k = 0; k < 4; k++) {
      const uchar16 p = LOAD16_G (a16, s + (x0 + 4 * k) * 4);
      const uint4 l = luma4x4 (p, w);
      const uint4 n = (uint4) (lut[l.x], lut[l.y], lut[l.z], lut[l.w]);
      STORE16_G (a16, scale_colour4x4 (p, l, n), d + (x0 + 4 * k) * 4);
    }
  } else {
    for (int x = x0; x < width; x++) {
      const uchar4 p = vload4 (x, s);
      const uint l = luma4 (p, w);
      vstore4 (scale_colour (p, l, lut[l]), x, d);
    }
  }
}
#endif

/* OpenCV's CLAHE interpolation: bilinear between the LUTs of the four
 * nearest tile centres, in float, rounded to nearest even. Each work-item
 * maps CLAHE_W pixels of a row (the row's tile weights computed once).
 * global = (ceil(width / CLAHE_W), height) */
#define CLAHE_ARGS APPLY_ARGS, float inv_tw, float inv_th, int tiles_x, \
    int tiles_y

/* A CLAHE apply's work-item: @px pixels of row y from x0, between the
 * LUT rows of the two nearest rows of tile centres (@l1 above, @l2 below,
 * weights @ya1, @ya); @s and @d: the row in the source and destination. */
#define CLAHE_ROW(px) \
  const int x0 = get_global_id (0) * (px), y = get_global_id (1); \
  if (x0 >= width || y >= height) \
    return; \
  CLAHE_ROW_AT (y)
/* CLAHE_ROW ()'s for row @Y (in range) */
#define CLAHE_ROW_AT(Y) \
  const float tyf = (float) (Y) * inv_th - 0.5f; \
  int ty1 = floor_int (tyf); \
  const float ya = tyf - (float) ty1, ya1 = 1.0f - ya; \
  const int ty2 = min (ty1 + 1, tiles_y - 1); \
  ty1 = max (ty1, 0); \
  __global const uchar *l1 = lut + (size_t) ty1 * tiles_x * BINS; \
  __global const uchar *l2 = lut + (size_t) ty2 * tiles_x * BINS; \
  __global const uchar *s = src + src_off + (size_t) (Y) * src_stride; \
  __global uchar *d = dst + dst_off + (size_t) (Y) * dst_stride

/* floor() for the range used here, without a library call */
inline int
floor_int (float v)
{
  const int t = (int) v;
  return t - ((float) t > v);
}

#if CLAHE_W == 64 && X86_AVX512BW
#define LO16(v, q) __builtin_shufflevector (v, v, 16 * q + 0, 16 * q + 1, \
    16 * q + 2, 16 * q + 3, 16 * q + 4, 16 * q + 5, 16 * q + 6, 16 * q + 7, \
    16 * q + 8, 16 * q + 9, 16 * q + 10, 16 * q + 11, 16 * q + 12, \
    16 * q + 13, 16 * q + 14, 16 * q + 15)

/* lut[v] for 64 bytes of one tile's LUT (its parts read per chunk: a
 * tile's LUT changes every few chunks) */
inline apply_u64
tile_lut64 (__global const uchar * lut, apply_u64 v)
{
  apply_u64 part[16];
  lut64_parts (lut, part);
  return lut64 (part, v);
}

/* 64 pixels of a luma row: the four LUT reads of each pixel by byte
 * shuffles (AVX-512 gathers ran no faster than scalar loads here), then
 * the scalar path's float arithmetic on 16 lanes at a time. The chunk
 * spans at most two tile intervals (tiles at least ~64 pixels wide), so
 * its LUT reads come from at most three tiles per row of tiles; FALSE,
 * having written nothing, where it spans more. */
inline bool
clahe_chunk64 (__global const uchar * s, __global uchar * d, int x0,
    __global const uchar * l1, __global const uchar * l2, float ya,
    float ya1, float inv_tw, int tiles_x)
{
  int16 t[4];
  float16 xa[4];
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const float16 txf = convert_float16 (x0 + 16 * q + (int16) (0, 1, 2, 3,
            4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)) * inv_tw - 0.5f;
    t[q] = __builtin_convertvector (txf, int16);
    t[q] += __builtin_convertvector (t[q], float16) > txf;  /* floor */
    xa[q] = txf - __builtin_convertvector (t[q], float16);
  }
  const int t0 = t[0].s0;       /* t never decreases along the row */
  if (t[3].sf - t0 > 1)
    return false;
  const int a = max (t0, 0) * BINS, b = min (t0 + 1, tiles_x - 1) * BINS,
      c = min (t0 + 2, tiles_x - 1) * BINS;
  const apply_u64 v = *(__global const apply_u64_u1 *) (s + x0);
  apply_u64 l1a = tile_lut64 (l1 + a, v), l1b = tile_lut64 (l1 + b, v),
      l2a = tile_lut64 (l2 + a, v), l2b = tile_lut64 (l2 + b, v);
  if (t[3].sf != t0) {
    /* lanes past the tile centre read (b, c) where the others read (a, b) */
    const apply_u64 l1c = tile_lut64 (l1 + c, v), l2c = tile_lut64 (l2 + c,
        v);
    const uchar16 p0 = __builtin_convertvector (t[0] != t0, uchar16),
        p1 = __builtin_convertvector (t[1] != t0, uchar16),
        p2 = __builtin_convertvector (t[2] != t0, uchar16),
        p3 = __builtin_convertvector (t[3] != t0, uchar16);
    typedef uchar clahe_u32 __attribute__ ((ext_vector_type (32)));
    const clahe_u32 p01 = __builtin_shufflevector (p0, p1, LANES16, 16, 17,
        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31),
        p23 = __builtin_shufflevector (p2, p3, LANES16, 16, 17, 18, 19, 20,
        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const apply_c64 past = __builtin_convertvector (
        __builtin_shufflevector (p01, p23, LANES16, 16, 17, 18, 19, 20, 21,
            22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37,
            38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
            54, 55, 56, 57, 58, 59, 60, 61, 62, 63), apply_c64);
    l1a = past ? l1b : l1a;
    l1b = past ? l1c : l1b;
    l2a = past ? l2b : l2a;
    l2b = past ? l2c : l2b;
  }
#define CLAHE_Q(q) { \
    const float16 xa1 = 1.0f - xa[q]; \
    const float16 res = \
        (convert_float16 (LO16 (l1a, q)) * xa1 + \
        convert_float16 (LO16 (l1b, q)) * xa[q]) * ya1 + \
        (convert_float16 (LO16 (l2a, q)) * xa1 + \
        convert_float16 (LO16 (l2b, q)) * xa[q]) * ya; \
    STOREU16_G (__builtin_convertvector (__builtin_convertvector ( \
                (res + RNE_MAGIC) - RNE_MAGIC, int16), uchar16), \
        d + x0 + 16 * q); }
  CLAHE_Q (0) CLAHE_Q (1) CLAHE_Q (2) CLAHE_Q (3)
#undef CLAHE_Q
  return true;
}
#endif

/* Column @x between the tile centres: the tile column left of it (-1
 * before the first centre), and in @xa its weight towards the right one */
inline int
clahe_column (int x, float inv_tw, float *xa)
{
  const float txf = (float) x * inv_tw - 0.5f;
  const int tx1 = floor_int (txf);
  *xa = txf - (float) tx1;
  return tx1;
}

/* The four LUT entries @q of a pixel (top left, top right, bottom left,
 * bottom right) blended by its weights */
inline uchar
clahe_blend (uchar4 q, float xa, float ya, float ya1)
{
  const float xa1 = 1.0f - xa;
  const float res =
      ((float) q.s0 * xa1 + (float) q.s1 * xa) * ya1 +
      ((float) q.s2 * xa1 + (float) q.s3 * xa) * ya;
  return convert_uchar_sat (rne (res));
}

/* Pixel @x of value @v between the four tiles' LUTs, in rows @l1 (above)
 * and @l2 (below) of address space AS */
#define DEFINE_CLAHE_PIXEL(NAME, AS) \
inline uchar \
NAME (int x, uint v, AS const uchar * l1, AS const uchar * l2, float ya, \
    float ya1, float inv_tw, int tiles_x) \
{ \
  float xa; \
  const int tx1 = clahe_column (x, inv_tw, &xa); \
  const int o1 = max (tx1, 0) * BINS + v; \
  const int o2 = min (tx1 + 1, tiles_x - 1) * BINS + v; \
  return clahe_blend ((uchar4) (l1[o1], l1[o2], l2[o1], l2[o2]), xa, ya, \
      ya1); \
}
DEFINE_CLAHE_PIXEL (clahe_pixel, __global)

/* Pixel @x of value @v from its cell's word in the quad table's cells
 * @cells (address space AS), its row of cells from cell @cell0 on (the
 * cell of column -1's tile): one load for the four entries */
#define DEFINE_CLAHE_PIXEL_QUAD(NAME, AS) \
inline uchar \
NAME (int x, uint v, AS const uint * cells, int cell0, float ya, float ya1, \
    float inv_tw) \
{ \
  float xa; \
  const int tx1 = clahe_column (x, inv_tw, &xa); \
  return clahe_blend (as_uchar4 (cells[(cell0 + tx1 + 1) * BINS + v]), xa, \
      ya, ya1); \
}
DEFINE_CLAHE_PIXEL_QUAD (clahe_pixel_quad, __global)
DEFINE_CLAHE_PIXEL_QUAD (clahe_pixel_quad_local, __local)

#if WANT (histeq_apply_clahe_c1)
__kernel void
histeq_apply_clahe_c1 (CLAHE_ARGS)
{
  CLAHE_ROW (CLAHE_W);
  const int n = min (CLAHE_W, width - x0);
#if CLAHE_W == 64 && X86_AVX512BW
  if (n == 64 && clahe_chunk64 (s, d, x0, l1, l2, ya, ya1, inv_tw, tiles_x))
    return;
#endif
#if CLAHE_W == 16
  /* GPUs: one 16-byte load and store for the item's pixels, not 16 */
  if (n == 16 && planes_aligned16 (src + src_off, src_stride,
          dst + dst_off, dst_stride)) {
    union
    {
      uchar16 v;
      uchar b[16];
    } in, out;
    in.v = *(__global const uchar16 *) (s + x0);
#if CLAHE_QUAD
    /* the row of cells: floor (tyf) + 1, before CLAHE_ROW's clamp */
    __global const uint *qrow = (__global const uint *)
        CLAHE_QUAD_TABLE (lut, tiles_x * tiles_y) +
        (size_t) (floor_int (tyf) + 1) * (tiles_x + 1) * BINS;
    UNROLL
    for (int i = 0; i < 16; i++)
      out.b[i] = clahe_pixel_quad (x0 + i, in.b[i], qrow, 0, ya, ya1,
          inv_tw);
#else
    UNROLL
    for (int i = 0; i < 16; i++)
      out.b[i] = clahe_pixel (x0 + i, in.b[i], l1, l2, ya, ya1, inv_tw,
          tiles_x);
#endif
    *(__global uchar16 *) (d + x0) = out.v;
    return;
  }
#endif
  for (int i = 0; i < n; i++)
    d[x0 + i] = clahe_pixel (x0 + i, s[x0 + i], l1, l2, ya, ya1, inv_tw,
        tiles_x);
}
#endif

#if CLAHE_QUAD
/* histeq_apply_clahe_lq_c1: a group of 16 x 16 items takes 256 pixels by
 * 16 CLAHE_LQ_ROWS rows (an item 16 pixels of every 16th row) and first
 * copies the quad table's cells it reads into local memory, where at
 * most CLAHE_LQ_CELLS: a warp's 32 lookups of random levels in a cell's
 * 1 KB hit some 8 of its L1 lines (a pass each) but fewer banks at once.
 * Where more cells (small tiles: 8 x 8 tiles need at most 6 from 1024 x
 * 512 pixels up), and for unaligned rows and a row's last partial chunk,
 * clahe_pixel () from the LUTs. The same arithmetic, so the same bits. The
 * host takes it where its groups fill the device (GST_CL_HISTEQ_CLAHE_LQ). */
#ifndef CLAHE_LQ_ROWS
#define CLAHE_LQ_ROWS 4
#endif
#define CLAHE_LQ_CELLS 6

/* The quad table's cell column (row) of pixel column (row) @x: the tile
 * centre left of (above) it plus one, 0 before the first */
inline int
clahe_cell (int x, float inv_t)
{
  float weight;
  return clahe_column (x, inv_t, &weight) + 1;
}

#if WANT (histeq_apply_clahe_lq_c1)
__kernel __attribute__ ((reqd_work_group_size (16, 16, 1))) void
histeq_apply_clahe_lq_c1 (CLAHE_ARGS)
{
  __local uint4 cells[CLAHE_LQ_CELLS * BINS / 4];
  const int lx = get_local_id (0), ly = get_local_id (1), lid = ly * 16 + lx;
  const int gx0 = get_group_id (0) * 256;
  const int gy0 = get_group_id (1) * 16 * CLAHE_LQ_ROWS;
  const int cxa = clahe_cell (gx0, inv_tw);
  const int cya = clahe_cell (gy0, inv_th);
  const int ncx = clahe_cell (min (gx0 + 256, width) - 1, inv_tw) - cxa + 1;
  const int n = ncx * (clahe_cell (min (gy0 + 16 * CLAHE_LQ_ROWS, height) -
          1, inv_th) - cya + 1);
  const bool local_cells = n <= CLAHE_LQ_CELLS;
  if (local_cells) {
    __global const uint4 *quad = (__global const uint4 *)
        CLAHE_QUAD_TABLE (lut, tiles_x * tiles_y);
    for (int i = lid; i < n * (BINS / 4); i += 256) {
      const int c = i / (BINS / 4), cy = cya + c / ncx, cx = cxa + c % ncx;
      cells[i] = quad[((size_t) cy * (tiles_x + 1) + cx) * (BINS / 4) +
          i % (BINS / 4)];
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  const int x0 = gx0 + lx * 16;
  const bool fast = local_cells && x0 + 16 <= width &&
      planes_aligned16 (src + src_off, src_stride, dst + dst_off, dst_stride);
  for (int r = 0; r < CLAHE_LQ_ROWS; r++) {
    const int y = gy0 + ly + 16 * r;
    if (x0 >= width || y >= height)
      break;
    CLAHE_ROW_AT (y);
    if (fast) {
      union
      {
        uchar16 v;
        uchar b[16];
      } in, out;
      /* the row's cells in the copy, from its first column's */
      const int row0 = (floor_int (tyf) + 1 - cya) * ncx - cxa;
      in.v = *(__global const uchar16 *) (s + x0);
      UNROLL
      for (int i = 0; i < 16; i++)
        out.b[i] = clahe_pixel_quad_local (x0 + i, in.b[i],
            (__local const uint *) cells, row0, ya, ya1, inv_tw);
      *(__global uchar16 *) (d + x0) = out.v;
    } else {
      for (int i = x0; i < min (x0 + 16, width); i++)
        d[i] = clahe_pixel (i, s[i], l1, l2, ya, ya1, inv_tw, tiles_x);
    }
  }
}
#endif
#endif

/* ---- CLAHE in one launch (GPUs, one byte a pixel) ---------------------- */

/* CLAHE_ONE (a -D, the host's: GPUs, with CUT_WAIT) 1: histeq_clahe_one_c1,
 * histeq_hist_lut_c1 with the apply in the same launch, for the apply's
 * start after the LUTs' launch has drained (H200, 480p: 0.020 -> 0.017 ms;
 * 1080p the same kernel time, 0.027 -> 0.025 from the first start to the
 * last end; 4K not faster by kernel time, so the host keeps two launches
 * there: docs/results/gpu-session29).
 * Each group that makes a tile's LUT also exchanges its words into the LUT
 * from local memory, old values used (in L2 before it is counted: the
 * fence is the work-group's on NVIDIA), then counts it at
 * counters[CLAHE_LUTS_DONE];
 * the group counting the last tile publishes the frame (@tag at
 * counters[CLAHE_APPLY_FLAG]). Every group then applies its band of the
 * frame's rows (band = group, bands = groups), the tiles' LUT rows that
 * band reads copied into local memory by volatile 16-byte reads (one trip
 * to L2 an item at 1080p; 4-byte reads took four in a row: H200 bench.py
 * 1080p 0.0204-0.0205 -> 0.0199 ms, docs/results/gpu-session33; the quad
 * table is stored by bytes from four tiles, which nothing orders before
 * the count).
 * A group that gives up waiting (await_flag ()) leaves its band to the
 * publisher, as histeq_equalize_c1's slices. Every group has started
 * before any waits on the frame (the LUTs need every group's histogram),
 * so the waits end unless the groups are more than the device holds at
 * once: the host launches no more than GST_CL_HISTEQ_EQ_GROUPS_PER_CU a
 * compute unit. The source is read again for the apply (in L2 at 1080p
 * and 4K), after every group's histogram: in place is safe. */
#ifndef CLAHE_ONE
#define CLAHE_ONE 0
#endif
#if CLAHE_ONE
#if !CUT_WAIT
#error "CLAHE_ONE needs CUT_WAIT: every tile's LUT made in the launch"
#endif
/* counters after the fused kernel's (2 tiles + 2): the tiles made, the
 * frame's flag, then the bands' claims */
#define CLAHE_LUTS_DONE(tiles) (2 * (tiles) + 2)
#define CLAHE_APPLY_FLAG(tiles) (2 * (tiles) + 3)
/* bytes of the tiles' LUTs a band may read: 3 rows of tiles (a band is
 * never taller than a tile) of up to 21 tiles; the host keeps wider grids
 * on two launches */
#define CLAHE_ONE_LUT_BYTES 16384

DEFINE_CLAHE_PIXEL (clahe_pixel_local, __local)

/* Chunk @i of band rows @y0 on (CLAHE_ROW's pixels, 16 from @x0 = 16 (i %
 * @chunks)), read from @src and written to @dst at the plane's offsets;
 * @alut holds the tiles' LUT rows from @t0. */
inline void
clahe_chunk_c1 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int y0, int chunks,
    int i, bool a16, float inv_tw, float inv_th, int tiles_x, int tiles_y,
    __local const uchar * alut, int t0)
{
  const int r = i / chunks, x0 = (i - r * chunks) << 4, y = y0 + r;
  const float tyf = (float) y * inv_th - 0.5f;
  int ty1 = floor_int (tyf);
  const float ya = tyf - (float) ty1, ya1 = 1.0f - ya;
  const int ty2 = min (ty1 + 1, tiles_y - 1);
  ty1 = max (ty1, 0);
  __local const uchar *l1 = alut + (ty1 - t0) * tiles_x * BINS;
  __local const uchar *l2 = alut + (ty2 - t0) * tiles_x * BINS;
  __global const uchar *s = src + (size_t) y * src_stride;
  __global uchar *d = dst + (size_t) y * dst_stride;
  if (a16 && x0 + 16 <= width) {
    union
    {
      uchar16 v;
      uchar b[16];
    } in, out;
    in.v = *(__global const uchar16 *) (s + x0);
    UNROLL
    for (int k = 0; k < 16; k++)
      out.b[k] = clahe_pixel_local (x0 + k, in.b[k], l1, l2, ya, ya1, inv_tw,
          tiles_x);
    *(__global uchar16 *) (d + x0) = out.v;
  } else {
    for (int k = x0; k < min (x0 + 16, width); k++)
      d[k] = clahe_pixel_local (k, s[k], l1, l2, ya, ya1, inv_tw, tiles_x);
  }
}

/* Band @band of @bands of the frame's rows through the tiles' LUTs @lut
 * (published, so read volatile), copied into @alut first. @src and @dst
 * at the plane's offsets. Loading a band's first chunks before the wait
 * (in registers: 128 to 177 registers, or in local memory), or two or
 * four chunks' loads at a time, ran no faster (docs/results/gpu-session29). */
inline void
clahe_band_c1 (__global const uchar * src, int src_stride,
    __global uchar * dst, int dst_stride, int width, int height, int band,
    int bands, float inv_tw, float inv_th, int tiles_x, int tiles_y,
    __global const uchar * lut, __local uchar * alut, bool a16)
{
  const int lid = get_local_id (0), lsize = get_local_size (0);
  const int y0 = (int) ((long) band * height / bands);
  const int y1 = (int) ((long) (band + 1) * height / bands);
  const int chunks = (width + 15) >> 4, count = chunks * (y1 - y0);
  /* the rows of tiles it reads: from its first row's upper centres to its
   * last row's lower ones (CLAHE_ROW's) */
  const int t0 = max (floor_int ((float) y0 * inv_th - 0.5f), 0);
  const int t1 = min (floor_int ((float) (y1 - 1) * inv_th - 0.5f) + 1,
      tiles_y - 1);
  const int quads = count > 0 ? (t1 - t0 + 1) * tiles_x * (BINS / 16) : 0;
  volatile __global const uint4 *from = (volatile __global const uint4 *)
      (lut + (size_t) t0 * tiles_x * BINS);
  for (int i = lid; i < quads; i += lsize)
    ((__local uint4 *) alut)[i] = from[i];
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < count; i += lsize)
    clahe_chunk_c1 (src, src_stride, dst, dst_stride, width, y0, chunks, i,
        a16, inv_tw, inv_th, tiles_x, tiles_y, alut, t0);
  /* @alut is taken again by the next band */
  barrier (CLK_LOCAL_MEM_FENCE);
}

#define CLAHE_ONE_ARGS , uint dst_off, int dst_stride, float inv_tw, \
    float inv_th, int tiles_y
#define CLAHE_ONE_LOCALS \
  __local uchar alut[CLAHE_ONE_LUT_BYTES] __attribute__ ((aligned (16))); \
  __local int apply_maker, stolen[BINS], n_stolen; \
  uint apply_old = 0; \
  if (get_local_id (0) == 0) \
    apply_maker = 0;
/* Tile @t's LUT is made: its words (lut_body_at () left them in @hist)
 * exchanged into @lut, old values used, then counted; the last one
 * counted publishes the frame. Reading the plain stores back first to
 * exchange them cost another trip to L2 on the frame's critical path. */
#define CLAHE_LUT_MADE(t) \
  barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
  if (lid < BINS / 4) { \
    __global uint *lut_word = (__global uint *) lut + (size_t) (t) * \
        (BINS / 4) + lid; \
    const uint u = ((__local const uint *) hist)[lid]; \
    if (atomic_xchg (lut_word, u) == ~u) \
      sink = 1; \
  } \
  barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
  if (lid == 0 && atomic_inc (&counters[CLAHE_LUTS_DONE (tiles)]) + 1 == \
      (uint) tiles) { \
    counters[CLAHE_LUTS_DONE (tiles)] = 0; \
    apply_old = atomic_xchg (&counters[CLAHE_APPLY_FLAG (tiles)], tag); \
    apply_maker = 1; \
  }
/* Every group: its band once the frame is published; the publisher also
 * those given up (normally none). */
#define CLAHE_ONE_TAIL { \
  const int bands = tiles * slices, band = tile * slices + slice; \
  __global uint *aflag = counters + CLAHE_APPLY_FLAG (tiles); \
  __global uint *aclaims = aflag + 1; \
  const bool a16 = planes_aligned16 (src + src_off, src_stride, \
      dst + dst_off, dst_stride); \
  barrier (CLK_LOCAL_MEM_FENCE); \
  /* a private copy (see frame_last above) */ \
  const int maker = apply_maker; \
  if (!maker) { \
    if (lid == 0) \
      ready = await_flag (aflag, &aclaims[band], tag, &sink); \
    barrier (CLK_LOCAL_MEM_FENCE); \
  } \
  const int go = maker || ready; \
  if (go) \
    clahe_band_c1 (src + src_off, src_stride, dst + dst_off, dst_stride, \
        width, height, band, bands, inv_tw, inv_th, tiles_x, tiles_y, lut, \
        alut, a16); \
  if (!maker) \
    return; \
  if (lid == 0 && apply_old == tag) \
    sink = 1; \
  for (int s0 = 0; s0 < bands; s0 += BINS) { \
    if (lid == 0) \
      n_stolen = 0; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    if (s0 + lid < bands && \
        atomic_cmpxchg (&aclaims[s0 + lid], ~tag, tag) == ~tag) \
      stolen[atomic_inc (&n_stolen)] = s0 + lid; \
    barrier (CLK_LOCAL_MEM_FENCE); \
    for (int j = 0; j < n_stolen; j++) \
      clahe_band_c1 (src + src_off, src_stride, dst + dst_off, dst_stride, \
          width, height, stolen[j], bands, inv_tw, inv_th, tiles_x, \
          tiles_y, lut, alut, a16); \
    barrier (CLK_LOCAL_MEM_FENCE); \
  } }

#if WANT (histeq_clahe_one_c1)
FUSED_KERNEL (histeq_clahe_one_c1, c1, CLAHE_ONE_ARGS, CLAHE_ONE_LOCALS,
    CLAHE_LUT_MADE, CLAHE_ONE_TAIL)
#endif
#endif

/* Colour CLAHE, 4 pixels per vector (the same operations as the scalar
 * path, so the same results); a row's last partial chunk goes scalar. */
#if WANT (histeq_apply_clahe_c4)
__kernel void
histeq_apply_clahe_c4 (CLAHE_ARGS)
{
  CLAHE_ROW (16);
  const bool a16 = planes_aligned16 (src + src_off, src_stride,
      dst + dst_off, dst_stride);
  if (x0 + 16 > width) {
    for (int x = x0; x < width; x++) {
      const uchar4 p = vload4 (x, s);
      const uint v = luma4 (p, w);
      vstore4 (scale_colour (p, v, clahe_pixel (x, v, l1, l2, ya, ya1,
                  inv_tw, tiles_x)), x, d);
    }
    return;
  }
  for (int k = 0; k < 4; k++) {
    const int xk = x0 + 4 * k;
    const uchar16 p = LOAD16_G (a16, s + xk * 4);
    const uint4 v = luma4x4 (p, w);
    const float4 txf = convert_float4 ((int4) (xk, xk + 1, xk + 2, xk + 3)) *
        inv_tw - 0.5f;
    int4 t = convert_int4 (txf);
    t += convert_float4 (t) > txf;       /* floor: true is -1 */
    const float4 xa = txf - convert_float4 (t), xa1 = 1.0f - xa;
    const int4 i1 = max (t, 0) * BINS + convert_int4 (v);
    const int4 i2 = min (t + 1, tiles_x - 1) * BINS + convert_int4 (v);
#define G4(l, i) (float4) (l[i.x], l[i.y], l[i.z], l[i.w])
    const float4 res = (G4 (l1, i1) * xa1 + G4 (l1, i2) * xa) * ya1 +
        (G4 (l2, i1) * xa1 + G4 (l2, i2) * xa) * ya;
#undef G4
    const uint4 nv = convert_uint4 (convert_uchar4_sat (rne4 (res)));
    STORE16_G (a16, scale_colour4x4 (p, v, nv), d + xk * 4);
  }
}
#endif

#if WANT (histeq_copy)
__kernel void
histeq_copy (__global const uchar * restrict src, uint src_off,
    int src_stride, __global uchar * restrict dst, uint dst_off,
    int dst_stride, int width_bytes, int height)
{
  const int x = get_global_id (0) * 16, y = get_global_id (1);
  if (x >= width_bytes || y >= height)
    return;
  __global const uchar *s = src + src_off + (size_t) y * src_stride + x;
  __global uchar *d = dst + dst_off + (size_t) y * dst_stride + x;
  const bool a16 = planes_aligned16 (src + src_off, src_stride,
      dst + dst_off, dst_stride);
  if (x + 16 <= width_bytes) {
    STORE16_G (a16, LOAD16_G (a16, s), d);
  } else {
    for (int i = 0; i < width_bytes - x; i++)
      d[i] = s[i];
  }
}
#endif
