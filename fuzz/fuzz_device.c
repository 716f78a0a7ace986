/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the device request string (the "device" property and
 * GST_CL_DEVICE) through gst_cl_device_select(). Either a device, or NULL
 * with a message; never a crash. */
#include <gst/gst.h>
#include "cl/gstcldevice.h"

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar *request = g_strndup ((const gchar *) data, size);
  GError *err = NULL;
  const GstCLDeviceInfo *dev = gst_cl_device_select (request, &err);

  g_assert ((dev != NULL) != (err != NULL));
  if (err) {
    g_assert (err->message && *err->message);
    g_error_free (err);
  }
  g_free (request);
  return 0;
}
