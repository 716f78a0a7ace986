/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a device's compiler spends on one of the plugin's programs: the
 * whole program, each kernel alone (-DKERNEL_SUBSET=1 -DWANT_<kernel>=1,
 * kernels/common.cl), the kernels named on the command line together, and
 * those (or every kernel) each alone but all at once, a thread each.
 * The drivers' own caches are off (CUDA_CACHE_DISABLE=1, POCL_KERNEL_CACHE=0)
 * so that every build compiles. PoCL compiles a kernel's machine code at its
 * first launch, so there a build is the front end only.
 *   build_time PROGRAM "OPTIONS" [gpu|cpu|all] [KERNEL...]
 * OPTIONS as the plugin logs them (GST_DEBUG=cl:4, "building ..."); a
 * subset they name is dropped, so "whole" is every kernel of the source.
 * docs/PERFORMANCE.md, "Session 41". */
#include "cl/gstclcontext.h"
#include "gstclkernels.h"

#include <string.h>

#include "benchutil.h"

static const gchar *
source_named (const gchar * name)
{
  for (const GstCLKernelSource * k = gst_cl_kernel_sources; k->name; k++)
    if (!strcmp (k->name, name))
      return k->source;
  return NULL;
}

/* Seconds to build @text with @options; the program's kernel names to
 * @names (may be NULL); -1 if it does not build. */
static gdouble
build (GstCLContext * ctx, const gchar * text, const gchar * options,
    gchar ** names)
{
  cl_int status;
  const gint64 start = g_get_monotonic_time ();
  cl_program program = clCreateProgramWithSource (ctx->context, 1, &text,
      NULL, &status);
  gdouble seconds = -1;

  if (status != CL_SUCCESS)
    return -1;
  status = clBuildProgram (program, 1, &ctx->device->device, options, NULL,
      NULL);
  if (status == CL_SUCCESS) {
    seconds = (g_get_monotonic_time () - start) / 1e6;
    if (names) {
      size_t size = 0;
      clGetProgramInfo (program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size);
      *names = g_malloc0 (size + 1);
      clGetProgramInfo (program, CL_PROGRAM_KERNEL_NAMES, size, *names, NULL);
    }
  } else {
    gchar log[2048] = "";
    clGetProgramBuildInfo (program, ctx->device->device,
        CL_PROGRAM_BUILD_LOG, sizeof (log) - 1, log, NULL);
    g_printerr ("build failed [%s]:\n%s\n", options, log);
  }
  clReleaseProgram (program);
  return seconds;
}

typedef struct
{
  GstCLContext *ctx;
  const gchar *text;
  gchar *options;
  gdouble seconds;
} Build;

static gpointer
build_thread (gpointer data)
{
  Build *b = data;
  b->seconds = build (b->ctx, b->text, b->options, NULL);
  return NULL;
}

/* Each of @kernels alone, all at once, one thread each: whether the
 * device's compiler runs builds side by side. */
static void
build_side_by_side (GstCLContext * ctx, const gchar * text,
    const gchar * options, gchar ** kernels)
{
  const guint n = g_strv_length (kernels);
  Build *builds = g_new0 (Build, n);
  GThread **threads = g_new0 (GThread *, n);
  const gint64 start = g_get_monotonic_time ();
  gdouble longest = 0;

  for (guint i = 0; i < n; i++) {
    builds[i] = (Build) {
    ctx, text, g_strdup_printf ("%s -DKERNEL_SUBSET=1 -DWANT_%s=1", options,
          kernels[i]), 0};
    threads[i] = g_thread_new ("build", build_thread, &builds[i]);
  }
  for (guint i = 0; i < n; i++) {
    g_thread_join (threads[i]);
    longest = MAX (longest, builds[i].seconds);
    g_free (builds[i].options);
  }
  g_print ("  the same %u at once, a thread each: %.3f s (the longest build "
      "%.3f s)\n", n, (g_get_monotonic_time () - start) / 1e6, longest);
  g_free (threads);
  g_free (builds);
}

int
main (int argc, char **argv)
{
  const gchar *which;
  const GPtrArray *devices;
  gchar *text;
  GError *err = NULL;

  /* before the drivers load */
  g_setenv ("CUDA_CACHE_DISABLE", "1", TRUE);
  g_setenv ("POCL_KERNEL_CACHE", "0", TRUE);
  devices = bench_devices (&argc, &argv);
  if (argc < 3 || !source_named (argv[1])) {
    g_printerr ("usage: %s PROGRAM \"OPTIONS\" [gpu|cpu|all] [KERNEL...]\n",
        argv[0]);
    return 2;
  }
  which = argc > 3 ? argv[3] : "all";
  /* the options of a program an element built with its own subset: every
   * kernel here */
  gchar **tokens = g_strsplit (argv[2], " ", -1);
  GString *whole_opts = g_string_new (NULL);
  for (gchar ** t = tokens; *t; t++)
    if (**t && !g_str_has_prefix (*t, "-DKERNEL_SUBSET=") &&
        !g_str_has_prefix (*t, "-DWANT_"))
      g_string_append_printf (whole_opts, "%s%s", whole_opts->len ? " " : "",
          *t);
  g_strfreev (tokens);
  argv[2] = whole_opts->str;
  text = g_strconcat (source_named ("common"), "\n#line 1\n",
      source_named (argv[1]), NULL);
  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    gchar *names = NULL, **kernels;
    gdouble whole, sum = 0;

    if (!bench_device_wanted (dev, which))
      continue;
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    g_assert_no_error (err);
    whole = build (ctx, text, argv[2], &names);
    if (whole < 0)
      return 1;
    kernels = g_strsplit (names, ";", -1);
    g_print ("%s: %s, %u kernels: %.3f s\n", dev->name, argv[1],
        g_strv_length (kernels), whole);
    for (gchar ** k = kernels; *k; k++) {
      gchar *opts = g_strdup_printf ("%s -DKERNEL_SUBSET=1 -DWANT_%s=1",
          argv[2], *k);
      gchar *got = NULL;
      gdouble s = build (ctx, text, opts, &got);
      /* the subset must hold that kernel and no other */
      g_print ("  %-32s %.3f s%s\n", *k, s,
          got && !strcmp (got, *k) ? "" : " (WRONG SUBSET)");
      sum += s;
      g_free (got);
      g_free (opts);
    }
    g_print ("  each alone, summed: %.3f s\n", sum);
    if (argc > 4) {
      GString *opts = g_string_new (argv[2]);
      gchar *got = NULL;
      g_string_append (opts, " -DKERNEL_SUBSET=1");
      for (gint i = 4; i < argc; i++)
        g_string_append_printf (opts, " -DWANT_%s=1", argv[i]);
      const gdouble named = build (ctx, text, opts->str, &got);
      g_print ("  the %d named: %.3f s (%s)\n", argc - 4, named, got);
      g_free (got);
      g_string_free (opts, TRUE);
      build_side_by_side (ctx, text, argv[2], argv + 4);
    } else {
      build_side_by_side (ctx, text, argv[2], kernels);
    }
    g_print ("  the whole program again: %.3f s\n",
        build (ctx, text, argv[2], NULL));
    g_strfreev (kernels);
    g_free (names);
    gst_object_unref (ctx);
  }
  g_free (text);
  g_string_free (whole_opts, TRUE);
  return 0;
}
