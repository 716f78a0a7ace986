/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclhisteqkernel.h"
#include "cl/gstclutils.h"

#include <string.h>

#define BINS GST_CL_HISTEQ_BINS
#define TILE_STATE 256          /* floats per tile, as in histeq.cl */
/* Histogram work-groups to aim for per frame, so every compute unit gets
 * several even in global mode (one tile). */
#define TARGET_GROUPS 64

void
gst_cl_histeq_luma_weights (gint r, gint g, gint b, gint w[4])
{
  memset (w, 0, 4 * sizeof (gint));
  w[r] = 77;
  w[g] = 150;
  w[b] = 29;
}

/* CPU devices whose OpenCL compiler has run histeq_hist_lut_serial
 * through the checker: PoCL 3 (here and in CI) and PoCL 5.0 (the GPU
 * machine, session 11: 330/330). PoCL 5.0 compiled the GPUs' fused
 * kernel's one-item frame step wrongly (docs/HISTEQ.md), so a compiler
 * not checked keeps the separate launches. */
static gboolean
serial_fused_checked (const GstCLDeviceInfo * dev)
{
  return gst_cl_device_is_pocl (dev) &&
      (g_str_has_prefix (dev->driver_version, "3.") ||
      g_str_has_prefix (dev->driver_version, "5.0"));
}

/* A kernel of the program: where it goes, its name, whether to build it */
typedef struct
{
  cl_kernel *field;
  gchar *name;
  gboolean wanted;
} KernelSlot;

gboolean
gst_cl_histeq_program_init (GstCLHisteqProgram * prog, GstCLContext * ctx,
    gboolean every_path, GError ** error)
{
  static const gchar *suffix[2] = { "c1", "c4" };
  GString *opts;
  cl_int status = CL_SUCCESS;

  memset (prog, 0, sizeof (*prog));
  /* GPUs: a 256-item group and 4 histogram copies spread over the banks
   * (16 copies ran 3-12% slower on the H200: more to clear and to sum;
   * docs/results/gpu-session20, run 5); CPUs: the serial kernel, one item
   * per group, no atomics. */
  const gboolean gpu_paths = gst_cl_env_choice (GST_CL_HISTEQ_GPU_PATHS_ENV,
      0, 1, ctx->device->is_gpu);
  prog->hist_local = gpu_paths ?
      MIN (256, ctx->device->max_work_group_size) : 16;
  prog->copies = gpu_paths ? 4 : 1;
  prog->serial = !gpu_paths;
  /* one launch for histogram, cut and LUT: on GPUs with 256-item groups,
   * on CPUs from the serial histogram's groups (global mode) where that
   * kernel has been checked; the variable forces it either way */
  prog->fused = gst_cl_env_choice (GST_CL_HISTEQ_FUSED_ENV, 0, 1,
      prog->serial ? serial_fused_checked (ctx->device) : TRUE) &&
      (prog->serial || prog->hist_local == BINS);
  /* the apply too, in the same launch (kernels/histeq.cl) */
  prog->compute_units = MAX (ctx->device->compute_units, 1);
  prog->one_launch = prog->fused &&
      gst_cl_env_choice (GST_CL_HISTEQ_ONE_LAUNCH_ENV, 0, 1, TRUE);
  prog->eq_groups_per_cu = gst_cl_env_int (GST_CL_HISTEQ_EQ_GROUPS_ENV,
      1, GST_CL_HISTEQ_EQ_GROUPS_MAX, GST_CL_HISTEQ_EQ_GROUPS_PER_CU);
  /* the frame's cut and map spread over the work-group: GPUs only, the
   * barriers cost CPU devices more than they save (kernels/histeq.cl);
   * the variable forces it either way */
  const gboolean par_tail = gst_cl_env_choice (GST_CL_HISTEQ_PAR_TAIL_ENV,
      0, 1, ctx->device->is_gpu);
  prog->apply_w = gst_cl_env_choice (GST_CL_HISTEQ_APPLY_W_ENV, 16, 512,
      gst_cl_device_has_avx512 (ctx->device) ? 512 : 16);
  /* the CLAHE apply takes 64 pixels through the same byte shuffles */
  prog->clahe_w = prog->apply_w > 16 ? 64 : 16;
  /* the GRAY8 CLAHE apply from the quad table: GPUs, 16 pixels an item */
  const gboolean clahe_quad = prog->clahe_w == 16 &&
      gst_cl_env_choice (GST_CL_HISTEQ_CLAHE_QUAD_ENV, 0, 1,
      ctx->device->is_gpu);
  /* CLAHE's tiles wait for the cut inside the fused histogram launch
   * (kernels/histeq.cl, CUT_WAIT): GPUs */
  prog->cut_wait = ctx->device->is_gpu;
  /* and CLAHE's apply in that launch too (kernels/histeq.cl, CLAHE_ONE) */
  const gint clahe_one_env = gst_cl_env_int (GST_CL_HISTEQ_CLAHE_ONE_ENV, 0,
      2, 2);
  const gboolean clahe_one = prog->cut_wait && clahe_one_env > 0;
  prog->clahe_one_max_pixels = clahe_one_env == 1 ? G_MAXINT :
      GST_CL_HISTEQ_CLAHE_ONE_MAX_PIXELS;
  /* histeq_equalize_c1's chunks in local memory: as many as fit (a
   * program whose kernel asks for more than the device has fails to
   * build on NVIDIA: 48 KB a group) */
  const guint64 local_mem = ctx->device->local_mem_size;
  const gint lkeep = local_mem > GST_CL_HISTEQ_EQ_LOCAL_OTHER ?
      (gint) MIN ((local_mem - GST_CL_HISTEQ_EQ_LOCAL_OTHER) / (16 * BINS),
      GST_CL_HISTEQ_EQ_LKEEP) : 0;
  /* the one-launch apply's table lookups by byte permutes where the CPU
   * has them (kernels/common.cl) */
  opts = g_string_new (NULL);
  g_string_printf (opts, "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"
      " -DNCOPIES=%d -DPAR_TAIL=%d -DAPPLY_W=%d -DCLAHE_W=%d -DCLAHE_QUAD=%d"
      " -DX86_VBMI=%d -DEQ_KEEP=%d -DEQ_LKEEP=%d -DEQ_GCOPIES=%d"
      " -DCUT_WAIT=%d -DCLAHE_ONE=%d -DWARP_XCHG=%d -DCLAHE_LQ_ROWS=%d",
      prog->copies, par_tail,
      prog->apply_w, prog->clahe_w, clahe_quad,
      gst_cl_device_has_vbmi (ctx->device),
      GST_CL_HISTEQ_EQ_KEEP, lkeep,
      gst_cl_env_int (GST_CL_HISTEQ_EQ_GCOPIES_ENV, 1,
          GST_CL_HISTEQ_EQ_GCOPIES_MAX, GST_CL_HISTEQ_EQ_GCOPIES),
      prog->cut_wait, clahe_one,
      /* a group's first 32 items are one warp (a 1-D group of 256) */
      gst_cl_device_has_warp_shuffles (ctx->device, 32),
      GST_CL_HISTEQ_CLAHE_LQ_ROWS);
  prog->clahe_lq = gst_cl_env_int (GST_CL_HISTEQ_CLAHE_LQ_ENV, 0, 2, 2);

  /* The kernels each path launches (gst_cl_histeq_enqueue ()); the program
   * holds those of the paths chosen above, or every one. */
  const gboolean gpu_fused = prog->fused && !prog->serial;
  const gboolean serial_fused = prog->fused && prog->serial;
  /* histogram, cut and LUT as separate launches: without fusion, and
   * CLAHE on CPUs */
  const gboolean separate = !prog->fused || prog->serial;
  KernelSlot slots[32];
  guint n = 0;
#define SLOT(f, want, ...) G_STMT_START { \
    g_assert (n < G_N_ELEMENTS (slots)); \
    slots[n++] = (KernelSlot) { &(f), g_strdup_printf (__VA_ARGS__), \
        every_path || (want) }; \
  } G_STMT_END
  for (gint i = 0; i < 2; i++) {
    SLOT (prog->hist[i], !prog->fused && !prog->serial, "histeq_hist_%s",
        suffix[i]);
    SLOT (prog->hist_lut[i], gpu_fused, "histeq_hist_lut_%s", suffix[i]);
    SLOT (prog->hist_serial[i], prog->serial, "histeq_hist_serial_%s",
        suffix[i]);
    SLOT (prog->hist_lut_serial[i], serial_fused,
        "histeq_hist_lut_serial_%s", suffix[i]);
    SLOT (prog->apply_global[i], TRUE, "histeq_apply_global_%s", suffix[i]);
    SLOT (prog->apply_clahe[i], TRUE, "histeq_apply_clahe_%s", suffix[i]);
  }
  SLOT (prog->equalize_serial, serial_fused && prog->one_launch,
      "histeq_equalize_serial_c1");
  SLOT (prog->equalize, gpu_fused && prog->one_launch, "histeq_equalize_c1");
  SLOT (prog->equalize_keep, gpu_fused && prog->one_launch,
      "histeq_equalize_keep_c1");
  /* CLAHE's LUTs after a fused histogram whose tiles do not wait */
  SLOT (prog->lut, separate || (gpu_fused && !prog->cut_wait), "histeq_lut");
  SLOT (prog->cut, separate, "histeq_cut");
  SLOT (prog->cut_lut, !prog->fused, "histeq_cut_lut");
  SLOT (prog->copy, TRUE, "histeq_copy");
  /* these two exist only where the build options define them */
  if (clahe_one)
    SLOT (prog->clahe_one, gpu_fused && prog->one_launch,
        "histeq_clahe_one_c1");
  if (clahe_quad && prog->clahe_lq > 0)
    SLOT (prog->apply_clahe_lq, TRUE, "histeq_apply_clahe_lq_c1");
#undef SLOT
  const gchar *wanted[G_N_ELEMENTS (slots) + 1];
  guint n_wanted = 0;
  for (guint i = 0; i < n; i++)
    if (slots[i].wanted)
      wanted[n_wanted++] = slots[i].name;
  wanted[n_wanted] = NULL;
  if (!every_path)
    gst_cl_program_options_want (opts, wanted);

  prog->program = gst_cl_context_get_program (ctx, "histeq", opts->str,
      error);
  g_string_free (opts, TRUE);
  for (guint i = 0; i < n; i++) {
    if (prog->program && slots[i].wanted && status == CL_SUCCESS) {
      *slots[i].field = clCreateKernel (prog->program, slots[i].name, &status);
      gst_cl_set_error (status, slots[i].name, error);
    }
    g_free (slots[i].name);
  }
  if (prog->program && status == CL_SUCCESS)
    return TRUE;
  gst_cl_histeq_program_clear (prog);
  return FALSE;
}

void
gst_cl_histeq_program_clear (GstCLHisteqProgram * prog)
{
  cl_kernel *all[] = { &prog->hist[0], &prog->hist[1], &prog->lut,
    &prog->hist_lut[0], &prog->hist_lut[1],
    &prog->hist_serial[0], &prog->hist_serial[1],
    &prog->hist_lut_serial[0], &prog->hist_lut_serial[1],
    &prog->apply_global[0], &prog->apply_global[1], &prog->apply_clahe[0],
    &prog->apply_clahe[1], &prog->copy, &prog->cut, &prog->cut_lut,
    &prog->equalize_serial, &prog->equalize, &prog->equalize_keep,
    &prog->clahe_one, &prog->apply_clahe_lq
  };
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (*all[i])
      clReleaseKernel (*all[i]);
  if (prog->program)
    clReleaseProgram (prog->program);
  memset (prog, 0, sizeof (*prog));
}

static void
release_mem (cl_mem * mem)
{
  if (*mem)
    clReleaseMemObject (*mem);
  *mem = NULL;
}

void
gst_cl_histeq_buffers_clear (GstCLHisteqBuffers * bufs)
{
  release_mem (&bufs->partial);
  release_mem (&bufs->ghist);
  release_mem (&bufs->counters);
  release_mem (&bufs->luts);
  release_mem (&bufs->frame_state);
  release_mem (&bufs->state);
  release_mem (&bufs->checkpoint);
  memset (bufs, 0, sizeof (*bufs));
}

gsize
gst_cl_histeq_buffers_state_size (const GstCLHisteqBuffers * bufs)
{
  const gint tiles = bufs->geom.tiles_x * bufs->geom.tiles_y;
  return sizeof (cl_float) * (TILE_STATE * tiles +
      GST_CL_HISTEQ_FRAME_STATE (tiles));
}

gboolean
gst_cl_histeq_buffers_ensure (GstCLHisteqBuffers * bufs, GstCLContext * ctx,
    gint width, gint height, GstCLHisteqMode mode, gint tiles_x, gint tiles_y,
    gdouble clip_limit, GError ** error)
{
  GstCLHisteqGeometry g;
  gint tiles, slices;
  cl_int status;

  gst_cl_ref_histeq_geometry (&g, width, height, mode == GST_CL_HISTEQ_CLAHE,
      tiles_x, tiles_y, clip_limit);
  if (bufs->partial && bufs->width == width && bufs->height == height &&
      memcmp (&g, &bufs->geom, sizeof (g)) == 0)
    return TRUE;

  gst_cl_histeq_buffers_clear (bufs);
  tiles = g.tiles_x * g.tiles_y;
  slices = CLAMP (TARGET_GROUPS / tiles, 1, g.th);
  bufs->geom = g;
  bufs->width = width;
  bufs->height = height;
  bufs->slices = slices;
  /* the fused kernel: several groups per compute unit */
  bufs->fused_slices = CLAMP (MAX (TARGET_GROUPS,
          4 * (gint) ctx->device->compute_units) / tiles, 1, g.th);
  bufs->hist_slices = slices;
  bufs->state_fresh = TRUE;
  bufs->partial = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE,
      sizeof (cl_uint) * BINS * tiles * slices, NULL, &status);
  if (!gst_cl_set_error (status, "clCreateBuffer(histograms)", error))
    goto fail;
  {
    /* zero at rest: the fused kernel leaves them so after every frame;
     * its CLAHE cut flag and tile claims (tiles + 1 on), the CLAHE
     * one-launch flag and band claims (2 tiles + 3 on) and
     * histeq_equalize_c1's slice claims (from EQ_CLAIMS, 4) hold a
     * frame's tag instead */
    const gsize eq_groups_max = GST_CL_HISTEQ_EQ_GROUPS_MAX *
        (gsize) MAX (ctx->device->compute_units, 1);
    /* histeq_clahe_one_c1's: its LUT count, flag and band claims after
     * the fused kernel's */
    const gsize n_counters = MAX (4 + eq_groups_max,
        2 * (gsize) tiles + 4 + MAX ((gsize) tiles, eq_groups_max));
    /* a row a tile and one for the frame; histeq_equalize_c1's copies */
    const gsize ghist_rows = MAX ((gsize) tiles + 1,
        GST_CL_HISTEQ_EQ_GCOPIES_MAX);
    gpointer zeros = g_malloc0 (sizeof (cl_uint) * MAX (n_counters,
            BINS * ghist_rows));
    bufs->ghist = clCreateBuffer (ctx->context,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        sizeof (cl_uint) * BINS * ghist_rows, zeros, &status);
    if (status == CL_SUCCESS)
      bufs->counters = clCreateBuffer (ctx->context,
          CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
          sizeof (cl_uint) * n_counters, zeros, &status);
    bufs->eq_slices = 0;
    bufs->eq_bands = 0;
    bufs->eq_tag = 0;
    g_free (zeros);
  }
  if (!gst_cl_set_error (status, "clCreateBuffer(fused histograms)", error))
    goto fail;
  /* CLAHE: the tiles' LUTs, then the quad table (kernels/histeq.cl,
   * CLAHE_QUAD), whether or not the program reads it */
  bufs->luts = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE,
      BINS * tiles + (g.clahe ? (gsize) 4 * BINS * (g.tiles_x + 1) *
          (g.tiles_y + 1) : 0), NULL, &status);
  if (!gst_cl_set_error (status, "clCreateBuffer(luts)", error))
    goto fail;
  bufs->state = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE,
      gst_cl_histeq_buffers_state_size (bufs), NULL, &status);
  if (!gst_cl_set_error (status, "clCreateBuffer(state)", error))
    goto fail;
  {
    cl_buffer_region region = { sizeof (cl_float) * TILE_STATE * tiles,
      sizeof (cl_float) * GST_CL_HISTEQ_FRAME_STATE (tiles)
    };
    bufs->frame_state = clCreateSubBuffer (bufs->state, CL_MEM_READ_WRITE,
        CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  }
  if (!gst_cl_set_error (status, "clCreateBuffer(state)", error))
    goto fail;
  return TRUE;

fail:
  gst_cl_histeq_buffers_clear (bufs);
  return FALSE;
}

static gint
cn_index (gint pixel_bytes)
{
  return pixel_bytes == 1 ? 0 : pixel_bytes == 4 ? 1 : -1;
}

/* 3. LUT per tile (temporal smoothing, clip, CDF, strength) from
 * @slices partial histograms per tile */
static cl_int
enqueue_lut (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params, cl_int slices,
    cl_float alpha, cl_event * event)
{
  const GstCLHisteqGeometry *g = &bufs->geom;
  const cl_int tiles = g->tiles_x * g->tiles_y, total = g->tw * g->th;
  size_t global[2] = { BINS, tiles }, local[2] = { BINS, 1 };
  cl_kernel k = prog->lut;
  cl_int status = CL_SUCCESS;
  cl_uint a = 0;

  status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->partial);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &slices);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &total);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->clahe);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->clip);
  status |= clSetKernelArg (k, a++, sizeof (cl_float), &g->lut_scale);
  status |= clSetKernelArg (k, a++, sizeof (cl_float), &params->strength);
  status |= clSetKernelArg (k, a++, sizeof (cl_float), &alpha);
  status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->state);
  status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->frame_state);
  status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->luts);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->tiles_x);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
      event);
}

/* The arguments the histogram kernels (separate and fused) begin with: the
 * plane, the tile geometry, @slices work-groups per tile, the luma
 * weights. */
static cl_int
set_tile_args (cl_kernel k, cl_uint * a, cl_mem src, const GstCLPlane * sp,
    const GstCLHisteqGeometry * g, cl_int slices, const cl_uint * wts)
{
  cl_int status = CL_SUCCESS;

  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &src);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_uint), &sp->offset);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &sp->stride);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &sp->width);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &sp->height);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &g->tw);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &g->th);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &g->tiles_x);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &slices);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_uint) * 4, wts);
  return status;
}

/* The separate launches: histograms of every (tile, slice), scene cut
 * (smoothing on), LUT. */
static cl_int
enqueue_hist_cut_lut (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params, gint ci,
    const cl_uint wts[4], cl_mem src, const GstCLPlane * sp, gboolean smooth,
    cl_int reset, cl_float alpha, cl_event * steps)
{
  const GstCLHisteqGeometry *g = &bufs->geom;
  const cl_int tiles = g->tiles_x * g->tiles_y;
  size_t global[2], local[2];
  cl_kernel k;
  cl_int status = CL_SUCCESS;
  cl_uint a;

  /* 1. histograms of every (tile, slice) */
  k = prog->serial ? prog->hist_serial[ci] : prog->hist[ci];
  a = 0;
  status |= set_tile_args (k, &a, src, sp, g, bufs->slices, wts);
  status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->partial);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  local[0] = prog->serial ? 1 : prog->hist_local;
  local[1] = 1;
  global[0] = local[0] * bufs->slices;
  global[1] = tiles;
  status = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
      steps ? &steps[0] : NULL);
  if (status != CL_SUCCESS)
    return status;

  bufs->hist_slices = bufs->slices;
  /* 2. scene cut (smoothing only); in global mode with the LUT, in one
   * launch (whose event stands for both) */
  if (smooth) {
    const gboolean with_lut = !g->clahe;
    const cl_int total = g->tw * g->th;
    k = with_lut ? prog->cut_lut : prog->cut;
    a = 0;
    status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->partial);
    status |= clSetKernelArg (k, a++, sizeof (cl_int), &tiles);
    status |= clSetKernelArg (k, a++, sizeof (cl_int), &bufs->slices);
    status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->clahe);
    status |= clSetKernelArg (k, a++, sizeof (cl_float), &alpha);
    status |= clSetKernelArg (k, a++, sizeof (cl_float),
        &params->cut_threshold);
    status |= clSetKernelArg (k, a++, sizeof (cl_int), &reset);
    status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->frame_state);
    if (with_lut) {
      status |= clSetKernelArg (k, a++, sizeof (cl_int), &total);
      status |= clSetKernelArg (k, a++, sizeof (cl_float), &g->lut_scale);
      status |= clSetKernelArg (k, a++, sizeof (cl_float), &params->strength);
      status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->state);
      status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->luts);
    }
    if (status != CL_SUCCESS)
      return CL_INVALID_KERNEL_ARGS;
    global[0] = local[0] = BINS;
    status = clEnqueueNDRangeKernel (queue, k, 1, NULL, global, local, 0,
        NULL, steps ? &steps[with_lut ? 2 : 1] : NULL);
    if (status != CL_SUCCESS || with_lut)
      return status;
  }
  return enqueue_lut (prog, bufs, queue, params, bufs->slices, alpha,
      steps ? &steps[2] : NULL);

}

/* (src offset, src stride, dst offset, dst stride, width in bytes, height)
 * of a plane the fused kernel copies; all zero: none */
static void
copy_plane_arg (cl_int p[8], const GstCLPlane * sp, const GstCLPlane * dp)
{
  memset (p, 0, 8 * sizeof (cl_int));
  if (!sp)
    return;
  p[0] = sp->offset;
  p[1] = sp->stride;
  p[2] = dp->offset;
  p[3] = dp->stride;
  p[4] = sp->width * sp->pixel_bytes;
  p[5] = sp->height;
}

/* The arguments both fused kernels end with: strength, smoothing, scene
 * cut, @mode, the temporal state and LUTs, @dst and the planes 1..@n_copied
 * they copy. */
static cl_int
set_fused_tail_args (cl_kernel k, cl_uint * a, GstCLHisteqBuffers * bufs,
    const GstCLHisteqParams * params, cl_float alpha, cl_int reset,
    cl_int mode, cl_mem dst, const GstCLPlane * sp, const GstCLPlane * dp,
    guint n_copied)
{
  cl_int status = CL_SUCCESS;

  status |= clSetKernelArg (k, (*a)++, sizeof (cl_float), &params->strength);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_float), &alpha);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_float),
      &params->cut_threshold);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &reset);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &mode);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->state);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->frame_state);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->luts);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &dst);
  for (guint i = 1; i <= 2; i++) {
    cl_int cp[8];
    copy_plane_arg (cp, i <= n_copied ? &sp[i] : NULL, &dp[i]);
    status |= clSetKernelArg (k, (*a)++, sizeof (cp), cp);
  }
  return status;
}

/* The arguments histeq_hist_lut_serial and histeq_equalize_serial begin
 * with: the plane and tiles in @slices slices, the partial histograms and
 * counters, then set_fused_tail_args ()'s. */
static cl_int
set_serial_fused_args (cl_kernel k, cl_uint * a, GstCLHisteqBuffers * bufs,
    const GstCLHisteqParams * params, const cl_uint wts[4], cl_mem src,
    const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    guint n_copied, cl_int slices, gboolean smooth, cl_int reset,
    cl_float alpha)
{
  const cl_int total = bufs->geom.tw * bufs->geom.th;
  cl_int status = CL_SUCCESS;

  status |= set_tile_args (k, a, src, sp, &bufs->geom, slices, wts);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->partial);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->counters);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &total);
  status |= set_fused_tail_args (k, a, bufs, params, alpha, reset, smooth,
      dst, sp, dp, n_copied);
  return status;
}

/* CPUs, global mode: histogram, scene cut and LUT in one launch of one-item
 * groups (histeq_hist_lut_serial), which also copy planes 1..@n_copied. */
static cl_int
enqueue_hist_lut_serial (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params, gint ci,
    const cl_uint wts[4], cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, guint n_copied, gboolean smooth, cl_int reset,
    cl_float alpha, cl_event * steps)
{
  size_t global[2] = { bufs->slices, 1 }, local[2] = { 1, 1 };
  cl_kernel k = prog->hist_lut_serial[ci];
  cl_int status = CL_SUCCESS;
  cl_uint a = 0;

  status |= set_serial_fused_args (k, &a, bufs, params, wts, src, sp, dst,
      dp, n_copied, bufs->slices, smooth, reset, alpha);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  status = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
      steps ? &steps[0] : NULL);
  if (status == CL_SUCCESS)
    bufs->hist_slices = bufs->slices;
  return status;
}

/* 4. the LUTs applied to the plane (the frame's last launch but copies) */
static cl_int
enqueue_apply (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, gint ci, const cl_uint wts[4], cl_mem src,
    const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    cl_event * event, cl_event * steps)
{
  const GstCLHisteqGeometry *g = &bufs->geom;
  /* the quad table's cells in local memory: 16 x 16 items a group, each
   * 16 pixels of GST_CL_HISTEQ_CLAHE_LQ_ROWS rows (kernels/histeq.cl),
   * where the groups fill the device (fewer left it idle) */
  const gint lq_rows = 16 * GST_CL_HISTEQ_CLAHE_LQ_ROWS;
  const size_t lq_groups[2] = { (sp->width + 255) / 256,
    (sp->height + lq_rows - 1) / lq_rows
  };
  const gboolean lq = g->clahe && ci == 0 && prog->apply_clahe_lq &&
      (prog->clahe_lq == 1 || lq_groups[0] * lq_groups[1] >=
      GST_CL_HISTEQ_CLAHE_LQ_GROUPS_PER_CU * (gsize) prog->compute_units);
  cl_kernel k = lq ? prog->apply_clahe_lq : g->clahe ? prog->apply_clahe[ci] :
      prog->apply_global[ci];
  const gint apply_w = ci ? 16 : g->clahe ? prog->clahe_w : prog->apply_w;
  size_t global[2] = { (sp->width + apply_w - 1) / apply_w, sp->height };
  const size_t lq_local[2] = { 16, 16 };
  cl_int status = CL_SUCCESS;

  if (lq) {
    global[0] = 16 * lq_groups[0];
    global[1] = 16 * lq_groups[1];
  }
  cl_uint a = 0;

  status |= gst_cl_plane_set_args (k, &a, src, sp, dst, dp);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &sp->width);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &sp->height);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint) * 4, wts);
  status |= clSetKernelArg (k, a++, sizeof (cl_mem), &bufs->luts);
  if (g->clahe) {
    status |= clSetKernelArg (k, a++, sizeof (cl_float), &g->inv_tw);
    status |= clSetKernelArg (k, a++, sizeof (cl_float), &g->inv_th);
    status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->tiles_x);
    status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->tiles_y);
  }
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  status = clEnqueueNDRangeKernel (queue, k, 2, NULL, global,
      lq ? lq_local : NULL, 0, NULL, event);
  if (status == CL_SUCCESS && steps && event && *event) {
    clRetainEvent (*event);
    steps[3] = *event;
  }
  return status;
}

/* A one-launch kernel @k, the frame's last, enqueued: its event is the
 * frame's (@event) and, with @steps, the first step's too. */
static cl_int
enqueue_frame_kernel (cl_command_queue queue, cl_kernel k,
    const size_t global[2], const size_t local[2], cl_event * event,
    cl_event * steps)
{
  cl_int status = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local,
      0, NULL, event);

  if (status == CL_SUCCESS && steps && event && *event) {
    clRetainEvent (*event);
    steps[0] = *event;
  }
  return status;
}

/* Rows per band of equalize_serial's apply: a few dozen bands at 480p for
 * the workers to share, each claim an atomic. */
#define EQ_BAND_ROWS 16

/* equalize_serial's histogram slices: at least a few a group, to even out
 * the workers' shares, and no bigger than EQ_SLICE_PIXELS, so the groups
 * that finish first wait little for the last slice (4K on 2 workers: 8
 * slices ran 4.4-4.8 ms a frame against 4.2 for two launches of 64); few
 * enough that clearing and summing their histograms stays small (480p on
 * 2 workers: 8 slices 0.070-0.075 ms, 64 slices 0.078). */
#define EQ_SLICES_PER_GROUP 4
#define EQ_SLICE_PIXELS (32 * 1024)

/* CPUs, global mode, one byte a pixel: histeq_hist_lut_serial and the
 * apply in one launch (histeq_equalize_serial_c1), the frame's last. */
static cl_int
enqueue_equalize_serial (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params,
    const cl_uint wts[4], cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, guint n_copied, gboolean smooth, cl_int reset,
    cl_float alpha, cl_event * event, cl_event * steps)
{
  const cl_int total = bufs->geom.tw * bufs->geom.th;
  const cl_int band_rows = EQ_BAND_ROWS;
  const cl_uint bands = (sp->height + EQ_BAND_ROWS - 1) / EQ_BAND_ROWS;
  const cl_uint slice_base = bufs->eq_slices, band_base = bufs->eq_bands;
  /* one group per worker: they share the slices and bands by claims */
  const gint groups = MIN (prog->compute_units, (guint) bufs->slices);
  const gint slices = MIN (MAX (EQ_SLICES_PER_GROUP * groups,
          total / EQ_SLICE_PIXELS), bufs->slices);
  size_t global[2] = { groups, 1 }, local[2] = { 1, 1 };
  cl_kernel k = prog->equalize_serial;
  cl_int status = CL_SUCCESS;
  cl_uint a = 0;

  status |= set_serial_fused_args (k, &a, bufs, params, wts, src, sp, dst,
      dp, n_copied, slices, smooth, reset, alpha);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &dp->offset);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &dp->stride);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &slice_base);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &band_base);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &band_rows);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  status = enqueue_frame_kernel (queue, k, global, local, event, steps);
  if (status != CL_SUCCESS)
    return status;
  /* the kernel leaves the claims at base + count, whoever took them */
  bufs->eq_slices = slice_base + slices;
  bufs->eq_bands = band_base + bands;
  bufs->hist_slices = slices;
  return CL_SUCCESS;
}

/* The checkpoint buffer, made at the first frame that asks for one. */
static gboolean
ensure_checkpoint (GstCLHisteqBuffers * bufs, cl_command_queue queue)
{
  cl_context context = NULL;
  cl_int status = CL_SUCCESS;

  if (bufs->checkpoint)
    return TRUE;
  if (clGetCommandQueueInfo (queue, CL_QUEUE_CONTEXT, sizeof (context),
          &context, NULL) != CL_SUCCESS)
    return FALSE;
  bufs->checkpoint = clCreateBuffer (context, CL_MEM_READ_WRITE,
      gst_cl_histeq_buffers_state_size (bufs), NULL, &status);
  if (status != CL_SUCCESS)
    bufs->checkpoint = NULL;
  return bufs->checkpoint != NULL;
}

/* The arguments histeq_hist_lut and histeq_equalize begin with: the plane
 * and tiles in @slices slices, the fused histograms, counters and the
 * tiles' histograms, the geometry, set_fused_tail_args ()'s, then where
 * the launch keeps the state before the frame (NULL: nowhere). */
static cl_int
set_gpu_fused_args (cl_kernel k, cl_uint * a, GstCLHisteqBuffers * bufs,
    const GstCLHisteqParams * params, const cl_uint wts[4], cl_mem src,
    const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    guint n_copied, cl_int slices, cl_int mode, cl_int reset, cl_float alpha,
    cl_mem checkpoint)
{
  const GstCLHisteqGeometry *g = &bufs->geom;
  const cl_int tiles = g->tiles_x * g->tiles_y, total = g->tw * g->th;
  cl_int status = CL_SUCCESS;

  status |= set_tile_args (k, a, src, sp, g, slices, wts);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->ghist);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->counters);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &bufs->partial);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &tiles);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &total);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &g->clahe);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_int), &g->clip);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_float), &g->lut_scale);
  status |= set_fused_tail_args (k, a, bufs, params, alpha, reset, mode,
      dst, sp, dp, n_copied);
  status |= clSetKernelArg (k, (*a)++, sizeof (cl_mem), &checkpoint);
  return status;
}

/* enqueue_frame_kernel () for a one-launch kernel whose flags hold @tag
 * this frame: the buffers then hold the frame's tag and one histogram */
static cl_int
enqueue_tagged_kernel (GstCLHisteqBuffers * bufs, cl_command_queue queue,
    cl_kernel k, const size_t global[2], const size_t local[2], cl_uint tag,
    cl_event * event, cl_event * steps)
{
  cl_int status = enqueue_frame_kernel (queue, k, global, local, event,
      steps);

  if (status == CL_SUCCESS) {
    bufs->eq_tag = tag;
    bufs->hist_slices = 1;
  }
  return status;
}

/* equalize's groups: no more than one per EQ_GROUP_PIXELS pixels, so a
 * small frame's groups are not mostly clearing, summing and claiming
 * (H200, 480p: 0.013 ms a frame against 0.014 with 264 groups; one per
 * 32768 pixels, 0.018; docs/results/gpu-session20, run 5) */
#define EQ_GROUP_PIXELS 8192

/* GPUs, global mode, one byte a pixel: histeq_hist_lut_c1 and the apply in
 * one launch (histeq_equalize_c1), the frame's last. No more groups than
 * the device holds at once (GST_CL_HISTEQ_EQ_GROUPS_PER_CU a compute unit;
 * kernels/histeq.cl), one slice of rows each; about two bands of rows a
 * group for the apply. */
static cl_int
enqueue_equalize (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params,
    const cl_uint wts[4], cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, guint n_copied, gboolean smooth, cl_int reset,
    cl_float alpha, cl_mem checkpoint, cl_event * event, cl_event * steps)
{
  const gint groups = CLAMP (MIN (prog->eq_groups_per_cu *
          (gint) prog->compute_units,
          sp->width * sp->height / EQ_GROUP_PIXELS), 1, sp->height);
  /* the LUT flag's value this frame: not the last frame's (nor, the first
   * time, the buffer's zero) */
  const cl_uint tag = bufs->eq_tag + 1;
  size_t global[2] = { BINS * (size_t) groups, 1 }, local[2] = { BINS, 1 };
  /* where every slice fits in the items' registers (the kernel also
   * checks that the rows are 16-byte aligned); else histeq_equalize_c1,
   * which keeps the slices that fit in local memory (4K) and reads the
   * others twice */
  const gboolean keep = sp->width % 16 == 0 &&
      (sp->width / 16) * ((sp->height + groups - 1) / groups) <=
      GST_CL_HISTEQ_EQ_KEEP * BINS;
  cl_kernel k = keep ? prog->equalize_keep : prog->equalize;
  cl_int status = CL_SUCCESS;
  cl_uint a = 0;

  status |= set_gpu_fused_args (k, &a, bufs, params, wts, src, sp, dst, dp,
      n_copied, groups, smooth, reset, alpha, checkpoint);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &dp->offset);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &dp->stride);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &tag);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  return enqueue_tagged_kernel (bufs, queue, k, global, local, tag, event,
      steps);
}

/* GPUs, CLAHE, one byte a pixel: histeq_hist_lut_c1 and the apply in one
 * launch (histeq_clahe_one_c1), the frame's last. Its groups wait for every
 * tile's LUT, so no more of them than the device holds at once (as
 * equalize's), the slices of a tile shared out to reach that. */
static cl_int
enqueue_clahe_one (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params,
    const cl_uint wts[4], cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, guint n_copied, cl_int mode, cl_int reset,
    cl_float alpha, cl_mem checkpoint, cl_event * event, cl_event * steps)
{
  const GstCLHisteqGeometry *g = &bufs->geom;
  const gint tiles = g->tiles_x * g->tiles_y;
  const cl_int slices = CLAMP (prog->eq_groups_per_cu *
      (gint) prog->compute_units / tiles, 1, g->th);
  const cl_uint tag = bufs->eq_tag + 1;
  size_t global[2] = { BINS * (size_t) slices, tiles }, local[2] = { BINS, 1 };
  cl_kernel k = prog->clahe_one;
  cl_int status = CL_SUCCESS;
  cl_uint a = 0;

  status |= set_gpu_fused_args (k, &a, bufs, params, wts, src, sp, dst, dp,
      n_copied, slices, mode, reset, alpha, checkpoint);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &tag);
  status |= clSetKernelArg (k, a++, sizeof (cl_uint), &dp->offset);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &dp->stride);
  status |= clSetKernelArg (k, a++, sizeof (cl_float), &g->inv_tw);
  status |= clSetKernelArg (k, a++, sizeof (cl_float), &g->inv_th);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &g->tiles_y);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  return enqueue_tagged_kernel (bufs, queue, k, global, local, tag, event,
      steps);
}

cl_int
gst_cl_histeq_enqueue (GstCLHisteqProgram * prog, GstCLHisteqBuffers * bufs,
    cl_command_queue queue, const GstCLHisteqParams * params, const gint w[4],
    cl_mem src, const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    cl_event * event, cl_event * steps)
{
  return gst_cl_histeq_enqueue_planes (prog, bufs, queue, params, w, src, sp,
      dst, dp, 1, event, steps);
}

cl_int
gst_cl_histeq_enqueue_planes (GstCLHisteqProgram * prog,
    GstCLHisteqBuffers * bufs, cl_command_queue queue,
    const GstCLHisteqParams * params, const gint w[4], cl_mem src,
    const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp, guint n_planes,
    cl_event * event, cl_event * steps)
{
  const GstCLHisteqGeometry *g = &bufs->geom;
  const gboolean gpu_fused = prog->fused && !prog->serial;
  const gboolean serial_fused = prog->fused && prog->serial && !g->clahe;
  /* planes copied inside the fused launch */
  const guint n_in_fused = (gpu_fused || serial_fused) && n_planes <= 3 ?
      n_planes - 1 : 0;
  const gint ci = cn_index (sp->pixel_bytes);
  /* histogram to apply in one launch: global mode, one byte a pixel */
  const gboolean serial_one_launch = serial_fused && prog->one_launch &&
      ci == 0;
  const gboolean gpu_one_launch = gpu_fused && prog->one_launch &&
      !g->clahe && ci == 0;
  /* CLAHE too, where a band's LUT rows fit the kernel's local copy */
  const gboolean gpu_clahe_one = gpu_fused && prog->one_launch &&
      prog->clahe_one && g->clahe && ci == 0 &&
      g->tiles_x <= GST_CL_HISTEQ_CLAHE_ONE_MAX_TILES_X &&
      sp->width * sp->height <= prog->clahe_one_max_pixels;
  const gboolean one_launch = serial_one_launch || gpu_one_launch ||
      gpu_clahe_one;
  const cl_uint wts[4] = { w[0], w[1], w[2], w[3] };
  const cl_int tiles = g->tiles_x * g->tiles_y;
  const gboolean smooth = params->smoothing > 1;
  /* the fused kernels' @smooth: 0 none, 1 one tile, 2 CLAHE's tiles */
  const cl_int fused_mode = !smooth ? 0 : tiles == 1 ? 1 : 2;
  /* Smoothing switched on: whatever state there is, is stale. */
  const cl_int reset = bufs->state_fresh || !bufs->smoothing_on;
  const cl_float alpha = smooth ? 1.0f / params->smoothing : 1.0f;
  /* GstCLHisteqParams.checkpoint: only a smoothed state carried from the
   * last frame has anything to keep */
  const gboolean keep = params->checkpoint && smooth && !reset;
  const guint tag_before = bufs->eq_tag;
  cl_mem kept_by_launch = NULL; /* where the fused launch keeps it */
  size_t global[2], local[2];
  cl_kernel k;
  cl_int status = CL_SUCCESS;
  cl_uint a;

  /* The state before the frame: the fused GPU launches keep it as they
   * run (set_gpu_fused_args ()); before the other paths, a copy. Without
   * a buffer for it the frame runs without (a fault would start the
   * smoothing over). */
  bufs->state_before = keep ? bufs->state : NULL;
  if (ci < 0 || sp->width != bufs->width || sp->height != bufs->height)
    return CL_INVALID_VALUE;
  if (keep && !ensure_checkpoint (bufs, queue)) {
    bufs->state_before = NULL;
  } else if (keep && gpu_fused) {
    kept_by_launch = bufs->checkpoint;
  } else if (keep) {
    status = clEnqueueCopyBuffer (queue, bufs->state, bufs->checkpoint, 0, 0,
        gst_cl_histeq_buffers_state_size (bufs), 0, NULL, NULL);
    if (status != CL_SUCCESS)
      return status;
    bufs->state_before = bufs->checkpoint;
  }

  if (serial_one_launch) {
    status = enqueue_equalize_serial (prog, bufs, queue, params, wts, src,
        sp, dst, dp, n_in_fused, smooth, reset, alpha, event, steps);
  } else if (serial_fused) {
    status = enqueue_hist_lut_serial (prog, bufs, queue, params, ci, wts,
        src, sp, dst, dp, n_in_fused, smooth, reset, alpha, steps);
  } else if (gpu_one_launch) {
    status = enqueue_equalize (prog, bufs, queue, params, wts, src, sp, dst,
        dp, n_in_fused, smooth, reset, alpha, kept_by_launch, event, steps);
  } else if (gpu_clahe_one) {
    status = enqueue_clahe_one (prog, bufs, queue, params, wts, src, sp, dst,
        dp, n_in_fused, fused_mode, reset, alpha, kept_by_launch, event,
        steps);
  } else if (gpu_fused) {
    /* 1+2+3. histogram, cut and LUT in one launch (kernels/histeq.cl) */
    /* CLAHE with smoothing: the cut's flag this frame */
    const cl_uint tag = bufs->eq_tag + 1;
    k = prog->hist_lut[ci];
    a = 0;
    status |= set_gpu_fused_args (k, &a, bufs, params, wts, src, sp, dst, dp,
        n_in_fused, bufs->fused_slices, fused_mode, reset, alpha,
        kept_by_launch);
    status |= clSetKernelArg (k, a++, sizeof (cl_uint), &tag);
    if (status != CL_SUCCESS)
      return CL_INVALID_KERNEL_ARGS;
    local[0] = BINS;
    local[1] = 1;
    global[0] = BINS * bufs->fused_slices;
    global[1] = tiles;
    status = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0,
        NULL, steps ? &steps[0] : NULL);
    if (status != CL_SUCCESS)
      return status;
    bufs->hist_slices = 1;
    bufs->eq_tag = tag;
    /* CLAHE with smoothing, the tiles' LUTs after the frame's cut */
    if (fused_mode == 2 && !prog->cut_wait)
      status = enqueue_lut (prog, bufs, queue, params, 1, alpha,
          steps ? &steps[2] : NULL);
  } else {
    status = enqueue_hist_cut_lut (prog, bufs, queue, params, ci, wts, src,
        sp, smooth, reset, alpha, steps);
  }
  /* A fused launch queued (it took this frame's tag) kept the state as it
   * ran, whether or not a later command failed. */
  if (kept_by_launch && bufs->eq_tag != tag_before)
    bufs->state_before = kept_by_launch;
  if (status != CL_SUCCESS)
    return status;
  bufs->state_fresh = FALSE;
  bufs->smoothing_on = smooth;

  /* 4. apply, where the launch above did not */
  if (!one_launch)
    status = enqueue_apply (prog, bufs, queue, ci, wts, src, sp, dst, dp,
        event, steps);
  /* the other planes, where the fused launch did not copy them */
  for (guint i = 1 + n_in_fused; i < n_planes && status == CL_SUCCESS; i++) {
    cl_event ev = NULL;
    status = gst_cl_histeq_enqueue_copy (prog, queue, src, &sp[i], dst,
        &dp[i], event ? &ev : NULL);
    if (ev) {
      if (*event)
        clReleaseEvent (*event);
      *event = ev;
    }
  }
  return status;
}

cl_int
gst_cl_histeq_enqueue_copy (GstCLHisteqProgram * prog, cl_command_queue queue,
    cl_mem src, const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    cl_event * event)
{
  cl_kernel k = prog->copy;
  const cl_int wb = sp->width * sp->pixel_bytes;
  size_t global[2] = { (wb + 15) / 16, sp->height };
  cl_int status = CL_SUCCESS;
  cl_uint a = 0;

  status |= gst_cl_plane_set_args (k, &a, src, sp, dst, dp);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &wb);
  status |= clSetKernelArg (k, a++, sizeof (cl_int), &sp->height);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, NULL, 0, NULL,
      event);
}
