/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers every kernel source gets: the program cache puts this file in
 * front of each one (gst/cl/gstclprogram.c). */

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

/* Byte index q of a row of n pixels of cn channels, reflected per pixel. */
inline int
reflect_byte (int q, int n, int cn)
{
  const int shift = cn == 4 ? 2 : cn == 2 ? 1 : 0;
  return (reflect101 (q >> shift, n) << shift) | (q & (cn - 1));
}

/* Row @p of @n, reflected: the general form, or where the caller knows
 * that -n < p < 2n - 1, one select (no branch between the loads). */
inline int
reflect_row (int p, int n, const bool near)
{
  return near ? (p < 0 ? -p : p >= n ? 2 * n - 2 - p : p) : reflect101 (p, n);
}

/* Loops over compile-time counts that index private arrays: unrolled they
 * live in registers. NVIDIA's compiler is told so; PoCL unrolls them
 * after inlining, and warns about the pragma in the not-yet-inlined body. */
#ifdef cl_nv_pragma_unroll
#define UNROLL _Pragma ("unroll")
#else
#define UNROLL
#endif
