/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whether a device runs a frame's upload and the previous frame's download
 * at the same time, and which way of ordering them lets it.
 *
 * A chain fed from system memory on a discrete GPU moves each frame in
 * (upload queue), runs its kernels (main queue) and moves it out (download
 * queue). The bus carries both directions at once, so the pace can be one
 * transfer, not the two one after the other. This program drives that
 * pattern from one thread or three, with 8 frames in flight (each slot's
 * pinned host copy is reused once its download ends, as a pool of 8 frames
 * is), in the ways the plugin could order the commands, and prints per way
 * the time a frame with untimed queues and with timed ones (wall clock),
 * and from the timed run's profiling events how much of the downloads' time
 * an upload ran beside and each transfer's median time.
 *
 *   transfer_overlap [gpu|cpu|all] [bytes] [frames]
 *
 * The ways:
 *   indep       uploads and downloads of other buffers, no kernels, no
 *               dependencies: what the bus and the driver allow
 *   chain       upload (waits for the kernel that last read the slot, long
 *               ended), barrier, three kernels, download on its own queue
 *               waiting for the last kernel, queued right after it: the
 *               plugin's early transfers (session 36)
 *   chain-free  the same, the upload waiting for nothing
 *   chain-late  the same as chain, each frame's download queued after the
 *               next frame's commands (when its kernels have likely ended)
 *   chain-mainq the download on the main queue behind the kernels
 *   threads     as chain, from three threads, as between queues in a
 *               pipeline: a writer's queues each frame's upload, a chain's
 *               its barrier, kernels and download, a consumer's waits for
 *               the download and hands the slot back to the writer
 *   threads-late  as threads, the consumer queueing the download before it
 *               waits for it (the plugin without early downloads)
 *   threads-plugin  as threads, plus threads-flush's flush and
 *               threads-barrier's barrier
 *   threads-flush   as threads, the writer flushing the main queue before
 *               its upload waits on a kernel there (as the plugin's early
 *               upload did in session 36 whenever that kernel had not ended)
 *   threads-barrier as threads, the chain's thread putting a barrier on the
 *               slot's previous download (ended) before the kernel that
 *               overwrites it
 *   threads-poll    as threads, the consumer waiting for the download by
 *               polling its status, 5 us asleep between polls, instead of
 *               in clWaitForEvents
 */
#include <string.h>

#include "benchutil.h"

#define SLOTS 8
#define KERNELS 3

#define ADD_SRC \
    "__kernel void add1 (__global const uchar16 * restrict s," \
    " __global uchar16 * restrict d) { size_t i = get_global_id (0);" \
    " d[i] = s[i] + (uchar16) (1); }"

typedef enum
{
  WAY_INDEP,
  WAY_CHAIN,
  WAY_CHAIN_FREE,
  WAY_CHAIN_LATE,
  WAY_CHAIN_MAINQ,
  WAY_THREADS,
  WAY_THREADS_LATE,
  WAY_THREADS_PLUGIN,
  WAY_THREADS_FLUSH,
  WAY_THREADS_BARRIER,
  WAY_THREADS_POLL,
  N_WAYS
} Way;

static const gchar *way_names[N_WAYS] = {
  "indep", "chain", "chain-free", "chain-late", "chain-mainq", "threads",
  "threads-late", "threads-plugin", "threads-flush", "threads-barrier",
  "threads-poll"
};

typedef struct
{
  cl_context context;
  cl_command_queue main_q, up_q, down_q;
  cl_kernel kernel;
  gsize bytes;
  cl_mem staging_in[SLOTS], staging_out[SLOTS];
  guint8 *host_in[SLOTS], *host_out[SLOTS];
  cl_mem dev_in[SLOTS], dev_out[SLOTS], tmp[2];
} Rig;

#define CHECK(call) G_STMT_START { cl_int s_ = (call); if (s_ != CL_SUCCESS) { \
      g_printerr ("%s:%d: %s: %d\n", __FILE__, __LINE__, #call, s_); \
      exit (1); } } G_STMT_END

static cl_mem
new_buffer (Rig * rig, cl_mem_flags flags)
{
  cl_int status;
  cl_mem m = clCreateBuffer (rig->context, flags, rig->bytes, NULL, &status);
  CHECK (status);
  return m;
}

static guint8 *
map_staging (Rig * rig, cl_mem staging)
{
  cl_int status;
  guint8 *p = clEnqueueMapBuffer (rig->main_q, staging, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, rig->bytes, 0, NULL, NULL, &status);
  CHECK (status);
  memset (p, 7, rig->bytes);
  return p;
}

static void
rig_queues (Rig * rig, const GstCLDeviceInfo * dev, gboolean profile)
{
  cl_command_queue *qs[] = { &rig->main_q, &rig->up_q, &rig->down_q };
  cl_int status;

  for (guint i = 0; i < G_N_ELEMENTS (qs); i++) {
    *qs[i] = clCreateCommandQueue (rig->context, dev->device,
        profile ? CL_QUEUE_PROFILING_ENABLE : 0, &status);
    CHECK (status);
  }
}

static void
rig_release_queues (Rig * rig)
{
  clReleaseCommandQueue (rig->main_q);
  clReleaseCommandQueue (rig->up_q);
  clReleaseCommandQueue (rig->down_q);
}

static void
rig_init (Rig * rig, const GstCLDeviceInfo * dev, gsize bytes)
{
  cl_int status;

  memset (rig, 0, sizeof (*rig));
  rig->bytes = bytes;
  rig->context = clCreateContext (NULL, 1, &dev->device, NULL, NULL, &status);
  CHECK (status);
  rig_queues (rig, dev, FALSE);
  rig->kernel = bench_build_kernel (rig->context, dev->device, ADD_SRC,
      "add1");
  if (!rig->kernel)
    exit (1);
  for (gint s = 0; s < SLOTS; s++) {
    rig->staging_in[s] = new_buffer (rig, CL_MEM_ALLOC_HOST_PTR);
    rig->staging_out[s] = new_buffer (rig, CL_MEM_ALLOC_HOST_PTR);
    rig->host_in[s] = map_staging (rig, rig->staging_in[s]);
    rig->host_out[s] = map_staging (rig, rig->staging_out[s]);
    rig->dev_in[s] = new_buffer (rig, CL_MEM_READ_WRITE);
    rig->dev_out[s] = new_buffer (rig, CL_MEM_READ_WRITE);
  }
  rig->tmp[0] = new_buffer (rig, CL_MEM_READ_WRITE);
  rig->tmp[1] = new_buffer (rig, CL_MEM_READ_WRITE);
}

static void
rig_clear (Rig * rig)
{
  for (gint s = 0; s < SLOTS; s++) {
    clEnqueueUnmapMemObject (rig->main_q, rig->staging_in[s], rig->host_in[s],
        0, NULL, NULL);
    clEnqueueUnmapMemObject (rig->main_q, rig->staging_out[s],
        rig->host_out[s], 0, NULL, NULL);
  }
  clFinish (rig->main_q);
  for (gint s = 0; s < SLOTS; s++) {
    clReleaseMemObject (rig->staging_in[s]);
    clReleaseMemObject (rig->staging_out[s]);
    clReleaseMemObject (rig->dev_in[s]);
    clReleaseMemObject (rig->dev_out[s]);
  }
  clReleaseMemObject (rig->tmp[0]);
  clReleaseMemObject (rig->tmp[1]);
  clReleaseKernel (rig->kernel);
  rig_release_queues (rig);
  clReleaseContext (rig->context);
}

static cl_event
run_kernel (Rig * rig, cl_mem src, cl_mem dst)
{
  gsize global = rig->bytes / 16;
  cl_event ev;

  CHECK (clSetKernelArg (rig->kernel, 0, sizeof (cl_mem), &src));
  CHECK (clSetKernelArg (rig->kernel, 1, sizeof (cl_mem), &dst));
  CHECK (clEnqueueNDRangeKernel (rig->main_q, rig->kernel, 1, NULL, &global,
          NULL, 0, NULL, &ev));
  return ev;
}

/* Slot @s's kernels, its input through the scratch buffers to its output;
 * returns the last one's event. */
static cl_event
run_kernels (Rig * rig, gint s)
{
  cl_event ev = NULL;

  for (gint k = 0; k < KERNELS; k++) {
    cl_mem src = k == 0 ? rig->dev_in[s] : rig->tmp[(k - 1) % 2];
    cl_mem dst = k == KERNELS - 1 ? rig->dev_out[s] : rig->tmp[k % 2];
    if (ev)
      clReleaseEvent (ev);
    ev = run_kernel (rig, src, dst);
  }
  return ev;
}

/* Slot @s's upload, after *@wait's command where @wait is given, and
 * submitted; @up: its end. */
static void
queue_upload (Rig * rig, gint s, cl_event * wait, cl_event * up)
{
  CHECK (clEnqueueWriteBuffer (rig->up_q, rig->dev_in[s], CL_FALSE, 0,
          rig->bytes, rig->host_in[s], wait ? 1 : 0, wait, up));
  CHECK (clFlush (rig->up_q));
}

/* Frame @i's upload, barrier and kernels; returns the last kernel's event
 * (none for WAY_INDEP). */
static cl_event
queue_frame (Rig * rig, Way way, gint i, cl_event * up, cl_event * slot_kernel)
{
  gint s = i % SLOTS;
  gboolean wait_last = way != WAY_CHAIN_FREE && *slot_kernel;
  cl_event ev;

  queue_upload (rig, s, wait_last ? slot_kernel : NULL, up);
  if (way == WAY_INDEP)
    return NULL;
  CHECK (clEnqueueBarrierWithWaitList (rig->main_q, 1, up, NULL));
  ev = run_kernels (rig, s);
  if (*slot_kernel)
    clReleaseEvent (*slot_kernel);
  *slot_kernel = ev;
  clRetainEvent (ev);
  CHECK (clFlush (rig->main_q));
  return ev;
}

static void
queue_download (Rig * rig, Way way, gint i, cl_event kernel, cl_event * down)
{
  gint s = i % SLOTS;
  gboolean mainq = way == WAY_CHAIN_MAINQ;
  cl_command_queue q = mainq ? rig->main_q : rig->down_q;
  gboolean wait = kernel && !mainq;

  CHECK (clEnqueueReadBuffer (q, rig->dev_out[s], CL_FALSE, 0, rig->bytes,
          rig->host_out[s], wait ? 1 : 0, wait ? &kernel : NULL, down));
  CHECK (clFlush (q));
}

typedef struct
{
  gdouble ms_per_frame;
  gdouble read_overlap;         /* of the downloads' time, with an upload */
  gdouble up_ms, down_ms;       /* medians */
} Result;

static gdouble
overlap_ns (cl_ulong a0, cl_ulong a1, cl_ulong b0, cl_ulong b1)
{
  cl_ulong lo = MAX (a0, b0), hi = MIN (a1, b1);
  return hi > lo ? (gdouble) (hi - lo) : 0;
}

typedef struct
{
  Rig *rig;
  Way way;
  gint frames;
  cl_event *up, *down, *kernel;
  cl_event slot_kernel[SLOTS];
  GAsyncQueue *free_slots, *uploaded, *processed;
} Threads;

/* Frame numbers travel the queues as i + 1 (a NULL pointer is none). */
#define FRAME_PTR(i) GINT_TO_POINTER ((i) + 1)
#define PTR_FRAME(p) (GPOINTER_TO_INT (p) - 1)

static gpointer
writer_thread (gpointer data)
{
  Threads *t = data;

  for (gint i = 0; i < t->frames; i++) {
    gint s = PTR_FRAME (g_async_queue_pop (t->free_slots)) % SLOTS;
    gboolean wait_last = t->slot_kernel[s] != NULL;

    g_assert (s == i % SLOTS);
    if ((t->way == WAY_THREADS_PLUGIN || t->way == WAY_THREADS_FLUSH)
        && wait_last)
      CHECK (clFlush (t->rig->main_q));
    queue_upload (t->rig, s, wait_last ? &t->slot_kernel[s] : NULL,
        &t->up[i]);
    g_async_queue_push (t->uploaded, FRAME_PTR (i));
  }
  return NULL;
}

static gpointer
chain_thread (gpointer data)
{
  Threads *t = data;
  Rig *rig = t->rig;

  for (gint n = 0; n < t->frames; n++) {
    gint i = PTR_FRAME (g_async_queue_pop (t->uploaded)), s = i % SLOTS;
    cl_event ev;

    CHECK (clEnqueueBarrierWithWaitList (rig->main_q, 1, &t->up[i], NULL));
    if ((t->way == WAY_THREADS_PLUGIN || t->way == WAY_THREADS_BARRIER)
        && i >= SLOTS)
      CHECK (clEnqueueBarrierWithWaitList (rig->main_q, 1,
              &t->down[i - SLOTS], NULL));
    ev = run_kernels (rig, s);
    CHECK (clFlush (rig->main_q));
    t->kernel[i] = ev;
    if (t->way != WAY_THREADS_LATE)
      queue_download (rig, t->way, i, ev, &t->down[i]);
    g_async_queue_push (t->processed, FRAME_PTR (i));
  }
  return NULL;
}

/* The consumer: this thread. */
static void
run_threads (Rig * rig, Way way, gint frames, cl_event * up, cl_event * down,
    gint warm, gint64 * t_start)
{
  Threads t = { .rig = rig, .way = way, .frames = frames, .up = up,
    .down = down, .kernel = g_new0 (cl_event, frames) };
  GThread *writer, *chain;

  t.free_slots = g_async_queue_new ();
  t.uploaded = g_async_queue_new ();
  t.processed = g_async_queue_new ();
  for (gint s = 0; s < SLOTS; s++)
    g_async_queue_push (t.free_slots, FRAME_PTR (s));
  writer = g_thread_new ("writer", writer_thread, &t);
  chain = g_thread_new ("chain", chain_thread, &t);
  for (gint n = 0; n < frames; n++) {
    gint i = PTR_FRAME (g_async_queue_pop (t.processed)), s = i % SLOTS;

    if (i == warm)
      *t_start = g_get_monotonic_time ();
    if (way == WAY_THREADS_LATE)
      queue_download (rig, way, i, t.kernel[i], &down[i]);
    if (way == WAY_THREADS_POLL) {
      cl_int exec;
      do {
        CHECK (clGetEventInfo (down[i], CL_EVENT_COMMAND_EXECUTION_STATUS,
                sizeof (exec), &exec, NULL));
        if (exec > CL_COMPLETE)
          g_usleep (5);
      } while (exec > CL_COMPLETE);
      if (exec < 0)
        exit (1);
    } else {
      CHECK (clWaitForEvents (1, &down[i]));
    }
    /* The writer reads slot_kernel[s] only after this push. */
    if (t.slot_kernel[s])
      clReleaseEvent (t.slot_kernel[s]);
    t.slot_kernel[s] = t.kernel[i];
    g_async_queue_push (t.free_slots, FRAME_PTR (i + SLOTS));
  }
  g_thread_join (writer);
  g_thread_join (chain);
  /* Frames past the end were never written: drain their slots. */
  while (g_async_queue_try_pop (t.free_slots))
    ;
  for (gint s = 0; s < SLOTS; s++)
    if (t.slot_kernel[s])
      clReleaseEvent (t.slot_kernel[s]);
  g_async_queue_unref (t.free_slots);
  g_async_queue_unref (t.uploaded);
  g_async_queue_unref (t.processed);
  g_free (t.kernel);
}

static Result
run_way (Rig * rig, Way way, gint frames, gboolean profile)
{
  cl_event *up = g_new0 (cl_event, frames);
  cl_event *down = g_new0 (cl_event, frames);
  cl_event slot_kernel[SLOTS] = { NULL };
  cl_event pending = NULL;      /* chain-late: the previous frame's kernel */
  gint warm = frames / 10;
  gint64 t_start = 0;
  Result r = { 0 };

  for (gint i = 0; i < frames && way < WAY_THREADS; i++) {
    cl_event kernel;

    if (i == warm)
      t_start = g_get_monotonic_time ();
    /* The slot's host copies are reused: its download must have ended. */
    if (i >= SLOTS)
      CHECK (clWaitForEvents (1, &down[i - SLOTS]));
    kernel = queue_frame (rig, way, i, &up[i], &slot_kernel[i % SLOTS]);
    if (way == WAY_CHAIN_LATE) {
      if (pending) {
        queue_download (rig, way, i - 1, pending, &down[i - 1]);
        clReleaseEvent (pending);
      }
      pending = kernel;
      kernel = NULL;
    } else {
      queue_download (rig, way, i, kernel, &down[i]);
    }
    if (kernel)
      clReleaseEvent (kernel);
  }
  if (pending) {
    queue_download (rig, way, frames - 1, pending, &down[frames - 1]);
    clReleaseEvent (pending);
  }
  if (way >= WAY_THREADS)
    run_threads (rig, way, frames, up, down, warm, &t_start);
  CHECK (clWaitForEvents (1, &down[frames - 1]));
  CHECK (clFinish (rig->up_q));
  CHECK (clFinish (rig->main_q));
  r.ms_per_frame = (g_get_monotonic_time () - t_start) / 1e3 /
      (frames - warm);

  if (profile) {
    gint n = frames - warm;
    gdouble *up_ms = g_new (gdouble, n), *down_ms = g_new (gdouble, n);
    gdouble overlapped = 0, down_total = 0;
    for (gint i = warm; i < frames; i++) {
      cl_ulong d0, d1;
      bench_event_times (down[i], &d0, &d1);
      down_total += d1 - d0;
      down_ms[i - warm] = (d1 - d0) / 1e6;
      /* Uploads near this download in time (a few frames either way). */
      for (gint j = MAX (0, i - SLOTS - 2); j < MIN (frames, i + SLOTS + 2);
          j++) {
        cl_ulong u0, u1;
        bench_event_times (up[j], &u0, &u1);
        overlapped += overlap_ns (d0, d1, u0, u1);
      }
      cl_ulong u0, u1;
      bench_event_times (up[i], &u0, &u1);
      up_ms[i - warm] = (u1 - u0) / 1e6;
    }
    r.read_overlap = overlapped / down_total;
    r.up_ms = bench_median (up_ms, n);
    r.down_ms = bench_median (down_ms, n);
    g_free (up_ms);
    g_free (down_ms);
  }
  for (gint i = 0; i < frames; i++) {
    clReleaseEvent (up[i]);
    clReleaseEvent (down[i]);
  }
  for (gint s = 0; s < SLOTS; s++)
    if (slot_kernel[s])
      clReleaseEvent (slot_kernel[s]);
  g_free (up);
  g_free (down);
  return r;
}

int
main (int argc, char **argv)
{
  const GPtrArray *devices = bench_devices (&argc, &argv);
  const gchar *which = argc > 1 ? argv[1] : "gpu";
  gsize bytes = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : 1920 * 1080;
  gint frames = argc > 3 ? atoi (argv[3]) : 400;
  gint measured = 0;

  bytes = GST_ROUND_UP_64 (bytes);
  if (frames < 2 * SLOTS) {
    g_printerr ("frames: at least %d\n", 2 * SLOTS);
    return 2;
  }
  for (guint d = 0; d < devices->len; d++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, d);
    Rig rig;

    if (!bench_device_wanted (dev, which))
      continue;
    measured++;
    rig_init (&rig, dev, bytes);
    g_print ("# %u.%u %s, %" G_GSIZE_FORMAT " bytes, %d frames, %d in "
        "flight, %d kernels a frame\n", dev->platform_index,
        dev->device_index, dev->name, bytes, frames, SLOTS, KERNELS);
    g_print ("%-12s %10s %10s %10s %10s %14s\n", "way", "ms/frame",
        "profiled", "upload", "download", "download with");
    g_print ("%-12s %10s %10s %10s %10s %14s\n", "", "", "ms/frame",
        "ms", "ms", "an upload");
    for (gint w = 0; w < N_WAYS; w++) {
      Result plain, prof;
      /* Warm the way up once, then measure it without and with profiling. */
      run_way (&rig, w, 2 * SLOTS, FALSE);
      plain = run_way (&rig, w, frames, FALSE);
      rig_release_queues (&rig);
      rig_queues (&rig, dev, TRUE);
      prof = run_way (&rig, w, frames, TRUE);
      rig_release_queues (&rig);
      rig_queues (&rig, dev, FALSE);
      g_print ("%-12s %10.4f %10.4f %10.4f %10.4f %13.0f%%\n", way_names[w],
          plain.ms_per_frame, prof.ms_per_frame, prof.up_ms, prof.down_ms,
          100 * prof.read_overlap);
    }
    rig_clear (&rig);
  }
  if (!measured) {
    g_printerr ("no %s device\n", which);
    return 77;
  }
  return 0;
}
