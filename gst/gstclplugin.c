/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include "cl/gstclutils.h"
#include "elements/gstclblur.h"
#include "elements/gstclsobel.h"

/* Registers every element even without an OpenCL device: the elements say
 * what is missing when they start, so gst-inspect-1.0 always documents them. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = FALSE;

  gst_cl_debug_init ();
  ok |= GST_ELEMENT_REGISTER (clblur, plugin);
  ok |= GST_ELEMENT_REGISTER (clsobel, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, openclfilters,
    "Video filters as OpenCL kernels (GPU and CPU devices)", plugin_init,
    PACKAGE_VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
