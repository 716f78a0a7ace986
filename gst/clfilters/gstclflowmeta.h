/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The dense flow field that cloptflow attaches to every frame.
 *
 * Header-only: applications need not link the plugin. The meta's API type
 * is registered by the plugin when cloptflow is first used; before that,
 * gst_buffer_get_cl_flow_meta() returns NULL.
 *
 * Layout: @field holds @height rows of @width cells, @stride bytes apart;
 * each cell is two native-endian floats (dx, dy) in pixels, OpenCV's
 * convention prev(y, x) ~ next(y + dy, x + dx): where the content of pixel
 * (x, y) of the previous frame is in this frame. cloptflow writes one cell
 * per pixel (@cell_size 1). The first frame of a stream (and the first
 * after a flush, seek, discontinuity or size change) carries zeros.
 *
 * The field is OpenCL memory still being computed when the frame passes;
 * gst_buffer_map (meta->field, &map, GST_MAP_READ) waits for the device
 * then, and only then. Keep a reference (gst_buffer_ref) to use the field
 * after the frame is gone. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_CL_FLOW_META_API_NAME "GstCLFlowMetaAPI"

typedef struct
{
  GstMeta meta;
  guint width, height;          /* field size in cells */
  guint cell_size;              /* cell side in pixels (1 = one per pixel) */
  gsize stride;                 /* bytes between rows of the field */
  GstBuffer *field;             /* 2 floats (dx, dy) per cell, row-major */
} GstCLFlowMeta;

/* The flow meta of @buffer, or NULL (none, or cloptflow never ran). */
static inline GstCLFlowMeta *
gst_buffer_get_cl_flow_meta (GstBuffer * buffer)
{
  GType api = g_type_from_name (GST_CL_FLOW_META_API_NAME);
  return api ? (GstCLFlowMeta *) gst_buffer_get_meta (buffer, api) : NULL;
}

G_END_DECLS
