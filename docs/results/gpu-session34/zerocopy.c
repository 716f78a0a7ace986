/* Session 34, device run 7 (not part of the build): can a kernel on the
 * GPU read and write the pinned host buffers our discrete-GPU memory keeps
 * mapped (CL_MEM_ALLOC_HOST_PTR), over the bus, so the first and last
 * kernels of a chain could do the upload and the download themselves?
 * Rotating over 256 MiB of pinned buffers (so no cache holds them), per
 * frame size: DMA upload and download from a pinned pointer; a copy kernel
 * reading a pinned buffer (zc_in) and writing one (zc_out); and whether
 * the kernel sees bytes the host wrote through the mapping just before,
 * and the host sees the kernel's, with no map or unmap in between.
 * cc -O2 -o zerocopy zerocopy.c -lOpenCL; ./zerocopy [ITER [any]] (any: CPU
 * devices too) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void copy16 (__global const uchar16 *a, __global uchar16 *b)\n"
    "{ b[get_global_id (0)] = a[get_global_id (0)]; }\n";

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
event_ms (cl_event ev)
{
  cl_ulong t0, t1;
  clWaitForEvents (1, &ev);
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0,
      NULL);
  clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  clReleaseEvent (ev);
  return (t1 - t0) / 1e6;
}

int
main (int argc, char **argv)
{
  const int iters = argc > 1 ? atoi (argv[1]) : 100;
  const size_t sizes[] = { 2073600, 8294400 };
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs (8, plats, &np);
  for (cl_uint p = 0; p < np; p++) {
    cl_device_id dev;
    cl_int st;
    if (clGetDeviceIDs (plats[p], argc > 2 ? CL_DEVICE_TYPE_ALL :
            CL_DEVICE_TYPE_GPU, 1, &dev, NULL))
      continue;
    char name[128];
    clGetDeviceInfo (dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &st);
    cl_command_queue q = clCreateCommandQueue (ctx, dev,
        CL_QUEUE_PROFILING_ENABLE, &st);
    cl_program prog = clCreateProgramWithSource (ctx, 1, &src, NULL, &st);
    clBuildProgram (prog, 1, &dev, "", NULL, NULL);
    cl_kernel k = clCreateKernel (prog, "copy16", &st);
    for (size_t si = 0; si < 2; si++) {
      const size_t bytes = sizes[si], n16 = bytes / 16;
      const int n = (int) (256.0 * 1024 * 1024 / bytes);
      cl_mem *pin = calloc (n, sizeof *pin), *dv = calloc (n, sizeof *dv);
      unsigned char **host = calloc (n, sizeof *host);
      for (int i = 0; i < n; i++) {
        pin[i] = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
            bytes, NULL, &st);
        host[i] = clEnqueueMapBuffer (q, pin[i], CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &st);
        memset (host[i], i, bytes);
        dv[i] = clCreateBuffer (ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
      }
      clFinish (q);
      double *t = calloc (iters, sizeof *t), med[4];
      for (int what = 0; what < 4; what++) {
        for (int it = 0; it < iters; it++) {
          const int i = it % n;
          cl_event ev;
          if (what == 0)
            clEnqueueWriteBuffer (q, dv[i], CL_FALSE, 0, bytes, host[i], 0,
                NULL, &ev);
          else if (what == 1)
            clEnqueueReadBuffer (q, dv[i], CL_FALSE, 0, bytes, host[i], 0,
                NULL, &ev);
          else {
            cl_mem a = what == 2 ? pin[i] : dv[i], b = what == 2 ? dv[i] : pin[i];
            clSetKernelArg (k, 0, sizeof a, &a);
            clSetKernelArg (k, 1, sizeof b, &b);
            clEnqueueNDRangeKernel (q, k, 1, NULL, &n16, NULL, 0, NULL, &ev);
          }
          t[it] = event_ms (ev);
        }
        qsort (t, iters, sizeof *t, cmp_double);
        med[what] = t[iters / 2];
      }
      /* coherence without map/unmap: the host writes, the kernel reads */
      memset (host[0], 0x5a, bytes);
      clSetKernelArg (k, 0, sizeof pin[0], &pin[0]);
      clSetKernelArg (k, 1, sizeof dv[0], &dv[0]);
      clEnqueueNDRangeKernel (q, k, 1, NULL, &n16, NULL, 0, NULL, NULL);
      unsigned char last = 0;
      clEnqueueReadBuffer (q, dv[0], CL_TRUE, bytes - 1, 1, &last, 0, NULL,
          NULL);
      const int kernel_sees_host = last == 0x5a;
      /* the kernel writes, the host reads */
      const unsigned char fill = 0xa5;
      clEnqueueFillBuffer (q, dv[1], &fill, 1, 0, bytes, 0, NULL, NULL);
      clSetKernelArg (k, 0, sizeof dv[1], &dv[1]);
      clSetKernelArg (k, 1, sizeof pin[1], &pin[1]);
      clEnqueueNDRangeKernel (q, k, 1, NULL, &n16, NULL, 0, NULL, NULL);
      clFinish (q);
      const int host_sees_kernel = host[1][bytes - 1] == 0xa5;
      printf ("%s %zu bytes (%d buffers each): upload %.4f download %.4f "
          "zc_in %.4f zc_out %.4f ms; kernel sees host writes: %s; host sees "
          "kernel writes: %s\n", name, bytes, n, med[0], med[1], med[2],
          med[3], kernel_sees_host ? "yes" : "no",
          host_sees_kernel ? "yes" : "no");
      for (int i = 0; i < n; i++) {
        clEnqueueUnmapMemObject (q, pin[i], host[i], 0, NULL, NULL);
        clReleaseMemObject (pin[i]);
        clReleaseMemObject (dv[i]);
      }
      clFinish (q);
      free (pin);
      free (dv);
      free (host);
      free (t);
    }
    clReleaseKernel (k);
    clReleaseProgram (prog);
    clReleaseCommandQueue (q);
    clReleaseContext (ctx);
  }
  return 0;
}
