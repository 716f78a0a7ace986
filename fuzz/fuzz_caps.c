/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: caps and property strings through the cl elements.
 * First byte even: the rest is a caps string, put through every element's
 * transform_caps (both directions, with and without filter), fixate_caps
 * and the accept-caps query. Odd: byte 2 picks an element and byte 3 a
 * property, the rest is its value as gst-launch would set it. No device is
 * needed: the elements stay in NULL. Plugin: $FUZZ_PLUGIN (meson sets the
 * built one in the binary). */
#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <string.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

static GstElement *elements[4];

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const gchar *names[] = {
    "clblur", "clsobel", "clhisteq", "cloptflow"
  };
  const gchar *path = g_getenv ("FUZZ_PLUGIN");
  GError *err = NULL;

  g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  gst_init (argc, argv);
  if (!gst_plugin_load_file (path ? path : FUZZ_PLUGIN, &err))
    g_error ("cannot load the plugin: %s", err->message);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    elements[i] = gst_element_factory_make (names[i], NULL);
    g_assert (elements[i]);
  }
  return 0;
}

static void
fuzz_caps (const gchar * str)
{
  GstCaps *caps = gst_caps_from_string (str);

  if (!caps)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstBaseTransform *trans = GST_BASE_TRANSFORM (elements[i]);
    GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (trans);
    GstPad *sink = GST_BASE_TRANSFORM_SINK_PAD (trans);

    for (gint d = 0; d < 2; d++) {
      GstPadDirection dir = d ? GST_PAD_SRC : GST_PAD_SINK;
      GstCaps *other = klass->transform_caps (trans, dir, caps, NULL);
      GstCaps *filtered = klass->transform_caps (trans, dir, caps, caps);
      g_assert (other && filtered);
      if (gst_caps_is_fixed (caps) && !gst_caps_is_empty (other)) {
        GstCaps *fixed = klass->fixate_caps (trans, dir, caps,
            gst_caps_ref (other));
        g_assert (fixed);
        gst_caps_unref (fixed);
      }
      gst_caps_unref (other);
      gst_caps_unref (filtered);
    }
    if (gst_caps_is_fixed (caps)) {
      GstVideoInfo info;
      gst_pad_query_accept_caps (sink, caps);
      gst_video_info_from_caps (&info, caps);
    }
  }
  gst_caps_unref (caps);
}

static void
fuzz_property (guint e, guint p, const gchar * value)
{
  GstElement *el = elements[e % G_N_ELEMENTS (elements)];
  guint n = 0;
  GParamSpec **props = g_object_class_list_properties (G_OBJECT_GET_CLASS
      (el), &n);
  GParamSpec *spec = props[p % n];

  if ((spec->flags & G_PARAM_WRITABLE) &&
      !(spec->flags & G_PARAM_CONSTRUCT_ONLY) &&
      strcmp (spec->name, "name") && strcmp (spec->name, "parent")) {
    GValue v = G_VALUE_INIT;
    gst_util_set_object_arg (G_OBJECT (el), spec->name, value);
    g_value_init (&v, spec->value_type);
    g_object_get_property (G_OBJECT (el), spec->name, &v);
    /* Whatever was set stays inside the property's range. */
    g_assert (!g_param_value_validate (spec, &v));
    g_value_unset (&v);
  }
  g_free (props);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar *str;

  if (size < 3)
    return 0;
  if (data[0] % 2 == 0) {
    str = g_strndup ((const gchar *) data + 1, size - 1);
    fuzz_caps (str);
  } else {
    str = g_strndup ((const gchar *) data + 3, size - 3);
    fuzz_property (data[1], data[2], str);
  }
  g_free (str);
  return 0;
}
