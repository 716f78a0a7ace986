/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcloptflowkernel.h"
#include "cl/gstclutils.h"

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

/* The CPU kernels' private rings of horizontal window sums (two planes in
 * of_iter_rows, three in of_prep_rows) stay within this, so they and a
 * row of residuals or gradients stay in the L1 cache. */
#define ROWS_RING_BYTES 24576
/* Rows of a band at most: 2 RADIUS more rows of residuals are 11% of 128
 * (64 and 128 measured alike within this machine's noise: 62-68 and
 * 62-64 ms a 1080p frame; 32, 68-72). */
#define ROWS_BAND_MAX 128

/* Columns a CPU work-item takes: whole vectors of 16 floats, as many as
 * @planes rings of @kw rows of them allow, at most 256. */
static gint
rows_chunk (gint kw, gint planes)
{
  const gint cw = ROWS_RING_BYTES / (planes * kw * 4) / 16 * 16;
  return CLAMP (cw, 16, 256);
}

gboolean
gst_cl_optflow_program_init (GstCLOptflowProgram * prog, GstCLContext * ctx,
    gint radius, GError ** error)
{
  const GstCLDeviceInfo *dev = ctx->device;
  gchar *opts;
  cl_int status = CL_SUCCESS;

  memset (prog, 0, sizeof (*prog));
  prog->radius = radius;
  prog->gpu = dev->is_gpu && dev->max_work_group_size >= 256;
  /* The band kernels are written for CPUs (clang's vector builtins,
   * a work-item per band): GPUs never build them. */
  prog->rows = !dev->is_gpu && gst_cl_env_choice ("GST_CL_OPTFLOW_ROWS", 0,
      1, 1);
  prog->cw = rows_chunk (2 * radius + 1, 2);
  prog->tcw = rows_chunk (2 * radius + 1, 3);
  prog->compute_units = MAX (dev->compute_units, 1);
  {
    /* The window's weights are baked in, as the C reference computes them. */
    GString *wts = g_string_new (NULL);
    gfloat win[2 * GST_CL_OPTFLOW_MAX_RADIUS + 1];
    gst_cl_ref_optflow_window (radius, win);
    for (gint i = 0; i <= 2 * radius; i++)
      g_string_append_printf (wts, "%s%.9ef", i ? "," : "", win[i]);
    if (prog->rows)
      g_string_append_printf (wts, " -DOF_ROWS=1 -DOF_CW=%d -DOF_TCW=%d",
          prog->cw, prog->tcw);
    opts = g_strdup_printf ("-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"
        " -DRADIUS=%d -DWINDOW=%s%s", radius, wts->str,
        dev->image_support ? " -DWITH_IMAGES" : "");
    g_string_free (wts, TRUE);
  }
  prog->program = gst_cl_context_get_program (ctx, "optflow", opts, error);
  g_free (opts);
  if (!prog->program)
    return FALSE;

#define KERNEL(field, name) G_STMT_START { \
    prog->field = clCreateKernel (prog->program, name, &status); \
    if (!gst_cl_set_error (status, name, error)) \
      goto fail; \
  } G_STMT_END
  KERNEL (luma_c1, "of_luma_c1");
  KERNEL (luma_c4, "of_luma_c4");
  KERNEL (pyrdown, "of_pyrdown");
  KERNEL (gradient, "of_gradient");
  KERNEL (tensor_h, "of_tensor_h");
  KERNEL (tensor_v, "of_tensor_v");
  KERNEL (residual_buf, "of_residual_buf");
  KERNEL (box_h, "of_box_h");
  KERNEL (solve, "of_solve");
  KERNEL (upsample, "of_upsample");
  KERNEL (zero, "of_zero");
  KERNEL (block_means, "of_block_means");
  KERNEL (overlay_c1, "of_overlay_c1");
  KERNEL (overlay_c4, "of_overlay_c4");
  KERNEL (overlay_chroma, "of_overlay_chroma");
  KERNEL (copy, "of_copy");
  if (prog->rows) {
    KERNEL (prep_rows, "of_prep_rows");
    KERNEL (iter_rows, "of_iter_rows");
    KERNEL (pyrdown_rows, "of_pyrdown_rows");
    KERNEL (upsample_rows, "of_upsample_rows");
  }
#undef KERNEL

  /* 32x8 groups only where every kernel allows 256 work-items. */
  if (prog->gpu) {
    cl_kernel all[] = { prog->luma_c1, prog->luma_c4, prog->pyrdown,
      prog->gradient, prog->tensor_h, prog->tensor_v, prog->residual_buf,
      prog->box_h, prog->solve, prog->upsample, prog->block_means,
      prog->overlay_c1, prog->overlay_c4, prog->overlay_chroma, prog->copy
    };
    for (guint i = 0; i < G_N_ELEMENTS (all); i++) {
      size_t wg = 0;
      clGetKernelWorkGroupInfo (all[i], dev->device,
          CL_KERNEL_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL);
      if (wg < 256)
        prog->gpu = FALSE;
    }
  }

  /* The texture path needs float images that filter linearly. */
  if (dev->image_support) {
    cl_image_format fmts[256];
    cl_uint n = 0;
    size_t mw = 0, mh = 0;
    clGetSupportedImageFormats (ctx->context, CL_MEM_READ_ONLY,
        CL_MEM_OBJECT_IMAGE2D, G_N_ELEMENTS (fmts), fmts, &n);
    for (cl_uint i = 0; i < MIN (n, G_N_ELEMENTS (fmts)); i++)
      if (fmts[i].image_channel_order == CL_R &&
          fmts[i].image_channel_data_type == CL_FLOAT)
        prog->images_ok = TRUE;
    clGetDeviceInfo (dev->device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof (mw),
        &mw, NULL);
    clGetDeviceInfo (dev->device, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof (mh),
        &mh, NULL);
    prog->image_max_w = mw;
    prog->image_max_h = mh;
  }
  if (prog->images_ok) {
    size_t wg = 0;
    prog->residual_img = clCreateKernel (prog->program, "of_residual_img",
        &status);
    if (status == CL_SUCCESS && prog->gpu) {
      clGetKernelWorkGroupInfo (prog->residual_img, dev->device,
          CL_KERNEL_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL);
      if (wg < 256)
        prog->gpu = FALSE;
    }
    if (status != CL_SUCCESS) {
      GST_INFO ("no image kernel on %s: %s", dev->name,
          gst_cl_error_name (status));
      prog->images_ok = FALSE;
    }
  }
  return TRUE;

fail:
  gst_cl_optflow_program_clear (prog);
  return FALSE;
}

void
gst_cl_optflow_program_clear (GstCLOptflowProgram * prog)
{
  cl_kernel *all[] = { &prog->luma_c1, &prog->luma_c4, &prog->pyrdown,
    &prog->gradient, &prog->tensor_h, &prog->tensor_v, &prog->residual_buf,
    &prog->residual_img, &prog->box_h, &prog->solve, &prog->upsample,
    &prog->zero, &prog->block_means, &prog->overlay_c1, &prog->overlay_c4,
    &prog->overlay_chroma, &prog->copy, &prog->prep_rows, &prog->iter_rows,
    &prog->pyrdown_rows, &prog->upsample_rows
  };
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (*all[i])
      clReleaseKernel (*all[i]);
  if (prog->program)
    clReleaseProgram (prog->program);
  memset (prog, 0, sizeof (*prog));
}

gboolean
gst_cl_optflow_use_images (const GstCLOptflowProgram * prog,
    const GstCLDeviceInfo * dev, GstCLOptflowSampling sampling, gint width,
    gint height)
{
  if (!prog->images_ok || (gsize) width > prog->image_max_w ||
      (gsize) height > prog->image_max_h)
    return FALSE;
  switch (sampling) {
    case GST_CL_OPTFLOW_SAMPLING_IMAGE:
      return TRUE;
    case GST_CL_OPTFLOW_SAMPLING_BUFFER:
      return FALSE;
    default:
      /* Measured: CPU drivers emulate the sampler in software, and on the
       * H200 copying each level into an image costs more than the texture
       * unit saves (1080p: 1.36 against 1.28 ms per frame; docs/OPTFLOW.md).
       * Images stay available with sampling=image. */
      return FALSE;
  }
}

gint
gst_cl_optflow_effective_levels (gint width, gint height, gint levels)
{
  gint n = 1;

  while (n < levels && n < GST_CL_OPTFLOW_MAX_LEVELS) {
    width = (width + 1) / 2;
    height = (height + 1) / 2;
    if (width < GST_CL_OPTFLOW_MIN_LEVEL_SIDE ||
        height < GST_CL_OPTFLOW_MIN_LEVEL_SIDE)
      break;
    n++;
  }
  return n;
}

static void
release_mem (cl_mem * mem)
{
  if (*mem)
    clReleaseMemObject (*mem);
  *mem = NULL;
}

void
gst_cl_optflow_state_clear (GstCLOptflowState * st)
{
  for (gint l = 0; l < GST_CL_OPTFLOW_MAX_LEVELS; l++) {
    for (gint s = 0; s < 2; s++) {
      release_mem (&st->pyr[s].luma[l]);
      release_mem (&st->pyr[s].grad[l]);
      release_mem (&st->pyr[s].tinv[l]);
      release_mem (&st->pyr[s].image[l]);
    }
    release_mem (&st->flow[l]);
  }
  release_mem (&st->tmp);
  release_mem (&st->res);
  release_mem (&st->conv);
  memset (st, 0, sizeof (*st));
}

void
gst_cl_optflow_state_reset (GstCLOptflowState * st)
{
  st->have_prev = FALSE;
}

cl_mem
gst_cl_optflow_state_prev_luma (const GstCLOptflowState * st)
{
  return st->have_prev ? st->pyr[st->prev].luma[0] : NULL;
}

cl_mem
gst_cl_optflow_image_new (GstCLContext * ctx, gint w, gint h, GError ** error)
{
  const cl_image_format fmt = { CL_R, CL_FLOAT };
  cl_image_desc desc;
  cl_int status;
  cl_mem img;

  memset (&desc, 0, sizeof (desc));
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = w;
  desc.image_height = h;
  /* Kernels only read it; the pyramid level is copied in by a command. */
  img = clCreateImage (ctx->context, CL_MEM_READ_ONLY, &fmt, &desc, NULL,
      &status);
  if (!gst_cl_set_error (status, "clCreateImage(pyramid level)", error))
    return NULL;
  return img;
}

gboolean
gst_cl_optflow_state_ensure (GstCLOptflowState * st, GstCLContext * ctx,
    gint width, gint height, gint levels, gint radius, gboolean images,
    GError ** error)
{
  const gsize n = (gsize) width * height;
  cl_int status = CL_SUCCESS;

  levels = gst_cl_optflow_effective_levels (width, height, levels);
  if (st->tmp && st->width == width && st->height == height &&
      st->levels == levels && st->radius == radius && st->images == images)
    return TRUE;

  gst_cl_optflow_state_clear (st);
  st->width = width;
  st->height = height;
  st->levels = levels;
  st->radius = radius;
  st->images = images;
  for (gint l = 0; l < levels; l++) {
    st->lw[l] = l ? (st->lw[l - 1] + 1) / 2 : width;
    st->lh[l] = l ? (st->lh[l - 1] + 1) / 2 : height;
  }

#define ALLOC(field, bytes, what) G_STMT_START { \
    field = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, (bytes), NULL, \
        &status); \
    if (!gst_cl_set_error (status, "clCreateBuffer(" what ")", error)) \
      goto fail; \
  } G_STMT_END
  for (gint l = 0; l < levels; l++) {
    const gsize ln = (gsize) st->lw[l] * st->lh[l];
    for (gint s = 0; s < 2; s++) {
      ALLOC (st->pyr[s].luma[l], ln * sizeof (cl_float), "pyramid");
      ALLOC (st->pyr[s].grad[l], ln * sizeof (cl_float2), "gradients");
      ALLOC (st->pyr[s].tinv[l], ln * sizeof (cl_float4), "tensors");
      if (images) {
        st->pyr[s].image[l] = gst_cl_optflow_image_new (ctx, st->lw[l],
            st->lh[l], error);
        if (!st->pyr[s].image[l])
          goto fail;
      }
    }
    if (l > 0)
      ALLOC (st->flow[l], ln * sizeof (cl_float2), "flow");
  }
  ALLOC (st->tmp, n * sizeof (cl_float4), "scratch");
  ALLOC (st->res, n * sizeof (cl_float2), "residual");
  ALLOC (st->conv, n, "convergence");
#undef ALLOC
  return TRUE;

fail:
  gst_cl_optflow_state_clear (st);
  return FALSE;
}

/* ---- enqueue helpers ---------------------------------------------------- */

/* Sets the kernel's arguments from (size, pointer) pairs. */
static cl_int
set_args (cl_kernel k, guint n, ...)
{
  va_list ap;
  cl_int status = CL_SUCCESS;

  va_start (ap, n);
  for (guint i = 0; i < n; i++) {
    size_t size = va_arg (ap, size_t);
    const void *ptr = va_arg (ap, const void *);
    status |= clSetKernelArg (k, i, size, ptr);
  }
  va_end (ap);
  return status == CL_SUCCESS ? CL_SUCCESS : CL_INVALID_KERNEL_ARGS;
}

#define MEM(x) sizeof (cl_mem), (const void *) &(x)
#define INT(x) sizeof (cl_int), (const void *) &(x)
#define UINT(x) sizeof (cl_uint), (const void *) &(x)
#define FLOAT(x) sizeof (cl_float), (const void *) &(x)

/* When profiling (@events collects), a reference to @ev appended there. */
static void
collect_event (cl_event ev, GPtrArray * events)
{
  if (events && ev) {
    clRetainEvent (ev);
    g_ptr_array_add (events, ev);
  }
}

/* A launch's event @ev into @event (replacing what was there) or, when
 * @events collects, also appended there; else released. */
static void
keep_event (cl_event ev, cl_event * event, GPtrArray * events)
{
  collect_event (ev, events);
  if (event) {
    if (*event)
      clReleaseEvent (*event);
    *event = ev;
  } else if (ev) {
    clReleaseEvent (ev);
  }
}

/* A 2D launch over w x h (one work-item per pixel), event into @event or,
 * when @events collects, also appended there. */
static cl_int
run2d (GstCLOptflowProgram * prog, cl_command_queue q, cl_kernel k, gint w,
    gint h, cl_event * event, GPtrArray * events)
{
  size_t global[2] = { w, h };
  size_t local[2] = { 32, 8 };
  cl_event ev = NULL;
  cl_int status;

  /* GPUs: 32x8 groups (a warp per row segment, rows sharing the caches of
   * the window sums), the range rounded up (the kernels skip the excess).
   * CPUs: the driver's choice, which PoCL vectorises along x. */
  if (prog->gpu) {
    global[0] = GST_ROUND_UP_N (global[0], local[0]);
    global[1] = GST_ROUND_UP_N (global[1], local[1]);
  }
  status = clEnqueueNDRangeKernel (q, k, 2, NULL, global,
      prog->gpu ? local : NULL, 0, NULL, (event || events) ? &ev : NULL);
  if (status != CL_SUCCESS)
    return status;
  keep_event (ev, event, events);
  return CL_SUCCESS;
}

/* A launch of a CPU band kernel over w x h: a work-item per @cw columns
 * and band of rows, the band's height in argument @band_arg. Bands as tall
 * as ROWS_BAND_MAX rows (each recomputes 2 RADIUS rows of its neighbours'
 * residuals), shorter where that leaves fewer than about 4 work-items per
 * compute unit. */
static cl_int
run_rows (GstCLOptflowProgram * prog, cl_command_queue q, cl_kernel k,
    cl_uint band_arg, gint w, gint h, gint cw, cl_event * event,
    GPtrArray * events)
{
  const gint chunks = (w + cw - 1) / cw;
  const cl_int band = CLAMP (h * chunks / (4 * (gint) prog->compute_units),
      16, ROWS_BAND_MAX);
  size_t global[2] = { chunks, (h + band - 1) / band };
  size_t local[2] = { 1, 1 };
  cl_event ev = NULL;
  cl_int status;

  status = clSetKernelArg (k, band_arg, sizeof (cl_int), &band);
  if (status == CL_SUCCESS)
    status = clEnqueueNDRangeKernel (q, k, 2, NULL, global, local, 0, NULL,
        (event || events) ? &ev : NULL);
  if (status != CL_SUCCESS)
    return status;
  keep_event (ev, event, events);
  return CL_SUCCESS;
}

cl_int
gst_cl_optflow_enqueue_luma (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp,
    const gfloat wts[4], cl_mem dst, cl_event * event)
{
  cl_int status;

  if (sp->pixel_bytes == 1) {
    status = set_args (prog->luma_c1, 6, MEM (src), UINT (sp->offset),
        INT (sp->stride), INT (sp->width), INT (sp->height), MEM (dst));
    return status ? status : run2d (prog, queue, prog->luma_c1, sp->width,
        sp->height, event, NULL);
  }
  if (sp->pixel_bytes != 4)
    return CL_INVALID_VALUE;
  {
    const cl_float4 w4 = { {wts[0], wts[1], wts[2], wts[3]} };
    status = set_args (prog->luma_c4, 7, MEM (src), UINT (sp->offset),
        INT (sp->stride), INT (sp->width), INT (sp->height),
        sizeof (cl_float4), (const void *) &w4, MEM (dst));
  }
  return status ? status : run2d (prog, queue, prog->luma_c4, sp->width,
      sp->height, event, NULL);
}

cl_int
gst_cl_optflow_enqueue_pyrdown (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, gint w, gint h, cl_mem dst,
    cl_event * event)
{
  const cl_int dw = (w + 1) / 2, dh = (h + 1) / 2;
  cl_kernel k = prog->rows ? prog->pyrdown_rows : prog->pyrdown;
  cl_int status = set_args (k, 6, MEM (src), INT (w), INT (h), MEM (dst),
      INT (dw), INT (dh));
  if (status != CL_SUCCESS)
    return status;
  return prog->rows ? run_rows (prog, queue, k, 6, dw, dh, prog->cw, event, NULL) :
      run2d (prog, queue, k, dw, dh, event, NULL);
}

cl_int
gst_cl_optflow_enqueue_gradient (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, gint w, gint h, cl_mem grad,
    cl_event * event)
{
  cl_int status = set_args (prog->gradient, 4, MEM (src), INT (w), INT (h),
      MEM (grad));
  return status ? status : run2d (prog, queue, prog->gradient, w, h, event, NULL);
}

static cl_int
tensor (GstCLOptflowProgram * prog, cl_command_queue queue, cl_mem grad,
    gint w, gint h, cl_mem tmp, cl_mem tinv, cl_event * event,
    GPtrArray * events)
{
  const cl_float reg = gst_cl_optflow_reg (prog->radius);
  cl_int status = set_args (prog->tensor_h, 4, MEM (grad), INT (w), INT (h),
      MEM (tmp));
  if (status == CL_SUCCESS)
    status = run2d (prog, queue, prog->tensor_h, w, h, NULL, events);
  if (status == CL_SUCCESS)
    status = set_args (prog->tensor_v, 5, MEM (tmp), INT (w), INT (h),
        FLOAT (reg), MEM (tinv));
  return status ? status : run2d (prog, queue, prog->tensor_v, w, h, event, events);
}

cl_int
gst_cl_optflow_enqueue_tensor (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem grad, gint w, gint h, cl_mem tmp,
    cl_mem tinv, cl_event * event)
{
  return tensor (prog, queue, grad, w, h, tmp, tinv, event, NULL);
}

/* Gradients and inverse tensors of a level; @bands: the CPU devices'
 * fused kernel, whose tensors are planes for of_iter_rows (and which
 * leaves @grad alone), else gradient + tensor. */
static cl_int
prep (GstCLOptflowProgram * prog, cl_command_queue queue, cl_mem src, gint w,
    gint h, cl_mem grad, cl_mem tmp, cl_mem tinv, gboolean bands,
    cl_event * event, GPtrArray * events)
{
  cl_int status;

  if (bands) {
    const cl_float reg = gst_cl_optflow_reg (prog->radius);
    const cl_int band = 0;      /* set by run_rows */
    status = set_args (prog->prep_rows, 6, MEM (src), INT (w), INT (h),
        FLOAT (reg), INT (band), MEM (tinv));
    return status ? status : run_rows (prog, queue, prog->prep_rows, 4, w, h,
        prog->tcw, event, events);
  }
  status = set_args (prog->gradient, 4, MEM (src), INT (w), INT (h),
      MEM (grad));
  if (status == CL_SUCCESS)
    status = run2d (prog, queue, prog->gradient, w, h, NULL, events);
  return status ? status : tensor (prog, queue, grad, w, h, tmp, tinv, event,
      events);
}

cl_int
gst_cl_optflow_enqueue_prep (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, gint w, gint h, cl_mem grad,
    cl_mem tmp, cl_mem tinv, cl_event * event)
{
  return prep (prog, queue, src, w, h, grad, tmp, tinv, prog->rows, event,
      NULL);
}

/* The CPU devices' iteration: reads @flow, writes @flow_out. */
static cl_int
iteration_rows (GstCLOptflowProgram * prog, cl_command_queue queue,
    cl_mem prev, cl_mem next, cl_mem tinv, gint w, gint h, gfloat epsilon,
    gboolean first, cl_mem flow, cl_mem flow_out, cl_mem conv,
    cl_event * event, GPtrArray * events)
{
  const cl_float eps2 = epsilon * epsilon;
  const cl_int first_i = first, band = 0;       /* set by run_rows */
  cl_int status = set_args (prog->iter_rows, 11, MEM (prev), MEM (next),
      MEM (tinv), MEM (flow), INT (w), INT (h), FLOAT (eps2), INT (first_i),
      INT (band), MEM (flow_out), MEM (conv));
  return status ? status : run_rows (prog, queue, prog->iter_rows, 8, w, h,
      prog->cw, event, events);
}

static cl_int
iteration (GstCLOptflowProgram * prog, cl_command_queue queue, cl_mem prev,
    cl_mem next, cl_mem next_image, cl_mem grad, cl_mem tinv, gint w, gint h,
    gfloat epsilon, gboolean first, cl_mem res, cl_mem tmp, cl_mem flow,
    cl_mem conv, cl_event * event, GPtrArray * events)
{
  const cl_float eps2 = epsilon * epsilon;
  const cl_int first_i = first;
  cl_kernel kr = next_image ? prog->residual_img : prog->residual_buf;
  cl_mem nx = next_image ? next_image : next;
  cl_int status;

  if (!kr)
    return CL_INVALID_OPERATION;
  status = set_args (kr, 7, MEM (prev), MEM (nx),
      MEM (grad), MEM (flow), INT (w), INT (h), MEM (res));
  if (status == CL_SUCCESS)
    status = run2d (prog, queue, kr, w, h, NULL, events);
  if (status == CL_SUCCESS)
    status = set_args (prog->box_h, 4, MEM (res), INT (w), INT (h), MEM (tmp));
  if (status == CL_SUCCESS)
    status = run2d (prog, queue, prog->box_h, w, h, NULL, events);
  if (status == CL_SUCCESS)
    status = set_args (prog->solve, 8, MEM (tmp), MEM (tinv), INT (w), INT (h),
        FLOAT (eps2), INT (first_i), MEM (flow), MEM (conv));
  return status ? status : run2d (prog, queue, prog->solve, w, h, event, events);
}

cl_int
gst_cl_optflow_enqueue_iteration (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem prev, cl_mem next, cl_mem next_image,
    cl_mem grad, cl_mem tinv, gint w, gint h, gfloat epsilon, gboolean first,
    cl_mem res, cl_mem tmp, cl_mem flow, cl_mem conv, cl_event * event)
{
  cl_int status;

  if (!prog->rows || next_image)
    return iteration (prog, queue, prev, next, next_image, grad, tinv, w, h,
        epsilon, first, res, tmp, flow, conv, event, NULL);
  /* the frame alternates between two flow buffers; one call copies back */
  status = iteration_rows (prog, queue, prev, next, tinv, w, h, epsilon,
      first, flow, res, conv, NULL, NULL);
  return status ? status : clEnqueueCopyBuffer (queue, res, flow, 0, 0,
      (size_t) w * h * sizeof (cl_float2), 0, NULL, event);
}

cl_int
gst_cl_optflow_enqueue_upsample (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem coarse, gint cw, gint ch, cl_mem fine,
    gint w, gint h, cl_event * event)
{
  cl_kernel k = prog->rows ? prog->upsample_rows : prog->upsample;
  cl_int status = set_args (k, 6, MEM (coarse), INT (cw), INT (ch),
      MEM (fine), INT (w), INT (h));
  if (status != CL_SUCCESS)
    return status;
  return prog->rows ? run_rows (prog, queue, k, 6, w, h, prog->cw, event, NULL) :
      run2d (prog, queue, k, w, h, event, NULL);
}

cl_int
gst_cl_optflow_enqueue_to_image (cl_command_queue queue, cl_mem src,
    cl_mem image, gint w, gint h, cl_event * event)
{
  const size_t origin[3] = { 0, 0, 0 }, region[3] = { w, h, 1 };
  return clEnqueueCopyBufferToImage (queue, src, image, 0, origin, region, 0,
      NULL, event);
}

/* Zeros @n float2 of @flow. */
static cl_int
zero_flow (GstCLOptflowProgram * prog, cl_command_queue queue, cl_mem flow,
    cl_int n, cl_event * event)
{
  size_t global = GST_ROUND_UP_64 (n);
  cl_int status = set_args (prog->zero, 2, MEM (flow), INT (n));
  return status ? status : clEnqueueNDRangeKernel (queue, prog->zero, 1, NULL,
      &global, NULL, 0, NULL, event);
}

/* The iteration and level step of CPU devices (the bands), on buffers. */
static gboolean
use_bands (const GstCLOptflowProgram * prog, const GstCLOptflowState * st)
{
  return prog->rows && !st->images;
}

/* Runs @call and, when profiling, keeps its event. */
#define STEP(call) G_STMT_START { \
    cl_event _ev = NULL; \
    cl_event *_evp = events ? &_ev : NULL; \
    status = (call); \
    if (status != CL_SUCCESS) \
      return status; \
    if (_ev) \
      g_ptr_array_add (events, _ev); \
  } G_STMT_END

/* What the flow needs of levels @from .. @to - 1 of slot @np: gradients
 * and tensors (for when it is the previous frame) and images (for when it
 * is sampled as the next one). */
static cl_int
prep_levels (GstCLOptflowProgram * prog, GstCLOptflowState * st,
    cl_command_queue queue, GstCLOptflowPyramid * np, gint from, gint to,
    GPtrArray * events)
{
  cl_int status;

  for (gint l = from; l < to; l++) {
    status = prep (prog, queue, np->luma[l], st->lw[l], st->lh[l],
        np->grad[l], st->tmp, np->tinv[l], use_bands (prog, st), NULL,
        events);
    if (status != CL_SUCCESS)
      return status;
    if (st->images)
      STEP (gst_cl_optflow_enqueue_to_image (queue, np->luma[l],
              np->image[l], st->lw[l], st->lh[l], _evp));
  }
  return CL_SUCCESS;
}

/* Everything of slot @np derived from its level-0 luma: the other levels,
 * and what the flow needs of those from @from up (prep_levels). */
static cl_int
build_pyramid (GstCLOptflowProgram * prog, GstCLOptflowState * st,
    cl_command_queue queue, GstCLOptflowPyramid * np, gint from,
    GPtrArray * events)
{
  cl_int status;

  for (gint l = 1; l < st->levels; l++)
    STEP (gst_cl_optflow_enqueue_pyrdown (prog, queue, np->luma[l - 1],
            st->lw[l - 1], st->lh[l - 1], np->luma[l], _evp));
  np->prep_from = from;
  return prep_levels (prog, st, queue, np, from, st->levels, events);
}

cl_int
gst_cl_optflow_state_restore_prev (GstCLOptflowProgram * prog,
    GstCLOptflowState * st, cl_command_queue queue, const gfloat * luma,
    cl_event * event)
{
  const gsize bytes = sizeof (gfloat) * st->width * st->height;
  cl_int status;

  if (!st->tmp || prog->radius != st->radius)
    return CL_INVALID_VALUE;
  status = clEnqueueWriteBuffer (queue, st->pyr[st->prev].luma[0], CL_TRUE,
      0, bytes, luma, 0, NULL, NULL);
  if (status == CL_SUCCESS)
    status = build_pyramid (prog, st, queue, &st->pyr[st->prev], 0, NULL);
  if (status == CL_SUCCESS)
    status = clEnqueueMarkerWithWaitList (queue, 0, NULL, event);
  st->have_prev = status == CL_SUCCESS;
  return status;
}

cl_int
gst_cl_optflow_enqueue_frame (GstCLOptflowProgram * prog,
    GstCLOptflowState * st, cl_command_queue queue,
    const GstCLOptflowParams * params, cl_mem src, const GstCLPlane * sp,
    const gfloat wts[4], cl_mem flow, cl_event * event, GPtrArray * events)
{
  const gint cur = st->prev ^ 1;
  GstCLOptflowPyramid *np = &st->pyr[cur], *pp = &st->pyr[st->prev];
  const gboolean have_prev = st->have_prev;
  const gint finest = CLAMP (params->finest, 0, st->levels - 1);
  cl_int status;

  if (sp->width != st->width || sp->height != st->height ||
      prog->radius != st->radius || (st->images && !prog->residual_img))
    return CL_INVALID_VALUE;

  /* 1. the new frame: its luma, then what the flow needs of it (of the
   * levels refined); and of the previous one, where finest came down */
  STEP (gst_cl_optflow_enqueue_luma (prog, queue, src, sp, wts, np->luma[0],
          _evp));
  status = build_pyramid (prog, st, queue, np, finest, events);
  if (status == CL_SUCCESS && have_prev && pp->prep_from > finest) {
    status = prep_levels (prog, st, queue, pp, finest, pp->prep_from, events);
    pp->prep_from = finest;
  }
  if (status != CL_SUCCESS)
    return status;

  /* 2. the flow, coarse to fine */
  if (!have_prev) {
    STEP (zero_flow (prog, queue, flow, st->width * st->height,
            event ? event : _evp));
    collect_event (event ? *event : NULL, events);
  } else {
    /* The CPU kernels alternate between the level's flow and st->res,
     * starting where the last iteration ends in the level's flow. */
    const gboolean rows = use_bands (prog, st);
    for (gint l = st->levels - 1; l >= finest; l--) {
      cl_mem f = l ? st->flow[l] : flow;
      cl_mem in = rows && params->iterations % 2 ? st->res : f;
      if (l == st->levels - 1) {
        STEP (zero_flow (prog, queue, in, st->lw[l] * st->lh[l], _evp));
      } else {
        STEP (gst_cl_optflow_enqueue_upsample (prog, queue, st->flow[l + 1],
                st->lw[l + 1], st->lh[l + 1], in, st->lw[l], st->lh[l],
                _evp));
      }
      for (gint it = 0; it < params->iterations; it++) {
        const gboolean last = l == 0 && it == params->iterations - 1;
        if (rows) {
          cl_mem out = in == f ? st->res : f;
          status = iteration_rows (prog, queue, pp->luma[l], np->luma[l],
              pp->tinv[l], st->lw[l], st->lh[l], params->epsilon, it == 0,
              in, out, st->conv, last ? event : NULL, events);
          in = out;
        } else {
          status = iteration (prog, queue, pp->luma[l], np->luma[l],
              st->images ? np->image[l] : NULL, pp->grad[l], pp->tinv[l],
              st->lw[l], st->lh[l], params->epsilon, it == 0, st->res,
              st->tmp, f, st->conv, last ? event : NULL, events);
        }
        if (status != CL_SUCCESS)
          return status;
      }
    }
    /* below the finest level refined: its field, upsampled */
    for (gint l = finest - 1; l >= 0; l--) {
      STEP (gst_cl_optflow_enqueue_upsample (prog, queue, st->flow[l + 1],
              st->lw[l + 1], st->lh[l + 1], l ? st->flow[l] : flow,
              st->lw[l], st->lh[l], l || !event ? _evp : event));
      if (!l)
        collect_event (event ? *event : NULL, events);
    }
  }
  st->prev = cur;
  st->have_prev = TRUE;
  return CL_SUCCESS;
}

cl_int
gst_cl_optflow_enqueue_overlay (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, gint kind, gint a, gint b, gint c, cl_mem flow,
    gint w, gint h, GstCLOptflowStyle style, gfloat max_motion,
    cl_event * event)
{
  const cl_int st = style;
  cl_int status;

  switch (kind) {
    case 0:
      status = set_args (prog->overlay_c1, 11, MEM (src), UINT (sp->offset),
          INT (sp->stride), MEM (dst), UINT (dp->offset), INT (dp->stride),
          MEM (flow), INT (w), INT (h), INT (st), FLOAT (max_motion));
      return status ? status : run2d (prog, queue, prog->overlay_c1, sp->width,
          sp->height, event, NULL);
    case 1:
      status = set_args (prog->overlay_c4, 14, MEM (src), UINT (sp->offset),
          INT (sp->stride), MEM (dst), UINT (dp->offset), INT (dp->stride),
          MEM (flow), INT (w), INT (h), INT (st), FLOAT (max_motion), INT (a),
          INT (b), INT (c));
      return status ? status : run2d (prog, queue, prog->overlay_c4, sp->width,
          sp->height, event, NULL);
    case 2:
      status = set_args (prog->overlay_chroma, 16, MEM (src),
          UINT (sp->offset), INT (sp->stride), MEM (dst), UINT (dp->offset),
          INT (dp->stride), INT (sp->width), INT (sp->height),
          INT (sp->pixel_bytes), INT (a), INT (b), MEM (flow), INT (w),
          INT (h), INT (st), FLOAT (max_motion));
      return status ? status : run2d (prog, queue, prog->overlay_chroma, sp->width,
          sp->height, event, NULL);
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int
gst_cl_optflow_enqueue_copy (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp, cl_mem dst,
    const GstCLPlane * dp, cl_event * event)
{
  const cl_int wb = sp->width * sp->pixel_bytes;
  cl_int status = set_args (prog->copy, 8, MEM (src), UINT (sp->offset),
      INT (sp->stride), MEM (dst), UINT (dp->offset), INT (dp->stride),
      INT (wb), INT (sp->height));
  return status ? status : run2d (prog, queue, prog->copy, (wb + 15) / 16,
      sp->height, event, NULL);
}

cl_int
gst_cl_optflow_enqueue_block_means (GstCLOptflowProgram * prog,
    cl_command_queue queue, cl_mem flow, gint w, gint h, gint bs,
    cl_mem means, cl_event * event)
{
  const cl_int gw = (w + bs - 1) / bs, gh = (h + bs - 1) / bs;
  cl_int status = set_args (prog->block_means, 7, MEM (flow), INT (w),
      INT (h), INT (bs), INT (gw), INT (gh), MEM (means));
  return status ? status : run2d (prog, queue, prog->block_means, gw, gh, event,
      NULL);
}
