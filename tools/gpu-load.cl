/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A kernel that only keeps the ALUs busy (tools/gpu-load.c). Two chains of
 * dependent FMAs per work-item, no memory traffic but the last store. */
__kernel void spin (__global float *out, int iters)
{
  float a = get_global_id (0) * 1e-6f, b = 1.0001f;
  for (int i = 0; i < iters; i++) {
    a = fma (a, b, 1e-7f);
    b = fma (b, 0.9999f, 1e-5f);
  }
  out[get_global_id (0)] = a + b;
}
