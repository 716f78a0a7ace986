/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
gst_cl_sobel_taps (int ksize, int *smooth, int *deriv)
{
  int n;

  if (ksize == GST_CL_SCHARR) {
    static const int s[3] = { 3, 10, 3 }, d[3] = { -1, 0, 1 };
    memcpy (smooth, s, sizeof (s));
    memcpy (deriv, d, sizeof (d));
    return 3;
  }
  if (ksize != 3 && ksize != 5 && ksize != 7)
    return 0;
  n = ksize;
  /* cv::getSobelKernels: binomial smoothing of n taps (Pascal's row n-1);
   * the derivative is the binomial row n-2 convolved with (-1, 1). */
  for (int order = 0; order <= 1; order++) {
    int *k = order ? deriv : smooth;
    memset (k, 0, sizeof (int) * n);
    k[0] = 1;
    for (int i = 0; i < n - order - 1; i++)
      for (int j = n - 1; j > 0; j--)
        k[j] += k[j - 1];
    if (order) {
      for (int j = n - 1; j > 0; j--)
        k[j] = k[j - 1] - k[j];
      k[0] = -k[0];
    }
  }
  return n;
}

uint8_t
gst_cl_ref_luma (uint8_t r, uint8_t g, uint8_t b)
{
  /* OpenCV 4's 15-bit coefficients (color.hpp: RY15, GY15, BY15). */
  return (uint8_t) ((r * 9798 + g * 19235 + b * 3735 + (1 << 14)) >> 15);
}

void
gst_cl_ref_sobel_plane (const uint8_t * luma, int luma_stride,
    uint8_t * dst, int dst_stride, int width, int height, int ksize,
    GstCLSobelMode mode, double scale, double delta, int threshold)
{
  int sm[GST_CL_SOBEL_MAX_TAPS], dv[GST_CL_SOBEL_MAX_TAPS];
  const int n = gst_cl_sobel_taps (ksize, sm, dv), r = n / 2;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++) {
      long gx = 0, gy = 0;
      double g, v;
      for (int k = 0; k < n; k++) {
        const uint8_t *row =
            luma + gst_cl_ref_reflect101 (y + k - r, height) * luma_stride;
        for (int j = 0; j < n; j++) {
          int p = row[gst_cl_ref_reflect101 (x + j - r, width)];
          gx += (long) sm[k] * dv[j] * p;
          gy += (long) dv[k] * sm[j] * p;
        }
      }
      g = mode == GST_CL_SOBEL_X ? labs (gx) : mode == GST_CL_SOBEL_Y ?
          labs (gy) : sqrt ((double) gx * gx + (double) gy * gy);
      v = rint (g * scale + delta);
      v = v < 0 ? 0 : v > 255 ? 255 : v;
      if (threshold > 0)
        v = v >= threshold ? 255 : 0;
      dst[y * dst_stride + x] = (uint8_t) v;
    }
}
