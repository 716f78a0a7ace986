/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Saturates an OpenCL device from a separate process, for the device=auto
 * timeline (bench/auto-timeline.sh): launches of a busy-loop kernel
 * (tools/gpu-load.cl) of about --launch-ms each, two in flight, for
 * --seconds, optionally as a square wave (--period-ms, on for half of it).
 * Prints "load-on T" / "load-off T" lines with CLOCK_MONOTONIC seconds, the
 * clock Python's time.monotonic() reads, so the timeline can mark them.
 *
 *   gpu-load [--device gpu|cpu|P.D] [--delay S] [--seconds S]
 *            [--period-ms MS] [--launch-ms MS]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef GPU_LOAD_KERNEL
#define GPU_LOAD_KERNEL "tools/gpu-load.cl"
#endif

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
check (cl_int status, const char *what)
{
  if (status != CL_SUCCESS) {
    fprintf (stderr, "gpu-load: %s failed (%d)\n", what, status);
    exit (1);
  }
}

static cl_device_id
pick_device (const char *want)
{
  cl_platform_id platforms[16];
  cl_uint np = 0;
  unsigned p_want = 0, d_want = 0;
  int by_index = sscanf (want, "%u.%u", &p_want, &d_want) == 2;
  cl_device_type type = !strcmp (want, "cpu") ? CL_DEVICE_TYPE_CPU :
      CL_DEVICE_TYPE_GPU;

  check (clGetPlatformIDs (16, platforms, &np), "clGetPlatformIDs");
  for (cl_uint p = 0; p < np && p < 16; p++) {
    cl_device_id devices[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 16, devices,
            &nd) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < nd && d < 16; d++) {
      cl_device_type t = 0;
      clGetDeviceInfo (devices[d], CL_DEVICE_TYPE, sizeof (t), &t, NULL);
      if (by_index ? (p == p_want && d == d_want) : (t & type) != 0)
        return devices[d];
    }
  }
  fprintf (stderr, "gpu-load: no device \"%s\"\n", want);
  exit (1);
}

static char *
read_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  long n;
  char *s;
  if (!f) {
    fprintf (stderr, "gpu-load: cannot read %s\n", path);
    exit (1);
  }
  fseek (f, 0, SEEK_END);
  n = ftell (f);
  fseek (f, 0, SEEK_SET);
  s = calloc (1, n + 1);
  if (fread (s, 1, n, f) != (size_t) n)
    exit (1);
  fclose (f);
  return s;
}

int
main (int argc, char **argv)
{
  const char *want = "gpu", *kernel_path = GPU_LOAD_KERNEL;
  double delay = 0, seconds = 10, period_ms = 0, launch_ms = 20;
  cl_int status;

  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--device"))
      want = argv[i + 1];
    else if (!strcmp (argv[i], "--delay"))
      delay = atof (argv[i + 1]);
    else if (!strcmp (argv[i], "--seconds"))
      seconds = atof (argv[i + 1]);
    else if (!strcmp (argv[i], "--period-ms"))
      period_ms = atof (argv[i + 1]);
    else if (!strcmp (argv[i], "--launch-ms"))
      launch_ms = atof (argv[i + 1]);
    else if (!strcmp (argv[i], "--kernel"))
      kernel_path = argv[i + 1];
    else {
      fprintf (stderr, "gpu-load: unknown option %s\n", argv[i]);
      return 2;
    }
  }

  cl_device_id dev = pick_device (want);
  cl_uint cus = 1;
  char name[256] = "";
  clGetDeviceInfo (dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (cus), &cus, NULL);
  clGetDeviceInfo (dev, CL_DEVICE_NAME, sizeof (name), name, NULL);
  cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &status);
  check (status, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue (ctx, dev, 0, &status);
  check (status, "clCreateCommandQueue");
  const char *src = read_file (kernel_path);
  cl_program prog = clCreateProgramWithSource (ctx, 1, &src, NULL, &status);
  check (status, "clCreateProgramWithSource");
  check (clBuildProgram (prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
  cl_kernel k = clCreateKernel (prog, "spin", &status);
  check (status, "clCreateKernel");
  /* Enough work-items to fill every compute unit several times over. */
  size_t global = (size_t) cus * 2048;
  cl_mem out = clCreateBuffer (ctx, CL_MEM_WRITE_ONLY, global * sizeof (float),
      NULL, &status);
  check (status, "clCreateBuffer");
  clSetKernelArg (k, 0, sizeof (cl_mem), &out);

  /* Calibrate: iterations for about launch_ms per launch. */
  int iters = 1000;
  for (int round = 0; round < 8; round++) {
    double t0 = now (), dt;
    clSetKernelArg (k, 1, sizeof (int), &iters);
    check (clEnqueueNDRangeKernel (q, k, 1, NULL, &global, NULL, 0, NULL,
            NULL), "clEnqueueNDRangeKernel");
    clFinish (q);
    dt = (now () - t0) * 1000;
    if (dt > launch_ms * 0.8 && dt < launch_ms * 1.25)
      break;
    iters = (int) (iters * launch_ms / (dt > 0.01 ? dt : 0.01));
    if (iters < 1)
      iters = 1;
  }
  clSetKernelArg (k, 1, sizeof (int), &iters);
  fprintf (stderr, "gpu-load: %s, %u compute units, %zu items x %d "
      "iterations per launch\n", name, cus, global, iters);

  if (delay > 0)
    usleep ((useconds_t) (delay * 1e6));
  double start = now (), end = start + seconds;
  int on = 0;
  cl_event inflight[2] = { NULL, NULL };
  int slot = 0;
  while (now () < end) {
    double t = now () - start;
    int want_on = period_ms <= 0 ||
        ((long) (t * 1000 / (period_ms / 2)) % 2) == 0;
    if (want_on != on) {
      if (!want_on)
        clFinish (q);
      on = want_on;
      printf ("%s %.6f\n", on ? "load-on" : "load-off", now ());
      fflush (stdout);
    }
    if (!on) {
      usleep (1000);
      continue;
    }
    /* Two launches in flight: the device never idles between them. */
    if (inflight[slot]) {
      clWaitForEvents (1, &inflight[slot]);
      clReleaseEvent (inflight[slot]);
    }
    check (clEnqueueNDRangeKernel (q, k, 1, NULL, &global, NULL, 0, NULL,
            &inflight[slot]), "clEnqueueNDRangeKernel");
    clFlush (q);
    slot ^= 1;
  }
  clFinish (q);
  if (on)
    printf ("load-off %.6f\n", now ());
  for (int i = 0; i < 2; i++)
    if (inflight[i])
      clReleaseEvent (inflight[i]);
  clReleaseMemObject (out);
  clReleaseKernel (k);
  clReleaseProgram (prog);
  clReleaseCommandQueue (q);
  clReleaseContext (ctx);
  return 0;
}
