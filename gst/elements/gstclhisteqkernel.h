/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The histogram-equalisation kernels as the element, the kernel checker and
 * the benchmark use them: program, per-size device buffers (histograms,
 * LUTs, temporal state) and the enqueue of one plane. */
#pragma once

#include "cl/gstclcontext.h"
#include "cl/gstclfilter.h"
#include "ref/gstclref.h"

G_BEGIN_DECLS

typedef enum
{
  GST_CL_HISTEQ_GLOBAL,         /* cv2.equalizeHist */
  GST_CL_HISTEQ_CLAHE,          /* cv2.createCLAHE */
} GstCLHisteqMode;

typedef struct
{
  cl_program program;
  cl_kernel hist[2];            /* c1, c4: work-groups with atomics (GPUs) */
  cl_kernel hist_serial[2];     /* c1, c4: one item per group (CPUs) */
  gboolean serial;              /* use hist_serial (the device's default) */
  cl_kernel hist_lut[2];        /* c1, c4: histogram, cut and LUT fused */
  cl_kernel hist_lut_serial[2]; /* c1, c4: the same from hist_serial's
                                 * groups (CPUs, global mode) */
  gboolean fused;               /* use hist_lut, or with serial
                                 * hist_lut_serial in global mode (the
                                 * default; the environment's
                                 * GST_CL_HISTEQ_FUSED=0 turns it off) */
  cl_kernel equalize_serial;     /* c1: hist_lut_serial and the apply in
                                 * one launch (CPUs, global mode) */
  cl_kernel equalize;           /* c1: hist_lut and the apply in one
                                 * launch (GPUs, global mode) */
  cl_kernel equalize_keep;      /* the same, the slices kept in registers
                                 * (those up to GST_CL_HISTEQ_EQ_KEEP
                                 * chunks an item) */
  gboolean one_launch;          /* use equalize_serial (CPUs) or equalize
                                 * (GPUs) where it applies (the default
                                 * with fused; GST_CL_HISTEQ_ONE_LAUNCH=0
                                 * turns it off) */
  gboolean cut_wait;            /* CLAHE with smoothing: the tiles' LUTs
                                 * in hist_lut, after the cut (GPUs),
                                 * else in the lut launch */
  cl_kernel clahe_one;          /* c1, CLAHE: hist_lut and the apply in
                                 * one launch (GPUs, with cut_wait; NULL
                                 * where not built) */
  gint clahe_one_max_pixels;    /* the largest frame clahe_one takes */
  cl_kernel lut;
  cl_kernel cut;
  cl_kernel cut_lut;            /* cut then lut, one launch (global mode) */
  cl_kernel apply_global[2];
  cl_kernel apply_clahe[2];
  cl_kernel apply_clahe_lq;     /* c1, CLAHE: the quad table's cells in
                                 * local memory (GPUs; NULL where not
                                 * built or turned off) */
  gint clahe_lq;                /* GST_CL_HISTEQ_CLAHE_LQ_ENV's 1 or 2 */
  cl_kernel copy;
  guint compute_units;          /* the device's: equalize_serial's groups */
  gint eq_groups_per_cu;        /* equalize's groups per compute unit */
  gint apply_w;                 /* pixels per work-item of apply_global c1 */
  gint clahe_w;                 /* pixels per work-item of apply_clahe c1 */
  size_t hist_local;            /* work-items per histogram work-group */
  gint copies;                  /* local histogram copies (bank spreading) */
} GstCLHisteqProgram;

/* Device buffers for one frame size and tile grid. */
typedef struct
{
  GstCLHisteqGeometry geom;
  gint width, height;
  gint slices;                  /* histogram work-groups per tile */
  gint fused_slices;            /* the same, fused kernel */
  gint hist_slices;             /* slices in partial after the last frame */
  cl_mem partial;               /* uint [tiles][slices][256] */
  cl_mem ghist;                 /* uint [tiles + 1][256], fused kernel
                                 * (tiles, then the frame): zero between
                                 * frames */
  cl_mem counters;              /* uint, fused kernels (the layout:
                                 * gst_cl_histeq_buffers_ensure ()): zero
                                 * between frames, but for claims and
                                 * flags, which hold frame numbers or tags */
  guint eq_slices, eq_bands;    /* equalize_serial: slices and bands
                                 * claimed so far (counters[0], [2]) */
  guint eq_tag;                 /* the last frame's flag: equalize's LUT
                                 * (counters[3]), fused CLAHE's cut
                                 * (counters[tiles + 1]) */
  cl_mem luts;                  /* uchar [tiles][256] */
  cl_mem state;                 /* float [tiles][256] smoothed mappings,
                                 * then the frame's state
                                 * (GST_CL_HISTEQ_FRAME_STATE floats) */
  cl_mem frame_state;           /* sub-buffer: the frame's state */
  cl_mem checkpoint;            /* as state: the state as it was before a
                                 * frame (GstCLHisteqParams.checkpoint;
                                 * made at the first frame that asks) */
  cl_mem state_before;          /* after an enqueue, which buffer holds the
                                 * state as it was before that frame: state
                                 * (nothing that changes it was queued),
                                 * checkpoint, or NULL (neither, or no
                                 * checkpoint was asked for) */
  gboolean state_fresh;         /* state must be reset on the next frame */
  gboolean smoothing_on;        /* the last frame was smoothed */
} GstCLHisteqBuffers;

/* What may change from frame to frame without new buffers. */
typedef struct
{
  gfloat strength;              /* 0..1, blend with the identity */
  guint smoothing;              /* frames; 0 or 1: none */
  gfloat cut_threshold;         /* total-variation distance, 0..1 */
  gboolean checkpoint;          /* keep the smoothed state as it was before
                                 * this frame in the buffers' checkpoint
                                 * (device=auto: a frame that fails runs
                                 * again on the other device from it) */
} GstCLHisteqParams;

/* Per-byte luma weights of 4-byte pixels with R, G, B at byte @r, @g, @b
 * (BT.601, sum 256). */
void gst_cl_histeq_luma_weights (gint r, gint g, gint b, gint w[4]);

/* 0: histogram, cut and LUT as separate launches; 1: in one (the default
 * on GPUs and on PoCL 3 and 5.0; see serial_fused_checked ()) */
#define GST_CL_HISTEQ_FUSED_ENV "GST_CL_HISTEQ_FUSED"
/* 1: the frame's cut and map computed by the whole work-group (default on
 * GPUs), 0: by one work-item (default elsewhere) */
#define GST_CL_HISTEQ_PAR_TAIL_ENV "GST_CL_HISTEQ_PAR_TAIL"
/* pixels per work-item of the global LUT apply (one byte per pixel): 16,
 * or 512 (default on CPUs with AVX-512: byte shuffles, 64 at a time) */
#define GST_CL_HISTEQ_APPLY_W_ENV "GST_CL_HISTEQ_APPLY_W"
/* 1: each CLAHE tile's LUT also stored into a table of the four LUTs each
 * cell between tile centres reads, one word a level, which the GRAY8
 * apply reads where it takes 16 pixels an item (default on GPUs); 0: the
 * four LUTs read byte by byte (kernels/histeq.cl, CLAHE_QUAD) */
#define GST_CL_HISTEQ_CLAHE_QUAD_ENV "GST_CL_HISTEQ_CLAHE_QUAD"
/* The GRAY8 CLAHE apply from the quad table with its cells copied into
 * local memory first (histeq_apply_clahe_lq_c1): 0 never (the table read
 * from global memory, histeq_apply_clahe_c1), 1 always, 2 (default) where
 * its groups are at least GST_CL_HISTEQ_CLAHE_LQ_GROUPS_PER_CU a compute
 * unit (H200: 4K 510 groups, 0.0367-0.0369 -> 0.0356-0.0358 ms; 1080p
 * 136 groups for 132 compute units, 0.0219 -> 0.0247-0.0255 ms) */
#define GST_CL_HISTEQ_CLAHE_LQ_ENV "GST_CL_HISTEQ_CLAHE_LQ"
#define GST_CL_HISTEQ_CLAHE_LQ_GROUPS_PER_CU 2
/* rows of histeq_apply_clahe_lq_c1's work-item (kernels/histeq.cl) */
#define GST_CL_HISTEQ_CLAHE_LQ_ROWS 4
/* 0: the apply in a launch of its own; 1: with the histogram and LUT in
 * one launch (the default where fused; global mode, one byte a pixel) */
#define GST_CL_HISTEQ_ONE_LAUNCH_ENV "GST_CL_HISTEQ_ONE_LAUNCH"
/* 1: the GPUs' kernels (256-item groups, fused launches that keep their
 * own checkpoint) on any device; 0: the CPUs' serial ones. A test hook:
 * device=auto's faults through the fused launch on two PoCL devices
 * (the auto-faults-fused test). */
#define GST_CL_HISTEQ_GPU_PATHS_ENV "GST_CL_HISTEQ_GPU_PATHS"
/* GPUs, CLAHE on one byte a pixel with up to
 * GST_CL_HISTEQ_CLAHE_ONE_MAX_TILES_X tiles across: 0 the apply in a launch
 * of its own; 1 in the histogram's launch; 2 (the default) in the
 * histogram's launch up to GST_CL_HISTEQ_CLAHE_ONE_MAX_PIXELS a frame,
 * where it measured faster (H200: 480p 0.020 -> 0.017 ms, 1080p 0.022 ->
 * 0.0215 and less between launches; 4K not faster, NV12 0.0008 ms slower;
 * docs/results/gpu-session29) */
#define GST_CL_HISTEQ_CLAHE_ONE_ENV "GST_CL_HISTEQ_CLAHE_ONE"
#define GST_CL_HISTEQ_CLAHE_ONE_MAX_PIXELS (1920 * 1088)
/* as kernels/histeq.cl's CLAHE_ONE_LUT_BYTES: 3 rows of 256-byte LUTs */
#define GST_CL_HISTEQ_CLAHE_ONE_MAX_TILES_X 21
/* GPUs' one-launch kernel: work-groups per compute unit (1..8, default
 * GST_CL_HISTEQ_EQ_GROUPS_PER_CU) */
#define GST_CL_HISTEQ_EQ_GROUPS_ENV "GST_CL_HISTEQ_EQ_GROUPS"
#define GST_CL_HISTEQ_EQ_GROUPS_PER_CU 2
#define GST_CL_HISTEQ_EQ_GROUPS_MAX 8
/* GPUs' one-launch kernel: copies of the frame's histogram that its groups
 * add into, a group's by its slice, from 64 groups
 * (1..GST_CL_HISTEQ_EQ_GCOPIES_MAX, kernels/histeq.cl) */
#define GST_CL_HISTEQ_EQ_GCOPIES_ENV "GST_CL_HISTEQ_EQ_GCOPIES"
#define GST_CL_HISTEQ_EQ_GCOPIES 8
#define GST_CL_HISTEQ_EQ_GCOPIES_MAX 32
/* histeq_equalize_keep_c1: 16-byte chunks an item kept in registers */
#define GST_CL_HISTEQ_EQ_KEEP 4
/* histeq_equalize_c1: at most this many 16-byte chunks an item kept in
 * local memory (a 4K frame's slice on 132 compute units), fewer where the
 * device's local memory has no room for them beside the kernel's other
 * local arrays (GST_CL_HISTEQ_EQ_LOCAL_OTHER bytes, 12064 on NVIDIA) */
#define GST_CL_HISTEQ_EQ_LKEEP 9
#define GST_CL_HISTEQ_EQ_LOCAL_OTHER 12288

/* @every_path: the program holds every path's kernels (the checker and
 * the benchmarks switch paths on one program); otherwise only those of the
 * paths chosen for the device, which NVIDIA compiles in about half the time
 * (docs/PERFORMANCE.md, "Session 41"). */
gboolean gst_cl_histeq_program_init (GstCLHisteqProgram * prog,
    GstCLContext * ctx, gboolean every_path, GError ** error);
void gst_cl_histeq_program_clear (GstCLHisteqProgram * prog);

/* Buffers for a @width x @height plane; keeps them (and the temporal state)
 * when the geometry is unchanged. */
gboolean gst_cl_histeq_buffers_ensure (GstCLHisteqBuffers * bufs,
    GstCLContext * ctx, gint width, gint height, GstCLHisteqMode mode,
    gint tiles_x, gint tiles_y, gdouble clip_limit, GError ** error);
void gst_cl_histeq_buffers_clear (GstCLHisteqBuffers * bufs);
/* Bytes of the temporal state (smoothed mappings and the frame's state). */
gsize gst_cl_histeq_buffers_state_size (const GstCLHisteqBuffers * bufs);

/* Histogram, LUT and apply for the luma of one plane (@pixel_bytes 1 or 4,
 * @w the luma weights for 4). Never waits; @event: the last command.
 * Launches per frame: histogram, scene cut (smoothing on), LUT, apply; with
 * @prog->fused: histogram+cut+LUT, apply (CLAHE with smoothing: + LUT; on
 * CPU devices CLAHE keeps the separate launches).
 * @steps, when not NULL: 4 events (histogram (fused: histogram, cut and
 * LUT), scene cut or NULL, LUT or NULL, apply) for profiling, to be
 * released by the caller. @params->checkpoint: the fused GPU launches
 * keep the smoothed state as it was before the frame in
 * @bufs->checkpoint as they run; the other paths queue a copy first.
 * @bufs->state_before says where that state is after the call. */
cl_int gst_cl_histeq_enqueue (GstCLHisteqProgram * prog,
    GstCLHisteqBuffers * bufs, cl_command_queue queue,
    const GstCLHisteqParams * params, const gint w[4], cl_mem src,
    const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    cl_event * event, cl_event * steps);

/* The same for a frame of @n_planes planes: @sp[0] is equalised, the
 * others (chroma) are copied unchanged, by the fused launch where it runs
 * (up to 2 planes), else by histeq_copy launches. @event: the last
 * command; @steps as above (the copies are not in them). */
cl_int gst_cl_histeq_enqueue_planes (GstCLHisteqProgram * prog,
    GstCLHisteqBuffers * bufs, cl_command_queue queue,
    const GstCLHisteqParams * params, const gint w[4], cl_mem src,
    const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp, guint n_planes,
    cl_event * event, cl_event * steps);

/* Copies a plane unchanged (chroma), on the device. */
cl_int gst_cl_histeq_enqueue_copy (GstCLHisteqProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, cl_event * event);

G_END_DECLS
