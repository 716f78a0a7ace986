/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* VA-API frames (memory:VAMemory) into OpenCL: the run-time probe that
 * decides between importing VA surfaces (cl_intel_va_api_media_sharing) and
 * taking frames through system memory. The probe is pure logic over the
 * facts in GstCLVaProbe, so it is tested with stubs where no Intel GPU is
 * present. */

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

#define GST_CL_VA_EXTENSION "cl_intel_va_api_media_sharing"
#define GST_CAPS_FEATURE_MEMORY_VA "memory:VAMemory"

typedef enum
{
  GST_CL_VA_PATH_SYSTEM_MEMORY,  /* frames reach OpenCL through system memory */
  GST_CL_VA_PATH_SHARED,         /* VA surfaces imported without a copy */
} GstCLVaPath;

/* What the probe looks at. get_function is
 * clGetExtensionFunctionAddressForPlatform or a stub. */
typedef struct
{
  gboolean built_with_va;       /* the meson "va" feature was enabled */
  const gchar *extensions;      /* CL_DEVICE_EXTENSIONS of the device */
  cl_platform_id platform;
  void *(*get_function) (cl_platform_id platform, const char *name);
  gboolean have_va_display;     /* a VADisplay came with a GstContext */
  gboolean context_shares_va;   /* context made with CL_CONTEXT_VA_API_DISPLAY_INTEL */
} GstCLVaProbe;

/* The extension's entry points, resolved by the probe. */
typedef struct
{
  void *get_device_ids_from_va;
  void *create_from_va_surface;
  void *enqueue_acquire;
  void *enqueue_release;
} GstCLVaFunctions;

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

G_END_DECLS
