/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* VA-API probe: which way frames from a VA decoder reach the kernels.
 * Shared (zero-copy) needs all of: the build option, the device extension,
 * its entry points, a VA display from upstream and an OpenCL context made
 * for that display. Anything missing means system memory, which always
 * works: a VA decoder downloads when its peer does not take VAMemory. */
#include "gstclva.h"

#include <string.h>
#ifdef HAVE_CL_VA
#include <CL/cl_va_api_media_sharing_intel.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cl_va_debug);
#define GST_CAT_DEFAULT gst_cl_va_debug

static void
debug_init (void)
{
  static gsize done = 0;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_va_debug, "clva", 0,
        "OpenCL VA-API sharing probe");
    g_once_init_leave (&done, 1);
  }
}

gboolean
gst_cl_va_has_extension (const gchar * extensions, const gchar * name)
{
  gsize len = strlen (name);
  const gchar *p = extensions;

  if (!extensions || !len)
    return FALSE;
  /* whole words only: cl_intel_va_api_media_sharing_2 is not the extension */
  while ((p = strstr (p, name))) {
    gboolean starts = p == extensions || p[-1] == ' ';
    gboolean ends = p[len] == '\0' || p[len] == ' ';
    if (starts && ends)
      return TRUE;
    p += len;
  }
  return FALSE;
}

GstCLVaPath
gst_cl_va_probe (const GstCLVaProbe * probe, GstCLVaFunctions * functions,
    const gchar ** reason)
{
  GstCLVaFunctions fns = { 0 };
  const gchar *why = NULL;

  debug_init ();
  if (!probe->built_with_va)
    why = "built without VA-API support (meson -Dva=enabled needs libva)";
  else if (!gst_cl_va_has_extension (probe->extensions, GST_CL_VA_EXTENSION))
    why = "the OpenCL device lacks " GST_CL_VA_EXTENSION;
  else if (!probe->get_function)
    why = "the driver resolves no extension functions";
  if (!why) {
    fns.get_device_ids_from_va = probe->get_function (probe->platform,
        "clGetDeviceIDsFromVA_APIMediaAdapterINTEL");
    fns.create_from_va_surface = probe->get_function (probe->platform,
        "clCreateFromVA_APIMediaSurfaceINTEL");
    fns.enqueue_acquire = probe->get_function (probe->platform,
        "clEnqueueAcquireVA_APIMediaSurfacesINTEL");
    fns.enqueue_release = probe->get_function (probe->platform,
        "clEnqueueReleaseVA_APIMediaSurfacesINTEL");
    if (!fns.get_device_ids_from_va || !fns.create_from_va_surface ||
        !fns.enqueue_acquire || !fns.enqueue_release)
      why = "the driver advertises " GST_CL_VA_EXTENSION
          " but does not export its functions";
    else if (!probe->have_va_display)
      why = "no VA display from upstream (not a VA decoder)";
    else if (!probe->context_shares_va)
      why = "the shared OpenCL context was not created for the VA display";
  }
  if (why) {
    GST_INFO ("VA frames through system memory: %s", why);
    if (reason)
      *reason = why;
    if (functions)
      memset (functions, 0, sizeof (*functions));
    return GST_CL_VA_PATH_SYSTEM_MEMORY;
  }
  GST_INFO ("VA surfaces shared with OpenCL");
  if (reason)
    *reason = NULL;
  if (functions)
    *functions = fns;
  return GST_CL_VA_PATH_SHARED;
}

static void *
get_function (cl_platform_id platform, const char *name)
{
  return clGetExtensionFunctionAddressForPlatform (platform, name);
}

void
gst_cl_va_probe_init (GstCLVaProbe * probe, cl_platform_id platform,
    cl_device_id device, gchar ** extensions_out)
{
  gsize size = 0;
  gchar *ext = NULL;

  memset (probe, 0, sizeof (*probe));
#ifdef HAVE_CL_VA
  probe->built_with_va = TRUE;
#endif
  if (clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, 0, NULL,
          &size) == CL_SUCCESS && size > 0) {
    ext = g_malloc0 (size + 1);
    if (clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, size, ext,
            NULL) != CL_SUCCESS)
      ext[0] = '\0';
  }
  probe->extensions = ext;
  probe->platform = platform;
  probe->get_function = get_function;
  /* Neither is plumbed yet: the runtime neither takes a VADisplay from a
   * GstContext nor creates its context with CL_CONTEXT_VA_API_DISPLAY_INTEL,
   * so on real hardware the probe ends in system memory, and says so. */
  probe->have_va_display = FALSE;
  probe->context_shares_va = FALSE;
  *extensions_out = ext;
}

gboolean
gst_cl_va_caps_have_va_memory (const GstCaps * caps)
{
  for (guint i = 0; caps && i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    if (f && !gst_caps_features_is_any (f) &&
        gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VA))
      return TRUE;
  }
  return FALSE;
}

GstCaps *
gst_cl_va_sink_caps (GstCaps * caps, GstCLVaPath path)
{
  GstCaps *result;

  if (path != GST_CL_VA_PATH_SHARED)
    return gst_caps_ref (caps);
  result = gst_caps_new_empty ();
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    if (f && gst_caps_features_is_any (f))
      continue;
    gst_caps_append_structure_full (result,
        gst_structure_copy (gst_caps_get_structure (caps, i)),
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VA, NULL));
  }
  /* VA first: preferred when it is possible at all */
  return gst_caps_merge (result, gst_caps_ref (caps));
}
