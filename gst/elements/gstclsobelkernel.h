/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The Sobel kernels as the element, the kernel checker and the benchmark use
 * them: taps, build options, variant choice and launch geometry. */
#pragma once

#include "cl/gstclcontext.h"
#include "cl/gstclfilter.h"
#include "ref/gstclref.h"

G_BEGIN_DECLS

typedef struct
{
  gint ksize;                   /* 3, 5, 7 or GST_CL_SCHARR */
  GstCLSobelMode mode;
  gdouble scale;
  gdouble delta;
  gint threshold;               /* 0: off */
} GstCLSobelParams;

typedef enum
{
  GST_CL_SOBEL_TILED,           /* local-memory luma tiles: GPUs */
  GST_CL_SOBEL_BANDS,           /* 16 pixels x BAND_H rows per work-item in
                                 * float16 registers: CPUs */
  GST_CL_SOBEL_N_VARIANTS
} GstCLSobelVariant;

/* How the input plane holds luma. */
typedef enum
{
  GST_CL_SOBEL_IN_Y,            /* one byte per pixel */
  GST_CL_SOBEL_IN_RGB,          /* R, G, B, A/x */
  GST_CL_SOBEL_IN_BGR,          /* B, G, R, A/x */
  GST_CL_SOBEL_N_IN
} GstCLSobelIn;

/* How the output plane is written. */
typedef enum
{
  GST_CL_SOBEL_OUT_1,           /* one byte per pixel */
  GST_CL_SOBEL_OUT_4,           /* v, v, v, 255 */
  GST_CL_SOBEL_N_OUT
} GstCLSobelOut;

const gchar *gst_cl_sobel_variant_name (GstCLSobelVariant variant);
GstCLSobelVariant gst_cl_sobel_preferred_variant (const GstCLDeviceInfo *
    dev);

typedef struct
{
  GstCLSobelVariant variant;
  GstCLSobelParams params;
  cl_program program;
  cl_kernel kernels[GST_CL_SOBEL_N_IN][GST_CL_SOBEL_N_OUT];
  cl_kernel fill;
  gint wg_x, wg_y, tile_h;      /* tiled variant: work-group, tile rows */
  gboolean vfirst;              /* tiled: vertical pass first */
  gboolean pack_u16;            /* tiled: output bytes by PACK_U16 */
} GstCLSobelProgram;

/* Tuning knob for the tiled variant (docs/PERFORMANCE.md): the environment
 * variable GST_CL_SOBEL_TILE = "ROWS" or "ROWS:WXxWY" sets the tile height
 * (default 16) and the work-group shape (default 32x4 vertical first,
 * 16x16 horizontal first; WX items of 4 pixels across, WY down; items loop
 * over the rows when ROWS > WY). */
#define GST_CL_SOBEL_TILE_ENV "GST_CL_SOBEL_TILE"

/* GST_CL_SOBEL_VFIRST=0 builds the tiled kernels horizontal pass first
 * (sobel_tiled in sobel.cl) instead of vertical first (sobel_vtiled). */
#define GST_CL_SOBEL_VFIRST_ENV "GST_CL_SOBEL_VFIRST"

/* GST_CL_SOBEL_PACK=0|1: the tiled kernels round and pack their output
 * bytes by integer steps (-DPACK_U16, sobel.cl) instead of conversions,
 * where the element's settings keep every value below 65536. Default: on
 * NVIDIA GPUs (by inline PTX); 1 elsewhere runs its portable form. */
#define GST_CL_SOBEL_PACK_ENV "GST_CL_SOBEL_PACK"

gboolean gst_cl_sobel_program_init (GstCLSobelProgram * prog,
    GstCLContext * ctx, const GstCLSobelParams * params,
    GstCLSobelVariant variant, GError ** error);
void gst_cl_sobel_program_clear (GstCLSobelProgram * prog);

/* Enqueues the edges of @src_plane (luma as @in says) into @dst_plane
 * (written as @out says). Both planes have the same width and height. */
cl_int gst_cl_sobel_program_enqueue (GstCLSobelProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * src_plane,
    GstCLSobelIn in, cl_mem dst, const GstCLPlane * dst_plane,
    GstCLSobelOut out, cl_event * event);

/* Enqueues @value into every byte of the pixels of @plane. */
cl_int gst_cl_sobel_program_fill (GstCLSobelProgram * prog,
    cl_command_queue queue, cl_mem dst, const GstCLPlane * plane,
    guint8 value, cl_event * event);

G_END_DECLS
