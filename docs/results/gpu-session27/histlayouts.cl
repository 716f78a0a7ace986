/* Session 27 experiment: local-histogram layouts for 16 bytes an item
 * (as hist_rows16_c1 () in kernels/histeq.cl), one slice of rows a group.
 * LAYOUT 0: no histogram (the bytes xor-summed: the read alone)
 *        1: NC copies interleaved, h[v * NC + (lid & (NC - 1))] (NC = 4 is
 *           the committed kernel's)
 *        3: 32 lane copies, h[v * 32 + lane]: every lane its own bank
 *        4: 32 lane copies of 16-bit counters, h[(v >> 1) * 32 + lane]
 *           += 1 << 16 (v & 1): every lane its own bank, half the memory
 *        5: 16 copies of 16-bit counters, h[(v >> 1) * 16 + (lid & 15)] */
#ifndef NC
#define NC 4
#endif
#if LAYOUT == 0
#define HWORDS 1
#elif LAYOUT == 1
#define HWORDS (256 * NC)
#elif LAYOUT == 3
#define HWORDS (256 * 32)
#elif LAYOUT == 4
#define HWORDS (128 * 32)
#elif LAYOUT == 5
#define HWORDS (128 * 16)
#endif

#if LAYOUT == 1
#define ADD(v) atomic_inc (&h[(uint) (v) * NC + cp])
#elif LAYOUT == 3
#define ADD(v) atomic_inc (&h[(uint) (v) * 32 + cp])
#elif LAYOUT == 4
#define ADD(v) atomic_add (&h[((uint) (v) >> 1) * 32 + cp], 1u << (((v) & 1) << 4))
#elif LAYOUT == 5
#define ADD(v) atomic_add (&h[((uint) (v) >> 1) * 16 + cp], 1u << (((v) & 1) << 4))
#endif

__kernel __attribute__ ((reqd_work_group_size (256, 1, 1))) void
hist (__global const uchar * src, int stride, int width, int height,
    int slices, __global uint * out)
{
  __local uint h[HWORDS];
  const int lid = get_local_id (0), slice = get_group_id (0);
  for (int i = lid; i < HWORDS; i += 256)
    h[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
#if LAYOUT == 1
  const uint cp = lid & (NC - 1);
#elif LAYOUT == 5
  const uint cp = lid & 15;
#else
  const uint cp = lid & 31;
#endif
  const int rows = (height + slices - 1) / slices;
  const int y0 = slice * rows, y1 = min (y0 + rows, height);
  const int chunks = width >> 4, count = chunks * max (y1 - y0, 0);
  uint acc = 0;
  for (int i = lid; i < count; i += 256) {
    const int r = i / chunks, x = (i - r * chunks) << 4;
    const uchar16 v = *(__global const uchar16 *) (src +
        (size_t) (y0 + r) * stride + x);
#if LAYOUT == 0
    const uint4 u = as_uint4 (v);
    acc += u.s0 ^ u.s1 ^ u.s2 ^ u.s3;
#else
    ADD (v.s0); ADD (v.s1); ADD (v.s2); ADD (v.s3);
    ADD (v.s4); ADD (v.s5); ADD (v.s6); ADD (v.s7);
    ADD (v.s8); ADD (v.s9); ADD (v.sa); ADD (v.sb);
    ADD (v.sc); ADD (v.sd); ADD (v.se); ADD (v.sf);
#endif
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  uint s = 0;
#if LAYOUT == 0
  s = acc;
#elif LAYOUT == 1
  for (int c = 0; c < NC; c++)
    s += h[lid * NC + c];
#elif LAYOUT == 3
  for (int c = 0; c < 32; c++)
    s += h[lid * 32 + ((c + lid) & 31)];
#elif LAYOUT == 4
  for (int c = 0; c < 32; c++)
    s += (h[(lid >> 1) * 32 + ((c + lid) & 31)] >> ((lid & 1) << 4)) & 0xffff;
#elif LAYOUT == 5
  for (int c = 0; c < 16; c++)
    s += (h[(lid >> 1) * 16 + ((c + lid) & 15)] >> ((lid & 1) << 4)) & 0xffff;
#endif
  out[slice * 256 + lid] = s;
}
