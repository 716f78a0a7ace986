/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers every kernel source gets: the program cache puts this file in
 * front of each one (gst/cl/gstclprogram.c). */

/* WANT (kernel): whether this build keeps @kernel. A program built with
 * -DKERNEL_SUBSET=1 keeps only the kernels named by -DWANT_<kernel>=1;
 * without it, every kernel. NVIDIA compiles every kernel of a program at
 * its build (a fresh machine's first start, docs/PERFORMANCE.md, "Session
 * 41"), so the elements name the kernels their device's paths launch. */
#define WANT(kernel) (!KERNEL_SUBSET || WANT_##kernel)

/* Reflect-101 (cv2.BORDER_REFLECT_101) for any p and n >= 1, also far
 * outside (planes smaller than the kernel). */
inline int
reflect101 (int p, int n)
{
  if ((uint) p < (uint) n)
    return p;
  if (n == 1)
    return 0;
  const int period = 2 * n - 2;
  p = abs (p) % period;
  return p < n ? p : period - p;
}

/* The x86 paths of the kernels (PoCL defines __AVX2__, __AVX512BW__ for
 * CPUs that have them). The build option -DNO_X86_PATHS=1 (e.g. through
 * GST_CL_BUILD_OPTIONS) turns them all off, so the checkers run the
 * portable code on an x86 CPU device too. */
#if defined(NO_X86_PATHS) && NO_X86_PATHS
#define X86_AVX2 0
#define X86_AVX512BW 0
#else
#if defined(__AVX2__)
#define X86_AVX2 1
#else
#define X86_AVX2 0
#endif
#if defined(__AVX512BW__)
#define X86_AVX512BW 1
#else
#define X86_AVX512BW 0
#endif
#endif

/* X86_VBMI: the host found AVX-512 VBMI on the CPU that runs the device
 * (-DX86_VBMI=1, gst/cl/gstcldevice.c). PoCL's compiler may target an
 * older CPU name than the one it runs on, so code that uses it is in
 * functions marked X86_VBMI_FN. */
#if !defined(X86_VBMI) || !X86_AVX512BW
#undef X86_VBMI
#define X86_VBMI 0
#endif
#if X86_VBMI
#define X86_VBMI_FN __attribute__ ((target ("avx512vbmi")))
#else
#define X86_VBMI_FN
#endif

/* One unaligned 16-byte load or store of global memory. PoCL 3.1 splits
 * vload16 / vstore16 of bytes into narrow loads and byte stores; through a
 * 1-byte aligned vector type LLVM emits one access. Elsewhere the standard
 * calls. */
#if X86_AVX2
typedef uchar16 __attribute__ ((aligned (1))) uchar16_u1;
#define LOADU16_G(p) (*(__global const uchar16_u1 *) (p))
#define STOREU16_G(v, p) (*(__global uchar16_u1 *) (p) = (v))
#else
#define LOADU16_G(p) vload16 (0, p)
#define STOREU16_G(v, p) vstore16 (v, 0, p)
#endif

/* Byte index q of a row of n pixels of cn channels, reflected per pixel. */
inline int
reflect_byte (int q, int n, int cn)
{
  const int shift = cn == 4 ? 2 : cn == 2 ? 1 : 0;
  return (reflect101 (q >> shift, n) << shift) | (q & (cn - 1));
}

/* How rows @first .. @last of a plane of @n rows need reflecting: not at
 * all, at most once (-n < p < 2n - 1: one select, no branch between the
 * loads), or in general. The tiled kernels pick a code path per reach. */
#define ROWS_INSIDE 0
#define ROWS_NEAR 1
#define ROWS_ANY 2

inline int
row_reach (int first, int last, int n)
{
  if (first >= 0 && last < n)
    return ROWS_INSIDE;
  return first > -n && last < 2 * n - 1 ? ROWS_NEAR : ROWS_ANY;
}

/* Row @p of @n, reflected as @reach allows (a constant where the call
 * is to unroll apart). */
inline int
reflect_row (int p, int n, const int reach)
{
  if (reach == ROWS_INSIDE)
    return p;
  if (reach == ROWS_NEAR)
    return p < 0 ? -p : p >= n ? 2 * n - 2 - p : p;
  return reflect101 (p, n);
}

/* Rows from @p, @stride bytes apart, all start on 4-byte boundaries. */
inline bool
rows_aligned4 (__global const uchar * p, int stride)
{
  return (((uint) (size_t) p | (uint) stride) & 3) == 0;
}

/* Rows from @p, @stride bytes apart, all start on 16-byte boundaries. */
inline bool
rows_aligned16 (__global const uchar * p, int stride)
{
  return (((uint) (size_t) p | (uint) stride) & 15) == 0;
}

/* The rows of a source and a destination plane all start on 16-byte
 * boundaries: LOAD16_G / STORE16_G's @aligned for a copy or a map. */
inline bool
planes_aligned16 (__global const uchar * src, int src_stride,
    __global const uchar * dst, int dst_stride)
{
  return rows_aligned16 (src, src_stride) && rows_aligned16 (dst, dst_stride);
}

/* 16 bytes of global memory at @p: one access where @aligned
 * (rows_aligned16 (); the same for every item), else LOADU16_G /
 * STOREU16_G. NVIDIA's compiler makes 16 byte loads and stores of a
 * vload16 / vstore16 of bytes, which may assume only byte alignment:
 * clhisteq's 4K apply took 0.031 ms that way, 0.010 aligned (H200). */
#define LOAD16_G(aligned, p) ((aligned) ? \
    *(__global const uchar16 *) (p) : LOADU16_G (p))
#define STORE16_G(aligned, v, p) do { \
    if (aligned) \
      *(__global uchar16 *) (p) = (v); \
    else \
      STOREU16_G (v, p); \
  } while (0)

/* Loops over compile-time counts that index private arrays: unrolled they
 * live in registers. NVIDIA's compiler is told so; PoCL unrolls them
 * after inlining, and warns about the pragma in the not-yet-inlined body. */
#ifdef cl_nv_pragma_unroll
#define UNROLL _Pragma ("unroll")
#else
#define UNROLL
#endif

/* Component @q (a constant after unrolling) of @v. */
inline float
comp4 (float4 v, int q)
{
  return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
}

/* -DWARP_XCHG=1, from the host for NVIDIA GPUs whose tiled work-groups
 * are 32 items across: a row of items is one warp, and neighbours trade
 * values by warp shuffles (PTX shfl.sync) instead of local memory and a
 * barrier (docs/PERFORMANCE.md, session 11). Every item of the warp must
 * take part. */
#ifndef WARP_XCHG
#define WARP_XCHG 0
#endif
#if WARP_XCHG
#define DEFINE_SHFL(name, mode, clamp) \
inline float \
name (float v, uint delta) \
{ \
  uint r; \
  asm volatile ("shfl.sync." mode ".b32 %0, %1, %2, " clamp ", 0xffffffff;" \
      : "=r" (r) : "r" (as_uint (v)), "r" (delta)); \
  return as_float (r); \
}
/* @v of the item @delta to the left (lane - delta), to the right */
DEFINE_SHFL (shfl_up, "up", "0")
DEFINE_SHFL (shfl_down, "down", "0x1f")
/* @v of the item lane ^ @delta */
DEFINE_SHFL (shfl_xor, "bfly", "0x1f")
#endif

/* -DNV_PTX=1, from the host for NVIDIA GPUs: their compiler takes inline
 * PTX, for instructions OpenCL C has no word for. */
#ifndef NV_PTX
#define NV_PTX 0
#endif
#if NV_PTX
#define DEFINE_PTX2(name, op) \
inline uint \
name (uint a, uint b) \
{ \
  uint d; \
  asm (op " %0, %1, %2;" : "=r" (d) : "r" (a), "r" (b)); \
  return d; \
}
#define DEFINE_PTX3(name, op) \
inline uint \
name (uint a, uint b, uint c) \
{ \
  uint d; \
  asm (op " %0, %1, %2, %3;" : "=r" (d) : "r" (a), "r" (b), "r" (c)); \
  return d; \
}
/* The bytes of (@a, @b), numbered 0..7, that the nibbles of @sel name,
 * lowest nibble first: one instruction (prmt). */
DEFINE_PTX3 (byte_perm, "prmt.b32")
/* Each 16-bit half of @a, @b: the smaller (unsigned) */
DEFINE_PTX2 (min_u16x2, "min.u16x2")
#else
inline uint
byte_perm (uint a, uint b, uint sel)
{
  const ulong v = upsample (b, a);
  uint d = 0;
  for (int i = 0; i < 4; i++)
    d |= (uint) ((v >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return d;
}

inline uint
min_u16x2 (uint a, uint b)
{
  return min (a & 0xffff, b & 0xffff) | min (a >> 16, b >> 16) << 16;
}
#endif
