/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <CL/cl.h>
#include "gstclcontext.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_FILTER (gst_cl_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCLFilter, gst_cl_filter, GST, CL_FILTER,
    GstBaseTransform)

/* One plane of a frame as kernels see it: byte offset into the frame's
 * cl_mem, row stride, size in pixels and bytes per pixel. */
typedef struct
{
  guint offset;
  gint stride;
  gint width;
  gint height;
  gint pixel_bytes;
} GstCLPlane;

/* A frame ready for kernels: one cl_mem holding every plane. */
typedef struct
{
  GstVideoInfo info;
  cl_mem mem;
  guint n_planes;
  GstCLPlane planes[GST_VIDEO_MAX_PLANES];

  /*< private >*/
  GstBuffer *buffer;
  GstMemory *memory;
  GstMapInfo map;
  gpointer wrap;
} GstCLFrame;

struct _GstCLFilterClass
{
  GstBaseTransformClass parent_class;

  /* Builds programs and kernels for the current properties. Called when the
   * element starts (READY->PAUSED) and again before the next frame after
   * gst_cl_filter_invalidate(). With device=auto it also runs on a clone
   * of the element (same type and properties, the other device's context,
   * no caps yet) in another thread while the element's own build() runs:
   * it may touch only its own instance and the context, depend on the
   * properties alone, and post nothing. */
  gboolean (*build) (GstCLFilter * filter, GError ** error);
  /* Releases what build() created, all or part of it (also after a build()
   * that failed half way, and when nothing was built). */
  void (*release) (GstCLFilter * filter);
  /* New caps were accepted. */
  gboolean (*set_info) (GstCLFilter * filter, const GstVideoInfo * in_info,
      const GstVideoInfo * out_info);
  /* Enqueues the work for one frame and returns the event of the last
   * command it enqueued in @done (a new reference). Never waits. */
  cl_int (*process) (GstCLFilter * filter, const GstCLFrame * in,
      const GstCLFrame * out, cl_event * done);
  /* device=auto moves the element from context @from to @to between two
   * frames (on the streaming thread; no frame of @to has been processed
   * yet). The default releases what build() created, makes @to the
   * element's context and builds again; the programs come from @to's
   * program table, filled at start, so nothing compiles. An element that
   * keeps temporal state on the device (histogram smoothing, a previous
   * frame) overrides it: reads the state from @from, chains up, puts the
   * state on @to. */
  gboolean (*migrate) (GstCLFilter * filter, GstCLContext * from,
      GstCLContext * to, GError ** error);

  gpointer _reserved[7];
};

/* Sets the arguments every plane-to-plane kernel starts with (src, its
 * offset and stride, dst, its offset and stride) from *@arg on, and leaves
 * *@arg after them. Returns the OR of the clSetKernelArg results. */
cl_int gst_cl_plane_set_args (cl_kernel kernel, cl_uint * arg, cl_mem src,
    const GstCLPlane * src_plane, cl_mem dst, const GstCLPlane * dst_plane);

/* The context in use (borrowed), NULL while stopped. */
GstCLContext *gst_cl_filter_get_context (GstCLFilter * filter);

/* device=auto with a usable second device: a frame that fails here is
 * run again there (docs/AUTO.md). An element whose process() changes
 * temporal state before it may fail keeps what it needs to restore the
 * state as it was before the frame (when this is TRUE). */
gboolean gst_cl_filter_can_fail_over (GstCLFilter * filter);

/* TRUE while migrate() runs because the current frame failed on @from in
 * or after process(): the state must be carried as it was before that
 * frame (the frame runs again on @to), not as the failed frame's work left
 * it. FALSE where it failed before (its input or output could not be
 * accessed): nothing of it ran, the state is carried as it is. */
gboolean gst_cl_filter_frame_faulted (GstCLFilter * filter);

/* Asks for build() to run again before the next frame (properties changed). */
void gst_cl_filter_invalidate (GstCLFilter * filter);

/* Template caps for @formats (e.g. "{ GRAY8, NV12 }"), memory:OpenCL first,
 * then system memory. */
GstCaps *gst_cl_filter_make_caps (const gchar * formats);
/* Adds "sink" and "src" pad templates of gst_cl_filter_make_caps(@formats). */
void gst_cl_filter_class_add_pad_templates (GstElementClass * klass,
    const gchar * formats);

/* @caps (not taken) with each structure offered in memory:OpenCL first,
 * then in system memory; ANY features are kept. For subclasses that
 * override transform_caps. */
GstCaps *gst_cl_filter_caps_with_features (GstCaps * caps);


G_END_DECLS
