/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the GstCheck tests of the cl elements. */
#pragma once

#include <gst/check/gstcheck.h>
#include <math.h>
#include <gst/check/gstharness.h>

/* Whether GST_CL_STAGING=1 gives the devices a discrete GPU's frames
 * (device memory, one upload where a CPU wrote the frame, one download
 * where a CPU reads it; no foreign frame wrapped in place), so the
 * counters' expectations are a discrete GPU's. */
static inline gboolean
clcheck_staged (void)
{
  return g_strcmp0 (g_getenv ("GST_CL_STAGING"), "1") == 0;
}

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

#include <gst/app/gstappsink.h>

/* Pulls every sample from @sink until EOS, mapping each frame for reading
 * as a non-OpenCL consumer does. Returns the number of frames. */
static inline gint64
clcheck_drain_mapping (GstElement * sink)
{
  GstSample *sample;
  gint64 frames = 0;

  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstMapInfo map;
    fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
            GST_MAP_READ));
    gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
    gst_sample_unref (sample);
    frames++;
  }
  return frames;
}

/* A format outside @factory's templates is refused at negotiation. */
static inline void
clcheck_assert_refuses (const gchar * factory, const gchar * format)
{
  GstHarness *h = clcheck_new_harness (factory, "");
  GstCaps *caps = clcheck_caps (format, 64, 48);
  GstCaps *templ = gst_pad_get_pad_template_caps (h->element->sinkpads->data);

  fail_if (gst_caps_can_intersect (caps, templ));
  gst_caps_unref (templ);
  gst_harness_set_src_caps (h, caps);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              64 * 48 * 2, NULL)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

/* Fills @buf with bytes from a linear congruential sequence (@seed: its
 * state), so every test run sees the same "random" frames. */
static inline void
clcheck_fill_random (GstBuffer * buf, guint32 * seed)
{
  GstMapInfo map;
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; i++) {
    *seed = *seed * 1664525u + 1013904223u;
    map.data[i] = *seed >> 24;
  }
  gst_buffer_unmap (buf, &map);
}

/* Reads numeric property @name of @e (double, int or uint) as a double. */
static inline gdouble
clcheck_get_number (GstElement * e, GParamSpec * ps)
{
  GValue v = G_VALUE_INIT;
  gdouble d;

  g_value_init (&v, ps->value_type);
  g_object_get_property (G_OBJECT (e), ps->name, &v);
  d = ps->value_type == G_TYPE_DOUBLE ? g_value_get_double (&v) :
      ps->value_type == G_TYPE_INT ? g_value_get_int (&v) :
      (gdouble) g_value_get_uint (&v);
  g_value_unset (&v);
  return d;
}

/* Out-of-range @bad for numeric property @name of @e is clamped to @want by
 * the property's spec, and set that way. */
static inline void
clcheck_assert_clamped (GstElement * e, const gchar * name, gdouble bad,
    gdouble want)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GValue v = G_VALUE_INIT;
  gdouble clamped, got;

  fail_unless (ps != NULL, "%s", name);
  g_value_init (&v, ps->value_type);
  if (ps->value_type == G_TYPE_DOUBLE)
    g_value_set_double (&v, bad);
  else if (ps->value_type == G_TYPE_INT)
    g_value_set_int (&v, (gint) bad);
  else
    g_value_set_uint (&v, (guint) bad);
  fail_unless (g_param_value_validate (ps, &v), "%s=%g should be refused",
      name, bad);
  clamped = ps->value_type == G_TYPE_DOUBLE ? g_value_get_double (&v) :
      ps->value_type == G_TYPE_INT ? g_value_get_int (&v) :
      (gdouble) g_value_get_uint (&v);
  fail_unless (fabs (clamped - want) < 1e-9, "%s=%g clamped to %g, not %g",
      name, bad, clamped, want);
  g_object_set_property (G_OBJECT (e), name, &v);
  g_value_unset (&v);
  got = clcheck_get_number (e, ps);
  fail_unless (fabs (got - want) < 1e-9, "%s: set %g, reads %g", name, want,
      got);
}
