/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclref.h"

#include <math.h>
#include <stdlib.h>

int
gst_cl_ref_reflect101 (int p, int n)
{
  if (n == 1)
    return 0;
  /* OpenCV's borderInterpolate, iterated for p far outside. */
  while (p < 0 || p >= n) {
    if (p < 0)
      p = -p;
    else
      p = 2 * n - 2 - p;
  }
  return p;
}

int
gst_cl_gaussian_ksize (double sigma)
{
  return ((int) lround (sigma * 6 + 1)) | 1;
}

void
gst_cl_gaussian_taps (int n, double sigma, double *taps)
{
  /* cv::getGaussianKernel's fixed kernels for sigma <= 0. */
  static const double small[4][7] = {
    {1.0},
    {0.25, 0.5, 0.25},
    {0.0625, 0.25, 0.375, 0.25, 0.0625},
    {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125},
  };
  double sum = 0;

  if (sigma <= 0 && n % 2 == 1 && n <= 7) {
    for (int i = 0; i < n; i++)
      taps[i] = small[n / 2][i];
    return;
  }
  if (sigma <= 0)
    sigma = ((n - 1) * 0.5 - 1) * 0.3 + 0.8;
  for (int i = 0; i < n; i++) {
    double x = i - (n - 1) * 0.5;
    taps[i] = exp (-x * x / (2 * sigma * sigma));
    sum += taps[i];
  }
  for (int i = 0; i < n; i++)
    taps[i] /= sum;
}

void
gst_cl_ref_blur_plane (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int cn, const double *taps_x,
    int kx, const double *taps_y, int ky)
{
  const int rx = kx / 2, ry = ky / 2, wb = width * cn;
  double *across = malloc (sizeof (double) * (size_t) wb * height);

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < cn; c++) {
        double acc = 0;
        for (int j = 0; j < kx; j++)
          acc += taps_x[j] * src[y * src_stride +
              gst_cl_ref_reflect101 (x + j - rx, width) * cn + c];
        across[(size_t) y * wb + x * cn + c] = acc;
      }

  for (int y = 0; y < height; y++)
    for (int b = 0; b < wb; b++) {
      double acc = 0;
      for (int k = 0; k < ky; k++)
        acc += taps_y[k] *
            across[(size_t) gst_cl_ref_reflect101 (y + k - ry, height) * wb + b];
      long v = lround (floor (acc + 0.5));
      dst[y * dst_stride + b] = v < 0 ? 0 : v > 255 ? 255 : (uint8_t) v;
    }
  free (across);
}
