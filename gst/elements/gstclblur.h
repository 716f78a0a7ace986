/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "cl/gstclfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BLUR (gst_cl_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCLBlur, gst_cl_blur, GST, CL_BLUR, GstCLFilter)

GST_ELEMENT_REGISTER_DECLARE (clblur);

G_END_DECLS
