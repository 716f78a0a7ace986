/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <CL/cl.h>
#include "gstclcontext.h"

G_BEGIN_DECLS

#define GST_CL_MEMORY_TYPE_NAME "OpenCLMemory"
#define GST_CAPS_FEATURE_MEMORY_OPENCL "memory:OpenCL"

/* Map flag: gst_memory_map() with it returns the cl_mem (as the data
 * pointer) without waiting; the device copy is brought up to date first. */
#define GST_MAP_CL ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))

/* Host storage is aligned to this and its size rounded to GST_CL_SIZE_ALIGN,
 * so CL_MEM_USE_HOST_PTR wraps it without a copy on every driver. */
#define GST_CL_HOST_ALIGN 4096
#define GST_CL_SIZE_ALIGN 64

typedef struct _GstCLMemory GstCLMemory;

#define GST_TYPE_CL_ALLOCATOR (gst_cl_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCLAllocator, gst_cl_allocator, GST, CL_ALLOCATOR,
    GstAllocator)

struct _GstCLMemory
{
  GstMemory mem;

  GstCLContext *context;
  /* What kernels use. On a device that shares host memory it wraps
   * host_ptr (CL_MEM_USE_HOST_PTR); on a discrete device it is device
   * memory and host_ptr is the mapped pinned staging buffer. */
  cl_mem buffer;

  /*< private >*/
  gpointer host_ptr;
  gpointer host_alloc;          /* what to free, for our own host storage */
  cl_mem staging;               /* discrete only */
  gsize alloc_size;

  GMutex lock;
  cl_event last_event;          /* last command that used this memory */
  /* Discrete only: the last upload or download, the last command that
   * used the staging copy; and whether the main queue does not wait for
   * it yet (an upload queued at the writer's unmap, a download queued
   * right after the kernel). */
  cl_event transfer_event;
  gboolean transfer_unordered;
  gint cpu_maps;
  gboolean cpu_written;
  gboolean kernel_written;      /* last written by a kernel, not the CPU */
  gint state;                   /* which copy is newer (discrete only) */
};

/* A new allocator of GstCLMemory for @context (holds a reference to it). */
GstAllocator *gst_cl_allocator_new (GstCLContext * context);
/* The context of a GstCLAllocator (borrowed), NULL for other allocators. */
GstCLContext *gst_cl_allocator_get_context (GstAllocator * allocator);

gboolean gst_is_cl_memory (GstMemory * mem);

/* TRUE if @mem is a GstCLMemory that kernels of @context can use. */
gboolean gst_cl_memory_is_of_context (GstMemory * mem, GstCLContext * context);

/* Records @event (retained) as the last command that used @mem; with
 * @device_written, the device copy becomes the newer one. */
void gst_cl_memory_set_event (GstCLMemory * mem, cl_event event,
    gboolean device_written);

/* TRUE when @mem is a GstCLMemory whose content a kernel wrote last (an
 * OpenCL element produced it), FALSE once the CPU maps it for writing (a
 * producer filled a pool frame). device=auto followers use it. */
gboolean gst_cl_memory_is_kernel_written (GstMemory * mem);

/* After a kernel wrote @mem (gst_cl_memory_set_event), for a consumer that
 * is not an OpenCL element: on a discrete GPU with early downloads, queues
 * the download now, so that the consumer's CPU map only waits for it. */
void gst_cl_memory_download_early (GstCLMemory * mem);

G_END_DECLS
