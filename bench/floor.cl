/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lower bounds for a filter whose every output byte depends on every input
 * byte (histogram equalisation: the LUT needs the whole frame's histogram
 * before the first pixel is written), for bench/bench_floor.c. They do no
 * filtering, only the memory traffic and the dependency:
 * - read_frame: each byte read once (the histogram pass of two launches);
 * - read_sync_write: the frame read into registers, one grid-wide wait
 *   (every group arrives, the last one sets a flag, all wait for it), then
 *   written: the least a one-launch kernel can do;
 * - the same with -DHIST=1: before the wait, each group takes the
 *   histogram of its chunks as clhisteq's one-launch kernel does (16 local
 *   atomic increments a chunk into 4 copies, bin b of copy c at b * 4 + c,
 *   c = item % 4) and adds it into a global one: the least a one-launch
 *   equalisation whose histogram is counted by local atomics can do (no
 *   LUT, no lookups).
 * global = groups * 256 (read_sync_write: groups the device holds at once),
 * local = 256; NCH: 16-byte chunks an item, ceil (n16 / global). */

#ifndef NCH
#define NCH 1
#endif
#ifndef HIST
#define HIST 0
#endif

/* polls before a group stops waiting: a group that was not running would
 * never arrive; such a launch is counted (counters[2]) and not valid */
#define FLOOR_MAX_POLLS (1 << 20)

/* Xor of the item's chunks, compared with a constant so the loads are
 * used (and complete) and no store is taken. */
inline bool
never_true (uint4 x)
{
  return (x.s0 ^ x.s1 ^ x.s2 ^ x.s3) == 0x9e3779b9u && x.s0 == 0x7f4a7c15u;
}

__kernel __attribute__ ((reqd_work_group_size (256, 1, 1))) void
read_frame (__global const uint4 * restrict src, uint n16,
    __global uint * restrict sink)
{
  const uint gid = get_global_id (0), gsize = get_global_size (0);
  uint4 x = (uint4) (0);
  for (uint k = 0; k < NCH; k++) {
    const uint i = gid + k * gsize;
    if (i < n16)
      x ^= src[i];
  }
  if (never_true (x))
    sink[0] = gid;
}

/* the word of byte @b of item @lid's chunk (clhisteq's layout) */
#define HIST_WORD(b, lid) ((uint) (b) * 4 + ((lid) & 3))
#define HIST_INC16(h, v, lid) do { \
    atomic_inc (&(h)[HIST_WORD ((v).s0, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s1, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s2, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s3, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s4, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s5, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s6, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s7, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s8, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).s9, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).sa, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).sb, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).sc, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).sd, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).se, lid)]); \
    atomic_inc (&(h)[HIST_WORD ((v).sf, lid)]); \
  } while (0)

/* @counters: [0] arrivals (launch @tag is complete at @tag * groups), [1]
 * the flag (@tag once all arrived), [2] groups that stopped
 * waiting, [4 .. 4 + 255] the HIST kernel's histogram (only added to).
 * Only [2] is reset (by the host), between kernels. */
__kernel __attribute__ ((reqd_work_group_size (256, 1, 1))) void
read_sync_write (__global const uint4 * restrict src,
    __global uint4 * restrict dst, uint n16, __global uint * counters,
    uint tag)
{
  const uint lid = get_local_id (0), gid = get_global_id (0);
  const uint gsize = get_global_size (0), groups = get_num_groups (0);
  __local uint sink;
  uint4 kept[NCH], x = (uint4) (0);
#if HIST
  __local uint h[4 * 256];
  for (uint i = lid; i < 4 * 256; i += 256)
    h[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
#endif

#pragma unroll
  for (int k = 0; k < NCH; k++) {
    const uint i = gid + k * gsize;
    kept[k] = i < n16 ? src[i] : (uint4) (0);
#if HIST
    if (i < n16) {
      const uchar16 v = as_uchar16 (kept[k]);
      HIST_INC16 (h, v, lid);
    }
#else
    x ^= kept[k];
#endif
  }
#if HIST
  barrier (CLK_LOCAL_MEM_FENCE);
  /* the copies' sum into the frame's histogram before this group arrives,
   * as clhisteq's groups add theirs */
  const uint sum = h[lid * 4] + h[lid * 4 + 1] + h[lid * 4 + 2] +
      h[lid * 4 + 3];
  if (sum)
    atomic_add (counters + 4 + lid, sum);
  mem_fence (CLK_GLOBAL_MEM_FENCE);
  barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
#else
  if (never_true (x))
    sink = 1;
  barrier (CLK_LOCAL_MEM_FENCE);
#endif
  if (lid == 0) {
    volatile __global const uint *flag = counters + 1;
    int polls = 0;
    if (atomic_inc (counters) + 1 == tag * groups)
      atomic_xchg (counters + 1, tag);
    else
      while (*flag != tag && ++polls < FLOOR_MAX_POLLS);
    if (polls == FLOOR_MAX_POLLS)
      atomic_inc (counters + 2);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int k = 0; k < NCH; k++) {
    const uint i = gid + k * gsize;
    if (i < n16)
      dst[i] = kept[k];
  }
}
