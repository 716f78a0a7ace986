/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the GstCheck tests of the cl elements. */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

/* One counter of the element's shared context ("host-waits", ...). */
static inline gint64
clcheck_stat (GstElement * e, const gchar * field)
{
  GstStructure *s = NULL;
  gint64 v = -1;
  g_object_get (e, "stats", &s, NULL);
  fail_unless (s != NULL, "no stats");
  fail_unless (gst_structure_get_int64 (s, field, &v), "no %s", field);
  gst_structure_free (s);
  return v;
}

/* A harness around a bare @factory element (not a bin) configured with
 * @props ("name=value name=value") before the harness starts it: the
 * harness sets elements with a sink pad to PLAYING at once, and some
 * properties (device) are only read at start. */
static inline GstHarness *
clcheck_new_harness (const gchar * factory, const gchar * props)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstHarness *h;
  gchar **kv = g_strsplit (props, " ", -1);

  fail_unless (e != NULL, "no %s", factory);
  for (gchar ** p = kv; *p; p++) {
    gchar **pair = g_strsplit (*p, "=", 2);
    if (pair[0] && pair[1])
      gst_util_set_object_arg (G_OBJECT (e), pair[0], pair[1]);
    g_strfreev (pair);
  }
  g_strfreev (kv);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

static inline GstCaps *
clcheck_caps (const gchar * format, gint w, gint h)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
}
