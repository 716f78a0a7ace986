/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "cl/gstclfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_SOBEL (gst_cl_sobel_get_type ())
G_DECLARE_FINAL_TYPE (GstCLSobel, gst_cl_sobel, GST, CL_SOBEL, GstCLFilter)

GST_ELEMENT_REGISTER_DECLARE (clsobel);

G_END_DECLS
