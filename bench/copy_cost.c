/* copy_cost: what one small state copy costs an in-order queue between
 * kernels, as clhisteq's checkpoint under device=auto queues every frame:
 * a clEnqueueCopyBuffer, a copy kernel, or nothing, after a frame-sized
 * kernel; with TRANSFERS=N a second queue uploads a 1080p frame from
 * pinned memory every N iterations meanwhile (the kernels' queue alone is
 * timed), as a queued pipeline's uploads do. Each line also says whether
 * the state reached the copy (it must for the two copies, not alone). A
 * report, never a test.
 *   copy_cost [PLATFORM [DEVICE [ITERATIONS [STATE_BYTES [TRANSFERS]]]]] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "__kernel void work (__global uint4 *a) {\n"
    "  size_t i = get_global_id (0); a[i] = a[i] * 3u + 1u; }\n"
    "__kernel void copy (__global const float *s, __global float *d,"
    " uint n) {\n"
    "  for (uint i = get_global_id (0); i < n; i += get_global_size (0))\n"
    "    d[i] = s[i]; }\n";

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
      fprintf (stderr, "%s: %d\n", #x, e_); return 1; } } while (0)

int
main (int argc, char **argv)
{
  cl_uint pi = argc > 1 ? atoi (argv[1]) : 0, di = argc > 2 ? atoi (argv[2]) : 0;
  int iterations = argc > 3 ? atoi (argv[3]) : 20000;
  cl_uint state_bytes = argc > 4 ? atoi (argv[4]) : 4096;
  int transfers = argc > 5 ? atoi (argv[5]) : 0;
  size_t frame = 1920 * 1080, work_items = frame / 16;
  cl_platform_id platforms[8];
  cl_device_id devices[8];
  cl_uint np = 0, nd = 0, n_floats = state_bytes / 4;
  cl_int err;
  char name[256];

  CHECK (clGetPlatformIDs (8, platforms, &np));
  if (pi >= np)
    return 1;
  CHECK (clGetDeviceIDs (platforms[pi], CL_DEVICE_TYPE_ALL, 8, devices, &nd));
  if (di >= nd)
    return 1;
  clGetDeviceInfo (devices[di], CL_DEVICE_NAME, sizeof (name), name, NULL);
  cl_context ctx = clCreateContext (NULL, 1, &devices[di], NULL, NULL, &err);
  CHECK (err);
  cl_command_queue q = clCreateCommandQueue (ctx, devices[di], 0, &err);
  CHECK (err);
  cl_program prog = clCreateProgramWithSource (ctx, 1, &source, NULL, &err);
  CHECK (err);
  CHECK (clBuildProgram (prog, 1, &devices[di], "", NULL, NULL));
  cl_kernel work = clCreateKernel (prog, "work", &err);
  CHECK (err);
  cl_kernel copy = clCreateKernel (prog, "copy", &err);
  CHECK (err);
  cl_mem a = clCreateBuffer (ctx, CL_MEM_READ_WRITE, frame, NULL, &err);
  CHECK (err);
  cl_mem s = clCreateBuffer (ctx, CL_MEM_READ_WRITE, state_bytes, NULL, &err);
  CHECK (err);
  cl_mem d = clCreateBuffer (ctx, CL_MEM_READ_WRITE, state_bytes, NULL, &err);
  CHECK (err);
  cl_command_queue tq = clCreateCommandQueue (ctx, devices[di], 0, &err);
  CHECK (err);
  cl_mem pinned = clCreateBuffer (ctx, CL_MEM_ALLOC_HOST_PTR, frame, NULL,
      &err);
  CHECK (err);
  void *host = clEnqueueMapBuffer (tq, pinned, CL_TRUE, CL_MAP_READ |
      CL_MAP_WRITE, 0, frame, 0, NULL, NULL, &err);
  CHECK (err);
  cl_mem up = clCreateBuffer (ctx, CL_MEM_READ_WRITE, frame, NULL, &err);
  CHECK (err);
  gfloat *pattern = g_new (gfloat, n_floats), *back = g_new (gfloat, n_floats);
  const cl_uint zero = 0;
  for (cl_uint i = 0; i < n_floats; i++)
    pattern[i] = i + 0.5f;
  CHECK (clEnqueueWriteBuffer (q, s, CL_TRUE, 0, state_bytes, pattern, 0,
          NULL, NULL));
  CHECK (clSetKernelArg (work, 0, sizeof (a), &a));
  CHECK (clSetKernelArg (copy, 0, sizeof (s), &s));
  CHECK (clSetKernelArg (copy, 1, sizeof (d), &d));
  CHECK (clSetKernelArg (copy, 2, sizeof (n_floats), &n_floats));
  const char *modes[] = { "kernel alone", "+ clEnqueueCopyBuffer",
    "+ copy kernel (1 group)"
  };
  printf ("%s: %d iterations of a 1080p-sized kernel, state %u bytes%s\n",
      name, iterations, state_bytes, transfers ? ", uploads meanwhile" : "");
  for (int round = 0; round < 3; round++) {
    for (int m = 0; m < 3; m++) {
      size_t copy_items = 256;
      gint64 t0;
      CHECK (clEnqueueFillBuffer (q, d, &zero, sizeof (zero), 0, state_bytes,
              0, NULL, NULL));
      CHECK (clFinish (q));
      CHECK (clFinish (tq));
      t0 = g_get_monotonic_time ();
      for (int i = 0; i < iterations; i++) {
        if (m == 1)
          CHECK (clEnqueueCopyBuffer (q, s, d, 0, 0, state_bytes, 0, NULL,
                  NULL));
        else if (m == 2)
          CHECK (clEnqueueNDRangeKernel (q, copy, 1, NULL, &copy_items,
                  &copy_items, 0, NULL, NULL));
        CHECK (clEnqueueNDRangeKernel (q, work, 1, NULL, &work_items, NULL,
                0, NULL, NULL));
        if (transfers && i % transfers == 0)
          CHECK (clEnqueueWriteBuffer (tq, up, CL_FALSE, 0, frame, host, 0,
                  NULL, NULL));
        if (i % 64 == 63) {
          clFlush (q);
          clFlush (tq);
        }
      }
      CHECK (clFinish (q));
      const gint64 t1 = g_get_monotonic_time ();
      CHECK (clFinish (tq));
      CHECK (clEnqueueReadBuffer (q, d, CL_TRUE, 0, state_bytes, back, 0,
              NULL, NULL));
      printf ("round %d  %-26s %.2f us an iteration, state copied: %s\n",
          round + 1, modes[m], (t1 - t0) / (double) iterations,
          memcmp (back, pattern, state_bytes) ? "no" : "yes");
    }
  }
  g_free (pattern);
  g_free (back);
  return 0;
}
