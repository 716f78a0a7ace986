/* Session 27 experiment: runs divlat.cl's kinds on the first GPU, prints
 * cycles per step (and the clock rate the device reports).
 * gcc -O2 -std=c11 -o divlat divlat.c -lOpenCL */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  cl_platform_id p[8];
  cl_uint np = 0;
  cl_device_id dev = NULL;
  cl_int err;
  clGetPlatformIDs (8, p, &np);
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs (p[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  if (!dev || argc < 2) { fprintf (stderr, "usage: divlat divlat.cl (a GPU)\n"); return 1; }
  cl_uint mhz;
  clGetDeviceInfo (dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof (mhz), &mhz, NULL);
  printf ("max clock %u MHz\n", mhz);
  cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue (ctx, dev, 0, &err);
  static char src[8192];
  FILE *f = fopen (argv[1], "rb");
  size_t n = fread (src, 1, sizeof (src) - 1, f);
  src[n] = 0;
  fclose (f);
  const char *sp = src;
  const char *names[] = { "a / b (div.rn)", "native_divide", "a * b", "rcp + FMA (fast path)",
    "256 FMA straight-line", "256 FMA, 8 x 32 loop", "8 div straight-line" };
  /* steps a launch of each kind's timed code, to divide its cycles by */
  const int per[] = { 0, 0, 0, 0, 256, 256, 8 };
  cl_mem out = clCreateBuffer (ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  cl_mem cyc = clCreateBuffer (ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  for (int k = 0; k < 7; k++) {
    char opts[128];
    snprintf (opts, sizeof (opts), "-cl-fp32-correctly-rounded-divide-sqrt -DKIND=%d", k);
    cl_program pr = clCreateProgramWithSource (ctx, 1, &sp, NULL, &err);
    if (clBuildProgram (pr, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
      static char log[65536];
      clGetProgramBuildInfo (pr, dev, CL_PROGRAM_BUILD_LOG, sizeof (log), log, NULL);
      fprintf (stderr, "%s\n", log);
      return 1;
    }
    cl_kernel kk = clCreateKernel (pr, "divlat", &err);
    float a0 = 1.5f, b = 1.0001f;
    for (int steps = 64; steps <= 1024; steps *= 16) {
      const int nsteps = k == 5 ? 8 : steps;
      clSetKernelArg (kk, 0, sizeof (cl_mem), &out);
      clSetKernelArg (kk, 1, sizeof (cl_mem), &cyc);
      clSetKernelArg (kk, 2, sizeof (float), &a0);
      clSetKernelArg (kk, 3, sizeof (float), &b);
      clSetKernelArg (kk, 4, sizeof (int), &nsteps);
      size_t g = 1;
      long c = 0, best = -1, first = 0;
      for (int r = 0; r < 5; r++) {
        clEnqueueNDRangeKernel (q, kk, 1, NULL, &g, &g, 0, NULL, NULL);
        clEnqueueReadBuffer (q, cyc, CL_TRUE, 0, sizeof (c), &c, 0, NULL, NULL);
        if (r == 0)
          first = c;
        if (best < 0 || c < best)
          best = c;
      }
      float res;
      clEnqueueReadBuffer (q, out, CL_TRUE, 0, sizeof (res), &res, 0, NULL, NULL);
      const int div = per[k] ? per[k] : steps;
      printf ("%-24s %5d steps: %6.1f cycles a step, %ld first launch (result %.9g)\n", names[k], div,
          (double) best / div, first, res);
    }
  }
  return 0;
}
