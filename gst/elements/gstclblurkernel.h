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
  GST_CL_BLUR_N_VARIANTS
} GstCLBlurVariant;

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
} GstCLBlurProgram;

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
void gst_cl_blur_program_clear (GstCLBlurProgram * prog);

/* Enqueues the blur of one plane. Planes must have the same size and
 * pixel_bytes. Rows variant is used where the tiled one lacks a kernel. */
cl_int gst_cl_blur_program_enqueue (GstCLBlurProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * src_plane,
    cl_mem dst, const GstCLPlane * dst_plane, cl_event * event);

G_END_DECLS
