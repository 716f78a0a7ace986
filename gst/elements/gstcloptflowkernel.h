/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The optical-flow kernels as the element, the kernel checker and the
 * benchmark use them: program, the temporal state (the previous frame's
 * pyramid) and the enqueue of one frame, plus one enqueue per kernel for
 * the checker. */
#pragma once

#include "cl/gstclcontext.h"
#include "cl/gstclfilter.h"
#include "ref/gstclref.h"

G_BEGIN_DECLS

#define GST_CL_OPTFLOW_MAX_RADIUS 15
/* Levels stop before a side would fall below this. */
#define GST_CL_OPTFLOW_MIN_LEVEL_SIDE 8
/* Tensor regulariser per window pixel, in (grey levels / pixel)^2. The
 * flow is shrunk towards zero by about reg / (G / window + reg): flat
 * windows (G = 0) give zero flow, edge-only ones their normal flow, weak
 * texture keeps its motion (real photos: 0.05 made skies and walls lag,
 * 0.002 follows them). Smaller loses float precision in (G + reg)^-1 on
 * strong edges (a c - b^2 with a c ~ 1e10). */
#define GST_CL_OPTFLOW_REG_PER_PIXEL 0.002f

typedef enum
{
  GST_CL_OPTFLOW_SAMPLING_AUTO,    /* images on GPUs that can, else buffers */
  GST_CL_OPTFLOW_SAMPLING_IMAGE,   /* texture unit (falls back if missing) */
  GST_CL_OPTFLOW_SAMPLING_BUFFER,  /* bilinear by hand */
} GstCLOptflowSampling;

typedef enum
{
  GST_CL_OPTFLOW_STYLE_COLOUR,
  GST_CL_OPTFLOW_STYLE_ARROWS,
} GstCLOptflowStyle;

typedef struct
{
  cl_program program;
  gint radius;
  gboolean gpu;                 /* 32x8 work-groups */
  /* CPU devices (GST_CL_OPTFLOW_ROWS=0 turns it off): the band kernels
   * (of_*_rows: the iteration and gradient + tensor fused), OF_CW /
   * OF_TCW columns a work-item */
  gboolean rows;
  gint cw, tcw;
  guint compute_units;
  gboolean images_ok;           /* CL_R/CL_FLOAT images with linear filter */
  gsize image_max_w, image_max_h;
  cl_kernel luma_c1, luma_c4, pyrdown, gradient, tensor_h, tensor_v;
  cl_kernel residual_buf, residual_img, box_h, solve, upsample, zero;
  cl_kernel block_means, overlay_c1, overlay_c4, overlay_chroma, copy;
  cl_kernel prep_rows, iter_rows, pyrdown_rows, upsample_rows;
} GstCLOptflowProgram;

/* One frame's pyramid and what the flow needs of it as the previous
 * frame (gradients, inverse tensors) and as the next one (images). */
typedef struct
{
  cl_mem luma[GST_CL_OPTFLOW_MAX_LEVELS];      /* float */
  cl_mem grad[GST_CL_OPTFLOW_MAX_LEVELS];      /* float2 (not on the bands) */
  cl_mem tinv[GST_CL_OPTFLOW_MAX_LEVELS];      /* float4, or 3 planes */
  cl_mem image[GST_CL_OPTFLOW_MAX_LEVELS];     /* image2d, image path only */
  gint prep_from;               /* grad and tinv exist from this level up */
} GstCLOptflowPyramid;

/* The temporal state, all of it: two pyramid slots (the previous frame and
 * the one being added) and scratch buffers. Another device needs only the
 * previous frame's level-0 luma (gst_cl_optflow_state_prev_luma): the rest
 * is derived from it. */
typedef struct
{
  gint width, height, levels, radius;
  gboolean images;
  gint lw[GST_CL_OPTFLOW_MAX_LEVELS], lh[GST_CL_OPTFLOW_MAX_LEVELS];
  GstCLOptflowPyramid pyr[2];
  gint prev;                    /* slot of the previous frame */
  gboolean have_prev;           /* pyr[prev] holds a frame */
  cl_mem flow[GST_CL_OPTFLOW_MAX_LEVELS];      /* levels >= 1; 0: caller's */
  cl_mem tmp;                   /* float4 per level-0 pixel */
  cl_mem res;                   /* float2 per level-0 pixel */
  cl_mem conv;                  /* uchar per level-0 pixel */
} GstCLOptflowState;

typedef struct
{
  gint iterations;
  gfloat epsilon;
  /* the finest level refined (0: full resolution); the field is that
   * level's, upsampled, below it (at most the coarsest level) */
  gint finest;
} GstCLOptflowParams;

gboolean gst_cl_optflow_program_init (GstCLOptflowProgram * prog,
    GstCLContext * ctx, gint radius, GError ** error);
void gst_cl_optflow_program_clear (GstCLOptflowProgram * prog);

/* Whether @sampling resolves to images on this program's device. */
gboolean gst_cl_optflow_use_images (const GstCLOptflowProgram * prog,
    const GstCLDeviceInfo * dev, GstCLOptflowSampling sampling, gint width,
    gint height);

/* Levels actually used for a @width x @height frame when @levels are asked:
 * none with a side below GST_CL_OPTFLOW_MIN_LEVEL_SIDE (at least 1). */
gint gst_cl_optflow_effective_levels (gint width, gint height, gint levels);

/* Buffers for @width x @height and @levels; keeps them (and the previous
 * frame) when nothing changed, else starts over without a previous frame. */
gboolean gst_cl_optflow_state_ensure (GstCLOptflowState * st,
    GstCLContext * ctx, gint width, gint height, gint levels, gint radius,
    gboolean images, GError ** error);
/* Forget the previous frame (first frame, flush, seek, discontinuity). */
void gst_cl_optflow_state_reset (GstCLOptflowState * st);
void gst_cl_optflow_state_clear (GstCLOptflowState * st);
/* The previous frame's level-0 luma (float, width x height), NULL if none:
 * all a device switch has to carry over (read it back, then on the new
 * device gst_cl_optflow_state_ensure + gst_cl_optflow_state_restore_prev). */
cl_mem gst_cl_optflow_state_prev_luma (const GstCLOptflowState * st);
/* Makes @luma (width x height floats, host memory) the previous frame:
 * uploads it (blocking) and rebuilds its pyramid, gradients, tensors and
 * images, so the next frame's flow is what it would have been on the old
 * device. @event: the last command. */
cl_int gst_cl_optflow_state_restore_prev (GstCLOptflowProgram * prog,
    GstCLOptflowState * st, cl_command_queue queue, const gfloat * luma,
    cl_event * event);

/* The whole frame: luma of plane @sp (@pixel_bytes 1, or 4 with byte
 * weights @wts summing to 256), its pyramid, and the flow from the previous
 * frame into @flow (float2, width x height; zeros without a previous
 * frame); the frame then becomes the previous one. Never waits. @event:
 * the last command; @events, when not NULL, receives every command's event
 * (for profiling; the caller releases them). */
cl_int gst_cl_optflow_enqueue_frame (GstCLOptflowProgram * prog,
    GstCLOptflowState * st, cl_command_queue queue,
    const GstCLOptflowParams * params, cl_mem src, const GstCLPlane * sp,
    const gfloat wts[4], cl_mem flow, cl_event * event, GPtrArray * events);

/* Overlay of one plane (see gst_cl_ref_optflow_overlay for @kind, @pb, @a,
 * @b, @c); @flow is the level-0 field of @w x @h. */
cl_int gst_cl_optflow_enqueue_overlay (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, gint kind, gint a, gint b, gint c, cl_mem flow,
    gint w, gint h, GstCLOptflowStyle style, gfloat max_motion,
    cl_event * event);

/* Copies a plane's bytes unchanged. */
cl_int gst_cl_optflow_enqueue_copy (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, cl_event * event);

/* Mean flow of each @bs x @bs block into @means (float2, row-major). */
cl_int gst_cl_optflow_enqueue_block_means (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem flow, gint w, gint h, gint bs,
    cl_mem means, cl_event * event);

/* ---- single kernels, for the kernel checker ---- */
cl_int gst_cl_optflow_enqueue_luma (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp,
    const gfloat wts[4], cl_mem dst, cl_event * event);
cl_int gst_cl_optflow_enqueue_pyrdown (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, gint w, gint h, cl_mem dst,
    cl_event * event);
cl_int gst_cl_optflow_enqueue_gradient (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, gint w, gint h, cl_mem grad,
    cl_event * event);
/* @tmp: float4 scratch of w x h. */
cl_int gst_cl_optflow_enqueue_tensor (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem grad, gint w, gint h, cl_mem tmp,
    cl_mem tinv, cl_event * event);
/* What a level needs as the previous frame, as the frame's pyramid makes
 * it: gradients of @src into @grad and inverse tensors into @tinv (@tmp:
 * float4 scratch of w x h) with gradient + tensor; or, where prog->rows
 * (CPU devices), one fused kernel that writes the tensors as three planes
 * (a, b, c of [a b; b c], w x h floats each) and no gradients, which
 * of_iter_rows derives from the level itself. */
cl_int gst_cl_optflow_enqueue_prep (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, gint w, gint h, cl_mem grad,
    cl_mem tmp, cl_mem tinv, cl_event * event);
/* One iteration, updating @flow; @next_image (image path) or @next
 * (buffer path); @res and @tmp: float2 scratch of w x h. @grad and @tinv
 * as gst_cl_optflow_enqueue_prep makes them for this path: with
 * prog->rows and no image, tinv as planes and @grad unused. */
cl_int gst_cl_optflow_enqueue_iteration (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem prev, cl_mem next, cl_mem next_image,
    cl_mem grad, cl_mem tinv, gint w, gint h, gfloat epsilon, gboolean first,
    cl_mem res, cl_mem tmp, cl_mem flow, cl_mem conv, cl_event * event);
cl_int gst_cl_optflow_enqueue_upsample (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem coarse, gint cw, gint ch, cl_mem fine,
    gint w, gint h, cl_event * event);
/* A CL_R / CL_FLOAT image of @w x @h, filled from the float buffer @src. */
cl_mem gst_cl_optflow_image_new (GstCLContext * ctx, gint w, gint h,
    GError ** error);
cl_int gst_cl_optflow_enqueue_to_image (cl_command_queue queue, cl_mem src,
    cl_mem image, gint w, gint h, cl_event * event);

/* The tensor regulariser for a window of radius @r: per pixel, times the
 * window's total weight. */
static inline gfloat
gst_cl_optflow_reg (gint r)
{
  gfloat win[2 * GST_CL_OPTFLOW_MAX_RADIUS + 1], sum = 0;
  gst_cl_ref_optflow_window (r, win);
  for (gint i = 0; i <= 2 * r; i++)
    sum += win[i];
  return GST_CL_OPTFLOW_REG_PER_PIXEL * sum * sum;
}

G_END_DECLS
