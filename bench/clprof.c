/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clprof: LD_PRELOAD shim giving the device time of every OpenCL command a
 * program enqueues, from profiling events, without touching the program:
 * our elements, FFmpeg's OpenCL filters or anything else. It turns
 * profiling on for every queue, keeps an event for each kernel, transfer
 * and map, and sums their START..END times per kernel name and per kind of
 * transfer. It also counts host waits (clFinish, clWaitForEvents, blocking
 * reads/writes/maps).
 *
 * Use:  CLPROF_OUT=prof.json LD_PRELOAD=build/bench/libclprof.so ffmpeg ...
 *       (the totals are written as JSON whenever a queue is released and
 *       at exit), or from inside the process: dlsym (RTLD_DEFAULT,
 *       "clprof_reset") / "clprof_json" (what bench_pipeline does, to leave
 *       warm-up frames out).
 * CLPROF_TIMELINE=FILE also writes one line per completed command: its
 * name, its QUEUED, SUBMIT, START and END times (ns, the device's clock)
 * and the host's CLOCK_MONOTONIC when the enqueue call returned; and one
 * per host wait ("wait", the host's clock on entry and on return). For
 * bench/timeline_gaps.py, which splits the device's idle time into what
 * the host was doing and what the device took to start a command.
 * The plugin re-opens libOpenCL RTLD_GLOBAL so RTLD_NEXT finds it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* the project targets 1.2; this shim also wraps the 2.0 queue call */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_NAMES 64
#define HARVEST_AT 2048

typedef struct
{
  cl_event ev;
  int slot;                     /* index in totals[] */
  unsigned long long host_ns;   /* CLOCK_MONOTONIC after the enqueue call */
} Rec;

typedef struct
{
  char name[64];
  unsigned long long count, ns;
} Total;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Rec *recs;
static size_t n_recs, cap_recs;
static Total totals[MAX_NAMES];
static int n_totals;
static unsigned long long host_waits, commands_unprofiled;
static FILE *timeline;          /* CLPROF_TIMELINE, opened by init () */

static unsigned long long
host_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* a host wait on the timeline (from @t0 to now) */
static void
timeline_wait (unsigned long long t0)
{
  if (!timeline)
    return;
  unsigned long long t1 = host_now ();
  pthread_mutex_lock (&lock);
  fprintf (timeline, "wait\t%llu\t%llu\n", t0, t1);
  pthread_mutex_unlock (&lock);
}

static void *
real (const char *name)
{
  void *p = dlsym (RTLD_NEXT, name);
  if (!p) {
    fprintf (stderr, "clprof: no %s (is libOpenCL loaded?)\n", name);
    abort ();
  }
  return p;
}

#define REAL(ret, name, ...) \
  static ret (*r_##name)(__VA_ARGS__); \
  if (!r_##name) r_##name = real (#name)

/* called with the lock held */
static int
slot_for (const char *name)
{
  for (int i = 0; i < n_totals; i++)
    if (!strcmp (totals[i].name, name))
      return i;
  if (n_totals == MAX_NAMES)
    return MAX_NAMES - 1;       /* overflow: lumped into the last one */
  snprintf (totals[n_totals].name, sizeof totals[0].name, "%s", name);
  return n_totals++;
}

/* Accounts the completed records (all of them when @wait), releases their
 * events. Called with the lock held. */
static void
harvest (int wait)
{
  REAL (cl_int, clGetEventInfo, cl_event, cl_event_info, size_t, void *,
      size_t *);
  REAL (cl_int, clWaitForEvents, cl_uint, const cl_event *);
  size_t keep = 0;
  for (size_t i = 0; i < n_recs; i++) {
    Rec r = recs[i];
    cl_int st = CL_QUEUED;
    if (wait)
      r_clWaitForEvents (1, &r.ev);
    r_clGetEventInfo (r.ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st,
        NULL);
    if (st > CL_COMPLETE) {     /* not yet: keep it */
      recs[keep++] = r;
      continue;
    }
    cl_ulong t0 = 0, t1 = 0;
    if (st == CL_COMPLETE &&
        clGetEventProfilingInfo (r.ev, CL_PROFILING_COMMAND_START, sizeof t0,
            &t0, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo (r.ev, CL_PROFILING_COMMAND_END, sizeof t1,
            &t1, NULL) == CL_SUCCESS && t1 >= t0) {
      totals[r.slot].count++;
      totals[r.slot].ns += t1 - t0;
      cl_ulong tq = 0, ts = 0;
      if (timeline &&
          clGetEventProfilingInfo (r.ev, CL_PROFILING_COMMAND_QUEUED,
              sizeof tq, &tq, NULL) == CL_SUCCESS &&
          clGetEventProfilingInfo (r.ev, CL_PROFILING_COMMAND_SUBMIT,
              sizeof ts, &ts, NULL) == CL_SUCCESS)
        fprintf (timeline, "%s\t%llu\t%llu\t%llu\t%llu\t%llu\n",
            totals[r.slot].name, (unsigned long long) tq,
            (unsigned long long) ts, (unsigned long long) t0,
            (unsigned long long) t1, r.host_ns);
    } else {
      commands_unprofiled++;
    }
    clReleaseEvent (r.ev);
  }
  n_recs = keep;
}

/* Keeps @ev (the caller's, retained, or our own) under @name. */
static void
track (const char *name, cl_event * ours, cl_event * theirs)
{
  pthread_mutex_lock (&lock);
  if (n_recs == cap_recs) {
    cap_recs = cap_recs ? 2 * cap_recs : 4096;
    recs = realloc (recs, cap_recs * sizeof *recs);
  }
  if (theirs)
    clRetainEvent (*theirs);
  recs[n_recs].ev = theirs ? *theirs : *ours;
  recs[n_recs].slot = slot_for (name);
  recs[n_recs].host_ns = timeline ? host_now () : 0;
  n_recs++;
  if (n_recs >= HARVEST_AT && n_recs % 256 == 0)
    harvest (0);
  pthread_mutex_unlock (&lock);
}

#define WITH_EVENT(ev) cl_event own_, *use_ = (ev) ? (ev) : &own_
#define TRACK(name, ev, e) \
  do { if ((e) == CL_SUCCESS) track ((name), &own_, (ev)); } while (0)

/* ---- exported for in-process users ------------------------------------ */

void clprof_reset (void);
char *clprof_json (void);

void
clprof_reset (void)
{
  pthread_mutex_lock (&lock);
  harvest (1);
  memset (totals, 0, sizeof totals);
  n_totals = 0;
  host_waits = commands_unprofiled = 0;
  pthread_mutex_unlock (&lock);
}

/* {"host_waits":N,"unprofiled":N,"ops":{"NAME":[count,ms],...}}; free() it */
char *
clprof_json (void)
{
  char *buf;
  size_t len;
  FILE *f = open_memstream (&buf, &len);
  pthread_mutex_lock (&lock);
  harvest (1);
  fprintf (f, "{\"host_waits\":%llu,\"unprofiled\":%llu,\"ops\":{",
      host_waits, commands_unprofiled);
  for (int i = 0; i < n_totals; i++)
    fprintf (f, "%s\"%s\":[%llu,%.6f]", i ? "," : "", totals[i].name,
        totals[i].count, totals[i].ns / 1e6);
  fprintf (f, "}}");
  pthread_mutex_unlock (&lock);
  fclose (f);
  return buf;
}

static void
write_out (int collect)
{
  const char *path = getenv ("CLPROF_OUT");
  if (!path)
    return;
  if (!collect) {               /* at exit: no OpenCL calls, totals as they are */
    pthread_mutex_lock (&lock);
    FILE *f = fopen (path, "w");
    if (f) {
      fprintf (f, "{\"host_waits\":%llu,\"unprofiled\":%llu,\"pending\":%zu,"
          "\"ops\":{", host_waits, commands_unprofiled, n_recs);
      for (int i = 0; i < n_totals; i++)
        fprintf (f, "%s\"%s\":[%llu,%.6f]", i ? "," : "", totals[i].name,
            totals[i].count, totals[i].ns / 1e6);
      fprintf (f, "}}\n");
      fclose (f);
    }
    pthread_mutex_unlock (&lock);
    return;
  }
  char *s = clprof_json ();
  FILE *f = fopen (path, "w");
  if (f) {
    fprintf (f, "%s\n", s);
    fclose (f);
  }
  free (s);
}

static void
at_exit (void)
{
  write_out (0);
}

__attribute__((constructor))
     static void init (void)
{
  const char *path = getenv ("CLPROF_TIMELINE");
  if (path && !(timeline = fopen (path, "w")))
    fprintf (stderr, "clprof: cannot write %s\n", path);
  atexit (at_exit);
}

/* ---- queues: profiling on --------------------------------------------- */

cl_command_queue
clCreateCommandQueue (cl_context c, cl_device_id d,
    cl_command_queue_properties p, cl_int * e)
{
  REAL (cl_command_queue, clCreateCommandQueue, cl_context, cl_device_id,
      cl_command_queue_properties, cl_int *);
  return r_clCreateCommandQueue (c, d, p | CL_QUEUE_PROFILING_ENABLE, e);
}

cl_command_queue
clCreateCommandQueueWithProperties (cl_context c, cl_device_id d,
    const cl_queue_properties * props, cl_int * e)
{
  REAL (cl_command_queue, clCreateCommandQueueWithProperties, cl_context,
      cl_device_id, const cl_queue_properties *, cl_int *);
  cl_queue_properties p[32];
  int n = 0, found = 0;
  for (; props && props[n] && n < 28; n += 2) {
    p[n] = props[n];
    p[n + 1] = props[n + 1];
    if (props[n] == CL_QUEUE_PROPERTIES) {
      p[n + 1] |= CL_QUEUE_PROFILING_ENABLE;
      found = 1;
    }
  }
  if (!found) {
    p[n++] = CL_QUEUE_PROPERTIES;
    p[n++] = CL_QUEUE_PROFILING_ENABLE;
  }
  p[n] = 0;
  return r_clCreateCommandQueueWithProperties (c, d, p, e);
}

cl_int
clReleaseCommandQueue (cl_command_queue q)
{
  REAL (cl_int, clReleaseCommandQueue, cl_command_queue);
  /* the owner is done with it: account what is left while it still exists */
  write_out (1);
  return r_clReleaseCommandQueue (q);
}

/* ---- host waits ------------------------------------------------------- */

cl_int
clFinish (cl_command_queue q)
{
  REAL (cl_int, clFinish, cl_command_queue);
  __atomic_add_fetch (&host_waits, 1, __ATOMIC_RELAXED);
  unsigned long long t0 = timeline ? host_now () : 0;
  cl_int e = r_clFinish (q);
  timeline_wait (t0);
  return e;
}

cl_int
clWaitForEvents (cl_uint n, const cl_event * ev)
{
  REAL (cl_int, clWaitForEvents, cl_uint, const cl_event *);
  __atomic_add_fetch (&host_waits, 1, __ATOMIC_RELAXED);
  unsigned long long t0 = timeline ? host_now () : 0;
  cl_int e = r_clWaitForEvents (n, ev);
  timeline_wait (t0);
  return e;
}

#define BLOCKING(b) \
  do { if (b) __atomic_add_fetch (&host_waits, 1, __ATOMIC_RELAXED); } while (0)

/* ---- commands --------------------------------------------------------- */

cl_int
clEnqueueNDRangeKernel (cl_command_queue q, cl_kernel k, cl_uint dim,
    const size_t * off, const size_t * gws, const size_t * lws, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueNDRangeKernel, cl_command_queue, cl_kernel, cl_uint,
      const size_t *, const size_t *, const size_t *, cl_uint,
      const cl_event *, cl_event *);
  WITH_EVENT (ev);
  char name[64] = "kernel:", *p = name + 7;
  cl_int e = r_clEnqueueNDRangeKernel (q, k, dim, off, gws, lws, n, w, use_);
  if (clGetKernelInfo (k, CL_KERNEL_FUNCTION_NAME, sizeof name - 8, p,
          NULL) != CL_SUCCESS)
    strcpy (p, "?");
  TRACK (name, ev, e);
  return e;
}

cl_int
clEnqueueReadBuffer (cl_command_queue q, cl_mem m, cl_bool b, size_t off,
    size_t sz, void *ptr, cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueReadBuffer, cl_command_queue, cl_mem, cl_bool,
      size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);
  WITH_EVENT (ev);
  BLOCKING (b);
  cl_int e = r_clEnqueueReadBuffer (q, m, b, off, sz, ptr, n, w, use_);
  TRACK ("read (download)", ev, e);
  return e;
}

cl_int
clEnqueueWriteBuffer (cl_command_queue q, cl_mem m, cl_bool b, size_t off,
    size_t sz, const void *ptr, cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueWriteBuffer, cl_command_queue, cl_mem, cl_bool,
      size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *);
  WITH_EVENT (ev);
  BLOCKING (b);
  cl_int e = r_clEnqueueWriteBuffer (q, m, b, off, sz, ptr, n, w, use_);
  TRACK ("write (upload)", ev, e);
  return e;
}

cl_int
clEnqueueCopyBuffer (cl_command_queue q, cl_mem s, cl_mem d, size_t so,
    size_t dof, size_t sz, cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueCopyBuffer, cl_command_queue, cl_mem, cl_mem,
      size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);
  WITH_EVENT (ev);
  cl_int e = r_clEnqueueCopyBuffer (q, s, d, so, dof, sz, n, w, use_);
  TRACK ("copy", ev, e);
  return e;
}

void *
clEnqueueMapBuffer (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags fl,
    size_t off, size_t sz, cl_uint n, const cl_event * w, cl_event * ev,
    cl_int * err)
{
  REAL (void *, clEnqueueMapBuffer, cl_command_queue, cl_mem, cl_bool,
      cl_map_flags, size_t, size_t, cl_uint, const cl_event *, cl_event *,
      cl_int *);
  WITH_EVENT (ev);
  cl_int e = CL_SUCCESS;
  BLOCKING (b);
  void *p = r_clEnqueueMapBuffer (q, m, b, fl, off, sz, n, w, use_, &e);
  if (err)
    *err = e;
  TRACK ("map", ev, e);
  return p;
}

void *
clEnqueueMapImage (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags fl,
    const size_t * o, const size_t * r, size_t * rp, size_t * sp, cl_uint n,
    const cl_event * w, cl_event * ev, cl_int * err)
{
  REAL (void *, clEnqueueMapImage, cl_command_queue, cl_mem, cl_bool,
      cl_map_flags, const size_t *, const size_t *, size_t *, size_t *,
      cl_uint, const cl_event *, cl_event *, cl_int *);
  WITH_EVENT (ev);
  cl_int e = CL_SUCCESS;
  BLOCKING (b);
  void *p = r_clEnqueueMapImage (q, m, b, fl, o, r, rp, sp, n, w, use_, &e);
  if (err)
    *err = e;
  TRACK ("map", ev, e);
  return p;
}

cl_int
clEnqueueUnmapMemObject (cl_command_queue q, cl_mem m, void *ptr, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueUnmapMemObject, cl_command_queue, cl_mem, void *,
      cl_uint, const cl_event *, cl_event *);
  WITH_EVENT (ev);
  cl_int e = r_clEnqueueUnmapMemObject (q, m, ptr, n, w, use_);
  TRACK ("unmap", ev, e);
  return e;
}

cl_int
clEnqueueReadImage (cl_command_queue q, cl_mem m, cl_bool b, const size_t * o,
    const size_t * r, size_t rp, size_t sp, void *ptr, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueReadImage, cl_command_queue, cl_mem, cl_bool,
      const size_t *, const size_t *, size_t, size_t, void *, cl_uint,
      const cl_event *, cl_event *);
  WITH_EVENT (ev);
  BLOCKING (b);
  cl_int e = r_clEnqueueReadImage (q, m, b, o, r, rp, sp, ptr, n, w, use_);
  TRACK ("read (download)", ev, e);
  return e;
}

cl_int
clEnqueueWriteImage (cl_command_queue q, cl_mem m, cl_bool b,
    const size_t * o, const size_t * r, size_t rp, size_t sp, const void *ptr,
    cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueWriteImage, cl_command_queue, cl_mem, cl_bool,
      const size_t *, const size_t *, size_t, size_t, const void *, cl_uint,
      const cl_event *, cl_event *);
  WITH_EVENT (ev);
  BLOCKING (b);
  cl_int e = r_clEnqueueWriteImage (q, m, b, o, r, rp, sp, ptr, n, w, use_);
  TRACK ("write (upload)", ev, e);
  return e;
}

cl_int
clEnqueueCopyBufferToImage (cl_command_queue q, cl_mem s, cl_mem d,
    size_t so, const size_t * o, const size_t * r, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueCopyBufferToImage, cl_command_queue, cl_mem, cl_mem,
      size_t, const size_t *, const size_t *, cl_uint, const cl_event *,
      cl_event *);
  WITH_EVENT (ev);
  cl_int e = r_clEnqueueCopyBufferToImage (q, s, d, so, o, r, n, w, use_);
  TRACK ("copy", ev, e);
  return e;
}

cl_int
clEnqueueCopyImageToBuffer (cl_command_queue q, cl_mem s, cl_mem d,
    const size_t * o, const size_t * r, size_t dof, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueCopyImageToBuffer, cl_command_queue, cl_mem, cl_mem,
      const size_t *, const size_t *, size_t, cl_uint, const cl_event *,
      cl_event *);
  WITH_EVENT (ev);
  cl_int e = r_clEnqueueCopyImageToBuffer (q, s, d, o, r, dof, n, w, use_);
  TRACK ("copy", ev, e);
  return e;
}
