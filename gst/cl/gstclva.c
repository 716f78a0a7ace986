/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* VA-API: which way frames from a VA decoder reach the kernels, and the
 * zero-copy import. Shared needs all of: the build option, the device
 * extension, its entry points, GStreamer's VA library, a VA display from
 * upstream and an OpenCL context made for that display. Anything missing
 * means system memory, which always works: a VA decoder downloads when its
 * peer does not take VAMemory. Every call outside core OpenCL goes through
 * GstCLVaFunctions, so tests run the import with stubs. */
#include "gstclva.h"
#include "gstclutils.h"

#include <gmodule.h>
#include <string.h>
#ifdef HAVE_CL_VA
#include <CL/cl_va_api_media_sharing_intel.h>
/* our spellings of the extension's values must be the header's */
G_STATIC_ASSERT (sizeof (VASurfaceID) == sizeof (guint));
G_STATIC_ASSERT (VA_INVALID_SURFACE == GST_CL_VA_INVALID_SURFACE);
#else
#define CL_VA_API_DISPLAY_INTEL 0x4094
#define CL_PREFERRED_DEVICES_FOR_VA_API_INTEL 0x4095
#define CL_CONTEXT_VA_API_DISPLAY_INTEL 0x4097
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
    fns.create_context = probe->create_context;
    fns.buffer_get_surface = probe->buffer_get_surface;
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
    else if (!probe->create_context)
      why = "no clCreateContext to make the shared context with";
    else if (!probe->buffer_get_surface)
      why = "GStreamer's VA library (libgstva-1.0.so.0) is not installed";
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

/* libgstva-1.0 is opened at run time rather than linked: its headers come
 * with libgstreamer-plugins-bad1.0-dev, which pulls OpenCV's development
 * files into CI; the library itself ships with the VA decoders. */
static GstCLVaBufferGetSurfaceFn
gst_va_buffer_get_surface_function (void)
{
  static gsize done = 0;
  static GstCLVaBufferGetSurfaceFn fn = NULL;

  if (g_once_init_enter (&done)) {
    GModule *module = g_module_open ("libgstva-1.0.so.0",
        G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
    gpointer sym = NULL;
    if (module && g_module_symbol (module, "gst_va_buffer_get_surface", &sym)) {
      g_module_make_resident (module);
      fn = (GstCLVaBufferGetSurfaceFn) (guintptr) sym;
    } else if (module) {
      g_module_close (module);
    }
    g_once_init_leave (&done, 1);
  }
  return fn;
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
  probe->create_context = clCreateContext;
  probe->buffer_get_surface = gst_va_buffer_get_surface_function ();
  /* gst_cl_va_start() fills these once it has a display and a context */
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
  GstStructure *nv12;
  GstCaps *result;

  if (path != GST_CL_VA_PATH_SHARED)
    return gst_caps_ref (caps);
  nv12 = gst_structure_new ("video/x-raw", "format", G_TYPE_STRING, "NV12",
      NULL);
  result = gst_caps_new_empty ();
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    GstStructure *s;
    if (f && gst_caps_features_is_any (f))
      continue;
    /* surfaces are imported as NV12 only (plane 0 Y, plane 1 UV) */
    s = gst_structure_intersect (gst_caps_get_structure (caps, i), nv12);
    if (s)
      gst_caps_append_structure_full (result, s,
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VA, NULL));
  }
  gst_structure_free (nv12);
  /* VA first: preferred when it is possible at all */
  return gst_caps_merge (result, gst_caps_ref (caps));
}

/* ---- the zero-copy path ------------------------------------------------ */

struct _GstCLVa
{
  GMutex lock;
  gpointer display;             /* VADisplay */
  GstObject *display_object;    /* the GstVaDisplay that keeps it open */
  GstCLVaFunctions fns;
  GstCLContext *context;        /* made for the display */
  cl_program program;
  cl_kernel kernel;             /* va_plane_to_buffer */
  GCond cond;
  gint pending;                 /* frames whose surface is still in use */
};

GstCLVa *
gst_cl_va_new (void)
{
  GstCLVa *va = g_new0 (GstCLVa, 1);

  debug_init ();
  g_mutex_init (&va->lock);
  g_cond_init (&va->cond);
  return va;
}

void
gst_cl_va_free (GstCLVa * va)
{
  if (!va)
    return;
  gst_cl_va_stop (va);
  gst_clear_object (&va->display_object);
  g_mutex_clear (&va->lock);
  g_cond_clear (&va->cond);
  g_free (va);
}

gboolean
gst_cl_va_handle_set_context (GstCLVa * va, GstContext * context)
{
  const GstStructure *s;
  GstObject *object = NULL;
  gpointer display = NULL;

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_VA_DISPLAY_CONTEXT_TYPE))
    return FALSE;
  s = gst_context_get_structure (context);
  /* GStreamer's va plugin puts its GstVaDisplay in "gst-display"; an
   * application may give a bare VADisplay in "va-display". */
  if (gst_structure_get (s, "gst-display", GST_TYPE_OBJECT, &object, NULL) &&
      object) {
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (object),
            "va-display"))
      g_object_get (object, "va-display", &display, NULL);
  } else {
    const GValue *v = gst_structure_get_value (s, "va-display");
    if (v && G_VALUE_HOLDS_POINTER (v))
      display = g_value_get_pointer (v);
  }
  if (!display) {
    gst_clear_object (&object);
    GST_DEBUG ("VA display context without a display: %" GST_PTR_FORMAT, s);
    return TRUE;
  }
  g_mutex_lock (&va->lock);
  gst_clear_object (&va->display_object);
  va->display_object = object;
  va->display = display;
  g_mutex_unlock (&va->lock);
  GST_INFO ("VA display %p from a GstContext", display);
  return TRUE;
}

static void
query_display (GstCLVa * va, GstElement * element, GstPad * sinkpad)
{
  GstQuery *query = gst_query_new_context (GST_CL_VA_DISPLAY_CONTEXT_TYPE);

  /* The decoder opened its display going to READY, before we start. */
  if (sinkpad && gst_pad_peer_query (sinkpad, query)) {
    GstContext *context = NULL;
    gst_query_parse_context (query, &context);
    if (context) {
      gst_cl_va_handle_set_context (va, context);
      gst_element_set_context (element, context);
    }
  }
  gst_query_unref (query);
}

/* An OpenCL context for the VA display on @device (which must be one of
 * the display's devices). */
static GstCLContext *
make_context (GstCLVa * va, const GstCLDeviceInfo * device,
    const gchar ** reason)
{
  cl_device_id devices[16];
  cl_uint n = 0;
  cl_int status;
  gboolean found = FALSE;
  cl_context_properties props[] = {
    CL_CONTEXT_PLATFORM, (cl_context_properties) device->platform,
    CL_CONTEXT_VA_API_DISPLAY_INTEL, (cl_context_properties) va->display,
    /* the driver syncs VA and OpenCL at acquire and release */
    CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0
  };
  GstCLContext *ctx;

  status = va->fns.get_device_ids_from_va (device->platform,
      CL_VA_API_DISPLAY_INTEL, va->display,
      CL_PREFERRED_DEVICES_FOR_VA_API_INTEL, G_N_ELEMENTS (devices), devices,
      &n);
  if (status != CL_SUCCESS) {
    *reason = "clGetDeviceIDsFromVA_APIMediaAdapterINTEL failed for the VA "
        "display";
    return NULL;
  }
  for (cl_uint i = 0; i < MIN (n, G_N_ELEMENTS (devices)); i++)
    found |= devices[i] == device->device;
  if (!found) {
    *reason = "the OpenCL device is not the VA display's GPU";
    return NULL;
  }

  ctx = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (ctx);
  ctx->device = device;
  ctx->context = va->fns.create_context (props, 1, &device->device, NULL,
      NULL, &status);
  if (status != CL_SUCCESS || !ctx->context) {
    ctx->context = NULL;
    gst_object_unref (ctx);
    *reason = "clCreateContext with CL_CONTEXT_VA_API_DISPLAY_INTEL failed";
    return NULL;
  }
  ctx->queue = clCreateCommandQueue (ctx->context, device->device,
      CL_QUEUE_PROFILING_ENABLE, &status);
  if (status != CL_SUCCESS) {
    ctx->queue = NULL;
    gst_object_unref (ctx);
    *reason = "no command queue in the shared context";
    return NULL;
  }
  return ctx;
}

GstCLVaPath
gst_cl_va_start (GstCLVa * va, GstElement * element, GstPad * sinkpad,
    const GstCLDeviceInfo * device, GstCLContext ** context,
    const gchar ** reason)
{
  GstCLVaProbe probe;
  GstCLVaTestHook *hook;
  GstCLVaPath path;
  GError *err = NULL;
  gchar *extensions = NULL;
  const gchar *why = NULL;
  cl_int status;

  *context = NULL;
  gst_cl_va_stop (va);
  if (g_strcmp0 (g_getenv ("GST_CL_VA"), "0") == 0) {
    *reason = "disabled by GST_CL_VA=0";
    GST_INFO_OBJECT (element, "VA frames through system memory: %s", *reason);
    return GST_CL_VA_PATH_SYSTEM_MEMORY;
  }
  if (!va->display)
    query_display (va, element, sinkpad);

  gst_cl_va_probe_init (&probe, device->platform, device->device,
      &extensions);
  hook = g_object_get_data (G_OBJECT (element), GST_CL_VA_TEST_HOOK);
  if (hook && hook->adjust)
    hook->adjust (&probe, hook->user_data);
  probe.have_va_display = va->display != NULL;
  /* Everything but the context first; the context needs the functions. */
  probe.context_shares_va = TRUE;
  path = gst_cl_va_probe (&probe, &va->fns, &why);
  if (path == GST_CL_VA_PATH_SHARED) {
    va->context = make_context (va, device, &why);
    if (!va->context)
      path = GST_CL_VA_PATH_SYSTEM_MEMORY;
  }
  if (path == GST_CL_VA_PATH_SHARED) {
    va->program = gst_cl_context_get_program (va->context, "vaimport", NULL,
        &err);
    if (va->program)
      va->kernel = clCreateKernel (va->program, "va_plane_to_buffer",
          &status);
    if (!va->kernel) {
      GST_WARNING ("VA import kernel: %s", err ? err->message : "no kernel");
      g_clear_error (&err);
      why = "the VA import kernel could not be built";
      path = GST_CL_VA_PATH_SYSTEM_MEMORY;
    }
  }
  g_free (extensions);
  if (path != GST_CL_VA_PATH_SHARED) {
    gst_cl_va_stop (va);
    memset (&va->fns, 0, sizeof (va->fns));
    GST_INFO_OBJECT (element, "VA frames through system memory: %s", why);
    *reason = why;
    return GST_CL_VA_PATH_SYSTEM_MEMORY;
  }
  GST_INFO_OBJECT (element, "VA surfaces shared with OpenCL on %s",
      device->name);
  *reason = NULL;
  *context = gst_object_ref (va->context);
  return GST_CL_VA_PATH_SHARED;
}

void
gst_cl_va_stop (GstCLVa * va)
{
  g_mutex_lock (&va->lock);
  while (va->pending > 0)
    g_cond_wait (&va->cond, &va->lock);
  g_mutex_unlock (&va->lock);
  if (va->kernel)
    clReleaseKernel (va->kernel);
  va->kernel = NULL;
  if (va->program)
    clReleaseProgram (va->program);
  va->program = NULL;
  gst_clear_object (&va->context);
}

typedef struct
{
  GstCLVa *va;
  GstBuffer *buffer;
} Surface;

static void
surface_released (cl_event event, cl_int status, void *user_data)
{
  Surface *s = user_data;

  gst_buffer_unref (s->buffer);
  g_mutex_lock (&s->va->lock);
  s->va->pending--;
  g_cond_broadcast (&s->va->cond);
  g_mutex_unlock (&s->va->lock);
  g_free (s);
}

gboolean
gst_cl_va_import (GstCLVa * va, GstBuffer * inbuf, const GstCLFrame * dst,
    GError ** error)
{
  GstCLContext *ctx = va->context;
  cl_mem images[2] = { NULL, NULL };
  cl_event released = NULL;
  cl_int status = CL_SUCCESS;
  gboolean ok = FALSE;
  guint surface;
  Surface *s;

  if (!ctx || !va->kernel) {
    g_set_error (error, GST_CL_ERROR, CL_INVALID_CONTEXT,
        "VA sharing was not set up");
    return FALSE;
  }
  if (GST_VIDEO_INFO_FORMAT (&dst->info) != GST_VIDEO_FORMAT_NV12 ||
      dst->n_planes != 2) {
    g_set_error (error, GST_CL_ERROR, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "VA surfaces are imported as NV12 only, not %s",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&dst->info)));
    return FALSE;
  }
  surface = va->fns.buffer_get_surface (inbuf);
  if (surface == GST_CL_VA_INVALID_SURFACE) {
    g_set_error (error, GST_CL_ERROR, CL_INVALID_MEM_OBJECT,
        "the buffer holds no VA surface although the caps say VAMemory");
    return FALSE;
  }
  for (cl_uint p = 0; p < 2; p++) {
    images[p] = va->fns.create_from_va_surface (ctx->context,
        CL_MEM_READ_ONLY, &surface, p, &status);
    if (status != CL_SUCCESS || !images[p]) {
      images[p] = NULL;
      g_set_error (error, GST_CL_ERROR, status,
          "clCreateFromVA_APIMediaSurfaceINTEL (surface %u, plane %u): %s",
          surface, p, gst_cl_error_name (status));
      goto out;
    }
  }
  status = va->fns.enqueue_acquire (ctx->queue, 2, images, 0, NULL, NULL);
  if (status != CL_SUCCESS) {
    g_set_error (error, GST_CL_ERROR, status,
        "clEnqueueAcquireVA_APIMediaSurfacesINTEL (surface %u): %s", surface,
        gst_cl_error_name (status));
    goto out;
  }
  for (guint p = 0; p < 2 && status == CL_SUCCESS; p++) {
    const GstCLPlane *pl = &dst->planes[p];
    size_t global[2] = { pl->width, pl->height };
    cl_uint offset = pl->offset;
    cl_int channels = pl->pixel_bytes;

    const struct
    {
      size_t size;
      const void *value;
    } args[] = {
      {sizeof (cl_mem), &images[p]}, {sizeof (cl_mem), &dst->mem},
      {sizeof (cl_uint), &offset}, {sizeof (cl_int), &pl->stride},
      {sizeof (cl_int), &pl->width}, {sizeof (cl_int), &pl->height},
      {sizeof (cl_int), &channels},
    };

    for (guint a = 0; a < G_N_ELEMENTS (args) && status == CL_SUCCESS; a++)
      status = clSetKernelArg (va->kernel, a, args[a].size, args[a].value);
    if (status == CL_SUCCESS)
      status = clEnqueueNDRangeKernel (ctx->queue, va->kernel, 2, NULL,
          global, NULL, 0, NULL, NULL);
    if (status != CL_SUCCESS)
      g_set_error (error, GST_CL_ERROR, status,
          "copying VA surface plane %u: %s", p, gst_cl_error_name (status));
  }
  /* Released even after a failed copy: an acquired surface stays locked. */
  {
    cl_int rs = va->fns.enqueue_release (ctx->queue, 2, images, 0, NULL,
        &released);
    if (rs != CL_SUCCESS) {
      released = NULL;
      if (status == CL_SUCCESS)
        g_set_error (error, GST_CL_ERROR, rs,
            "clEnqueueReleaseVA_APIMediaSurfacesINTEL (surface %u): %s",
            surface, gst_cl_error_name (rs));
      status = rs;
    }
  }
  ok = status == CL_SUCCESS;

  /* The decoder may reuse the surface once the buffer is back in its
   * pool: keep the buffer until the release has run. */
  s = g_new0 (Surface, 1);
  s->va = va;
  s->buffer = gst_buffer_ref (inbuf);
  g_mutex_lock (&va->lock);
  va->pending++;
  g_mutex_unlock (&va->lock);
  if (!released || clSetEventCallback (released, CL_COMPLETE,
          surface_released, s) != CL_SUCCESS) {
    gst_cl_context_finish (ctx);
    surface_released (NULL, CL_COMPLETE, s);
  }
  if (released)
    clReleaseEvent (released);

out:
  /* the queued commands keep the images alive until they have run */
  for (guint p = 0; p < 2; p++)
    if (images[p])
      clReleaseMemObject (images[p]);
  return ok;
}
