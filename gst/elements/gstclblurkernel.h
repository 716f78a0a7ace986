/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The blur kernels as the element and the kernel checker use them: taps,
 * build options, variant choice and launch geometry, in one place. */
#pragma once

#include "cl/gstclcontext.h"
#include "cl/gstclfilter.h"
#include "ref/gstclref.h"

G_BEGIN_DECLS

typedef struct
{
  gint kx, ky;
  gdouble wx[GST_CL_GAUSSIAN_MAX_TAPS];
  gdouble wy[GST_CL_GAUSSIAN_MAX_TAPS];
} GstCLBlurTaps;

typedef enum
{
  GST_CL_BLUR_ROWS,             /* 16 bytes per work-item, no local memory:
                                 * GPUs, for kernels too wide for tiles */
  GST_CL_BLUR_TILED,            /* local-memory tiles: GPUs */
  GST_CL_BLUR_BANDS,            /* 16 columns x 8 rows per work-item: CPUs */
  GST_CL_BLUR_FIXED,            /* bands in 16-bit fixed point: CPUs, where
                                 * gst_cl_blur_fixed_taps proves the error
                                 * bound */
  GST_CL_BLUR_N_VARIANTS
} GstCLBlurVariant;

/* The fixed variant's integer taps (see kernels/blur.cl). */
typedef struct
{
  /* across: the pairs, weight * 2 * 65536, then the centre, weight * 65536 */
  guint16 p[GST_CL_GAUSSIAN_MAX_TAPS / 2 + 1];
  gboolean pairs;               /* y: pairs as p, then the centre */
  guint16 y[GST_CL_GAUSSIAN_MAX_TAPS];  /* down, weight * 65536 */
  guint round;                  /* added before the final >> 8 */
  gdouble bound;                /* worst-case error before rounding, levels */
} GstCLBlurFixedTaps;

/* Largest worst-case error (levels, before the final rounding) the fixed
 * variant may have: below 1, its rounded result is within 1 level of the
 * exact one's; the margin covers the reference's own rounding. */
#define GST_CL_BLUR_FIXED_MAX_ERROR 0.75

/* Quantises @taps for the fixed variant and bounds its error over every
 * possible input; FALSE where a sum could overflow 16 bits or the bound
 * exceeds GST_CL_BLUR_FIXED_MAX_ERROR (then the float variants serve). */
gboolean gst_cl_blur_fixed_taps (const GstCLBlurTaps * taps,
    GstCLBlurFixedTaps * fx);

/* The tiled variant's taps in IEEE half precision, for its packed-half
 * vertical-first tile (blur_vtiled_h2 in kernels/blur.cl): per side, the
 * pairs' weights from the outermost in, then the centre's, as half bits. */
typedef struct
{
  guint16 x[GST_CL_GAUSSIAN_MAX_TAPS / 2 + 1];
  guint16 y[GST_CL_GAUSSIAN_MAX_TAPS / 2 + 1];
  gdouble bound;                /* worst-case error before rounding, levels */
} GstCLBlurHalfTaps;

/* Quantises @taps to halves and bounds the packed-half tile's error over
 * every possible input (the weights' quantisation, and every rounding of
 * its sums); FALSE where the bound exceeds GST_CL_BLUR_FIXED_MAX_ERROR or
 * a result could leave 0..255 (then the float tile serves). */
gboolean gst_cl_blur_half_taps (const GstCLBlurTaps * taps,
    GstCLBlurHalfTaps * ht);

/* GST_CL_BLUR_HALF=0|1: the tiled variant's vertical-first tile in packed
 * halves, by default on NVIDIA GPUs only (inline PTX); 1 elsewhere runs a
 * portable emulation, so that the checker reaches it on any device. */
#define GST_CL_BLUR_HALF_ENV "GST_CL_BLUR_HALF"

const gchar *gst_cl_blur_variant_name (GstCLBlurVariant variant);

/* Channel counts the kernels exist for, index 0..2 <-> 1, 2, 4 channels. */
#define GST_CL_BLUR_N_CN 3

typedef struct
{
  GstCLBlurVariant variant;
  cl_program program;
  cl_kernel kernels[GST_CL_BLUR_N_CN];  /* NULL where the variant lacks cn */
  gint tile_h[GST_CL_BLUR_N_CN];
  GstCLBlurTaps taps;
  gint wg_x, wg_y;              /* work-group shape of the tiled kernels */
  gboolean vfirst;              /* tiled kernels built with -DVFIRST=1 */
  gboolean half;                /* ... and in packed halves, -DHALF=1 */
  gint fx_width;                /* fixed variant: bytes per work-item */
  gint fx_span;                 /* fixed variant: blur_fixed_rows' span
                                 * in bytes; 0: blur_fixed's bands */

  /* Tiled variant built with chroma taps: every plane of an NV12 or I420
   * frame in one launch (NULL where not built or a tile does not fit). */
  cl_kernel nv12, i420;
  gint chroma_tile_h[2];        /* chroma planes of 1 and 2 channels */
  GstCLBlurTaps chroma_taps;
} GstCLBlurProgram;

/* Tuning knob for the tiled variant (docs/PERFORMANCE.md): the environment
 * variable GST_CL_BLUR_TILE = "ROWS" or "ROWS:WXxWY" forces the tile height
 * (where it fits the device's local memory) and the work-group shape (WX
 * items across, 4 bytes each, WY down), e.g. "16" or "32:64x4". */
#define GST_CL_BLUR_TILE_ENV "GST_CL_BLUR_TILE"

/* GST_CL_BLUR_VFIRST=0 builds the tiled kernels horizontal pass first
 * (blur_tiled in blur.cl) even where the vertical-first ones (blur_vtiled,
 * the default) fit. */
#define GST_CL_BLUR_VFIRST_ENV "GST_CL_BLUR_VFIRST"

/* GST_CL_BLUR_VARIANT = rows, tiled or bands: the variant every element
 * uses on every device (tests run the GPU path on a CPU device with it). */
#define GST_CL_BLUR_VARIANT_ENV "GST_CL_BLUR_VARIANT"

/* Taps for a plane subsampled by 2^@x_sub x 2^@y_sub: σ scales with the
 * subsampling; @ksize 0 derives the size from σ as OpenCV does for 8 bits,
 * otherwise it is halved (and made odd) per subsampling step. */
void gst_cl_blur_taps_compute (GstCLBlurTaps * taps, gdouble sigma_x,
    gdouble sigma_y, gint ksize, gint x_sub, gint y_sub);

/* The variant a device should use for @taps. */
GstCLBlurVariant gst_cl_blur_preferred_variant (const GstCLDeviceInfo * dev,
    const GstCLBlurTaps * taps);

gboolean gst_cl_blur_program_init (GstCLBlurProgram * prog,
    GstCLContext * ctx, const GstCLBlurTaps * taps, GstCLBlurVariant variant,
    GError ** error);
/* The same, with @chroma_taps (or NULL) for the one-launch YUV kernels,
 * which only the tiled variant has. */
gboolean gst_cl_blur_program_init_planes (GstCLBlurProgram * prog,
    GstCLContext * ctx, const GstCLBlurTaps * taps,
    const GstCLBlurTaps * chroma_taps, GstCLBlurVariant variant,
    GError ** error);
void gst_cl_blur_program_clear (GstCLBlurProgram * prog);

/* Enqueues the blur of one plane. Planes must have the same size and
 * pixel_bytes. Rows variant is used where the tiled one lacks a kernel. */
cl_int gst_cl_blur_program_enqueue (GstCLBlurProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * src_plane,
    cl_mem dst, const GstCLPlane * dst_plane, cl_event * event);

/* TRUE when @prog blurs the @n_planes planes of a frame of this layout in
 * one launch: NV12 (pixel bytes 1, 2) or I420 (1, 1, 1), luma with the
 * program's taps and chroma with its chroma taps. */
gboolean gst_cl_blur_program_has_planes (const GstCLBlurProgram * prog,
    const GstCLPlane * planes, guint n_planes);

/* Enqueues the blur of every plane of a frame in one launch (see
 * gst_cl_blur_program_has_planes(); CL_INVALID_KERNEL where it is FALSE). */
cl_int gst_cl_blur_program_enqueue_planes (GstCLBlurProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * src_planes,
    cl_mem dst, const GstCLPlane * dst_planes, guint n_planes,
    cl_event * event);

G_END_DECLS
