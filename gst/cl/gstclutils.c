/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclutils.h"

GST_DEBUG_CATEGORY (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

G_DEFINE_QUARK (gst-cl-error-quark, gst_cl_error);

void
gst_cl_debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_debug, "cl", 0, "OpenCL runtime");
    g_once_init_leave (&done, 1);
  }
}

const gchar *
gst_cl_error_name (cl_int status)
{
  switch (status) {
#define NAME(x) case x: return #x
      NAME (CL_SUCCESS);
      NAME (CL_DEVICE_NOT_FOUND);
      NAME (CL_DEVICE_NOT_AVAILABLE);
      NAME (CL_COMPILER_NOT_AVAILABLE);
      NAME (CL_MEM_OBJECT_ALLOCATION_FAILURE);
      NAME (CL_OUT_OF_RESOURCES);
      NAME (CL_OUT_OF_HOST_MEMORY);
      NAME (CL_PROFILING_INFO_NOT_AVAILABLE);
      NAME (CL_MEM_COPY_OVERLAP);
      NAME (CL_IMAGE_FORMAT_MISMATCH);
      NAME (CL_IMAGE_FORMAT_NOT_SUPPORTED);
      NAME (CL_BUILD_PROGRAM_FAILURE);
      NAME (CL_MAP_FAILURE);
      NAME (CL_MISALIGNED_SUB_BUFFER_OFFSET);
      NAME (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      NAME (CL_COMPILE_PROGRAM_FAILURE);
      NAME (CL_LINKER_NOT_AVAILABLE);
      NAME (CL_LINK_PROGRAM_FAILURE);
      NAME (CL_DEVICE_PARTITION_FAILED);
      NAME (CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
      NAME (CL_INVALID_VALUE);
      NAME (CL_INVALID_DEVICE_TYPE);
      NAME (CL_INVALID_PLATFORM);
      NAME (CL_INVALID_DEVICE);
      NAME (CL_INVALID_CONTEXT);
      NAME (CL_INVALID_QUEUE_PROPERTIES);
      NAME (CL_INVALID_COMMAND_QUEUE);
      NAME (CL_INVALID_HOST_PTR);
      NAME (CL_INVALID_MEM_OBJECT);
      NAME (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
      NAME (CL_INVALID_IMAGE_SIZE);
      NAME (CL_INVALID_SAMPLER);
      NAME (CL_INVALID_BINARY);
      NAME (CL_INVALID_BUILD_OPTIONS);
      NAME (CL_INVALID_PROGRAM);
      NAME (CL_INVALID_PROGRAM_EXECUTABLE);
      NAME (CL_INVALID_KERNEL_NAME);
      NAME (CL_INVALID_KERNEL_DEFINITION);
      NAME (CL_INVALID_KERNEL);
      NAME (CL_INVALID_ARG_INDEX);
      NAME (CL_INVALID_ARG_VALUE);
      NAME (CL_INVALID_ARG_SIZE);
      NAME (CL_INVALID_KERNEL_ARGS);
      NAME (CL_INVALID_WORK_DIMENSION);
      NAME (CL_INVALID_WORK_GROUP_SIZE);
      NAME (CL_INVALID_WORK_ITEM_SIZE);
      NAME (CL_INVALID_GLOBAL_OFFSET);
      NAME (CL_INVALID_EVENT_WAIT_LIST);
      NAME (CL_INVALID_EVENT);
      NAME (CL_INVALID_OPERATION);
      NAME (CL_INVALID_GL_OBJECT);
      NAME (CL_INVALID_BUFFER_SIZE);
      NAME (CL_INVALID_MIP_LEVEL);
      NAME (CL_INVALID_GLOBAL_WORK_SIZE);
      NAME (CL_INVALID_PROPERTY);
      NAME (CL_INVALID_IMAGE_DESCRIPTOR);
      NAME (CL_INVALID_COMPILER_OPTIONS);
      NAME (CL_INVALID_LINKER_OPTIONS);
      NAME (CL_INVALID_DEVICE_PARTITION_COUNT);
#undef NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "CL_UNKNOWN_ERROR";
  }
}

gboolean
_gst_cl_result (cl_int status, GstDebugCategory * cat, const gchar * file,
    const gchar * function, gint line, const gchar * what)
{
  if (status == CL_SUCCESS)
    return TRUE;
#ifndef GST_DISABLE_GST_DEBUG
  gst_debug_log (cat, GST_LEVEL_WARNING, file, function, line, NULL,
      "%s failed: %s (%d)", what, gst_cl_error_name (status), status);
#endif
  return FALSE;
}

gboolean
gst_cl_set_error (cl_int status, const gchar * what, GError ** error)
{
  if (status == CL_SUCCESS)
    return TRUE;
  g_set_error (error, GST_CL_ERROR, status, "%s failed: %s (%d)", what,
      gst_cl_error_name (status), status);
  return FALSE;
}

/* The value of @name when it is a number that @range (@a to @b) or else
 * @a or @b allows, @fallback otherwise (with a warning if it is set). */
static gint
env_number (const gchar * name, gboolean range, gint a, gint b,
    gint fallback)
{
  const gchar *env = g_getenv (name);
  gchar *end = NULL;
  gint64 v;

  if (!env || !*env)
    return fallback;
  v = g_ascii_strtoll (env, &end, 10);
  if (*end == '\0' && (range ? v >= a && v <= b : v == a || v == b))
    return (gint) v;
  gst_cl_debug_init ();
  GST_WARNING ("%s=\"%s\" ignored: want %d %s %d", name, env, a,
      range ? "to" : "or", b);
  return fallback;
}

gint
gst_cl_env_choice (const gchar * name, gint a, gint b, gint fallback)
{
  return env_number (name, FALSE, a, b, fallback);
}

gint
gst_cl_env_int (const gchar * name, gint min, gint max, gint fallback)
{
  return env_number (name, TRUE, min, max, fallback);
}
