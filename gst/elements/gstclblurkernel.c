/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclblurkernel.h"
#include "cl/gstclutils.h"

#include <string.h>

#define TILE_W 128
#define BAND_H 8
#define TILE_HEIGHTS { 32, 16, 8 }

static size_t
round_up (size_t n, size_t multiple)
{
  return (n + multiple - 1) / multiple * multiple;
}

static gint
cn_index (gint cn)
{
  return cn == 1 ? 0 : cn == 2 ? 1 : cn == 4 ? 2 : -1;
}

static gint
scaled_ksize (gint ksize, gdouble sigma, gint sub)
{
  if (ksize <= 0)
    return sigma > 0 ? MIN (gst_cl_gaussian_ksize (sigma),
        GST_CL_GAUSSIAN_MAX_TAPS) : 1;
  return MAX (ksize >> sub, 1) | 1;
}

void
gst_cl_blur_taps_compute (GstCLBlurTaps * taps, gdouble sigma_x,
    gdouble sigma_y, gint ksize, gint x_sub, gint y_sub)
{
  gdouble sx = sigma_x / (1 << x_sub), sy = sigma_y / (1 << y_sub);

  memset (taps, 0, sizeof (*taps));
  taps->kx = scaled_ksize (ksize, sx, x_sub);
  taps->ky = scaled_ksize (ksize, sy, y_sub);
  gst_cl_gaussian_taps (taps->kx, sx, taps->wx);
  gst_cl_gaussian_taps (taps->ky, sy, taps->wy);
}

/* Tallest tile whose local arrays fit the device, 0 if none does. */
static gint
tile_height (const GstCLDeviceInfo * dev, const GstCLBlurTaps * taps, gint cn)
{
  static const gint heights[] = TILE_HEIGHTS;
  guint64 budget = MIN (dev->local_mem_size, 48 * 1024) - 1024;

  if (dev->max_work_group_size < 256)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (heights); i++) {
    guint64 rows = heights[i] + 2 * (taps->ky / 2);
    guint64 halo = ((taps->kx / 2) * cn + 3) & ~3;
    guint64 bytes = rows * (TILE_W + 2 * halo) + rows * TILE_W * sizeof (gfloat);
    if (bytes <= budget)
      return heights[i];
  }
  return 0;
}

const gchar *
gst_cl_blur_variant_name (GstCLBlurVariant variant)
{
  static const gchar *names[] = { "rows", "tiled", "bands" };
  return variant < GST_CL_BLUR_N_VARIANTS ? names[variant] : "?";
}

GstCLBlurVariant
gst_cl_blur_preferred_variant (const GstCLDeviceInfo * dev,
    const GstCLBlurTaps * taps)
{
  if (!dev->is_gpu)
    return GST_CL_BLUR_BANDS;
  if (tile_height (dev, taps, 4) > 0)
    return GST_CL_BLUR_TILED;
  return GST_CL_BLUR_ROWS;
}

static void
append_taps (GString * s, const gchar * name, const gdouble * w, gint n)
{
  g_string_append_printf (s, " -D%s=", name);
  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%.9ef", i ? "," : "", w[i]);
}

gboolean
gst_cl_blur_program_init (GstCLBlurProgram * prog, GstCLContext * ctx,
    const GstCLBlurTaps * taps, GstCLBlurVariant variant, GError ** error)
{
  static const gint cns[GST_CL_BLUR_N_CN] = { 1, 2, 4 };
  GString *opts = g_string_new ("-cl-std=CL1.2");

  memset (prog, 0, sizeof (*prog));
  prog->variant = variant;
  prog->taps = *taps;
  g_string_append_printf (opts, " -DKX=%d -DKY=%d", taps->kx, taps->ky);
  append_taps (opts, "WX", taps->wx, taps->kx);
  append_taps (opts, "WY", taps->wy, taps->ky);
  for (gint i = 0; i < GST_CL_BLUR_N_CN; i++) {
    prog->tile_h[i] = variant == GST_CL_BLUR_TILED ?
        tile_height (ctx->device, taps, cns[i]) : 0;
    g_string_append_printf (opts, " -DTILE_H%d=%d", cns[i], prog->tile_h[i]);
  }
  /* The tiled variant falls back to rows where a tile does not fit. */
  g_string_append_printf (opts, " -DWITH_ROWS=%d -DWITH_BANDS=%d",
      variant != GST_CL_BLUR_BANDS, variant == GST_CL_BLUR_BANDS);

  prog->program = gst_cl_context_get_program (ctx, "blur", opts->str, error);
  g_string_free (opts, TRUE);
  if (!prog->program)
    return FALSE;

  for (gint i = 0; i < GST_CL_BLUR_N_CN; i++) {
    gchar name[32];
    cl_int status;
    gboolean tiled = variant == GST_CL_BLUR_TILED && prog->tile_h[i] > 0;

    g_snprintf (name, sizeof (name), "blur_%s_c%d",
        variant == GST_CL_BLUR_BANDS ? "bands" : tiled ? "tiled" : "rows",
        cns[i]);
    prog->kernels[i] = clCreateKernel (prog->program, name, &status);
    if (!gst_cl_set_error (status, name, error)) {
      gst_cl_blur_program_clear (prog);
      return FALSE;
    }
    if (!tiled)
      prog->tile_h[i] = 0;
  }
  return TRUE;
}

void
gst_cl_blur_program_clear (GstCLBlurProgram * prog)
{
  for (gint i = 0; i < GST_CL_BLUR_N_CN; i++)
    if (prog->kernels[i])
      clReleaseKernel (prog->kernels[i]);
  if (prog->program)
    clReleaseProgram (prog->program);
  memset (prog, 0, sizeof (*prog));
}

cl_int
gst_cl_blur_program_enqueue (GstCLBlurProgram * prog, cl_command_queue queue,
    cl_mem src, const GstCLPlane * sp, cl_mem dst, const GstCLPlane * dp,
    cl_event * event)
{
  gint i = cn_index (sp->pixel_bytes);
  cl_kernel k;
  cl_int status = CL_SUCCESS;
  size_t global[2], local[2] = { 32, 8 };
  const size_t wb = (size_t) sp->width * sp->pixel_bytes;
  cl_uint arg = 0;

  if (i < 0 || !prog->kernels[i])
    return CL_INVALID_KERNEL;
  k = prog->kernels[i];
  status |= gst_cl_plane_set_args (k, &arg, src, sp, dst, dp);
  status |= clSetKernelArg (k, arg++, sizeof (cl_int), &sp->width);
  status |= clSetKernelArg (k, arg++, sizeof (cl_int), &sp->height);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;

  if (prog->variant == GST_CL_BLUR_BANDS) {
    /* 8x8 groups: PoCL's own choice (whole rows) left one of two cores idle
     * on some frames; see docs/PERFORMANCE.md. */
    local[0] = local[1] = 8;
    global[0] = round_up ((wb + 15) / 16, local[0]);
    global[1] = round_up ((sp->height + BAND_H - 1) / BAND_H, local[1]);
    return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        event);
  }

  if (prog->tile_h[i] > 0) {
    global[0] = (wb + TILE_W - 1) / TILE_W * 32;
    global[1] = (sp->height + prog->tile_h[i] - 1) / prog->tile_h[i] * 8;
    return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        event);
  }
  global[0] = (wb + 15) / 16;
  global[1] = sp->height;
  return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, NULL, 0, NULL,
      event);
}
