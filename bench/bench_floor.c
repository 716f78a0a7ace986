/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device's floor for a frame, as ../shared/tools/cllimits.c measures it,
 * on every OpenCL device: a kernel that reads and writes every byte
 * (uchar16), a device copy, and pinned upload and download, each the median
 * device time (profiling events) of ITERATIONS commands rotating over
 * enough buffers (up to 256 MiB) that a large cache does not hold them.
 * Also two floors of a filter whose every output byte needs the whole
 * frame (histogram equalisation; bench/floor.cl): a read-only kernel (the
 * first of two launches) and, on GPUs, the frame read into registers, one
 * grid-wide wait and the write (one launch), and that kernel again with
 * clhisteq's local-atomic histogram before the wait (hist_sync), on
 * frames of noise. One JSON line per device and size, for bench/bench.py.
 * A report, never a test.
 * Usage: bench_floor ITERATIONS BYTES...   (no BYTES: the device list) */
#include "cl/gstclcontext.h"
#include "cl/gstclutils.h"

#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "benchfloorcl.h"

/* groups a compute unit of read_sync_write: clhisteq's one-launch kernel's
 * (GST_CL_HISTEQ_EQ_GROUPS_PER_CU), all resident at once on NVIDIA */
#define SYNC_GROUPS_PER_CU 2

typedef struct
{
  GstCLContext *ctx;
  cl_kernel copy, read, sync[2];        /* bench/floor.cl's HIST 0, 1 */
  cl_mem *bufs, counters;
  gint nbuf, i;
  size_t n16, bytes, read_global, sync_global;
  guint tag;
  void *pinned;
  gint what;                    /* 0 read+write kernel, 1 copy, 2 up, 3 down,
                                   4 read kernel, 5 read, wait, write,
                                   6 the same with the histogram */
} Job;

static cl_int
launch (gpointer data, cl_event * ev)
{
  Job *j = data;
  cl_mem a = j->bufs[j->i % j->nbuf], b = j->bufs[(j->i + 1) % j->nbuf];
  cl_command_queue q = j->ctx->queue;
  j->i += 2;
  switch (j->what) {
    case 0:
      clSetKernelArg (j->copy, 0, sizeof (cl_mem), &a);
      clSetKernelArg (j->copy, 1, sizeof (cl_mem), &b);
      return clEnqueueNDRangeKernel (q, j->copy, 1, NULL, &j->n16, NULL, 0,
          NULL, ev);
    case 1:
      return clEnqueueCopyBuffer (q, a, b, 0, 0, j->bytes, 0, NULL, ev);
    case 4:{
      cl_uint n16 = j->n16;
      clSetKernelArg (j->read, 0, sizeof (cl_mem), &a);
      clSetKernelArg (j->read, 1, sizeof (cl_uint), &n16);
      clSetKernelArg (j->read, 2, sizeof (cl_mem), &j->counters);
      return clEnqueueNDRangeKernel (q, j->read, 1, NULL, &j->read_global,
          (size_t[]) { 256 }, 0, NULL, ev);
    }
    case 5:
    case 6:{
      cl_uint n16 = j->n16, tag = ++j->tag;
      cl_kernel k = j->sync[j->what - 5];
      clSetKernelArg (k, 0, sizeof (cl_mem), &a);
      clSetKernelArg (k, 1, sizeof (cl_mem), &b);
      clSetKernelArg (k, 2, sizeof (cl_uint), &n16);
      clSetKernelArg (k, 3, sizeof (cl_mem), &j->counters);
      clSetKernelArg (k, 4, sizeof (cl_uint), &tag);
      return clEnqueueNDRangeKernel (q, k, 1, NULL, &j->sync_global,
          (size_t[]) { 256 }, 0, NULL, ev);
    }
    case 2:
      return clEnqueueWriteBuffer (q, a, CL_FALSE, 0, j->bytes, j->pinned, 0,
          NULL, ev);
    default:
      return clEnqueueReadBuffer (q, a, CL_FALSE, 0, j->bytes, j->pinned, 0,
          NULL, ev);
  }
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  const GPtrArray *devices;
  gint iters = argc > 1 ? atoi (argv[1]) : 50;
  static const gchar *what[] = { "rw_kernel_ms", "copy_ms", "upload_ms",
    "download_ms", "read_kernel_ms", "sync_kernel_ms", "hist_sync_kernel_ms"
  };
  static const gchar *sync_prefix[] = { "", "hist_" };
  const gchar *floor_src = bench_floor_sources[0].source;

  devices = bench_devices (&argc, &argv);
  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    cl_int st;
    if (!ctx) {
      g_printerr ("%s\n", err->message);
      g_clear_error (&err);
      continue;
    }
    Job j = {.ctx = ctx,.copy = bench_build_kernel (ctx->context, dev->device,
          BENCH_COPY_SRC, "copy16"),
      .read = bench_build_kernel_with (ctx->context, dev->device, floor_src,
          "read_frame", "-DNCH=1")
    };
    const guint sync_groups = SYNC_GROUPS_PER_CU * MAX (dev->compute_units, 1);
    const cl_uint zero = 0;
    j.counters = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE,
        (4 + 256) * sizeof (cl_uint), NULL, &st);
    clEnqueueFillBuffer (ctx->queue, j.counters, &zero, sizeof zero, 0,
        (4 + 256) * sizeof (cl_uint), 0, NULL, NULL);

    if (argc < 3)               /* no sizes: the device list only */
      g_print ("{\"device\":\"%s\",\"index\":\"%u.%u\",\"type\":\"%s\","
          "\"compute_units\":%u,\"driver\":\"%s\"}\n", dev->name,
          dev->platform_index, dev->device_index, dev->is_gpu ? "GPU" : "CPU",
          dev->compute_units, dev->driver_version);

    for (gint a = 2; a < argc; a++) {
      j.bytes = GST_ROUND_UP_64 (g_ascii_strtoull (argv[a], NULL, 10));
      j.n16 = j.bytes / 16;
      j.bufs = bench_rotating_buffers (ctx->context, ctx->queue, j.bytes,
          &j.nbuf);
      if (!j.bufs) {
        g_printerr ("%s: cannot allocate the buffers for %zu bytes\n",
            dev->name, j.bytes);
        continue;
      }
      /* noise in every buffer, as a frame's bytes vary, for the
       * histogram floor (BENCH_FLOOR_ZEROS=1 leaves zeros: on the H200
       * the floors were the same either way, gpu-session30 run 3) */
      if (g_strcmp0 (g_getenv ("BENCH_FLOOR_ZEROS"), "1") != 0) {
        guint8 *noise = g_malloc (j.bytes);
        GRand *rand = g_rand_new_with_seed (1);
        for (gsize i = 0; i < j.bytes; i += 4) {
          const guint32 r = g_rand_int (rand);
          memcpy (noise + i, &r, MIN (4, j.bytes - i));
        }
        for (gint i = 0; i < j.nbuf; i++)
          clEnqueueWriteBuffer (ctx->queue, j.bufs[i], CL_TRUE, 0, j.bytes,
              noise, 0, NULL, NULL);
        g_rand_free (rand);
        g_free (noise);
      }
      cl_mem pin = clCreateBuffer (ctx->context, CL_MEM_ALLOC_HOST_PTR,
          j.bytes, NULL, &st);
      j.pinned = clEnqueueMapBuffer (ctx->queue, pin, CL_TRUE,
          CL_MAP_READ | CL_MAP_WRITE, 0, j.bytes, 0, NULL, NULL, &st);
      clFinish (ctx->queue);
      g_print ("{\"device\":\"%s\",\"index\":\"%u.%u\",\"type\":\"%s\","
          "\"compute_units\":%u,\"driver\":\"%s\",\"bytes\":%zu",
          dev->name, dev->platform_index, dev->device_index,
          dev->is_gpu ? "GPU" : "CPU", dev->compute_units,
          dev->driver_version, j.bytes);
      j.read_global = GST_ROUND_UP_N (j.n16, 256);
      j.sync_global = 256 * (size_t) sync_groups;
      const size_t sync_chunks = (j.n16 + j.sync_global - 1) / j.sync_global;
      /* one grid-wide wait needs every group running at once: GPUs */
      for (gint hist = 0; dev->is_gpu && hist < 2; hist++) {
        gchar *opt = g_strdup_printf ("-DNCH=%zu -DHIST=%d", sync_chunks,
            hist);
        j.sync[hist] = bench_build_kernel_with (ctx->context, dev->device,
            floor_src, "read_sync_write", opt);
        g_free (opt);
      }
      for (j.what = 0; j.what < 7; j.what++) {
        gdouble min_ms, ms;
        const gboolean sync = j.what >= 5;
        if ((j.what == 4 && !j.read) || (sync && !j.sync[j.what - 5]))
          continue;
        ms = bench_median_ms (launch, &j, iters, &min_ms);
        g_print (",\"%s\":%.6f", what[j.what], ms);
        if (sync) {
          cl_uint giveups = 0;
          clEnqueueReadBuffer (ctx->queue, j.counters, CL_TRUE,
              2 * sizeof (cl_uint), sizeof giveups, &giveups, 0, NULL, NULL);
          clEnqueueFillBuffer (ctx->queue, j.counters, &zero, sizeof zero,
              2 * sizeof (cl_uint), sizeof zero, 0, NULL, NULL);
          /* a launch where a group stopped waiting did not wait for all */
          g_print (",\"%ssync_giveups\":%u", sync_prefix[j.what - 5],
              giveups);
        }
      }
      if (j.sync[0])
        g_print (",\"sync_groups\":%u,\"sync_chunks\":%zu", sync_groups,
            sync_chunks);
      for (gint hist = 0; hist < 2; hist++) {
        if (j.sync[hist])
          clReleaseKernel (j.sync[hist]);
        j.sync[hist] = NULL;
      }
      g_print ("}\n");
      clEnqueueUnmapMemObject (ctx->queue, pin, j.pinned, 0, NULL, NULL);
      clFinish (ctx->queue);
      clReleaseMemObject (pin);
      bench_release_buffers (j.bufs, j.nbuf);
    }
    clReleaseKernel (j.copy);
    if (j.read)
      clReleaseKernel (j.read);
    clReleaseMemObject (j.counters);
    gst_object_unref (ctx);
  }
  return 0;
}
