/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a device's compiler spends on one of the plugin's programs: the
 * whole program, each kernel alone (-DKERNEL_SUBSET=1 -DWANT_<kernel>=1,
 * kernels/common.cl), the kernels named on the command line together, and
 * those (or every kernel) each alone but all at once, a thread each.
 * The drivers' own caches are off (CUDA_CACHE_DISABLE=1, POCL_KERNEL_CACHE=0)
 * so that every build compiles. PoCL compiles a kernel's machine code at its
 * first launch, so there a build is the front end only.
 *   build_time PROGRAM "OPTIONS" [gpu|cpu|all] [KERNEL...]
 * BUILD_TIME_SOURCE=FILE builds FILE's text instead of PROGRAM's (kernels/
 * common.cl is not prepended: a variant under trial, whole);
 * BUILD_TIME_BINARIES=DIR writes each kernel's program built alone to
 * DIR/KERNEL.bin (on NVIDIA its PTX, whose size its build time follows).
 * OPTIONS as the plugin logs them (GST_DEBUG=cl:4, "building ..."); a
 * subset they name is dropped, so "whole" is every kernel of the source.
 * docs/PERFORMANCE.md, "Session 41" and "Session 42". */
#include "cl/gstclcontext.h"

#include <string.h>

#include "benchutil.h"

/* @options, keeping only @kernels (NULL-terminated) */
static gchar *
subset_options (const gchar * options, const gchar * const *kernels)
{
  GString *s = g_string_new (options);
  gst_cl_program_options_want (s, kernels);
  return g_string_free (s, FALSE);
}

/* @options, keeping only @kernel */
static gchar *
one_kernel_options (const gchar * options, const gchar * kernel)
{
  const gchar *const kernels[] = { kernel, NULL };
  return subset_options (options, kernels);
}

/* @program's binary (built for one device) to @path */
static void
save_binary (cl_program program, const gchar * path)
{
  GBytes *bytes = gst_cl_program_binary (program);
  GError *err = NULL;
  gsize size;
  const gchar *data = bytes ? g_bytes_get_data (bytes, &size) : NULL;

  if (!data)
    g_printerr ("no binary for %s\n", path);
  else if (!g_file_set_contents (path, data, size, &err)) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
  }
  if (bytes)
    g_bytes_unref (bytes);
}

/* Seconds to build @text with @options; the program's kernel names to
 * @names (may be NULL), its binary to @binary_path (may be NULL); -1 if it
 * does not build. */
static gdouble
build (GstCLContext * ctx, const gchar * text, const gchar * options,
    gchar ** names, const gchar * binary_path)
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
    if (binary_path)
      save_binary (program, binary_path);
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
  b->seconds = build (b->ctx, b->text, b->options, NULL, NULL);
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
    ctx, text, one_kernel_options (options, kernels[i]), 0};
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
  const gchar *source_file = g_getenv ("BUILD_TIME_SOURCE");
  const gchar *binaries = g_getenv ("BUILD_TIME_BINARIES");
  text = NULL;
  if (argc >= 3 && source_file && *source_file) {
    if (!g_file_get_contents (source_file, &text, NULL, &err)) {
      g_printerr ("%s\n", err->message);
      return 2;
    }
  } else if (argc >= 3) {
    text = gst_cl_program_source (argv[1]);
  }
  if (!text) {
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
  for (guint di = 0; di < devices->len; di++) {
    const GstCLDeviceInfo *dev = g_ptr_array_index (devices, di);
    gchar *names = NULL, **kernels;
    gdouble whole, sum = 0;

    if (!bench_device_wanted (dev, which))
      continue;
    GstCLContext *ctx = gst_cl_context_new (dev, &err);
    g_assert_no_error (err);
    whole = build (ctx, text, argv[2], &names, NULL);
    if (whole < 0)
      return 1;
    kernels = g_strsplit (names, ";", -1);
    g_print ("%s: %s, %u kernels: %.3f s\n", dev->name, argv[1],
        g_strv_length (kernels), whole);
    for (gchar ** k = kernels; *k; k++) {
      gchar *opts = one_kernel_options (argv[2], *k);
      gchar *got = NULL;
      gchar *bin = binaries && *binaries ?
          g_strdup_printf ("%s/%s.bin", binaries, *k) : NULL;
      gdouble s = build (ctx, text, opts, &got, bin);
      /* the subset must hold that kernel and no other */
      g_print ("  %-32s %.3f s%s\n", *k, s,
          got && !strcmp (got, *k) ? "" : " (WRONG SUBSET)");
      sum += s;
      g_free (bin);
      g_free (got);
      g_free (opts);
    }
    g_print ("  each alone, summed: %.3f s\n", sum);
    if (argc > 4) {
      gchar *opts = subset_options (argv[2], (const gchar * const *) argv + 4);
      gchar *got = NULL;
      const gdouble named = build (ctx, text, opts, &got, NULL);
      g_print ("  the %d named: %.3f s (%s)\n", argc - 4, named, got);
      g_free (got);
      g_free (opts);
      build_side_by_side (ctx, text, argv[2], argv + 4);
    } else {
      build_side_by_side (ctx, text, argv[2], kernels);
    }
    g_print ("  the whole program again: %.3f s\n",
        build (ctx, text, argv[2], NULL, NULL));
    g_strfreev (kernels);
    g_free (names);
    gst_object_unref (ctx);
  }
  g_free (text);
  g_string_free (whole_opts, TRUE);
  return 0;
}
