/* Session 27 experiment: times histlayouts.cl's layouts on the first GPU
 * (profiling events, median of REPS launches), 2 groups a compute unit,
 * on bench_pipeline's luma pattern (gradient, blocks, ripple, noise),
 * uniform noise and a flat frame, and checks every histogram against the
 * CPU's. Usage: histlayouts KERNEL.cl
 * Build: gcc -O2 -std=c11 -o histlayouts histlayouts.c -lOpenCL -lm */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef REPS
#define REPS 200
#endif
#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
    fprintf (stderr, "%s: %d (line %d)\n", #x, e_, __LINE__); exit (1); } } while (0)

static unsigned rng = 1234;
static int
rnd (int lo, int hi)
{
  rng = rng * 1103515245u + 12345u;
  return lo + (int) ((rng >> 8) % (unsigned) (hi - lo));
}

static void
fill (unsigned char *d, int w, int h, int kind)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int v;
      if (kind == 0) {
        v = x * 150 / w + y * 60 / h;
        v += (((x / 64) + (y / 48)) & 1) ? 40 : 0;
        v += (int) (25 * ((x * 7 + y * 3) % 97) / 97.0);
        v += rnd (-12, 13);
      } else if (kind == 1) {
        v = rnd (0, 256);
      } else {
        v = 77;
      }
      d[(size_t) y * w + x] = (unsigned char) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  cl_platform_id plats[8];
  cl_uint np = 0;
  cl_device_id dev = NULL;
  CHECK (clGetPlatformIDs (8, plats, &np));
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs (plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  /* no GPU (the development machine): any device, for the checks */
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs (plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  if (!dev || argc < 2) { fprintf (stderr, "usage: histlayouts KERNEL.cl (an OpenCL device)\n"); return 1; }
  char name[256];
  cl_uint cus;
  clGetDeviceInfo (dev, CL_DEVICE_NAME, sizeof (name), name, NULL);
  clGetDeviceInfo (dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (cus), &cus, NULL);
  printf ("device %s, %u CUs\n", name, cus);
  cl_int err;
  cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &err);
  CHECK (err);
  cl_command_queue q = clCreateCommandQueue (ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK (err);
  FILE *f = fopen (argv[1], "rb");
  if (!f) { perror (argv[1]); return 1; }
  static char src[1 << 16];
  size_t n = fread (src, 1, sizeof (src) - 1, f);
  src[n] = 0;
  fclose (f);
  const char *srcp = src;

  struct { const char *name, *opts; } layouts[] = {
    {"read only", "-DLAYOUT=0"},
    {"4 copies (committed)", "-DLAYOUT=1 -DNC=4"},
    {"8 copies", "-DLAYOUT=1 -DNC=8"},
    {"32 lane copies", "-DLAYOUT=3"},
    {"32 lane copies 16-bit", "-DLAYOUT=4"},
    {"16 copies 16-bit", "-DLAYOUT=5"},
  };
  const int nl = sizeof (layouts) / sizeof (layouts[0]);
  cl_kernel k[8];
  for (int l = 0; l < nl; l++) {
    cl_program p = clCreateProgramWithSource (ctx, 1, &srcp, NULL, &err);
    CHECK (err);
    if (clBuildProgram (p, 1, &dev, layouts[l].opts, NULL, NULL) != CL_SUCCESS) {
      static char log[1 << 16];
      clGetProgramBuildInfo (p, dev, CL_PROGRAM_BUILD_LOG, sizeof (log), log, NULL);
      fprintf (stderr, "build %s: %s\n", layouts[l].opts, log);
      return 1;
    }
    k[l] = clCreateKernel (p, "hist", &err);
    CHECK (err);
  }
  const int sizes[][2] = { {1920, 1080}, {3840, 2160} };
  const char *kinds[] = { "pattern", "noise", "flat" };
  for (int s = 0; s < 2; s++) {
    const int w = sizes[s][0], h = sizes[s][1], slices = 2 * (int) cus;
    unsigned char *img = malloc ((size_t) w * h);
    unsigned *out = malloc ((size_t) slices * 256 * 4);
    cl_mem dsrc = clCreateBuffer (ctx, CL_MEM_READ_ONLY, (size_t) w * h, NULL, &err);
    CHECK (err);
    cl_mem dout = clCreateBuffer (ctx, CL_MEM_READ_WRITE, (size_t) slices * 256 * 4, NULL, &err);
    CHECK (err);
    for (int kind = 0; kind < 3; kind++) {
      fill (img, w, h, kind);
      unsigned ref[256] = { 0 };
      for (size_t i = 0; i < (size_t) w * h; i++)
        ref[img[i]]++;
      CHECK (clEnqueueWriteBuffer (q, dsrc, CL_TRUE, 0, (size_t) w * h, img, 0, NULL, NULL));
      for (int l = 0; l < nl; l++) {
        CHECK (clSetKernelArg (k[l], 0, sizeof (cl_mem), &dsrc));
        CHECK (clSetKernelArg (k[l], 1, sizeof (int), &w));
        CHECK (clSetKernelArg (k[l], 2, sizeof (int), &w));
        CHECK (clSetKernelArg (k[l], 3, sizeof (int), &h));
        CHECK (clSetKernelArg (k[l], 4, sizeof (int), &slices));
        CHECK (clSetKernelArg (k[l], 5, sizeof (cl_mem), &dout));
        size_t gs = (size_t) slices * 256, ls = 256;
        double t[REPS];
        for (int r = 0; r < REPS + 10; r++) {
          cl_event ev;
          CHECK (clEnqueueNDRangeKernel (q, k[l], 1, NULL, &gs, &ls, 0, NULL, &ev));
          CHECK (clWaitForEvents (1, &ev));
          cl_ulong a, b;
          clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof (a), &a, NULL);
          clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof (b), &b, NULL);
          clReleaseEvent (ev);
          if (r >= 10)
            t[r - 10] = (double) (b - a) * 1e-6;
        }
        qsort (t, REPS, sizeof (double), cmp);
        const char *ok = "-";
        if (l > 0) {
          CHECK (clEnqueueReadBuffer (q, dout, CL_TRUE, 0, (size_t) slices * 256 * 4, out, 0, NULL, NULL));
          unsigned sum[256] = { 0 };
          for (int g = 0; g < slices; g++)
            for (int b = 0; b < 256; b++)
              sum[b] += out[g * 256 + b];
          ok = memcmp (sum, ref, sizeof (ref)) ? "WRONG" : "exact";
        }
        printf ("%dx%d %-8s %-24s median %.4f ms  p10 %.4f  p90 %.4f  %s\n", w, h,
            kinds[kind], layouts[l].name, t[REPS / 2], t[REPS / 10], t[REPS * 9 / 10], ok);
        fflush (stdout);
      }
    }
    clReleaseMemObject (dsrc);
    clReleaseMemObject (dout);
    free (img);
    free (out);
  }
  return 0;
}
