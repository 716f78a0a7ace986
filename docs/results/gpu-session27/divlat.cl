/* Session 27 experiment: the latency of one float division in a dependent
 * chain on an NVIDIA GPU (-cl-fp32-correctly-rounded-divide-sqrt as
 * kernels/histeq.cl), by %clock64 around N steps in one work-item.
 * KIND 0: a / b (div.rn.f32)  1: native_divide  2: a * b (a multiply)
 *      3: rcp.approx + two FMA refinements, then the quotient's FMA
 *         correction (the fast path of a correctly rounded division)
 *      4: 256 dependent FMAs in straight-line code (run once: cold)
 *      5: the same 256 FMAs as 8 steps of a 32-FMA loop body
 *      6: 8 dependent divisions in straight-line code (run once) */
#define F2(x) x x
#define F4(x) F2 (F2 (x))
#define F32(x) F4 (F4 (F2 (x)))
#define FMA1 a = fma (a, b, 0.5f);
__kernel void
divlat (__global float * out, __global long * cycles, float a0, float b, int n)
{
  float a = a0;
  long t0, t1;
  asm volatile ("mov.u64 %0, %%clock64;" : "=l" (t0));
#if KIND == 4
  F32 (F4 (F2 (FMA1)))
#elif KIND == 5
  for (int i = 0; i < n; i++) {
    F32 (FMA1)
  }
#elif KIND == 6
  F4 (F2 (a = a / b + 1.0f;))
#else
  for (int i = 0; i < n; i++) {
#if KIND == 0
    a = a / b + 1.0f;
#elif KIND == 1
    a = native_divide (a, b) + 1.0f;
#elif KIND == 2
    a = a * b + 1.0f;
#else
    float y;
    asm ("rcp.approx.ftz.f32 %0, %1;" : "=f" (y) : "f" (b));
    const float e = fma (-b, y, 1.0f);
    y = fma (e, y, y);
    const float q = a * y;
    const float r = fma (-b, q, a);
    a = fma (r, y, q) + 1.0f;
#endif
  }
#endif
  asm volatile ("mov.u64 %0, %%clock64;" : "=l" (t1));
  out[0] = a;
  cycles[0] = t1 - t0;
}
