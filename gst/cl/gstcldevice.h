/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/* Environment variable that overrides the default device of every element
 * whose `device` property was not set explicitly. */
#define GST_CL_DEVICE_ENV "GST_CL_DEVICE"

/* Facts about one OpenCL device, read once per process. Immutable. */
typedef struct
{
  cl_platform_id platform;
  cl_device_id device;
  guint platform_index;
  guint device_index;
  gchar *name;
  gchar *platform_name;
  gchar *platform_version;
  gchar *driver_version;
  cl_device_type type;
  gboolean is_gpu;
  gboolean host_unified_memory;
  gboolean image_support;
  guint base_addr_align;        /* bytes */
  guint64 local_mem_size;
  guint64 max_alloc;
  guint compute_units;
  gsize max_work_group_size;
} GstCLDeviceInfo;

/* Every device of every platform, in platform.device order. The array and
 * its entries live for the whole process. Returns NULL and sets @error
 * when no OpenCL platform is installed at all. */
const GPtrArray *gst_cl_device_list (GError ** error);

/* Resolves a device request: "auto" (a GPU if present, else the CPU),
 * "gpu", "cpu", "P.D" (platform.device indices) or a case-insensitive
 * substring of the device name. NULL or "" mean "auto".
 * Returns NULL with a message listing the available devices on failure. */
const GstCLDeviceInfo *gst_cl_device_select (const gchar * request,
    GError ** error);

/* The first device of @list whose type includes @type, or NULL. */
const GstCLDeviceInfo *gst_cl_device_first_of_type (const GPtrArray * list,
    cl_device_type type);
/* Whether @dev is a CPU device with 512-bit vector registers, by its name:
 * PoCL names its CPU device after LLVM's target CPU ("...-avx512-..."). The
 * kernels that use them have a plain path too, so a wrong guess costs
 * speed, never correctness. */
gboolean gst_cl_device_has_avx512 (const GstCLDeviceInfo * dev);
/* AVX-512 VBMI on the CPU of this process, for an AVX-512 CPU device
 * (PoCL runs kernels on it, though its compiler may target an older CPU);
 * the environment's GST_CL_VBMI=0 says no */
#define GST_CL_VBMI_ENV "GST_CL_VBMI"
gboolean gst_cl_device_has_vbmi (const GstCLDeviceInfo * dev);
/* Whether @dev is an NVIDIA GPU, whose compiler takes inline PTX. */
gboolean gst_cl_device_is_nvidia_gpu (const GstCLDeviceInfo * dev);
/* Whether @dev is one of PoCL's (Portable Computing Language) devices. */
gboolean gst_cl_device_is_pocl (const GstCLDeviceInfo * dev);
/* Whether @dev's tiled kernels, in work-groups @wg_x items across, trade
 * neighbours' values by warp shuffles (kernels/common.cl, WARP_XCHG):
 * only where a row of the group is one warp, @wg_x 32 on NVIDIA's GPUs
 * (inline PTX), unless the environment's GST_CL_WARP_XCHG=0 turns them
 * off (local memory then, as elsewhere). */
gboolean gst_cl_device_has_warp_shuffles (const GstCLDeviceInfo * dev,
    gint wg_x);
#define GST_CL_WARP_XCHG_ENV "GST_CL_WARP_XCHG"
/* Test hook: GST_CL_STAGING=1 gives every device the frames of a discrete
 * GPU (device memory, a pinned staging copy, explicit uploads and
 * downloads), so machines without one test that path. */
#define GST_CL_STAGING_ENV "GST_CL_STAGING"
/* "P.D name (TYPE)" for every device, one per line. Free with g_free(). */
gchar *gst_cl_device_describe_all (void);

/* Short label like "0.0 pthread-skylake (CPU)". */
gchar *gst_cl_device_info_label (const GstCLDeviceInfo * info);

G_END_DECLS
