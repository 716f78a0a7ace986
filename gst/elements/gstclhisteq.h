/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "cl/gstclfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_HISTEQ (gst_cl_histeq_get_type ())
G_DECLARE_FINAL_TYPE (GstCLHisteq, gst_cl_histeq, GST, CL_HISTEQ, GstCLFilter)

GST_ELEMENT_REGISTER_DECLARE (clhisteq);

G_END_DECLS
