/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclsobelkernel.h"
#include "cl/gstclutils.h"

#include <stdio.h>
#include <string.h>

#define BAND_H 8
#define WG 16                   /* default work-group WG x WG, tile rows */
/* Vertical-first tiles (the default): 16 rows of 32 x 4 work-items, as the
 * blur's (docs/PERFORMANCE.md). */
#define VFIRST_TILE_H 16
#define VFIRST_WG_X 32
#define VFIRST_WG_Y 4
#define VFIRST_MAX_ROWS 16
#define MAX_TILE_H 256

GST_DEBUG_CATEGORY_STATIC (gst_cl_sobel_kernel_debug);
#define GST_CAT_DEFAULT gst_cl_sobel_kernel_debug

/* Local memory of a tile of @rows x @wx items, either order: vertical
 * first, two sums (smoothed, derivative) of 2 * @r edge floats per item
 * and row. */
static guint64
tile_bytes (gboolean vfirst, gint rows, gint wx, gint r)
{
  return vfirst ? (guint64) 2 * rows * wx * 2 * r * sizeof (gfloat) :
      (guint64) (rows + 2 * r) * (4 * wx + 2 * r);
}

/* The tile order (vertical first unless GST_CL_SOBEL_VFIRST=0) and
 * GST_CL_SOBEL_TILE, where valid for @dev and @ksize; else the defaults. */
static void
tile_knob (const GstCLDeviceInfo * dev, gint ksize, GstCLSobelProgram * prog)
{
  const gchar *env = g_getenv (GST_CL_SOBEL_TILE_ENV);
  const gboolean vfirst =
      g_strcmp0 (g_getenv (GST_CL_SOBEL_VFIRST_ENV), "0") != 0;
  gint rows = vfirst ? VFIRST_TILE_H : WG, wx = vfirst ? VFIRST_WG_X : WG;
  gint wy = vfirst ? VFIRST_WG_Y : WG, n;
  const gint r = (ksize > 0 ? ksize : 3) / 2;

  GST_DEBUG_CATEGORY_INIT (gst_cl_sobel_kernel_debug, "clsobelkernel", 0,
      "OpenCL Sobel kernels");
  prog->vfirst = vfirst;
  prog->tile_h = rows;
  prog->wg_x = wx;
  prog->wg_y = wy;
  if (!env || !*env)
    return;
  n = sscanf (env, "%d:%dx%d", &rows, &wx, &wy);
  /* a vertical-first tile: whole rows per item, a halo item each side */
  if ((n != 1 && n != 3) || rows < 1 || rows > MAX_TILE_H || wx < 1 ||
      wy < 1 || (wx & (wx - 1)) || (wy & (wy - 1)) ||
      (gsize) wx * wy > dev->max_work_group_size ||
      tile_bytes (vfirst, rows, wx, r) > dev->local_mem_size ||
      (vfirst && (wx < 4 || rows % wy || rows / wy > VFIRST_MAX_ROWS))) {
    GST_WARNING ("%s=\"%s\" ignored: want ROWS or ROWS:WXxWY, rows 1..%d, "
        "WX and WY powers of two, WX*WY <= %zu, tile within local memory "
        "(vertical first: WX >= 4, ROWS a multiple of WY, at most %d "
        "rows per item)", GST_CL_SOBEL_TILE_ENV, env, MAX_TILE_H,
        (gsize) dev->max_work_group_size, VFIRST_MAX_ROWS);
    return;
  }
  prog->tile_h = rows;
  prog->wg_x = wx;
  prog->wg_y = wy;
}

static size_t
round_up (size_t n, size_t multiple)
{
  return (n + multiple - 1) / multiple * multiple;
}

const gchar *
gst_cl_sobel_variant_name (GstCLSobelVariant variant)
{
  static const gchar *names[] = { "tiled", "bands" };
  return variant < GST_CL_SOBEL_N_VARIANTS ? names[variant] : "?";
}

GstCLSobelVariant
gst_cl_sobel_preferred_variant (const GstCLDeviceInfo * dev)
{
  /* Either order's default tile, for the widest operator (7 taps). */
  if (dev->is_gpu && dev->max_work_group_size >= WG * WG &&
      dev->local_mem_size >= MAX (tile_bytes (TRUE, VFIRST_TILE_H,
              VFIRST_WG_X, 3), tile_bytes (FALSE, WG, WG, 3)))
    return GST_CL_SOBEL_TILED;
  return GST_CL_SOBEL_BANDS;
}

/* Whether every output value v of @params lies in 0 <= v < 65536 before
 * rounding, as the tiled kernels' PACK_U16 store needs: |gx| and |gy| are
 * at most 255 * sum |smooth| * sum max (deriv, 0) (the derivative taps
 * sum to 0), the magnitude sqrt 2 times that. */
static gboolean
out_fits_u16 (const GstCLSobelParams * params, const gint * smooth,
    const gint * deriv, gint n)
{
  gdouble s = 0, d = 0, g;

  if (params->scale < 0 || params->delta < 0)
    return FALSE;
  for (gint i = 0; i < n; i++) {
    s += ABS (smooth[i]);
    d += MAX (deriv[i], 0);
  }
  g = 255 * s * d * (params->mode == GST_CL_SOBEL_MAGNITUDE ? G_SQRT2 : 1);
  return g * params->scale + params->delta < 65535;
}

static void
append_taps (GString * s, const gchar * name, const gint * w, gint n)
{
  g_string_append_printf (s, " -D%s=", name);
  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%d.0f", i ? "," : "", w[i]);
}

gboolean
gst_cl_sobel_program_init (GstCLSobelProgram * prog, GstCLContext * ctx,
    const GstCLSobelParams * params, GstCLSobelVariant variant,
    GError ** error)
{
  static const gchar *in_names[] = { "y", "rgb", "bgr" };
  gint smooth[GST_CL_SOBEL_MAX_TAPS], deriv[GST_CL_SOBEL_MAX_TAPS];
  gint n = gst_cl_sobel_taps (params->ksize, smooth, deriv);
  gchar num[G_ASCII_DTOSTR_BUF_SIZE];
  GString *opts;
  cl_int status;

  memset (prog, 0, sizeof (*prog));
  if (n == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "invalid Sobel kernel size %d", params->ksize);
    return FALSE;
  }
  prog->variant = variant;
  prog->params = *params;
  tile_knob (ctx->device, n, prog);

  opts = g_string_new ("-cl-std=CL1.2");
  g_string_append_printf (opts, " -DK=%d -DMODE=%d -DTHRESH=%d -DBAND_H=%d"
      " -DTILED=%d", n, params->mode, params->threshold, BAND_H,
      variant == GST_CL_SOBEL_TILED);
  if (variant == GST_CL_SOBEL_TILED) {
    const gboolean nvidia = gst_cl_device_is_nvidia_gpu (ctx->device);
    prog->pack_u16 = gst_cl_env_choice (GST_CL_SOBEL_PACK_ENV, 0, 1, nvidia)
        && out_fits_u16 (params, smooth, deriv, n);
    g_string_append_printf (opts, " -DWG_X=%d -DWG_Y=%d -DTH=%d -DVFIRST=%d"
        " -DWARP_XCHG=%d -DNV_PTX=%d -DPACK_U16=%d", prog->wg_x, prog->wg_y,
        prog->tile_h, prog->vfirst,
        gst_cl_device_has_warp_shuffles (ctx->device, prog->wg_x), nvidia,
        prog->pack_u16);
  }
  append_taps (opts, "SM", smooth, n);
  append_taps (opts, "DV", deriv, n);
  /* Locale-independent, exact enough for float. */
  g_ascii_formatd (num, sizeof (num), "%.9e", params->scale);
  g_string_append_printf (opts, " -DSCALE=%sf", num);
  g_ascii_formatd (num, sizeof (num), "%.9e", params->delta);
  g_string_append_printf (opts, " -DDELTA=%sf", num);

  prog->program = gst_cl_context_get_program (ctx, "sobel", opts->str, error);
  g_string_free (opts, TRUE);
  if (!prog->program)
    return FALSE;

  for (gint i = 0; i < GST_CL_SOBEL_N_IN; i++)
    for (gint o = 0; o < GST_CL_SOBEL_N_OUT; o++) {
      gchar name[32];
      g_snprintf (name, sizeof (name), "sobel_%s_%s_o%d",
          gst_cl_sobel_variant_name (variant), in_names[i], o ? 4 : 1);
      prog->kernels[i][o] = clCreateKernel (prog->program, name, &status);
      if (!gst_cl_set_error (status, name, error)) {
        gst_cl_sobel_program_clear (prog);
        return FALSE;
      }
    }
  prog->fill = clCreateKernel (prog->program, "fill_plane", &status);
  if (!gst_cl_set_error (status, "fill_plane", error)) {
    gst_cl_sobel_program_clear (prog);
    return FALSE;
  }
  return TRUE;
}

void
gst_cl_sobel_program_clear (GstCLSobelProgram * prog)
{
  for (gint i = 0; i < GST_CL_SOBEL_N_IN; i++)
    for (gint o = 0; o < GST_CL_SOBEL_N_OUT; o++)
      if (prog->kernels[i][o])
        clReleaseKernel (prog->kernels[i][o]);
  if (prog->fill)
    clReleaseKernel (prog->fill);
  if (prog->program)
    clReleaseProgram (prog->program);
  memset (prog, 0, sizeof (*prog));
}

cl_int
gst_cl_sobel_program_enqueue (GstCLSobelProgram * prog,
    cl_command_queue queue, cl_mem src, const GstCLPlane * sp,
    GstCLSobelIn in, cl_mem dst, const GstCLPlane * dp, GstCLSobelOut out,
    cl_event * event)
{
  cl_kernel k;
  cl_int status = CL_SUCCESS;
  size_t global[2], local[2];
  cl_uint arg = 0;

  if (in >= GST_CL_SOBEL_N_IN || out >= GST_CL_SOBEL_N_OUT ||
      !prog->kernels[in][out])
    return CL_INVALID_KERNEL;
  k = prog->kernels[in][out];
  status |= gst_cl_plane_set_args (k, &arg, src, sp, dst, dp);
  status |= clSetKernelArg (k, arg++, sizeof (cl_int), &sp->width);
  status |= clSetKernelArg (k, arg++, sizeof (cl_int), &sp->height);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;

  if (prog->variant == GST_CL_SOBEL_BANDS) {
    /* 8x8 groups, as the blur bands kernel (both cores busy). */
    local[0] = local[1] = 8;
    global[0] = round_up ((sp->width + 15) / 16, local[0]);
    global[1] = round_up ((sp->height + BAND_H - 1) / BAND_H, local[1]);
  } else {
    /* vertical first: the outer items of a row are the halo */
    const gint tw = 4 * (prog->vfirst ? prog->wg_x - 2 : prog->wg_x);
    local[0] = prog->wg_x;
    local[1] = prog->wg_y;
    global[0] = (sp->width + tw - 1) / tw * prog->wg_x;
    global[1] = (sp->height + prog->tile_h - 1) / prog->tile_h * prog->wg_y;
  }
  return clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
      event);
}

cl_int
gst_cl_sobel_program_fill (GstCLSobelProgram * prog, cl_command_queue queue,
    cl_mem dst, const GstCLPlane * plane, guint8 value, cl_event * event)
{
  cl_int status = CL_SUCCESS;
  cl_int wb = plane->width * plane->pixel_bytes;
  cl_uchar v = value;
  size_t global[2] = { (wb + 15) / 16, plane->height };
  cl_uint arg = 0;

  status |= clSetKernelArg (prog->fill, arg++, sizeof (cl_mem), &dst);
  status |= clSetKernelArg (prog->fill, arg++, sizeof (cl_uint),
      &plane->offset);
  status |= clSetKernelArg (prog->fill, arg++, sizeof (cl_int),
      &plane->stride);
  status |= clSetKernelArg (prog->fill, arg++, sizeof (cl_int), &wb);
  status |= clSetKernelArg (prog->fill, arg++, sizeof (cl_int),
      &plane->height);
  status |= clSetKernelArg (prog->fill, arg++, sizeof (cl_uchar), &v);
  if (status != CL_SUCCESS)
    return CL_INVALID_KERNEL_ARGS;
  return clEnqueueNDRangeKernel (queue, prog->fill, 2, NULL, global, NULL, 0,
      NULL, event);
}
