/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Access-pattern skeletons of a 2-D stencil tile, for bench_geometry.c: each
 * reads and writes what a tile of that shape would, with one cheap integer
 * operation per loaded word instead of the filter, so the time left is
 * the shape's own (docs/PERFORMANCE.md, session 14). Build options:
 *   -DPXW=4|8|16   bytes across per work-item (one uint, uint2, uint4 load)
 *   -DROWS=n       output rows per work-item
 *   -DHALO=0|1     one extra input row above and below (a 3x3 stencil)
 *   -DLANES=0|1    the first and last items of each row of the work-group
 *                  only load (a 3x3 stencil's halo columns)
 *   -DXCHG=0|1     each item takes a word of each row from both
 *                  neighbours (warp shuffles, WARP_XCHG=1: NVIDIA only)
 *   -DWG_X, -DWG_Y the work-group */
#if PXW == 4
typedef uint word_t;
#define XOR_ALL(v) (v)
#elif PXW == 8
typedef uint2 word_t;
#define XOR_ALL(v) ((v).x ^ (v).y)
#else
typedef uint4 word_t;
#define XOR_ALL(v) ((v).x ^ (v).y ^ (v).z ^ (v).w)
#endif

#define IN_ROWS (ROWS + 2 * HALO)
#ifndef MATH
#define MATH 0
#endif
#ifndef CHUNK
#define CHUNK 1
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif

/* -DMATH=n: n float multiply-adds on each of the 4 pixels of an output
 * word (PXW=4), four independent chains, standing in for a filter's
 * arithmetic; with -DHALF2=1 (NVIDIA: inline PTX) the same multiply-adds
 * on packed half pairs, two chains, bytes in and out by byte permutes
 * (1024 + b is a half whose low bits are b) */
#ifndef HALF2
#define HALF2 0
#endif
#if HALF2
/* byte_perm and DEFINE_PTX3 from common.cl (-DNV_PTX=1) */
DEFINE_PTX3 (hfma2, "fma.rn.f16x2")
#define H2_1024 0x64006400u
#endif

inline uint
math4 (uint w)
{
#if MATH && HALF2
  /* 0.999 and 0.25 as halves, 1024 to drop the bias */
  const uint k = 0x3bfe3bfeu, c = 0x34003400u, minus1024 = 0xe400e400u;
  const uint one = 0x3c003c00u;
  uint lo = hfma2 (byte_perm (w, H2_1024, 0x7150), one, minus1024);
  uint hi = hfma2 (byte_perm (w, H2_1024, 0x7352), one, minus1024);
UNROLL
  for (int i = 0; i < MATH; i++) {
    lo = hfma2 (lo, k, c);
    hi = hfma2 (hi, k, c);
  }
  lo = hfma2 (lo, one, H2_1024);
  hi = hfma2 (hi, one, H2_1024);
  return byte_perm (lo, hi, 0x6420);
#elif MATH
  float4 v = convert_float4 (as_uchar4 (w));
UNROLL
  for (int i = 0; i < MATH; i++)
    v = v * 0.999f + 0.25f;
  return as_uint (convert_uchar4_sat_rte (v));
#else
  return w;
#endif
}

inline void
load_rows (word_t * in, __global const uchar * src, int xl, int y0,
    int height, int stride)
{
UNROLL
  for (int i = 0; i < IN_ROWS; i++) {
    const int y = clamp (y0 + i - HALO, 0, height - 1);
    in[i] = *(__global const word_t *) (src + y * stride + xl);
  }
}

/* -DCHUNK=c: a work-group does c tiles down, one after the other; with
 * -DPREFETCH=1 an item loads the next tile's rows before it computes the
 * current one, so its loads wait while it computes */
__kernel __attribute__ ((reqd_work_group_size (WG_X, WG_Y, 1)))
void
geometry (__global const uchar * src, __global uchar * dst, int width,
    int height, int stride)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int items_out = WG_X - 2 * LANES;
  const int x = PXW * ((int) get_group_id (0) * items_out + lx - LANES);
  const int xl = clamp (x, 0, width - PXW);
  const bool stores = !(LANES && (lx == 0 || lx == WG_X - 1)) && x >= 0 &&
      x + PXW <= width;
  word_t in[IN_ROWS], next[IN_ROWS];

#if PREFETCH
  load_rows (in, src, xl, (int) get_group_id (1) * CHUNK * (WG_Y * ROWS) +
      ly * ROWS, height, stride);
#endif
UNROLL
  for (int c = 0; c < CHUNK; c++) {
    const int y0 = ((int) get_group_id (1) * CHUNK + c) * (WG_Y * ROWS) +
        ly * ROWS;
#if PREFETCH
    if (c + 1 < CHUNK)
      load_rows (next, src, xl, y0 + WG_Y * ROWS, height, stride);
#else
    load_rows (in, src, xl, y0, height, stride);
#endif
#if XCHG
    uint side[IN_ROWS];
UNROLL
    for (int i = 0; i < IN_ROWS; i++)
      side[i] = as_uint (shfl_up (as_float (XOR_ALL (in[i])), 1)) ^
          as_uint (shfl_down (as_float (XOR_ALL (in[i])), 1));
#endif
    if (stores) {
UNROLL
      for (int r = 0; r < ROWS; r++) {
        const int y = y0 + r;
        if (y < height) {
          word_t v = in[r];
#if HALO
          v ^= in[r + 1] + in[r + 2];
#endif
#if XCHG
          v ^= side[r + HALO];
#endif
#if MATH && PXW == 4
          v = math4 (v);
#endif
          *(__global word_t *) (dst + y * stride + x) = v;
        }
      }
    }
#if PREFETCH
UNROLL
    for (int i = 0; i < IN_ROWS; i++)
      in[i] = next[i];
#endif
  }
}
