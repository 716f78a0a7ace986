/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* VA-API frames (memory:VAMemory) into OpenCL: the run-time probe that
 * decides between importing VA surfaces (cl_intel_va_api_media_sharing) and
 * taking frames through system memory. The probe is pure logic over the
 * facts in GstCLVaProbe, so it is tested with stubs where no Intel GPU is
 * present. */

#include <gst/gst.h>
#include <CL/cl.h>
#include "gstclfilter.h"

G_BEGIN_DECLS

#define GST_CL_VA_EXTENSION "cl_intel_va_api_media_sharing"
#define GST_CAPS_FEATURE_MEMORY_VA "memory:VAMemory"

typedef enum
{
  GST_CL_VA_PATH_SYSTEM_MEMORY,  /* frames reach OpenCL through system memory */
  GST_CL_VA_PATH_SHARED,         /* VA surfaces imported without a copy */
} GstCLVaPath;

/* The entry points the import calls, spelled here rather than taken from
 * CL/cl_va_api_media_sharing_intel.h so the table (and the stubs of
 * tests/check_va.c) compile without libva. VADisplay is a pointer and
 * VASurfaceID an unsigned int in libva. */
typedef cl_int (CL_API_CALL * GstCLVaGetDeviceIDsFn) (cl_platform_id platform,
    cl_uint media_adapter_type, void *media_adapter, cl_uint media_adapter_set,
    cl_uint num_entries, cl_device_id * devices, cl_uint * num_devices);
typedef cl_mem (CL_API_CALL * GstCLVaCreateFromSurfaceFn) (cl_context context,
    cl_mem_flags flags, guint * surface, cl_uint plane, cl_int * errcode_ret);
typedef cl_int (CL_API_CALL * GstCLVaEnqueueFn) (cl_command_queue queue,
    cl_uint num_objects, const cl_mem * mem_objects,
    cl_uint num_events_in_wait_list, const cl_event * event_wait_list,
    cl_event * event);
typedef cl_context (CL_API_CALL * GstCLVaCreateContextFn) (const
    cl_context_properties * properties, cl_uint num_devices,
    const cl_device_id * devices, void (CL_CALLBACK * notify) (const char *,
        const void *, size_t, void *), void *user_data, cl_int * errcode_ret);
/* gst_va_buffer_get_surface(): GST_CL_VA_INVALID_SURFACE when @buffer holds
 * no VA surface. */
typedef guint (*GstCLVaBufferGetSurfaceFn) (GstBuffer * buffer);

#define GST_CL_VA_INVALID_SURFACE 0xffffffffu   /* VA_INVALID_SURFACE */
#define GST_CL_VA_DISPLAY_CONTEXT_TYPE "gst.va.display.handle"

/* What the probe looks at. get_function is
 * clGetExtensionFunctionAddressForPlatform or a stub; create_context is
 * clCreateContext or a stub; buffer_get_surface is libgstva-1.0's
 * gst_va_buffer_get_surface (resolved at run time: NULL when GStreamer's VA
 * library is not installed) or a stub. */
typedef struct
{
  gboolean built_with_va;       /* the meson "va" feature was enabled */
  const gchar *extensions;      /* CL_DEVICE_EXTENSIONS of the device */
  cl_platform_id platform;
  void *(*get_function) (cl_platform_id platform, const char *name);
  GstCLVaCreateContextFn create_context;
  GstCLVaBufferGetSurfaceFn buffer_get_surface;
  gboolean have_va_display;     /* a VADisplay came with a GstContext */
  gboolean context_shares_va;   /* context made with CL_CONTEXT_VA_API_DISPLAY_INTEL */
} GstCLVaProbe;

/* Every call the import makes outside core OpenCL 1.2 goes through this
 * table, so tests substitute stubs (tests/check_va.c). */
typedef struct
{
  GstCLVaGetDeviceIDsFn get_device_ids_from_va;
  GstCLVaCreateFromSurfaceFn create_from_va_surface;
  GstCLVaEnqueueFn enqueue_acquire;
  GstCLVaEnqueueFn enqueue_release;
  GstCLVaCreateContextFn create_context;
  GstCLVaBufferGetSurfaceFn buffer_get_surface;
} GstCLVaFunctions;

/* For tests only: an element carrying a GstCLVaTestHook under this key
 * (g_object_set_data) has @adjust called on its probe after
 * gst_cl_va_probe_init(), before the decision, so stubs replace the
 * driver. Data on the element, not a global, because the plugin holds its
 * own copy of the runtime. */
#define GST_CL_VA_TEST_HOOK "gst-cl-va-test-hook"
typedef struct
{
  void (*adjust) (GstCLVaProbe * probe, gpointer user_data);
  gpointer user_data;
} GstCLVaTestHook;

/* Decides the path; @reason (static string) says why when it is system
 * memory. @functions (may be NULL) receives the entry points. */
GstCLVaPath gst_cl_va_probe (const GstCLVaProbe * probe,
    GstCLVaFunctions * functions, const gchar ** reason);

/* Fills @probe for a real device (extensions read from the driver). The
 * caller keeps @probe valid while @extensions_out (freed by the caller)
 * lives. */
void gst_cl_va_probe_init (GstCLVaProbe * probe, cl_platform_id platform,
    cl_device_id device, gchar ** extensions_out);

/* TRUE if @extensions (space separated) has @name as a whole word. */
gboolean gst_cl_va_has_extension (const gchar * extensions,
    const gchar * name);

/* TRUE if some structure of @caps has memory:VAMemory. */
gboolean gst_cl_va_caps_have_va_memory (const GstCaps * caps);

/* The sink caps to offer upstream: @caps (not taken) plus memory:VAMemory
 * copies of its structures when @path is SHARED; otherwise @caps alone, so
 * a VA decoder hands over system memory. Returns a new reference. */
GstCaps *gst_cl_va_sink_caps (GstCaps * caps, GstCLVaPath path);

/* ---- the zero-copy path, per element ---------------------------------- */

typedef struct _GstCLVa GstCLVa;

GstCLVa *gst_cl_va_new (void);
void gst_cl_va_free (GstCLVa * va);

/* Takes the VADisplay of a "gst.va.display.handle" context (the VA
 * decoder's). Returns TRUE if @context was one. */
gboolean gst_cl_va_handle_set_context (GstCLVa * va, GstContext * context);

/* Decides the path when @element starts on @device: asks upstream of
 * @sinkpad for the VA display when none was set, probes, and for sharing
 * creates an OpenCL context for the VA display
 * (CL_CONTEXT_VA_API_DISPLAY_INTEL) with the copy kernel built in it.
 * SHARED: *@context is that context (a new reference), which the element
 * must use. SYSTEM_MEMORY: *@context is NULL and *@reason says why. */
GstCLVaPath gst_cl_va_start (GstCLVa * va, GstElement * element,
    GstPad * sinkpad, const GstCLDeviceInfo * device, GstCLContext ** context,
    const gchar ** reason);
/* Waits for surfaces still in use, releases the context and kernel. */
void gst_cl_va_stop (GstCLVa * va);

/* The one import of a VA frame: the surface of @inbuf is imported as an
 * image per plane (0 = Y, 1 = UV), acquired, copied by a kernel into
 * @dst (an NV12 frame of the VA context, laid out as @dst->planes) and
 * released, all enqueued on the context's queue, nothing waited for on the
 * host. @inbuf is kept until the release completes, so the decoder does not
 * reuse the surface early. FALSE with @error set on failure. */
gboolean gst_cl_va_import (GstCLVa * va, GstBuffer * inbuf,
    const GstCLFrame * dst, GError ** error);

G_END_DECLS
