/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Plain-C reference implementations of every kernel. They define what the
 * kernels must compute; the kernel checker compares against them. */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GST_CL_GAUSSIAN_MAX_TAPS 255

/* Reflect-101 (cv2.BORDER_REFLECT_101) of index @p into [0, n), n >= 1. */
int gst_cl_ref_reflect101 (int p, int n);

/* OpenCV's kernel size for an 8-bit Gaussian of @sigma: round(6σ+1) | 1. */
int gst_cl_gaussian_ksize (double sigma);

/* cv::getGaussianKernel(n, sigma): @n taps into @taps, summing to 1.
 * sigma <= 0 derives σ from n (and uses OpenCV's fixed tables for n <= 7). */
void gst_cl_gaussian_taps (int n, double sigma, double *taps);

/* Gaussian blur of one plane of @cn interleaved 8-bit channels, computed in
 * double and rounded half up, reflect-101 border. */
void gst_cl_ref_blur_plane (const uint8_t * src, int src_stride, uint8_t * dst,
    int dst_stride, int width, int height, int cn, const double *taps_x,
    int kx, const double *taps_y, int ky);

/* ---- Sobel / Scharr ---------------------------------------------------- */

#define GST_CL_SOBEL_MAX_TAPS 7
#define GST_CL_SCHARR (-1)

typedef enum
{
  GST_CL_SOBEL_MAGNITUDE,       /* sqrt (gx^2 + gy^2) */
  GST_CL_SOBEL_X,               /* |gx| */
  GST_CL_SOBEL_Y,               /* |gy| */
} GstCLSobelMode;

/* cv::getDerivKernels for a first derivative: the @n taps of the smoothing
 * kernel and of the derivative kernel of size @ksize (3, 5, 7, or
 * GST_CL_SCHARR for Scharr's 3 taps). Returns n, or 0 for a bad size. */
int gst_cl_sobel_taps (int ksize, int *smooth, int *deriv);

/* Luma of 8-bit R, G, B as cv2.cvtColor (COLOR_RGB2GRAY) computes it:
 * in OpenCV 4: (9798 R + 19235 G + 3735 B + 2^14) >> 15, bit-exact. */
uint8_t gst_cl_ref_luma (uint8_t r, uint8_t g, uint8_t b);

/* Edges of the 8-bit plane @luma: gx, gy as cv2.Sobel / cv2.Scharr (ddepth
 * CV_32F, reflect-101) give them, then per @mode
 * v = sat (round (|g| * scale + delta)); with @threshold > 0, 255 where
 * v >= threshold and 0 elsewhere. Rounds half to even, as cv2 does. */
void gst_cl_ref_sobel_plane (const uint8_t * luma, int luma_stride,
    uint8_t * dst, int dst_stride, int width, int height, int ksize,
    GstCLSobelMode mode, double scale, double delta, int threshold);

#ifdef __cplusplus
}
#endif
