/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dlfcn.h>
#include <gst/gst.h>
#include "cl/gstclutils.h"
#include "elements/gstclblur.h"
#include "elements/gstclhisteq.h"
#include "elements/gstclsobel.h"
#include "elements/gstcloptflow.h"

/* Registers every element even without an OpenCL device: the elements say
 * what is missing when they start, so gst-inspect-1.0 always documents them. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = FALSE;

  gst_cl_debug_init ();
  /* GStreamer opens plugins RTLD_LOCAL, which hides the OpenCL loader from
   * LD_PRELOAD interposers (cltrace, vendor tracers) that look the real
   * functions up with dlsym (RTLD_NEXT): make the already loaded library
   * global. */
  dlopen ("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  ok |= GST_ELEMENT_REGISTER (clblur, plugin);
  ok |= GST_ELEMENT_REGISTER (clhisteq, plugin);
  ok |= GST_ELEMENT_REGISTER (clsobel, plugin);
  ok |= GST_ELEMENT_REGISTER (cloptflow, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, openclfilters,
    "Video filters as OpenCL kernels (GPU and CPU devices)", plugin_init,
    PACKAGE_VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
