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

/* ---- histogram equalisation (kernels/histeq.cl) ---- */

#define GST_CL_HISTEQ_BINS 256

/* Tile grid over a width x height plane as cv::CLAHE lays it: when the size
 * is not a multiple of the grid, the plane is padded (reflect-101) by
 * tiles - (size % tiles) in BOTH directions (OpenCV pads both even when
 * only one is not a multiple). Global mode: one tile, the plane itself. */
typedef struct
{
  int tiles_x, tiles_y;
  int tw, th;                   /* tile size in the padded plane */
  int clip;                     /* OpenCV's integer clip limit, 0: none */
  float lut_scale;              /* 255.f / (tw * th) */
  float inv_tw, inv_th;         /* 1.f / tw, 1.f / th */
  int clahe;
} GstCLHisteqGeometry;

void gst_cl_ref_histeq_geometry (GstCLHisteqGeometry * g, int width,
    int height, int clahe, int tiles_x, int tiles_y, double clip_limit);

/* Luma of a pixel of @cn (1 or 4) bytes: the byte itself, or
 * (w[0]*p[0] + w[1]*p[1] + w[2]*p[2] + 128) >> 8. */
int gst_cl_ref_histeq_luma (const uint8_t * p, int cn, const int *w);

/* Histograms of every tile: hist[tile * 256 + v]. */
void gst_cl_ref_histeq_hist (const uint8_t * src, int stride, int width,
    int height, int cn, const int *w, const GstCLHisteqGeometry * g,
    uint32_t * hist);

/* Unrounded mapping of one tile (equalizeHist's or CLAHE's), @hist is
 * modified (clipped) in CLAHE mode. */
void gst_cl_ref_histeq_map (uint32_t * hist, const GstCLHisteqGeometry * g,
    float *f);

/* Final byte LUT: rint (strength >= 1 ? f : j + strength * (f - j)). */
void gst_cl_ref_histeq_lut (const float *f, float strength, uint8_t * lut);

/* Temporal state of the frame (histeq_cut), GST_CL_HISTEQ_FRAME_STATE
 * (tiles) floats: the smoothed pdf [0..255], valid, cut, the brightness
 * shift, the target mean and the smoothed equalizeHist mapping (global
 * mode), the tiles' smoothed mean levels and their shifts (CLAHE). */
#define GST_CL_HISTEQ_FS_VALID 256
#define GST_CL_HISTEQ_FS_CUT 257
#define GST_CL_HISTEQ_FS_SHIFT 258
#define GST_CL_HISTEQ_FS_TARGET 259
#define GST_CL_HISTEQ_FS_MAP 260
#define GST_CL_HISTEQ_FS_TILES (GST_CL_HISTEQ_FS_MAP + GST_CL_HISTEQ_BINS)
#define GST_CL_HISTEQ_FRAME_STATE(tiles) (GST_CL_HISTEQ_FS_TILES + 2 * (tiles))
/* Largest brightness shift tracked (levels): a camera's frame-to-frame
 * jitter; larger changes are left to the smoothing and the cut detector. */
#define GST_CL_HISTEQ_MAX_SHIFT 4.0f
/* Resolution of the CLAHE median shift: 1/32 level. */
#define GST_CL_HISTEQ_SHIFT_STEPS 256

/* Updates the frame's state with the histograms of its @tiles tiles
 * (@tile_hist[tile * 256 + v]) and returns whether the frame is a scene
 * cut (also on @reset or with no state yet): total-variation distance of
 * the frame's pdf from the smoothed one above @cut_threshold. Then the
 * brightness shift d (0 on a cut, |d| <= MAX_SHIFT) by which every tile
 * reads its smoothed mapping at (level - d):
 * - global (@clahe 0): the frame's own equalizeHist mapping is smoothed too;
 *   d (solved exactly: the mean is linear in d between whole levels)
 *   gives the frame, mapped by it at (level - d), the smoothed mean of its
 *   own equalised output (equalising each frame on its own pins that mean;
 *   a smoothed mapping alone passes jitter on).
 * - CLAHE: the median over the tiles of (tile mean level - its smoothed
 *   mean), quantised to 1/SHIFT_STEPS: a global jitter moves every tile,
 *   an object moving in a few tiles does not move the median. */
int gst_cl_ref_histeq_cut (const uint32_t * tile_hist, int tiles, int clahe,
    float alpha, float cut_threshold, int reset, float *frame_state);
/* The mean level of a frame (its histogram @hist) mapped by @g read at
 * (level - @d), linear between bins: what global mode's shift makes equal
 * to the target (the checker's test of the solve). */
double gst_cl_ref_histeq_shifted_mean (const uint32_t * hist, const float *g,
    float d);

/* Temporal smoothing of one tile's unrounded mapping @f (in place) with its
 * state @st[256]: restarted on a cut, else st += alpha * (f - st); @f is
 * then the smoothed mapping read at (j - @shift), linearly interpolated. */
void gst_cl_ref_histeq_smooth (float *f, float *st, float alpha, int cut,
    float shift);

/* Applies the tile LUTs to a plane (luma of @cn-byte pixels; colour scaled
 * by the luma gain, clamped so no channel clips). */
void gst_cl_ref_histeq_apply (const uint8_t * src, int src_stride,
    uint8_t * dst, int dst_stride, int width, int height, int cn,
    const int *w, const GstCLHisteqGeometry * g, const uint8_t * luts);

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

/* ---- optical flow (kernels/optflow.cl) -------------------------------- */
/* Float planes are w x h, row stride w; flow and gradients are 2 floats
 * per pixel, tensors 4. Each function is one kernel. */

#define GST_CL_OPTFLOW_MAX_LEVELS 8
#define GST_CL_OPTFLOW_ARROW_GRID 16

/* The separable window's 2r+1 weights: a Gaussian of sigma (r+1)/2 (the
 * centre 1), which follows a varying flow more closely than a box. */
void gst_cl_ref_optflow_window (int r, float *win);
/* Luma as float: the byte (cn 1) or (sum wts[i] * p[i]) / 256 (cn 4). */
void gst_cl_ref_optflow_luma (const uint8_t * src, int stride, int w, int h,
    int cn, const float *wts, float *dst);
/* cv2.pyrDown: 5x5 binomial, reflect-101, dst ((w+1)/2) x ((h+1)/2). */
void gst_cl_ref_optflow_pyrdown (const float *src, int w, int h, float *dst);
/* Scharr / 32, reflect-101: grad[2i] = d/dx, grad[2i+1] = d/dy. */
void gst_cl_ref_optflow_gradient (const float *src, int w, int h,
    float *grad);
/* Weighted window sums (gst_cl_ref_optflow_window, separable, over
 * (2r+1)^2) of the gradient products, clamp-to-edge, as the inverse of
 * G + reg I: tinv[4i..] = a, b, c, 0 with G^-1 = [a b; b c]. */
void gst_cl_ref_optflow_tensor (const float *grad, int w, int h, int r,
    float reg, float *tinv);
/* Bilinear sample, clamp-to-edge, of a float plane at (px, py). With
 * @weight_bits > 0 the weights are rounded to that many fractional bits, as
 * GPU texture units filter (NVIDIA: 8); 0 is exact. */
float gst_cl_ref_optflow_sample (const float *img, int w, int h, float px,
    float py, int weight_bits);
/* One iteration: per pixel res = g (g . flow - e) with g = grad(prev),
 * e = next(p + flow) - prev(p) (0 where p + flow is outside the frame);
 * b = weighted window sums of res; where not converged
 * flow = (G + reg I)^-1 b with @tinv (conv: moved < eps, the pixel stops;
 * the level's @first iteration ignores the flags); @weight_bits as in
 * gst_cl_ref_optflow_sample. */
void gst_cl_ref_optflow_iterate (const float *prev, const float *next,
    const float *grad, const float *tinv, int w, int h, int r, float eps,
    int first, int weight_bits, float *flow, uint8_t * conv);
/* fine = 2 * bilinear (coarse at (x/2, y/2)), fine is w x h. */
void gst_cl_ref_optflow_upsample (const float *coarse, int cw, int ch,
    float *fine, int w, int h);
/* The whole flow of @a -> @b (8-bit luma planes, w x h) as cloptflow
 * computes it on buffers: both pyramids of @levels levels (already
 * limited to the frame), then coarse to fine, zero at the top, upsampled
 * below, @iterations iterations per level (the first ignoring the
 * convergence flags) down to level @finest, below it only upsampled;
 * regularisation @reg. Returns 2 * w * h floats (free ()). */
float *gst_cl_ref_optflow_dense (const uint8_t * a, int a_stride,
    const uint8_t * b, int b_stride, int w, int h, int levels, int finest,
    int r, float reg, int iterations, float eps);
/* Mean flow of each bs x bs block (the last ones clipped): means[2i..]. */
void gst_cl_ref_optflow_block_means (const float *flow, int w, int h, int bs,
    float *means);
/* Overlay colour (rgba[0..2], 0..255) and opacity (rgba[3], 0..1) at luma
 * pixel (x, y): style 0 colour by direction, style 1 arrows. */
void gst_cl_ref_optflow_overlay_at (const float *flow, int w, int h, int x,
    int y, int style, float max_motion, float *rgba);
/* The overlay of a plane: @kind 0: 1-byte luma; 1: 4-byte pixels with R, G,
 * B at bytes @a, @b, @c; 2: 2x2 subsampled chroma of @pb bytes per pixel
 * with U at byte @a, V at byte @b (-1: absent), the plane @pw x @ph. */
void gst_cl_ref_optflow_overlay (const uint8_t * src, int src_stride,
    uint8_t * dst, int dst_stride, int pw, int ph, int kind, int pb, int a,
    int b, int c, const float *flow, int w, int h, int style,
    float max_motion);

#ifdef __cplusplus
}
#endif
