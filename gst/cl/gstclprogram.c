/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Program cache: embedded sources, built once per context and options,
 * binaries kept on disk so a second run compiles nothing.
 *
 * Disk entry layout (all little-endian host order, same machine only):
 *   "GSTCLBIN" | u32 format version | u64 binary size | 32-byte SHA-256 of
 *   the binary | binary
 * The file name is the SHA-256 of (device, driver, platform version,
 * options, source), so any change of those misses the cache. A short,
 * truncated or corrupt entry, or one the driver refuses, is rebuilt. */
#include "gstclcontext.h"
#include "gstclutils.h"
#include "gstclkernels.h"

#include <glib/gstdio.h>
#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

#define CACHE_MAGIC "GSTCLBIN"
#define CACHE_VERSION 1
#define CACHE_HEADER_SIZE (8 + 4 + 8 + 32)

static const gchar *
lookup_source (const gchar * name)
{
  for (const GstCLKernelSource * k = gst_cl_kernel_sources; k->name; k++)
    if (!strcmp (k->name, name))
      return k->source;
  return NULL;
}

/* Folder of the binary cache for @dev's programs, or NULL when disabled
 * (GST_CL_CACHE_DIR="", or a driver that caches its own). */
static gchar *
cache_dir (const GstCLDeviceInfo * dev)
{
  const gchar *env = g_getenv ("GST_CL_CACHE_DIR");
  const gint every = gst_cl_env_choice (GST_CL_CACHE_BINARIES_ENV, 0, 1, -1);

  /* PoCL compiles every kernel of a program for any work-group size when
   * asked for the program's binary, where a build alone compiles a kernel
   * at its first launch; and it caches both in its own folder
   * (POCL_CACHE_DIR), keyed by source, options and device as ours.
   * Storing PoCL's programs cost the 3-element chain 57 s of a fresh start
   * on 2 cores (38 kernels compiled, 4 used) against 3.7 s without
   * (docs/PERFORMANCE.md, "Session 40"). */
  if (every == 0 || (every < 0 && gst_cl_device_is_pocl (dev)))
    return NULL;
  if (env)
    return *env ? g_strdup (env) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "gst-opencl-filters",
      NULL);
}

/* Every program is common.cl followed by its own source. */
gchar *
gst_cl_program_source (const gchar * name)
{
  const gchar *common = lookup_source ("common");
  const gchar *source = lookup_source (name);

  if (!source || !common || !strcmp (name, "common"))
    return NULL;
  return g_strconcat (common, "\n#line 1\n", source, NULL);
}

static gchar *
cache_key (GstCLContext * ctx, const gchar * source, const gchar * options)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  const GstCLDeviceInfo *dev = ctx->device;
  gchar *key;

#define ADD(s) do { g_checksum_update (sum, (const guchar *) (s), -1); \
      g_checksum_update (sum, (const guchar *) "\n", 1); } while (0)
  ADD (dev->name);
  ADD (dev->driver_version);
  ADD (dev->platform_name);
  ADD (dev->platform_version);
  ADD (options);
  ADD (source);
#undef ADD
  key = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return key;
}

static void
sha256 (const guint8 * data, gsize size, guint8 out[32])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = 32;
  g_checksum_update (sum, data, size);
  g_checksum_get_digest (sum, out, &len);
  g_checksum_free (sum);
}

GBytes *
gst_cl_program_cache_parse (const guint8 * data, gsize len)
{
  guint32 version;
  guint64 size;
  guint8 digest[32];

  if (len < CACHE_HEADER_SIZE || memcmp (data, CACHE_MAGIC, 8))
    return NULL;
  memcpy (&version, data + 8, 4);
  memcpy (&size, data + 12, 8);
  if (version != CACHE_VERSION || size != len - CACHE_HEADER_SIZE || !size)
    return NULL;
  sha256 (data + CACHE_HEADER_SIZE, size, digest);
  if (memcmp (digest, data + 20, 32))
    return NULL;
  return g_bytes_new (data + CACHE_HEADER_SIZE, size);
}

/* Returns the binary stored in @path if the entry is whole and intact. */
static GBytes *
read_cache_entry (const gchar * path)
{
  gchar *data = NULL;
  gsize len = 0;
  GBytes *bytes;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  bytes = gst_cl_program_cache_parse ((const guint8 *) data, len);
  if (!bytes) {
    GST_WARNING ("program cache entry %s is corrupt, rebuilding", path);
    g_unlink (path);
  }
  g_free (data);
  return bytes;
}

GBytes *
gst_cl_program_binary (cl_program program)
{
  size_t size = 0;
  guint8 *binary;

  if (clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES, sizeof (size),
          &size, NULL) != CL_SUCCESS || size == 0)
    return NULL;
  binary = g_malloc (size);
  if (clGetProgramInfo (program, CL_PROGRAM_BINARIES, sizeof (binary),
          &binary, NULL) != CL_SUCCESS) {
    g_free (binary);
    return NULL;
  }
  return g_bytes_new_take (binary, size);
}

static void
write_cache_entry (const gchar * dir, const gchar * path, cl_program program)
{
  GBytes *bytes = gst_cl_program_binary (program);
  const guint8 *binary;
  guint8 *file;
  gsize size;
  guint32 version = CACHE_VERSION;
  guint64 size64;
  GError *err = NULL;

  if (!bytes)
    return;
  binary = g_bytes_get_data (bytes, &size);
  file = g_malloc (CACHE_HEADER_SIZE + size);
  memcpy (file + CACHE_HEADER_SIZE, binary, size);
  size64 = size;
  memcpy (file, CACHE_MAGIC, 8);
  memcpy (file + 8, &version, 4);
  memcpy (file + 12, &size64, 8);
  sha256 (binary, size, file + 20);
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents (path, (gchar *) file, CACHE_HEADER_SIZE + size,
          &err)) {
    GST_WARNING ("cannot write program cache %s: %s", path,
        err ? err->message : g_strerror (errno));
    g_clear_error (&err);
  }
  g_free (file);
  g_bytes_unref (bytes);
}

static gchar *
build_log (cl_program program, cl_device_id device)
{
  size_t size = 0;
  gchar *log;
  clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
      &size);
  log = g_malloc0 (size + 1);
  clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, size, log,
      NULL);
  return log;
}

static cl_program
load_binary (GstCLContext * ctx, GBytes * bytes, const gchar * options)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  cl_int status, binary_status = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary (ctx->context, 1,
      &ctx->device->device, &size, &data, &binary_status, &status);

  if (status != CL_SUCCESS || binary_status != CL_SUCCESS) {
    if (program)
      clReleaseProgram (program);
    return NULL;
  }
  if (clBuildProgram (program, 1, &ctx->device->device, options, NULL,
          NULL) != CL_SUCCESS) {
    clReleaseProgram (program);
    return NULL;
  }
  return program;
}

static cl_program
build_source (GstCLContext * ctx, const gchar * name, const gchar * source,
    const gchar * options, GError ** error)
{
  cl_int status;
  cl_program program = clCreateProgramWithSource (ctx->context, 1, &source,
      NULL, &status);

  if (!gst_cl_set_error (status, "clCreateProgramWithSource", error))
    return NULL;
  status = clBuildProgram (program, 1, &ctx->device->device, options, NULL,
      NULL);
  if (status != CL_SUCCESS) {
    gchar *log = build_log (program, ctx->device->device);
    g_set_error (error, GST_CL_ERROR, status,
        "building kernel \"%s\" for %s failed: %s (%d), options \"%s\":\n%s",
        name, ctx->device->name, gst_cl_error_name (status), status, options,
        log);
    g_free (log);
    clReleaseProgram (program);
    return NULL;
  }
  gst_cl_context_count (ctx, GST_CL_COUNTER_PROGRAM_BUILDS, 1);
  if (gst_debug_category_get_threshold (gst_cl_debug) >= GST_LEVEL_DEBUG) {
    /* e.g. NVIDIA's register counts, with -cl-nv-verbose in
     * GST_CL_BUILD_OPTIONS */
    gchar *log = build_log (program, ctx->device->device);
    g_strstrip (log);
    if (*log)
      GST_DEBUG ("build log of %s [%s]:\n%s", name, options, log);
    g_free (log);
  }
  return program;
}

void
gst_cl_program_options_want (GString * options, const gchar * const *kernels)
{
  g_string_append (options, " -DKERNEL_SUBSET=1");
  for (; *kernels; kernels++)
    g_string_append_printf (options, " -DWANT_%s=1", *kernels);
}

cl_program
gst_cl_context_get_program (GstCLContext * ctx, const gchar * name,
    const gchar * options, GError ** error)
{
  gchar *source = gst_cl_program_source (name);
  gchar *key, *dir, *path = NULL, *all_options;
  /* a tuning knob, e.g. NVIDIA's -cl-nv-maxrregcount=N; part of the key */
  const gchar *extra = g_getenv ("GST_CL_BUILD_OPTIONS");
  cl_program program;

  if (!source) {
    g_set_error (error, GST_CL_ERROR, CL_INVALID_VALUE,
        "no embedded kernel source named \"%s\"", name);
    return NULL;
  }
  if (!options)
    options = "";
  all_options = extra && *extra ? g_strconcat (options, " ", extra, NULL) :
      g_strdup (options);
  options = all_options;

  key = cache_key (ctx, source, options);
  g_mutex_lock (&ctx->lock);
  program = g_hash_table_lookup (ctx->programs, key);
  if (program) {
    clRetainProgram (program);
    goto done;
  }

  dir = cache_dir (ctx->device);
  if (dir) {
    GBytes *bytes;
    path = g_build_filename (dir, key, NULL);
    bytes = read_cache_entry (path);
    if (bytes) {
      program = load_binary (ctx, bytes, options);
      g_bytes_unref (bytes);
      if (program) {
        gst_cl_context_count (ctx, GST_CL_COUNTER_PROGRAM_CACHE_LOADS, 1);
        GST_DEBUG ("loaded %s [%s] from %s", name, options, path);
      } else {
        GST_WARNING ("driver refused cached binary %s, rebuilding", path);
        g_unlink (path);
      }
    }
  }
  if (!program) {
    const gint64 start = g_get_monotonic_time ();
    GST_INFO ("building %s [%s] for %s", name, options, ctx->device->name);
    program = build_source (ctx, name, source, options, error);
    if (program) {
      /* a fresh machine's start is mostly these builds (docs/PERFORMANCE.md,
       * "Session 41") */
      size_t n_kernels = 0;
      const cl_int query = clGetProgramInfo (program, CL_PROGRAM_NUM_KERNELS,
          sizeof (n_kernels), &n_kernels, NULL);
      GST_INFO ("built %s for %s in %.3f s, %d kernels", name,
          ctx->device->name, (g_get_monotonic_time () - start) / 1e6,
          query == CL_SUCCESS ? (gint) n_kernels : -1);
    }
    if (program && dir)
      write_cache_entry (dir, path, program);
  }
  g_free (dir);
  g_free (path);
  if (program) {
    clRetainProgram (program);
    g_hash_table_insert (ctx->programs, g_strdup (key), program);
  }

done:
  g_mutex_unlock (&ctx->lock);
  g_free (key);
  g_free (source);
  g_free (all_options);
  return program;
}
