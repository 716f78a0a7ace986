/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcldevice.h"
#include "gstclutils.h"

#include <stdio.h>
#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

static GPtrArray *device_list;
static gchar *device_list_error;

static gchar *
platform_string (cl_platform_id platform, cl_platform_info param)
{
  size_t size = 0;
  if (clGetPlatformInfo (platform, param, 0, NULL, &size) != CL_SUCCESS)
    return g_strdup ("");
  gchar *s = g_malloc0 (size + 1);
  clGetPlatformInfo (platform, param, size, s, NULL);
  return g_strstrip (s);
}

static gchar *
device_string (cl_device_id device, cl_device_info param)
{
  size_t size = 0;
  if (clGetDeviceInfo (device, param, 0, NULL, &size) != CL_SUCCESS)
    return g_strdup ("");
  gchar *s = g_malloc0 (size + 1);
  clGetDeviceInfo (device, param, size, s, NULL);
  return g_strstrip (s);
}

static void
enumerate_devices (void)
{
  cl_uint n_platforms = 0;
  cl_int status = clGetPlatformIDs (0, NULL, &n_platforms);

  device_list = g_ptr_array_new ();
  if (status != CL_SUCCESS || n_platforms == 0) {
    device_list_error = g_strdup_printf ("no OpenCL driver found: install one, "
        "e.g. pocl-opencl-icd (clGetPlatformIDs: %s)",
        gst_cl_error_name (status));
    return;
  }

  cl_platform_id *platforms = g_new0 (cl_platform_id, n_platforms);
  clGetPlatformIDs (n_platforms, platforms, NULL);

  for (cl_uint p = 0; p < n_platforms; p++) {
    cl_uint n_devices = 0;
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL,
            &n_devices) != CL_SUCCESS || n_devices == 0)
      continue;
    cl_device_id *devices = g_new0 (cl_device_id, n_devices);
    clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, n_devices, devices, NULL);

    for (cl_uint d = 0; d < n_devices; d++) {
      GstCLDeviceInfo *info = g_new0 (GstCLDeviceInfo, 1);
      cl_bool b = CL_FALSE;
      cl_uint u = 0;
      cl_ulong ul = 0;

      info->platform = platforms[p];
      info->device = devices[d];
      info->platform_index = p;
      info->device_index = d;
      info->name = device_string (devices[d], CL_DEVICE_NAME);
      info->driver_version = device_string (devices[d], CL_DRIVER_VERSION);
      info->platform_name = platform_string (platforms[p], CL_PLATFORM_NAME);
      info->platform_version =
          platform_string (platforms[p], CL_PLATFORM_VERSION);
      clGetDeviceInfo (devices[d], CL_DEVICE_TYPE, sizeof (info->type),
          &info->type, NULL);
      info->is_gpu = (info->type & CL_DEVICE_TYPE_GPU) != 0;
      clGetDeviceInfo (devices[d], CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (b),
          &b, NULL);
      /* CPU devices share host memory whatever they report. The test
       * hook gives every device a discrete GPU's staged frames, so the
       * machines without one run that path too. */
      info->host_unified_memory = (b || (info->type & CL_DEVICE_TYPE_CPU))
          && gst_cl_env_choice (GST_CL_STAGING_ENV, 0, 1, 0) == 0;
      b = CL_FALSE;
      clGetDeviceInfo (devices[d], CL_DEVICE_IMAGE_SUPPORT, sizeof (b), &b,
          NULL);
      info->image_support = b;
      clGetDeviceInfo (devices[d], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof (u),
          &u, NULL);
      info->base_addr_align = u / 8;
      clGetDeviceInfo (devices[d], CL_DEVICE_LOCAL_MEM_SIZE, sizeof (ul), &ul,
          NULL);
      info->local_mem_size = ul;
      clGetDeviceInfo (devices[d], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof (ul),
          &ul, NULL);
      info->max_alloc = ul;
      clGetDeviceInfo (devices[d], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (u), &u,
          NULL);
      info->compute_units = u;
      clGetDeviceInfo (devices[d], CL_DEVICE_MAX_WORK_GROUP_SIZE,
          sizeof (info->max_work_group_size), &info->max_work_group_size, NULL);

      GST_INFO ("device %u.%u: %s (%s), driver %s, unified memory %d, "
          "local memory %" G_GUINT64_FORMAT, p, d, info->name,
          info->platform_name, info->driver_version, info->host_unified_memory,
          info->local_mem_size);
      g_ptr_array_add (device_list, info);
    }
    g_free (devices);
  }
  g_free (platforms);

  if (device_list->len == 0)
    device_list_error = g_strdup ("no OpenCL device found: the installed "
        "OpenCL platforms expose no device; install a driver, e.g. "
        "pocl-opencl-icd");
}

const GPtrArray *
gst_cl_device_list (GError ** error)
{
  static gsize done = 0;

  gst_cl_debug_init ();
  if (g_once_init_enter (&done)) {
    enumerate_devices ();
    g_once_init_leave (&done, 1);
  }
  if (device_list_error) {
    g_set_error_literal (error, GST_CL_ERROR, CL_DEVICE_NOT_FOUND,
        device_list_error);
    return NULL;
  }
  return device_list;
}

gchar *
gst_cl_device_info_label (const GstCLDeviceInfo * info)
{
  const gchar *type = (info->type & CL_DEVICE_TYPE_GPU) ? "GPU" :
      (info->type & CL_DEVICE_TYPE_CPU) ? "CPU" :
      (info->type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";
  return g_strdup_printf ("%u.%u %s (%s, %s)", info->platform_index,
      info->device_index, info->name, type, info->platform_name);
}

gchar *
gst_cl_device_describe_all (void)
{
  const GPtrArray *list = gst_cl_device_list (NULL);
  GString *s = g_string_new (NULL);

  for (guint i = 0; list && i < list->len; i++) {
    gchar *label = gst_cl_device_info_label (g_ptr_array_index (list, i));
    g_string_append_printf (s, "%s%s", i ? "; " : "", label);
    g_free (label);
  }
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

gboolean
gst_cl_device_has_avx512 (const GstCLDeviceInfo * dev)
{
  return !dev->is_gpu && dev->name && strstr (dev->name, "avx512") != NULL;
}

gboolean
gst_cl_device_has_vbmi (const GstCLDeviceInfo * dev)
{
#if defined(__x86_64__) && defined(__GNUC__)
  /* GST_CL_VBMI=0 turns it off (the checkers run the other path) */
  return gst_cl_device_has_avx512 (dev) &&
      __builtin_cpu_supports ("avx512vbmi") &&
      gst_cl_env_choice (GST_CL_VBMI_ENV, 0, 1, 1);
#else
  (void) dev;
  return FALSE;
#endif
}

gboolean
gst_cl_device_is_nvidia_gpu (const GstCLDeviceInfo * dev)
{
  return dev->is_gpu && dev->platform_name &&
      g_str_has_prefix (dev->platform_name, "NVIDIA");
}

gboolean
gst_cl_device_is_pocl (const GstCLDeviceInfo * dev)
{
  return dev->platform_name &&
      g_str_has_prefix (dev->platform_name, "Portable Computing Language");
}

gboolean
gst_cl_device_has_warp_shuffles (const GstCLDeviceInfo * dev, gint wg_x)
{
  return wg_x == 32 && gst_cl_device_is_nvidia_gpu (dev) &&
      g_strcmp0 (g_getenv (GST_CL_WARP_XCHG_ENV), "0") != 0;
}

const GstCLDeviceInfo *
gst_cl_device_first_of_type (const GPtrArray * list, cl_device_type type)
{
  for (guint i = 0; i < list->len; i++) {
    const GstCLDeviceInfo *info = g_ptr_array_index (list, i);
    if (info->type & type)
      return info;
  }
  return NULL;
}

const GstCLDeviceInfo *
gst_cl_device_select (const gchar * request, GError ** error)
{
  const GPtrArray *list = gst_cl_device_list (error);
  const GstCLDeviceInfo *found = NULL;
  guint p, d;
  gchar tail;

  if (!list)
    return NULL;

  if (!request || !*request || !g_ascii_strcasecmp (request, "auto")) {
    found = gst_cl_device_first_of_type (list, CL_DEVICE_TYPE_GPU);
    if (!found)
      found = gst_cl_device_first_of_type (list, CL_DEVICE_TYPE_CPU);
    if (!found)
      found = g_ptr_array_index (list, 0);
    return found;
  }

  if (!g_ascii_strcasecmp (request, "gpu"))
    found = gst_cl_device_first_of_type (list, CL_DEVICE_TYPE_GPU);
  else if (!g_ascii_strcasecmp (request, "cpu"))
    found = gst_cl_device_first_of_type (list, CL_DEVICE_TYPE_CPU);
  else if (sscanf (request, "%u.%u%c", &p, &d, &tail) == 2) {
    for (guint i = 0; i < list->len && !found; i++) {
      const GstCLDeviceInfo *info = g_ptr_array_index (list, i);
      if (info->platform_index == p && info->device_index == d)
        found = info;
    }
  } else {
    gchar *needle = g_utf8_casefold (request, -1);
    for (guint i = 0; i < list->len && !found; i++) {
      const GstCLDeviceInfo *info = g_ptr_array_index (list, i);
      gchar *hay = g_utf8_casefold (info->name, -1);
      if (strstr (hay, needle))
        found = info;
      g_free (hay);
    }
    g_free (needle);
  }

  if (!found) {
    gchar *all = gst_cl_device_describe_all ();
    g_set_error (error, GST_CL_ERROR, CL_DEVICE_NOT_FOUND,
        "no OpenCL device matches \"%s\"; available devices: %s", request,
        all);
    g_free (all);
  }
  return found;
}
