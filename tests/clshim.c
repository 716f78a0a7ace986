/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clshim: LD_PRELOAD shim between the plugin and the OpenCL loader that
 *  - counts every OpenCL object our code creates, retains and releases, per
 *    type (mem, kernel, program, queue, context, event), so a test can
 *    assert that nothing is left alive after a pipeline went to NULL;
 *  - makes a chosen call fail, to test the error paths.
 *
 * Use:  LD_PRELOAD=build/tests/libclshim.so gst-launch-1.0 ...
 * Environment:
 *   CLSHIM_FAIL=NAME[@P.D]:N[+][:CODE]  the Nth call of NAME (1 = the next
 *       one) returns CODE (a CL_* name or number; default: a plausible error
 *       of that call); with '+', that call and every later one fail. With
 *       @P.D (platform and device index, as the plugin's device property
 *       takes them) only calls on that device count and fail: the device
 *       of the call's queue, context, program, kernel or event (calls on
 *       none, e.g. a user event's status, never match). Several rules
 *       separated by ','. Examples:
 *       CLSHIM_FAIL=clEnqueueNDRangeKernel:5:CL_OUT_OF_RESOURCES
 *       CLSHIM_FAIL=clBuildProgram@0.0:1+   (device 0.0 builds nothing)
 *   CLSHIM_MAX_ALLOC=BYTES  the devices report this largest allocation
 *       (CL_DEVICE_MAX_MEM_ALLOC_SIZE), to test frames beyond it cheaply.
 *   CLSHIM_REPORT=PATH  where the report goes at exit ("-" = stderr; unset:
 *       stderr only when objects are left alive).
 * Tests (LD_PRELOADed) reach the same controls through dlsym(RTLD_DEFAULT):
 *   clshim_fail(spec), clshim_live(kind), clshim_created(kind),
 *   clshim_timed_queues() (queues created with profiling on),
 *   clshim_injected(), clshim_calls(), clshim_seen(rule),
 *   clshim_set_max_alloc(bytes), clshim_describe(buf, size).
 *
 * The plugin opens libOpenCL RTLD_GLOBAL (gstclplugin.c) so the symbols
 * here win over the loader's; the real ones are found with RTLD_NEXT.
 * Objects the driver creates for itself never pass through here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* The project builds for 1.2; the shim also covers the 2.0 entry points. */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kinds, in the order clshim_live() takes them. */
enum { K_MEM, K_KERNEL, K_PROGRAM, K_QUEUE, K_CONTEXT, K_EVENT, N_KINDS };
static const char *kind_names[N_KINDS] = {
  "mem", "kernel", "program", "queue", "context", "event",
};
static atomic_long live[N_KINDS];
static atomic_long created[N_KINDS];
static atomic_long timed_queues;   /* created with CL_QUEUE_PROFILING_ENABLE */
static atomic_long injected;
static atomic_long total_calls;
/* CL_DEVICE_MAX_MEM_ALLOC_SIZE reported to the plugin; 0: the driver's. */
static unsigned long long max_alloc;

/* ---- fault rules -------------------------------------------------------- */

#define MAX_RULES 8
typedef struct {
  char name[64];
  int platform, device;         /* the @P.D filter, -1: any device */
  long nth;                     /* 1-based, counted from when it was set */
  int sticky;
  cl_int code;
  atomic_long seen;
} Rule;
static Rule rules[MAX_RULES];
static int n_rules;
static pthread_mutex_t rules_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct { const char *name; cl_int code; } codes[] = {
  {"CL_OUT_OF_RESOURCES", CL_OUT_OF_RESOURCES},
  {"CL_OUT_OF_HOST_MEMORY", CL_OUT_OF_HOST_MEMORY},
  {"CL_MEM_OBJECT_ALLOCATION_FAILURE", CL_MEM_OBJECT_ALLOCATION_FAILURE},
  {"CL_BUILD_PROGRAM_FAILURE", CL_BUILD_PROGRAM_FAILURE},
  {"CL_MAP_FAILURE", CL_MAP_FAILURE},
  {"CL_DEVICE_NOT_AVAILABLE", CL_DEVICE_NOT_AVAILABLE},
  {"CL_INVALID_VALUE", CL_INVALID_VALUE},
  {"CL_INVALID_OPERATION", CL_INVALID_OPERATION},
  {"CL_INVALID_WORK_GROUP_SIZE", CL_INVALID_WORK_GROUP_SIZE},
  {"CL_INVALID_KERNEL_NAME", CL_INVALID_KERNEL_NAME},
  {"CL_INVALID_BINARY", CL_INVALID_BINARY},
  {"CL_INVALID_COMMAND_QUEUE", CL_INVALID_COMMAND_QUEUE},
  {"CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST},
};

static cl_int
default_code (const char *name)
{
  if (!strcmp (name, "clBuildProgram"))
    return CL_BUILD_PROGRAM_FAILURE;
  if (!strcmp (name, "clCreateContext"))
    return CL_DEVICE_NOT_AVAILABLE;
  if (!strcmp (name, "clCreateBuffer") || !strcmp (name, "clCreateSubBuffer"))
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (!strcmp (name, "clEnqueueMapBuffer"))
    return CL_MAP_FAILURE;
  if (!strcmp (name, "clCreateKernel"))
    return CL_INVALID_KERNEL_NAME;
  if (!strcmp (name, "clCreateProgramWithBinary"))
    return CL_INVALID_BINARY;
  return CL_OUT_OF_RESOURCES;
}

static int
parse_code (const char *s, cl_int * code)
{
  char *end;
  long v;
  for (size_t i = 0; i < sizeof (codes) / sizeof (codes[0]); i++)
    if (!strcmp (s, codes[i].name)) {
      *code = codes[i].code;
      return 1;
    }
  v = strtol (s, &end, 10);
  if (*s && !*end && v < 0) {
    *code = (cl_int) v;
    return 1;
  }
  return 0;
}

/* Replaces the rules with @spec; returns 0 and keeps none if it is bad. */
int clshim_fail (const char *spec);
int
clshim_fail (const char *spec)
{
  char *copy = strdup (spec ? spec : ""), *save = NULL, *tok;
  int ok = 1;

  pthread_mutex_lock (&rules_lock);
  n_rules = 0;
  for (tok = strtok_r (copy, ",", &save); tok && ok;
      tok = strtok_r (NULL, ",", &save)) {
    char *colon = strchr (tok, ':'), *end;
    Rule *r;
    if (!colon || n_rules == MAX_RULES || colon - tok >= 64) {
      ok = 0;
      break;
    }
    r = &rules[n_rules];
    memset (r->name, 0, sizeof (r->name));
    memcpy (r->name, tok, colon - tok);
    r->platform = r->device = -1;
    {
      char *at = strchr (r->name, '@');
      if (at) {
        *at = 0;
        if (sscanf (at + 1, "%d.%d", &r->platform, &r->device) != 2 ||
            r->platform < 0 || r->device < 0) {
          ok = 0;
          break;
        }
      }
    }
    r->nth = strtol (colon + 1, &end, 10);
    r->sticky = *end == '+';
    if (r->sticky)
      end++;
    r->code = default_code (r->name);
    if (r->nth < 1 || (*end && (*end != ':' || !parse_code (end + 1,
                    &r->code)))) {
      ok = 0;
      break;
    }
    atomic_store (&r->seen, 0);
    n_rules++;
  }
  if (!ok) {
    fprintf (stderr, "clshim: bad fault spec \"%s\" (want "
        "NAME[@P.D]:N[+][:CODE])\n", spec);
    n_rules = 0;
  }
  pthread_mutex_unlock (&rules_lock);
  free (copy);
  return ok;
}

/* Platform and device index of @dev (as "P.D"), FALSE if not found. */
static int
device_index (cl_device_id dev, int *pi, int *di)
{
  cl_platform_id platforms[16], plat = NULL;
  cl_device_id devices[64];
  cl_uint np = 0, nd = 0;

  if (!dev || clGetDeviceInfo (dev, CL_DEVICE_PLATFORM, sizeof (plat), &plat,
          NULL) != CL_SUCCESS || clGetPlatformIDs (16, platforms,
          &np) != CL_SUCCESS)
    return 0;
  for (cl_uint p = 0; p < np && p < 16; p++) {
    if (platforms[p] != plat)
      continue;
    if (clGetDeviceIDs (plat, CL_DEVICE_TYPE_ALL, 64, devices, &nd) !=
        CL_SUCCESS)
      return 0;
    for (cl_uint d = 0; d < nd && d < 64; d++)
      if (devices[d] == dev) {
        *pi = (int) p;
        *di = (int) d;
        return 1;
      }
  }
  return 0;
}

/* The device a call works on, found only when a rule filters by device
 * (it costs a few queries). The lookups call the real entry points. */
typedef enum { ON_NONE, ON_DEVICE, ON_QUEUE, ON_CONTEXT, ON_PROGRAM,
  ON_KERNEL, ON_EVENT } OnKind;

static cl_device_id
device_of (OnKind kind, const void *obj)
{
  cl_device_id dev = NULL;
  cl_command_queue q = NULL;
  cl_program prog = NULL;

  if (!obj)
    return NULL;
  switch (kind) {
    case ON_DEVICE:
      return (cl_device_id) obj;
    case ON_QUEUE:
      if (clGetCommandQueueInfo ((cl_command_queue) obj, CL_QUEUE_DEVICE,
              sizeof (dev), &dev, NULL) != CL_SUCCESS)
        return NULL;
      return dev;
    case ON_CONTEXT:{
      cl_device_id devs[8];
      size_t size = 0;
      if (clGetContextInfo ((cl_context) obj, CL_CONTEXT_DEVICES,
              sizeof (devs), devs, &size) != CL_SUCCESS || size == 0)
        return NULL;
      return devs[0];
    }
    case ON_PROGRAM:{
      cl_device_id devs[8];
      size_t size = 0;
      if (clGetProgramInfo ((cl_program) obj, CL_PROGRAM_DEVICES,
              sizeof (devs), devs, &size) != CL_SUCCESS || size == 0)
        return NULL;
      return devs[0];
    }
    case ON_KERNEL:
      if (clGetKernelInfo ((cl_kernel) obj, CL_KERNEL_PROGRAM, sizeof (prog),
              &prog, NULL) != CL_SUCCESS)
        return NULL;
      return device_of (ON_PROGRAM, prog);
    case ON_EVENT:{
      static cl_int (*get) (cl_event, cl_event_info, size_t, void *,
          size_t *);
      if (!get)
        get = dlsym (RTLD_NEXT, "clGetEventInfo");
      if (!get || get ((cl_event) obj, CL_EVENT_COMMAND_QUEUE, sizeof (q), &q,
              NULL) != CL_SUCCESS || !q)
        return NULL;
      return device_of (ON_QUEUE, q);
    }
    default:
      return NULL;
  }
}

/* CL_SUCCESS, or the error this call of @name, on the object @obj of
 * @kind, must return. */
static cl_int
should_fail_on (const char *name, OnKind kind, const void *obj)
{
  cl_int code = CL_SUCCESS;
  int have_dev = -1, pi = -1, di = -1;

  atomic_fetch_add (&total_calls, 1);
  pthread_mutex_lock (&rules_lock);
  for (int i = 0; i < n_rules; i++) {
    Rule *r = &rules[i];
    long n;
    if (strcmp (r->name, name))
      continue;
    if (r->device >= 0) {
      if (have_dev < 0)
        have_dev = device_index (device_of (kind, obj), &pi, &di);
      if (!have_dev || pi != r->platform || di != r->device)
        continue;
    }
    n = atomic_fetch_add (&r->seen, 1) + 1;
    if (n == r->nth || (r->sticky && n > r->nth)) {
      code = r->code;
      atomic_fetch_add (&injected, 1);
      if (n < r->nth + 3)
        fprintf (stderr, "clshim: %s call %ld fails with %d\n", name, n,
            code);
    }
  }
  pthread_mutex_unlock (&rules_lock);
  return code;
}

long clshim_live (int kind);
long
clshim_live (int kind)
{
  if (kind < 0)
    {
      long sum = 0;
      for (int k = 0; k < N_KINDS; k++)
        sum += atomic_load (&live[k]);
      return sum;
    }
  return kind < N_KINDS ? atomic_load (&live[kind]) : 0;
}

long clshim_created (int kind);
long
clshim_created (int kind)
{
  return kind >= 0 && kind < N_KINDS ? atomic_load (&created[kind]) : 0;
}

long clshim_timed_queues (void);
long
clshim_timed_queues (void)
{
  return atomic_load (&timed_queues);
}

void clshim_set_max_alloc (unsigned long long size);
void
clshim_set_max_alloc (unsigned long long size)
{
  max_alloc = size;
}

long clshim_injected (void);
long
clshim_injected (void)
{
  return atomic_load (&injected);
}

/* Calls rule @i of the current CLSHIM_FAIL/clshim_fail() spec counted so
 * far (with a device filter: calls on that device), -1 if no such rule. A
 * rule that never fires (a huge N) counts calls. */
long clshim_seen (int i);
long
clshim_seen (int i)
{
  long n = -1;
  pthread_mutex_lock (&rules_lock);
  if (i >= 0 && i < n_rules)
    n = atomic_load (&rules[i].seen);
  pthread_mutex_unlock (&rules_lock);
  return n;
}

long clshim_calls (void);
long
clshim_calls (void)
{
  return atomic_load (&total_calls);
}

/* "mem 0 (created 12), kernel 0 (created 4), ..." */
void clshim_describe (char *out, size_t size);
void
clshim_describe (char *out, size_t size)
{
  size_t n = 0;
  out[0] = 0;
  for (int k = 0; k < N_KINDS && n < size; k++)
    n += snprintf (out + n, size - n, "%s%s %ld (created %ld)", k ? ", " : "",
        kind_names[k], atomic_load (&live[k]), atomic_load (&created[k]));
}

static void
report (void)
{
  const char *path = getenv ("CLSHIM_REPORT");
  char line[512];
  FILE *f;

  if (!path && clshim_live (-1) == 0)
    return;
  f = !path || !strcmp (path, "-") ? stderr : fopen (path, "w");
  if (!f)
    return;
  clshim_describe (line, sizeof (line));
  fprintf (f, "clshim: live at exit: %s; faults injected %ld\n", line,
      clshim_injected ());
  if (f != stderr)
    fclose (f);
}

__attribute__((constructor))
static void
init (void)
{
  const char *spec = getenv ("CLSHIM_FAIL");
  const char *alloc = getenv ("CLSHIM_MAX_ALLOC");
  if (spec && *spec)
    clshim_fail (spec);
  if (alloc && *alloc)
    max_alloc = strtoull (alloc, NULL, 10);
  atexit (report);
}

/* ---- interposed calls --------------------------------------------------- */

static void *
real (const char *name)
{
  void *p = dlsym (RTLD_NEXT, name);
  if (!p) {
    fprintf (stderr, "clshim: no real %s\n", name);
    abort ();
  }
  return p;
}

#define REAL(ret, name, ...) \
  static ret (*r_##name) (__VA_ARGS__); \
  r_##name = r_##name ? r_##name : real (#name)

#define NEW(k, obj) do { if (obj) { atomic_fetch_add (&live[k], 1); \
      atomic_fetch_add (&created[k], 1); } } while (0)
#define EV(e, ev) do { if ((e) == CL_SUCCESS && (ev) && *(ev)) \
      NEW (K_EVENT, *(ev)); } while (0)
/* For calls returning an object: fail with *err set and NULL returned. */
static void
set_err (cl_int * err, cl_int code)
{
  if (err)
    *err = code;
}
#define FAIL_OBJ(name, kind, obj) do { \
      cl_int f_ = should_fail_on (name, kind, obj); if (f_) { \
      set_err (err, f_); return NULL; } } while (0)
#define FAIL_STATUS(name, kind, obj) do { \
      cl_int f_ = should_fail_on (name, kind, obj); \
      if (f_) return f_; } while (0)

#define RETAIN_RELEASE(Type, Name, k) \
  cl_int clRetain##Name (Type o) { \
    REAL (cl_int, clRetain##Name, Type); \
    cl_int e = r_clRetain##Name (o); \
    if (e == CL_SUCCESS) atomic_fetch_add (&live[k], 1); \
    return e; \
  } \
  cl_int clRelease##Name (Type o) { \
    REAL (cl_int, clRelease##Name, Type); \
    cl_int e = r_clRelease##Name (o); \
    if (e == CL_SUCCESS) atomic_fetch_sub (&live[k], 1); \
    return e; \
  }

RETAIN_RELEASE (cl_mem, MemObject, K_MEM)
RETAIN_RELEASE (cl_kernel, Kernel, K_KERNEL)
RETAIN_RELEASE (cl_program, Program, K_PROGRAM)
RETAIN_RELEASE (cl_command_queue, CommandQueue, K_QUEUE)
RETAIN_RELEASE (cl_context, Context, K_CONTEXT)
RETAIN_RELEASE (cl_event, Event, K_EVENT)

cl_context
clCreateContext (const cl_context_properties * p, cl_uint n,
    const cl_device_id * d, void (CL_CALLBACK * cb) (const char *,
        const void *, size_t, void *), void *ud, cl_int * err)
{
  REAL (cl_context, clCreateContext, const cl_context_properties *, cl_uint,
      const cl_device_id *, void (CL_CALLBACK *) (const char *, const void *,
          size_t, void *), void *, cl_int *);
  FAIL_OBJ ("clCreateContext", ON_DEVICE, n ? d[0] : NULL);
  cl_context c = r_clCreateContext (p, n, d, cb, ud, err);
  NEW (K_CONTEXT, c);
  return c;
}

cl_command_queue
clCreateCommandQueue (cl_context c, cl_device_id d,
    cl_command_queue_properties p, cl_int * err)
{
  REAL (cl_command_queue, clCreateCommandQueue, cl_context, cl_device_id,
      cl_command_queue_properties, cl_int *);
  FAIL_OBJ ("clCreateCommandQueue", ON_DEVICE, d);
  cl_command_queue q = r_clCreateCommandQueue (c, d, p, err);
  NEW (K_QUEUE, q);
  if (q && (p & CL_QUEUE_PROFILING_ENABLE))
    atomic_fetch_add (&timed_queues, 1);
  return q;
}

cl_command_queue
clCreateCommandQueueWithProperties (cl_context c, cl_device_id d,
    const cl_queue_properties * p, cl_int * err)
{
  REAL (cl_command_queue, clCreateCommandQueueWithProperties, cl_context,
      cl_device_id, const cl_queue_properties *, cl_int *);
  FAIL_OBJ ("clCreateCommandQueueWithProperties", ON_DEVICE, d);
  cl_command_queue q = r_clCreateCommandQueueWithProperties (c, d, p, err);
  NEW (K_QUEUE, q);
  for (int i = 0; q && p && p[i]; i += 2)
    if (p[i] == CL_QUEUE_PROPERTIES && (p[i + 1] & CL_QUEUE_PROFILING_ENABLE))
      atomic_fetch_add (&timed_queues, 1);
  return q;
}

cl_mem
clCreateBuffer (cl_context c, cl_mem_flags f, size_t size, void *host,
    cl_int * err)
{
  REAL (cl_mem, clCreateBuffer, cl_context, cl_mem_flags, size_t, void *,
      cl_int *);
  FAIL_OBJ ("clCreateBuffer", ON_CONTEXT, c);
  cl_mem m = r_clCreateBuffer (c, f, size, host, err);
  NEW (K_MEM, m);
  return m;
}

cl_mem
clCreateSubBuffer (cl_mem b, cl_mem_flags f, cl_buffer_create_type t,
    const void *info, cl_int * err)
{
  REAL (cl_mem, clCreateSubBuffer, cl_mem, cl_mem_flags,
      cl_buffer_create_type, const void *, cl_int *);
  FAIL_OBJ ("clCreateSubBuffer", ON_NONE, NULL);
  cl_mem m = r_clCreateSubBuffer (b, f, t, info, err);
  NEW (K_MEM, m);
  return m;
}

cl_mem
clCreateImage (cl_context c, cl_mem_flags f, const cl_image_format * fmt,
    const cl_image_desc * desc, void *host, cl_int * err)
{
  REAL (cl_mem, clCreateImage, cl_context, cl_mem_flags,
      const cl_image_format *, const cl_image_desc *, void *, cl_int *);
  FAIL_OBJ ("clCreateImage", ON_CONTEXT, c);
  cl_mem m = r_clCreateImage (c, f, fmt, desc, host, err);
  NEW (K_MEM, m);
  return m;
}

cl_program
clCreateProgramWithSource (cl_context c, cl_uint n, const char **s,
    const size_t * l, cl_int * err)
{
  REAL (cl_program, clCreateProgramWithSource, cl_context, cl_uint,
      const char **, const size_t *, cl_int *);
  FAIL_OBJ ("clCreateProgramWithSource", ON_CONTEXT, c);
  cl_program p = r_clCreateProgramWithSource (c, n, s, l, err);
  NEW (K_PROGRAM, p);
  return p;
}

cl_program
clCreateProgramWithBinary (cl_context c, cl_uint n, const cl_device_id * d,
    const size_t * l, const unsigned char **b, cl_int * bs, cl_int * err)
{
  REAL (cl_program, clCreateProgramWithBinary, cl_context, cl_uint,
      const cl_device_id *, const size_t *, const unsigned char **, cl_int *,
      cl_int *);
  FAIL_OBJ ("clCreateProgramWithBinary", ON_DEVICE, n ? d[0] : NULL);
  cl_program p = r_clCreateProgramWithBinary (c, n, d, l, b, bs, err);
  NEW (K_PROGRAM, p);
  return p;
}

cl_int
clBuildProgram (cl_program p, cl_uint n, const cl_device_id * d,
    const char *opt, void (CL_CALLBACK * cb) (cl_program, void *), void *ud)
{
  REAL (cl_int, clBuildProgram, cl_program, cl_uint, const cl_device_id *,
      const char *, void (CL_CALLBACK *) (cl_program, void *), void *);
  FAIL_STATUS ("clBuildProgram", n ? ON_DEVICE : ON_PROGRAM, n ? (const void *) d[0] : (const void *) p);
  return r_clBuildProgram (p, n, d, opt, cb, ud);
}

cl_kernel
clCreateKernel (cl_program p, const char *name, cl_int * err)
{
  REAL (cl_kernel, clCreateKernel, cl_program, const char *, cl_int *);
  FAIL_OBJ ("clCreateKernel", ON_PROGRAM, p);
  cl_kernel k = r_clCreateKernel (p, name, err);
  NEW (K_KERNEL, k);
  return k;
}

cl_int
clSetKernelArg (cl_kernel k, cl_uint i, size_t size, const void *v)
{
  REAL (cl_int, clSetKernelArg, cl_kernel, cl_uint, size_t, const void *);
  FAIL_STATUS ("clSetKernelArg", ON_KERNEL, k);
  return r_clSetKernelArg (k, i, size, v);
}

cl_int
clEnqueueNDRangeKernel (cl_command_queue q, cl_kernel k, cl_uint dim,
    const size_t * off, const size_t * gws, const size_t * lws, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueNDRangeKernel, cl_command_queue, cl_kernel, cl_uint,
      const size_t *, const size_t *, const size_t *, cl_uint,
      const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueNDRangeKernel", ON_QUEUE, q);
  cl_int e = r_clEnqueueNDRangeKernel (q, k, dim, off, gws, lws, n, w, ev);
  EV (e, ev);
  return e;
}

void *
clEnqueueMapBuffer (cl_command_queue q, cl_mem m, cl_bool blk,
    cl_map_flags fl, size_t off, size_t sz, cl_uint n, const cl_event * w,
    cl_event * ev, cl_int * err)
{
  REAL (void *, clEnqueueMapBuffer, cl_command_queue, cl_mem, cl_bool,
      cl_map_flags, size_t, size_t, cl_uint, const cl_event *, cl_event *,
      cl_int *);
  FAIL_OBJ ("clEnqueueMapBuffer", ON_QUEUE, q);
  cl_int e = CL_SUCCESS;
  void *p = r_clEnqueueMapBuffer (q, m, blk, fl, off, sz, n, w, ev, &e);
  if (err)
    *err = e;
  EV (e, ev);
  return p;
}

cl_int
clEnqueueUnmapMemObject (cl_command_queue q, cl_mem m, void *p, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueUnmapMemObject, cl_command_queue, cl_mem, void *,
      cl_uint, const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueUnmapMemObject", ON_QUEUE, q);
  cl_int e = r_clEnqueueUnmapMemObject (q, m, p, n, w, ev);
  EV (e, ev);
  return e;
}

cl_int
clEnqueueReadBuffer (cl_command_queue q, cl_mem m, cl_bool blk, size_t off,
    size_t sz, void *p, cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueReadBuffer, cl_command_queue, cl_mem, cl_bool,
      size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueReadBuffer", ON_QUEUE, q);
  cl_int e = r_clEnqueueReadBuffer (q, m, blk, off, sz, p, n, w, ev);
  EV (e, ev);
  return e;
}

cl_int
clEnqueueWriteBuffer (cl_command_queue q, cl_mem m, cl_bool blk, size_t off,
    size_t sz, const void *p, cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueWriteBuffer, cl_command_queue, cl_mem, cl_bool,
      size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueWriteBuffer", ON_QUEUE, q);
  cl_int e = r_clEnqueueWriteBuffer (q, m, blk, off, sz, p, n, w, ev);
  EV (e, ev);
  return e;
}

cl_int
clEnqueueCopyBuffer (cl_command_queue q, cl_mem s, cl_mem d, size_t so,
    size_t dof, size_t sz, cl_uint n, const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueCopyBuffer, cl_command_queue, cl_mem, cl_mem,
      size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueCopyBuffer", ON_QUEUE, q);
  cl_int e = r_clEnqueueCopyBuffer (q, s, d, so, dof, sz, n, w, ev);
  EV (e, ev);
  return e;
}

cl_int
clEnqueueFillBuffer (cl_command_queue q, cl_mem m, const void *pat,
    size_t psz, size_t off, size_t sz, cl_uint n, const cl_event * w,
    cl_event * ev)
{
  REAL (cl_int, clEnqueueFillBuffer, cl_command_queue, cl_mem, const void *,
      size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueFillBuffer", ON_QUEUE, q);
  cl_int e = r_clEnqueueFillBuffer (q, m, pat, psz, off, sz, n, w, ev);
  EV (e, ev);
  return e;
}

cl_int
clEnqueueMarkerWithWaitList (cl_command_queue q, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueMarkerWithWaitList, cl_command_queue, cl_uint,
      const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueMarkerWithWaitList", ON_QUEUE, q);
  cl_int e = r_clEnqueueMarkerWithWaitList (q, n, w, ev);
  EV (e, ev);
  return e;
}

cl_int
clEnqueueBarrierWithWaitList (cl_command_queue q, cl_uint n,
    const cl_event * w, cl_event * ev)
{
  REAL (cl_int, clEnqueueBarrierWithWaitList, cl_command_queue, cl_uint,
      const cl_event *, cl_event *);
  FAIL_STATUS ("clEnqueueBarrierWithWaitList", ON_QUEUE, q);
  cl_int e = r_clEnqueueBarrierWithWaitList (q, n, w, ev);
  EV (e, ev);
  return e;
}

cl_event
clCreateUserEvent (cl_context c, cl_int * err)
{
  REAL (cl_event, clCreateUserEvent, cl_context, cl_int *);
  FAIL_OBJ ("clCreateUserEvent", ON_CONTEXT, c);
  cl_event e = r_clCreateUserEvent (c, err);
  NEW (K_EVENT, e);
  return e;
}

cl_int
clFinish (cl_command_queue q)
{
  REAL (cl_int, clFinish, cl_command_queue);
  FAIL_STATUS ("clFinish", ON_QUEUE, q);
  return r_clFinish (q);
}

cl_int
clWaitForEvents (cl_uint n, const cl_event * ev)
{
  REAL (cl_int, clWaitForEvents, cl_uint, const cl_event *);
  FAIL_STATUS ("clWaitForEvents", ON_EVENT, n ? ev[0] : NULL);
  return r_clWaitForEvents (n, ev);
}

cl_int
clSetEventCallback (cl_event ev, cl_int type,
    void (CL_CALLBACK * cb) (cl_event, cl_int, void *), void *ud)
{
  REAL (cl_int, clSetEventCallback, cl_event, cl_int,
      void (CL_CALLBACK *) (cl_event, cl_int, void *), void *);
  FAIL_STATUS ("clSetEventCallback", ON_EVENT, ev);
  return r_clSetEventCallback (ev, type, cb, ud);
}

cl_int
clGetDeviceInfo (cl_device_id d, cl_device_info p, size_t size, void *v,
    size_t * ret)
{
  REAL (cl_int, clGetDeviceInfo, cl_device_id, cl_device_info, size_t,
      void *, size_t *);
  cl_int e = r_clGetDeviceInfo (d, p, size, v, ret);
  if (e == CL_SUCCESS && p == CL_DEVICE_MAX_MEM_ALLOC_SIZE && max_alloc && v
      && size >= sizeof (cl_ulong))
    *(cl_ulong *) v = max_alloc;
  return e;
}

cl_int
clGetEventInfo (cl_event ev, cl_event_info p, size_t size, void *v,
    size_t * ret)
{
  REAL (cl_int, clGetEventInfo, cl_event, cl_event_info, size_t, void *,
      size_t *);
  FAIL_STATUS ("clGetEventInfo", ON_EVENT, ev);
  return r_clGetEventInfo (ev, p, size, v, ret);
}
