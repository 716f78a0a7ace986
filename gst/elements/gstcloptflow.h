/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "cl/gstclfilter.h"
#include "clfilters/gstclflowmeta.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_OPTFLOW (gst_cl_optflow_get_type ())
G_DECLARE_FINAL_TYPE (GstCLOptflow, gst_cl_optflow, GST, CL_OPTFLOW,
    GstCLFilter)

GST_ELEMENT_REGISTER_DECLARE (cloptflow);

/* gstcloptflowmeta.c: the meta's API type and implementation. */
GType gst_cl_flow_meta_api_get_type (void);
const GstMetaInfo *gst_cl_flow_meta_get_info (void);
/* Attaches a flow meta to @buffer, taking @field. */
GstCLFlowMeta *gst_buffer_add_cl_flow_meta (GstBuffer * buffer,
    GstBuffer * field, guint width, guint height, guint cell_size,
    gsize stride);

G_END_DECLS
