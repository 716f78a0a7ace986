/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a stencil tile's shape costs on its own: the skeletons of
 * bench/geometry.cl (the loads and stores of a tile, one integer operation
 * per word instead of the filter) beside the read+write floor, on a GRAY8
 * frame, each the median of ITERATIONS kernel events. Buffers rotate over
 * 256 MiB as in bench_floor ("cold"), or one pair is reused ("hot", the way
 * bench_sobel_kernels times). A report, never a test; docs/PERFORMANCE.md,
 * session 14.
 * Run from the project root (it reads kernels/common.cl and
 * bench/geometry.cl).
 * Usage: bench_geometry [WIDTH HEIGHT [ITERATIONS [gpu|cpu|all]]] */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"

#include <stdlib.h>

#include "benchutil.h"

typedef struct
{
  const gchar *name;
  gint pxw, rows, halo, lanes, xchg, wg_x, wg_y, math, chunk, prefetch, half2;
} Shape;

/* From the 2-D copy to the shape of clsobel's tile (4 bytes by 4 rows, a
 * halo row each side, halo items, shuffles), then wider items. */
static const Shape shapes[] = {
  {"copy16 2-D", 16, 1, 0, 0, 0, 32, 8, 0, 1, 0, 0},
  {"copy4 2-D", 4, 1, 0, 0, 0, 32, 8, 0, 1, 0, 0},
  {"4B x 4 rows", 4, 4, 0, 0, 0, 32, 4, 0, 1, 0, 0},
  {"+ halo rows", 4, 4, 1, 0, 0, 32, 4, 0, 1, 0, 0},
  {"+ halo items (clsobel's)", 4, 4, 1, 1, 0, 32, 4, 0, 1, 0, 0},
  {"+ shuffles", 4, 4, 1, 1, 1, 32, 4, 0, 1, 0, 0},
  {"4B x 2 rows, all", 4, 2, 1, 1, 1, 32, 8, 0, 1, 0, 0},
  {"4B x 1 row, all", 4, 1, 1, 1, 1, 32, 8, 0, 1, 0, 0},
  {"8B x 4 rows, all", 8, 4, 1, 1, 1, 32, 4, 0, 1, 0, 0},
  {"8B x 2 rows, all", 8, 2, 1, 1, 1, 32, 8, 0, 1, 0, 0},
  {"16B x 1 row, all", 16, 1, 1, 1, 1, 32, 8, 0, 1, 0, 0},
  {"16B x 2 rows, all", 16, 2, 1, 1, 1, 32, 4, 0, 1, 0, 0},
  {"16B x 4 rows, all", 16, 4, 1, 1, 1, 32, 4, 0, 1, 0, 0},
  {"16B x 1 row, halo rows only", 16, 1, 1, 0, 0, 32, 8, 0, 1, 0, 0},
  {"16B x 1 row, no shuffles", 16, 1, 1, 1, 0, 32, 8, 0, 1, 0, 0},
  /* clsobel's shape with arithmetic standing in for the filter's, and
   * tiles done one after the other, the next one's loads first or not */
  {"clsobel's + 16 FMA a pixel", 4, 4, 1, 1, 1, 32, 4, 16, 1, 0, 0},
  {"clsobel's + 32 FMA", 4, 4, 1, 1, 1, 32, 4, 32, 1, 0, 0},
  {"+ 16 FMA, 4 tiles a group", 4, 4, 1, 1, 1, 32, 4, 16, 4, 0, 0},
  {"+ 16 FMA, 4 tiles, prefetch", 4, 4, 1, 1, 1, 32, 4, 16, 4, 1, 0},
  {"+ 16 FMA, 2 tiles, prefetch", 4, 4, 1, 1, 1, 32, 4, 16, 2, 1, 0},
  {"+ 32 FMA, 4 tiles, prefetch", 4, 4, 1, 1, 1, 32, 4, 32, 4, 1, 0},
  {"+ 32 FMA, 8 tiles, prefetch", 4, 4, 1, 1, 1, 32, 4, 32, 8, 1, 0},
  {"+ 32 FMA, 2 rows, 4 tiles, pref.", 4, 2, 1, 1, 1, 32, 8, 32, 4, 1, 0},
  /* the same arithmetic on packed half pairs (NVIDIA only) */
  {"clsobel's + 1 FMA", 4, 4, 1, 1, 1, 32, 4, 1, 1, 0, 0},
  {"clsobel's + 8 FMA", 4, 4, 1, 1, 1, 32, 4, 8, 1, 0, 0},
  {"clsobel's + 1 FMA, half2", 4, 4, 1, 1, 1, 32, 4, 1, 1, 0, 1},
  {"clsobel's + 8 FMA, half2", 4, 4, 1, 1, 1, 32, 4, 8, 1, 0, 1},
  {"clsobel's + 16 FMA, half2", 4, 4, 1, 1, 1, 32, 4, 16, 1, 0, 1},
  {"clsobel's + 32 FMA, half2", 4, 4, 1, 1, 1, 32, 4, 32, 1, 0, 1},
};

typedef struct
{
  GstCLContext *ctx;
  cl_kernel kernel;
  cl_mem *bufs;
  gint nbuf, i;
  gboolean cold;
  size_t global[2], local[2];
  gint dims;
} Job;

static cl_int
launch (gpointer data, cl_event * ev)
{
  Job *j = data;
  gint a = j->cold ? j->i % j->nbuf : 0, b = j->cold ? (j->i + 1) % j->nbuf : 1;
  j->i += 2;
  clSetKernelArg (j->kernel, 0, sizeof (cl_mem), &j->bufs[a]);
  clSetKernelArg (j->kernel, 1, sizeof (cl_mem), &j->bufs[b]);
  return clEnqueueNDRangeKernel (j->ctx->queue, j->kernel, j->dims, NULL,
      j->global, j->dims == 2 ? j->local : NULL, 0, NULL, ev);
}

static cl_kernel
build_shape (GstCLContext * ctx, const gchar * src, const Shape * s,
    gboolean shuffles)
{
  gchar *opts = g_strdup_printf ("-cl-std=CL1.2 -DPXW=%d -DROWS=%d -DHALO=%d"
      " -DLANES=%d -DXCHG=%d -DWARP_XCHG=%d -DWG_X=%d -DWG_Y=%d -DMATH=%d"
      " -DCHUNK=%d -DPREFETCH=%d -DHALF2=%d -DNV_PTX=%d", s->pxw, s->rows,
      s->halo, s->lanes, s->xchg, shuffles, s->wg_x, s->wg_y, s->math,
      s->chunk, s->prefetch, s->half2,
      gst_cl_device_is_nvidia_gpu (ctx->device));
  cl_kernel k = bench_build_kernel_with (ctx->context, ctx->device->device,
      src, "geometry", opts);
  g_free (opts);
  return k;
}

int
main (int argc, char **argv)
{
  gint width = argc > 2 ? atoi (argv[1]) : 3840;
  gint height = argc > 2 ? atoi (argv[2]) : 2160;
  gint iters = argc > 3 ? atoi (argv[3]) : 200;
  const gchar *which = argc > 4 ? argv[4] : "gpu";
  gchar *common = NULL, *geometry = NULL, *src;
  GError *err = NULL;
  const GPtrArray *devices = bench_devices (&argc, &argv);

  if (!g_file_get_contents ("kernels/common.cl", &common, NULL, &err) ||
      !g_file_get_contents ("bench/geometry.cl", &geometry, NULL, &err)) {
    g_printerr ("%s (run from the project root)\n", err->message);
    return 1;
  }
  src = g_strconcat (common, "\n", geometry, NULL);
  g_print ("stencil tile skeletons, GRAY8 %dx%d, median of %d kernel events,"
      " ms; ratio: / the 1-D read+write floor of the same mode\n", width,
      height, iters);

  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    if (!bench_device_wanted (dev, which))
      continue;
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    if (!ctx) {
      g_printerr ("%s\n", err->message);
      g_clear_error (&err);
      continue;
    }
    gsize bytes = (gsize) width * height;
    Job j = {.ctx = ctx };
    gdouble floor_ms[2], min_ms;
    cl_kernel copy = bench_build_kernel (ctx->context, dev->device,
        BENCH_COPY_SRC, "copy16");

    j.bufs = bench_rotating_buffers (ctx->context, ctx->queue, bytes,
        &j.nbuf);
    if (!j.bufs || !copy) {
      g_printerr ("%s: no buffers or no copy kernel\n", dev->name);
      continue;
    }
    g_print ("\n%s (%s)\n%-30s %9s %7s %9s %7s\n", dev->name,
        dev->platform_name, "shape", "cold", "ratio", "hot", "ratio");
    for (gint cold = 1; cold >= 0; cold--) {
      j.kernel = copy;
      j.cold = cold;
      j.dims = 1;
      j.global[0] = bytes / 16;
      floor_ms[cold] = bench_median_ms (launch, &j, iters, &min_ms);
    }
    g_print ("%-30s %9.4f %7.2f %9.4f %7.2f\n", "copy16 1-D (the floor)",
        floor_ms[1], 1.0, floor_ms[0], 1.0);

    for (guint si = 0; si < G_N_ELEMENTS (shapes); si++) {
      const Shape *s = &shapes[si];
      gboolean shuffles = gst_cl_device_has_warp_shuffles (dev, s->wg_x);
      /* shuffles need a warp-wide row, half pairs only NVIDIA's PTX */
      if ((s->xchg && !shuffles) ||
          (s->half2 && !gst_cl_device_is_nvidia_gpu (dev)))
        continue;
      cl_kernel k = build_shape (ctx, src, s, shuffles);
      if (!k)
        continue;
      gint items_out = s->wg_x - 2 * s->lanes;
      gint tiles_x = (width + s->pxw * items_out - 1) / (s->pxw * items_out);
      gint chunk_h = s->wg_y * s->rows * s->chunk;
      gint tiles_y = (height + chunk_h - 1) / chunk_h;
      gdouble ms[2];
      clSetKernelArg (k, 2, sizeof (gint), &width);
      clSetKernelArg (k, 3, sizeof (gint), &height);
      clSetKernelArg (k, 4, sizeof (gint), &width);
      j.kernel = k;
      j.dims = 2;
      j.global[0] = (size_t) tiles_x * s->wg_x;
      j.global[1] = (size_t) tiles_y * s->wg_y;
      j.local[0] = s->wg_x;
      j.local[1] = s->wg_y;
      for (gint cold = 1; cold >= 0; cold--) {
        j.cold = cold;
        ms[cold] = bench_median_ms (launch, &j, iters, &min_ms);
      }
      g_print ("%-30s %9.4f %7.2f %9.4f %7.2f\n", s->name, ms[1],
          ms[1] / floor_ms[1], ms[0], ms[0] / floor_ms[0]);
      clReleaseKernel (k);
    }
    clReleaseKernel (copy);
    bench_release_buffers (j.bufs, j.nbuf);
    gst_object_unref (ctx);
  }
  g_free (src);
  g_free (common);
  g_free (geometry);
  return 0;
}
