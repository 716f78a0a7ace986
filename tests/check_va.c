/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The VA-API probe (gst/cl/gstclva.c) against stub devices: each missing
 * piece (build option, extension, entry points, VA display, shared context)
 * sends frames through system memory with its own reason; only all of them
 * together choose sharing. No Intel GPU is present on the test machines, so
 * the stubs stand in for it; the real devices present are probed too and
 * must fall back. Also the caps offered upstream on each path, and an
 * element started on a real device offering no VAMemory. */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "cl/gstclva.h"
#include "cl/gstcldevice.h"

static gint stub_calls;
static const gchar *stub_missing;       /* entry point the stub lacks */

static void *
stub_get_function (cl_platform_id platform, const char *name)
{
  static int token;
  stub_calls++;
  if (stub_missing && strcmp (name, stub_missing) == 0)
    return NULL;
  return &token;
}

static GstCLVaProbe
intel_like (void)
{
  GstCLVaProbe p = {
    .built_with_va = TRUE,
    .extensions = "cl_khr_fp16 cl_intel_va_api_media_sharing cl_khr_3d_image",
    .platform = NULL,
    .get_function = stub_get_function,
    .have_va_display = TRUE,
    .context_shares_va = TRUE,
  };
  stub_missing = NULL;
  stub_calls = 0;
  return p;
}

static void
assert_system (const GstCLVaProbe * p, const gchar * reason_part)
{
  const gchar *why = NULL;
  GstCLVaFunctions fns;
  memset (&fns, 0xff, sizeof (fns));
  fail_unless_equals_int (gst_cl_va_probe (p, &fns, &why),
      GST_CL_VA_PATH_SYSTEM_MEMORY);
  fail_unless (why != NULL);
  fail_unless (strstr (why, reason_part) != NULL, "reason \"%s\" lacks \"%s\"",
      why, reason_part);
  fail_unless (fns.create_from_va_surface == NULL && fns.enqueue_acquire == NULL);
}

GST_START_TEST (test_extension_words)
{
  fail_unless (gst_cl_va_has_extension ("cl_intel_va_api_media_sharing",
          GST_CL_VA_EXTENSION));
  fail_unless (gst_cl_va_has_extension ("a cl_intel_va_api_media_sharing b",
          GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension ("cl_intel_va_api_media_sharing_2",
          GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension ("xcl_intel_va_api_media_sharing",
          GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension ("", GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension (NULL, GST_CL_VA_EXTENSION));
}

GST_END_TEST;

GST_START_TEST (test_everything_present_shares)
{
  GstCLVaProbe p = intel_like ();
  GstCLVaFunctions fns = { 0 };
  const gchar *why = "unset";

  fail_unless_equals_int (gst_cl_va_probe (&p, &fns, &why),
      GST_CL_VA_PATH_SHARED);
  fail_unless (why == NULL);
  fail_unless (fns.get_device_ids_from_va && fns.create_from_va_surface &&
      fns.enqueue_acquire && fns.enqueue_release);
  fail_unless_equals_int (stub_calls, 4);
}

GST_END_TEST;

GST_START_TEST (test_each_missing_piece_falls_back)
{
  GstCLVaProbe p;
  const gchar *entry_points[] = {
    "clGetDeviceIDsFromVA_APIMediaAdapterINTEL",
    "clCreateFromVA_APIMediaSurfaceINTEL",
    "clEnqueueAcquireVA_APIMediaSurfacesINTEL",
    "clEnqueueReleaseVA_APIMediaSurfacesINTEL",
  };

  p = intel_like ();
  p.built_with_va = FALSE;
  assert_system (&p, "built without VA-API");
  fail_unless_equals_int (stub_calls, 0);

  p = intel_like ();
  p.extensions = "cl_khr_fp16 cl_khr_3d_image";
  assert_system (&p, "lacks cl_intel_va_api_media_sharing");
  fail_unless_equals_int (stub_calls, 0);

  p = intel_like ();
  p.extensions = NULL;
  assert_system (&p, "lacks");

  p = intel_like ();
  p.get_function = NULL;
  assert_system (&p, "resolves no extension functions");

  for (guint i = 0; i < G_N_ELEMENTS (entry_points); i++) {
    p = intel_like ();
    stub_missing = entry_points[i];
    assert_system (&p, "does not export its functions");
  }

  p = intel_like ();
  p.have_va_display = FALSE;
  assert_system (&p, "no VA display");

  p = intel_like ();
  p.context_shares_va = FALSE;
  assert_system (&p, "context was not created for the VA display");
}

GST_END_TEST;

GST_START_TEST (test_real_devices_fall_back)
{
  const GPtrArray *devices = gst_cl_device_list (NULL);

  if (!devices || devices->len == 0) {
    GST_INFO ("no OpenCL device: nothing to probe");
    return;
  }
  for (guint i = 0; i < devices->len; i++) {
    const GstCLDeviceInfo *d = g_ptr_array_index (devices, i);
    GstCLVaProbe p;
    gchar *ext = NULL;
    const gchar *why = NULL;

    gst_cl_va_probe_init (&p, d->platform, d->device, &ext);
    fail_unless (ext != NULL && *ext, "no extension list for %s", d->name);
    fail_unless (p.get_function != NULL);
    /* The context is not made for VA sharing yet, so every real device
     * ends in system memory, with a reason. */
    fail_unless_equals_int (gst_cl_va_probe (&p, NULL, &why),
        GST_CL_VA_PATH_SYSTEM_MEMORY);
    fail_unless (why != NULL);
    GST_INFO ("%s: %s", d->name, why);
    if (!gst_cl_va_has_extension (ext, GST_CL_VA_EXTENSION))
      fail_unless (strstr (why, "lacks") || strstr (why, "built without"));
    g_free (ext);
  }
}

GST_END_TEST;

GST_START_TEST (test_caps_per_path)
{
  GstCaps *sys = gst_caps_from_string ("video/x-raw, format=NV12, width=64, "
      "height=48; video/x-raw(memory:OpenCL), format=NV12, width=64, "
      "height=48");
  GstCaps *va = gst_caps_from_string ("video/x-raw(memory:VAMemory), "
      "format=NV12");
  GstCaps *any = gst_caps_new_any ();
  GstCaps *out;

  fail_if (gst_cl_va_caps_have_va_memory (sys));
  fail_unless (gst_cl_va_caps_have_va_memory (va));
  fail_if (gst_cl_va_caps_have_va_memory (any));

  out = gst_cl_va_sink_caps (sys, GST_CL_VA_PATH_SYSTEM_MEMORY);
  fail_unless (gst_caps_is_equal (out, sys));
  fail_if (gst_cl_va_caps_have_va_memory (out));
  gst_caps_unref (out);

  out = gst_cl_va_sink_caps (sys, GST_CL_VA_PATH_SHARED);
  fail_unless (gst_cl_va_caps_have_va_memory (out));
  /* VA first, and everything offered before is still offered */
  fail_unless (gst_caps_features_contains (gst_caps_get_features (out, 0),
          GST_CAPS_FEATURE_MEMORY_VA));
  fail_unless (gst_caps_is_subset (sys, out));
  gst_caps_unref (out);

  gst_caps_unref (any);
  gst_caps_unref (va);
  gst_caps_unref (sys);
}

GST_END_TEST;

/* clblur started on a real device: its sink pad offers no VAMemory, so a
 * VA decoder upstream hands over system memory. */
GST_START_TEST (test_element_offers_no_va_memory)
{
  GstElement *pipe, *blur;
  GstPad *sink;
  GstCaps *caps, *va;

  if (!gst_cl_device_list (NULL) || gst_cl_device_list (NULL)->len == 0)
    return;
  pipe = gst_parse_launch ("fakesrc ! clblur name=b ! fakesink", NULL);
  fail_unless (pipe != NULL);
  blur = gst_bin_get_by_name (GST_BIN (pipe), "b");
  fail_unless_equals_int (gst_element_set_state (blur, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  sink = gst_element_get_static_pad (blur, "sink");
  caps = gst_pad_query_caps (sink, NULL);
  fail_unless (caps && !gst_caps_is_empty (caps));
  fail_if (gst_cl_va_caps_have_va_memory (caps), "offers VAMemory: %"
      GST_PTR_FORMAT, caps);
  va = gst_caps_from_string ("video/x-raw(memory:VAMemory), format=NV12, "
      "width=64, height=48, framerate=30/1");
  fail_if (gst_pad_query_accept_caps (sink, va));
  gst_caps_unref (va);
  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_element_set_state (blur, GST_STATE_NULL);
  gst_object_unref (blur);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
va_suite (void)
{
  Suite *s = suite_create ("clva");
  TCase *tc = tcase_create ("probe");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_extension_words);
  tcase_add_test (tc, test_everything_present_shares);
  tcase_add_test (tc, test_each_missing_piece_falls_back);
  tcase_add_test (tc, test_real_devices_fall_back);
  tcase_add_test (tc, test_caps_per_path);
  tcase_add_test (tc, test_element_offers_no_va_memory);
  return s;
}

GST_CHECK_MAIN (va);
