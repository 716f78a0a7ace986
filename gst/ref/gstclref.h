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

#ifdef __cplusplus
}
#endif
