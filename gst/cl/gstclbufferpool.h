/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/video/video.h>
#include <gst/video/gstvideopool.h>
#include "gstclcontext.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BUFFER_POOL (gst_cl_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCLBufferPool, gst_cl_buffer_pool, GST,
    CL_BUFFER_POOL, GstVideoBufferPool)

/* Pools never hold more than this many buffers unless a peer asks for a
 * larger minimum, so the device cannot run unboundedly ahead. */
#define GST_CL_BUFFER_POOL_DEFAULT_MAX 8

/* A pool of frames in GstCLMemory for @context: the allocator, 4096-byte
 * alignment, a bounded size and GstVideoMeta are enforced by set_config,
 * which rewrites the config and returns FALSE when asked for other values. */
GstBufferPool *gst_cl_buffer_pool_new (GstCLContext * context);

GstCLContext *gst_cl_buffer_pool_get_context (GstBufferPool * pool);
/* @owner (weakly referenced) posts the element error when an allocation
 * fails. */
void gst_cl_buffer_pool_set_owner (GstBufferPool * pool, GstElement * owner);

/* Fills @config for @caps with everything set_config demands. */
void gst_cl_buffer_pool_config_prepare (GstCLContext * context,
    GstStructure * config, GstCaps * caps, guint size, guint min, guint max);

G_END_DECLS
