/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCheck tests of clsobel: every format with GRAY8 and same-format output
 * against the C reference, the caps choices, properties and bad values,
 * changes while playing, renegotiation, refused caps, and clblur ! clsobel !
 * clblur chains asserted through the runtime's counters. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "clcheck.h"
#include <gst/app/gstappsink.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

#include "gstclref.h"
#include "cl/gstcldevice.h"

static const gchar *formats[] = {
  "GRAY8", "NV12", "I420", "RGBA", "BGRA", "RGBx", "BGRx",
};

typedef struct
{
  gint ksize;
  GstCLSobelMode mode;
  gdouble scale, delta;
  gint threshold;
} Params;

static const Params defaults = { 3, GST_CL_SOBEL_MAGNITUDE, 1.0, 0.0, 0 };

static guint32 seed = 1;

/* Luma of @frame as the element sees it (cv2.cvtColor for RGB). */
static guint8 *
luma_of (GstVideoFrame * f)
{
  gint w = GST_VIDEO_FRAME_WIDTH (f), h = GST_VIDEO_FRAME_HEIGHT (f);
  GstVideoFormat fmt = GST_VIDEO_FRAME_FORMAT (f);
  const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (f, 0);
  gint ss = GST_VIDEO_FRAME_PLANE_STRIDE (f, 0);
  guint8 *luma = g_malloc ((gsize) w * h);
  gboolean rgb = fmt == GST_VIDEO_FORMAT_RGBA || fmt == GST_VIDEO_FORMAT_RGBx;
  gboolean bgr = fmt == GST_VIDEO_FORMAT_BGRA || fmt == GST_VIDEO_FORMAT_BGRx;

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const guint8 *p = src + y * ss + x * (rgb || bgr ? 4 : 1);
      luma[y * w + x] = rgb ? gst_cl_ref_luma (p[0], p[1], p[2]) :
          bgr ? gst_cl_ref_luma (p[2], p[1], p[0]) : p[0];
    }
  return luma;
}

/* @out (GRAY8 or the input format) holds the edges of @in's luma: within
 * 1 LSB (thresholded: equal to the reference with threshold t-1, t or t+1),
 * chroma 128, RGB grey with alpha 255. */
static void
assert_edges (GstBuffer * in, const GstVideoInfo * in_info, GstBuffer * out,
    const GstVideoInfo * out_info, const Params * pr)
{
  GstVideoFrame fi, fo;
  gint w = GST_VIDEO_INFO_WIDTH (in_info), h = GST_VIDEO_INFO_HEIGHT (in_info);
  guint8 *luma, *ref[3];
  gint maxdiff = 0, bad = -1;

  fail_unless (gst_video_frame_map (&fi, in_info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, out_info, out, GST_MAP_READ));
  luma = luma_of (&fi);
  for (gint i = 0; i < 3; i++) {
    gint t = pr->threshold ? MAX (pr->threshold + i - 1, 1) : 0;
    ref[i] = g_malloc ((gsize) w * h);
    gst_cl_ref_sobel_plane (luma, w, ref[i], w, w, h, pr->ksize, pr->mode,
        pr->scale, pr->delta, t);
  }

  GstVideoFormat ofmt = GST_VIDEO_INFO_FORMAT (out_info);
  gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&fo, 0);
  const guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&fo, 0);
  gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const guint8 *p = dst + y * ds + x * ps;
      gint r = ref[1][y * w + x], d;
      if (pr->threshold)
        d = (p[0] == ref[0][y * w + x] || p[0] == r ||
            p[0] == ref[2][y * w + x]) ? 0 : 255;
      else
        d = abs (p[0] - r);
      if (ps == 4) {
        fail_unless (p[1] == p[0] && p[2] == p[0] && p[3] == 255,
            "%s pixel (%d,%d) is %d,%d,%d,%d: not grey with alpha 255",
            gst_video_format_to_string (ofmt), x, y, p[0], p[1], p[2], p[3]);
      }
      if (d > maxdiff) {
        maxdiff = d;
        bad = y * w + x;
      }
    }
  fail_unless (maxdiff <= 1, "%s -> %s %dx%d ksize=%d mode=%d: max diff %d "
      "at (%d,%d)", gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
          (in_info)), gst_video_format_to_string (ofmt), w, h, pr->ksize,
      pr->mode, maxdiff, bad % MAX (w, 1), bad / MAX (w, 1));

  for (guint p = 1; p < GST_VIDEO_FRAME_N_PLANES (&fo); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (out_info->finfo, p, comp);
    gint cw = GST_VIDEO_FRAME_COMP_WIDTH (&fo, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fo, comp[0]);
    gint ch = GST_VIDEO_FRAME_COMP_HEIGHT (&fo, comp[0]);
    const guint8 *c = GST_VIDEO_FRAME_PLANE_DATA (&fo, p);
    for (gint y = 0; y < ch; y++)
      for (gint x = 0; x < cw; x++)
        fail_unless (c[y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p) + x] == 128,
            "plane %u not neutral at (%d,%d)", p, x, y);
  }
  for (gint i = 0; i < 3; i++)
    g_free (ref[i]);
  g_free (luma);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
}

/* Pushes a random frame; the output format is what negotiation chose and
 * must be @want_out. */
static void
push_and_check (GstHarness * h, const gchar * format, gint w, gint ht,
    const Params * pr, const gchar * want_out)
{
  GstCaps *caps = clcheck_caps (format, w, ht), *out_caps;
  GstVideoInfo info, out_info;
  GstBuffer *in, *out;

  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  clcheck_fill_random (in, &seed);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  out_caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&out_info, out_caps));
  fail_unless_equals_string (gst_video_format_to_string
      (GST_VIDEO_INFO_FORMAT (&out_info)), want_out);
  assert_edges (in, &info, out, &out_info, pr);
  gst_caps_unref (out_caps);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_START_TEST (test_every_format_gray_output)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = clcheck_new_harness ("clsobel", "");
    push_and_check (h, formats[i], 64, 48, &defaults, "GRAY8");
    push_and_check (h, formats[i], 33, 17, &defaults, "GRAY8");
    push_and_check (h, formats[i], 1, 1, &defaults, "GRAY8");
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

GST_START_TEST (test_every_format_same_output)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = clcheck_new_harness ("clsobel", "");
    GstCaps *sink = gst_caps_from_string ("video/x-raw");
    gst_caps_set_simple (sink, "format", G_TYPE_STRING, formats[i], NULL);
    gst_harness_set_sink_caps (h, sink);
    push_and_check (h, formats[i], 64, 48, &defaults, formats[i]);
    push_and_check (h, formats[i], 31, 9, &defaults, formats[i]);
    push_and_check (h, formats[i], 2, 2, &defaults, formats[i]);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* GRAY8 is offered first for any input; the input format second; a GRAY8
 * output can come from every input format. */
GST_START_TEST (test_caps_order)
{
  GstElement *e = gst_element_factory_make ("clsobel", NULL);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (e);
  GstCaps *in = clcheck_caps ("NV12", 64, 48), *out, *back, *want;

  out = klass->transform_caps (GST_BASE_TRANSFORM (e), GST_PAD_SINK, in,
      NULL);
  fail_unless (gst_caps_get_size (out) == 4, "%" GST_PTR_FORMAT, out);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (out, 0), "format"), "GRAY8");
  fail_unless (gst_caps_features_contains (gst_caps_get_features (out, 0),
          "memory:OpenCL"));
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (out, 2), "format"), "NV12");
  gst_caps_unref (out);

  /* GRAY8 out: any supported input format; RGBA out: only RGBA in. */
  out = clcheck_caps ("GRAY8", 64, 48);
  back = klass->transform_caps (GST_BASE_TRANSFORM (e), GST_PAD_SRC, out,
      NULL);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    want = clcheck_caps (formats[i], 64, 48);
    fail_unless (gst_caps_can_intersect (back, want), "%s", formats[i]);
    gst_caps_unref (want);
  }
  gst_caps_unref (back);
  gst_caps_unref (out);
  out = clcheck_caps ("RGBA", 64, 48);
  back = klass->transform_caps (GST_BASE_TRANSFORM (e), GST_PAD_SRC, out,
      NULL);
  want = clcheck_caps ("NV12", 64, 48);
  fail_if (gst_caps_can_intersect (back, want));
  gst_caps_unref (want);
  want = clcheck_caps ("RGBA", 64, 48);
  fail_unless (gst_caps_can_intersect (back, want));
  gst_caps_unref (want);
  gst_caps_unref (back);
  gst_caps_unref (out);
  gst_caps_unref (in);
  gst_object_unref (e);
}
GST_END_TEST;

/* Downstream takes neither GRAY8 nor the input format: refused. */
GST_START_TEST (test_other_output_format_refused)
{
  GstHarness *h = clcheck_new_harness ("clsobel", "");
  GstCaps *caps = clcheck_caps ("NV12", 32, 32);

  gst_harness_set_sink_caps (h, gst_caps_from_string ("video/x-raw,"
          "format=RGBA"));
  gst_harness_set_src_caps (h, caps);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              32 * 32 * 3 / 2, NULL)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_operators_and_modes)
{
  static const gint ksizes[] = { 3, 5, 7, -1 };
  static const gchar *modes[] = { "magnitude", "x", "y" };

  for (guint k = 0; k < G_N_ELEMENTS (ksizes); k++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
      Params pr = { ksizes[k], m, k == 2 ? 0.02 : 0.5, m == 1 ? 4.0 : 0.0,
        0
      };
      gchar *props = g_strdup_printf ("kernel-size=%d mode=%s scale=%g "
          "delta=%g", pr.ksize, modes[m], pr.scale, pr.delta);
      GstHarness *h = clcheck_new_harness ("clsobel", props);
      push_and_check (h, m == 2 ? "BGRx" : "GRAY8", 45, 23, &pr, "GRAY8");
      gst_harness_teardown (h);
      g_free (props);
    }
}
GST_END_TEST;

GST_START_TEST (test_threshold)
{
  Params pr = defaults;
  GstHarness *h = clcheck_new_harness ("clsobel", "threshold=120");
  pr.threshold = 120;
  push_and_check (h, "I420", 50, 30, &pr, "GRAY8");
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_property_changes_while_playing)
{
  GstHarness *h = clcheck_new_harness ("clsobel", "");
  Params pr = defaults;

  push_and_check (h, "GRAY8", 40, 30, &pr, "GRAY8");
  g_object_set (h->element, "kernel-size", 5, "scale", 0.1, NULL);
  pr.ksize = 5;
  pr.scale = 0.1;
  push_and_check (h, "GRAY8", 40, 30, &pr, "GRAY8");
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "y");
  g_object_set (h->element, "threshold", 30, NULL);
  pr.mode = GST_CL_SOBEL_Y;
  pr.threshold = 30;
  push_and_check (h, "GRAY8", 40, 30, &pr, "GRAY8");
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make ("clsobel", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  gdouble scale, delta;
  gint k, mode, t;
  GValue v = G_VALUE_INIT;

  g_object_get (e, "kernel-size", &k, "mode", &mode, "scale", &scale,
      "delta", &delta, "threshold", &t, NULL);
  fail_unless_equals_int (k, 3);
  fail_unless_equals_int (mode, GST_CL_SOBEL_MAGNITUDE);
  fail_unless_equals_float (scale, 1.0);
  fail_unless_equals_float (delta, 0.0);
  fail_unless_equals_int (t, 0);

  /* Sizes other than 3, 5, 7, -1 are refused: the value stays. */
  g_object_set (e, "kernel-size", 7, NULL);
  g_object_set (e, "kernel-size", 4, NULL);
  g_object_get (e, "kernel-size", &k, NULL);
  fail_unless_equals_int (k, 7);
  g_object_set (e, "kernel-size", 1, NULL);
  g_object_get (e, "kernel-size", &k, NULL);
  fail_unless_equals_int (k, 7);
  g_object_set (e, "kernel-size", -1, NULL);
  g_object_get (e, "kernel-size", &k, NULL);
  fail_unless_equals_int (k, -1);

  /* Out of range values are clamped by the param specs. */
  g_value_init (&v, G_TYPE_INT);
  g_value_set_int (&v, 300);
  fail_unless (g_param_value_validate (g_object_class_find_property (klass,
              "threshold"), &v));
  fail_unless_equals_int (g_value_get_int (&v), 255);
  g_value_set_int (&v, 9);
  fail_unless (g_param_value_validate (g_object_class_find_property (klass,
              "kernel-size"), &v));
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 1e9);
  fail_unless (g_param_value_validate (g_object_class_find_property (klass,
              "scale"), &v));
  g_value_unset (&v);

  gst_util_set_object_arg (G_OBJECT (e), "mode", "x");
  g_object_get (e, "mode", &mode, NULL);
  fail_unless_equals_int (mode, GST_CL_SOBEL_X);
  fail_unless (g_object_class_find_property (klass, "mode")->flags &
      GST_PARAM_MUTABLE_PLAYING);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  GstHarness *h = clcheck_new_harness ("clsobel", "");
  push_and_check (h, "GRAY8", 64, 48, &defaults, "GRAY8");
  push_and_check (h, "NV12", 80, 62, &defaults, "GRAY8");
  push_and_check (h, "RGBA", 31, 9, &defaults, "GRAY8");
  push_and_check (h, "GRAY8", 64, 48, &defaults, "GRAY8");
  gst_harness_teardown (h);

  /* Same-format output across format changes. */
  h = clcheck_new_harness ("clsobel", "");
  gst_harness_set_sink_caps (h, gst_caps_from_string ("video/x-raw,"
          "format={ BGRx, I420 }"));
  push_and_check (h, "BGRx", 20, 10, &defaults, "BGRx");
  push_and_check (h, "I420", 21, 11, &defaults, "I420");
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_unsupported_caps_refused)
{
  clcheck_assert_refuses ("clsobel", "YUY2");
}
GST_END_TEST;

/* Runs @desc (with an appsink named sink) to the end, mapping every frame for
 * the CPU as a non-OpenCL consumer does. Returns the stats of element @name
 * and the builds seen once paused in @builds_at_start. */
static GstStructure *
run_counted (const gchar * desc, const gchar * name, gint64 * frames,
    gint64 * builds_at_start)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstElement *e, *sink;
  GstStructure *stats = NULL;

  fail_unless (pipe != NULL, "%s", err ? err->message : desc);
  e = gst_bin_get_by_name (GST_BIN (pipe), name);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  *builds_at_start = clcheck_stat (e, "program-builds") +
      clcheck_stat (e, "program-cache-loads");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  *frames = clcheck_drain_mapping (sink);
  g_object_get (e, "stats", &stats, NULL);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (e);
  gst_object_unref (pipe);
  return stats;
}

static gint64
field (const GstStructure * s, const gchar * name)
{
  gint64 v = -1;
  fail_unless (gst_structure_get_int64 (s, name, &v), "no %s", name);
  return v;
}

/* clblur ! clsobel ! clblur: one queue, no host sync between elements;
 * nothing built after start, bounded buffers, no frame copied on a device
 * sharing host memory. A map only counts a host wait when the frame's last
 * kernel is still running, so the number depends on timing: flat out, both
 * pipelines stay within two per frame (the source's write map, the sink's
 * read map); paced at 100 frames per second, where an element syncing with
 * the host would still show (300 waits or more), the chain must wait no
 * more than clblur alone plus a quarter of the frames: a kernel that is
 * late because other processes hold the cores makes the sink's map wait
 * (0 to 2 extra seen on a quiet machine, 4 to 11 with other test suites
 * sharing the two cores), while one element waiting per frame adds 300. */
static gchar *
chain_desc (gboolean paced, gboolean alone)
{
  return g_strdup_printf ("videotestsrc num-buffers=300 pattern=ball ! "
      "video/x-raw,format=NV12,width=320,height=240,framerate=%s ! "
      "clblur name=b1 device=cpu ! %s appsink name=sink sync=%s",
      paced ? "100/1" : "30/1", alone ? "" :
      "clsobel name=s device=cpu ! clblur name=b2 device=cpu ! ",
      paced ? "true" : "false");
}

GST_START_TEST (test_chain_counters)
{
  for (gint paced = 0; paced <= 1; paced++) {
    gchar *chain = chain_desc (paced, FALSE), *alone = chain_desc (paced, TRUE);
    gint64 frames, builds, frames_alone, builds_alone;
    GstStructure *c = run_counted (chain, "s", &frames, &builds);
    GstStructure *a = run_counted (alone, "b1", &frames_alone, &builds_alone);
    gint64 waits = field (c, "host-waits"), waits_alone = field (a,
        "host-waits");

    GST_INFO ("paced %d: chain %" GST_PTR_FORMAT ", clblur alone %"
        GST_PTR_FORMAT, paced, c, a);
    fail_unless_equals_int (frames, 300);
    fail_unless_equals_int (frames_alone, 300);
    fail_unless (builds >= 3, "programs must be ready at start");
    fail_unless_equals_int (field (c, "program-builds") +
        field (c, "program-cache-loads"), builds);
    /* Staged frames also wait once for each one's staging map. */
    fail_unless (waits <= 2 * frames + (clcheck_staged ()?
            field (c, "buffers-allocated") : 0), "%" G_GINT64_FORMAT
        " host waits for %" G_GINT64_FORMAT " frames", waits, frames);
    fail_unless (waits_alone <= 2 * frames + (clcheck_staged ()?
            field (a, "buffers-allocated") : 0), "clblur alone: %"
        G_GINT64_FORMAT " host waits", waits_alone);
    if (paced)
      fail_unless (waits <= waits_alone + frames / 4, "paced: chain %" G_GINT64_FORMAT
          " host waits, clblur alone %" G_GINT64_FORMAT, waits, waits_alone);
    fail_unless (field (c, "buffers-allocated") <= 3 * 16,
        "%" G_GINT64_FORMAT " buffers", field (c, "buffers-allocated"));
    fail_unless_equals_int (field (c, "frame-copies"), 0);
    /* Staged: one upload and one download a frame for the whole chain,
     * nothing between its elements. */
    fail_unless_equals_int (field (c, "uploads"), clcheck_staged ()? frames : 0);
    fail_unless_equals_int (field (c, "downloads"),
        clcheck_staged ()? frames : 0);
    g_print ("%s: chain %" G_GINT64_FORMAT " host waits, clblur alone %"
        G_GINT64_FORMAT " (300 frames), %" G_GINT64_FORMAT " buffers\n",
        paced ? "paced 100 fps" : "flat out", waits, waits_alone,
        field (c, "buffers-allocated"));
    gst_structure_free (c);
    gst_structure_free (a);
    g_free (chain);
    g_free (alone);
  }
}
GST_END_TEST;

static GstBuffer *
pull_buffer (GstElement * pipe, const gchar * name, GstVideoInfo * info)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), name);
  GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  GstBuffer *buf;

  fail_unless (sample != NULL, "%s: no sample", name);
  fail_unless (gst_video_info_from_caps (info, gst_sample_get_caps (sample)));
  buf = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_object_unref (sink);
  return buf;
}

/* Device pairs for clblur ! clsobel: both on the CPU device, and, when a
 * second device exists (a GPU, or a second PoCL device with
 * POCL_DEVICES="pthread pthread"), one element on each device in both
 * directions: a hand-over between two OpenCL contexts. */
static GPtrArray *
device_pairs (void)
{
  GPtrArray *pairs = g_ptr_array_new_with_free_func (g_free);
  const GPtrArray *devices = gst_cl_device_list (NULL);
  const GstCLDeviceInfo *a = NULL, *b = NULL;

  g_ptr_array_add (pairs, g_strdup ("cpu"));
  g_ptr_array_add (pairs, g_strdup ("cpu"));
  /* Prefer a GPU and a CPU; otherwise the first two devices. */
  for (guint i = 0; devices && i < devices->len; i++) {
    const GstCLDeviceInfo *d = g_ptr_array_index (devices, i);
    if (!a || (d->is_gpu && !a->is_gpu))
      a = d;
  }
  for (guint i = 0; devices && i < devices->len; i++) {
    const GstCLDeviceInfo *d = g_ptr_array_index (devices, i);
    if (d != a && (!b || (!d->is_gpu && b->is_gpu)))
      b = d;
  }
  if (a && b) {
    gchar *ia = g_strdup_printf ("%u.%u", a->platform_index, a->device_index);
    gchar *ib = g_strdup_printf ("%u.%u", b->platform_index, b->device_index);
    g_ptr_array_add (pairs, g_strdup (ia));
    g_ptr_array_add (pairs, g_strdup (ib));
    g_ptr_array_add (pairs, ib);
    g_ptr_array_add (pairs, ia);
  }
  return pairs;
}

/* Which devices' tiled kernels trade neighbours' sums by warp shuffles
 * (the host's -DWARP_XCHG): NVIDIA GPUs only, and not with
 * GST_CL_WARP_XCHG=0. The shuffle path itself is checked on an NVIDIA GPU
 * by check_sobel_kernels / check_blur_kernels. */
GST_START_TEST (test_warp_shuffles_by_device)
{
  GstCLDeviceInfo nv = { 0 }, pocl = { 0 };

  nv.is_gpu = TRUE;
  nv.platform_name = (gchar *) "NVIDIA CUDA";
  pocl.platform_name = (gchar *) "Portable Computing Language";
  g_unsetenv (GST_CL_WARP_XCHG_ENV);
  fail_unless (gst_cl_device_has_warp_shuffles (&nv, 32));
  fail_if (gst_cl_device_has_warp_shuffles (&pocl, 32));
  pocl.is_gpu = TRUE;           /* another vendor's GPU: no PTX */
  fail_if (gst_cl_device_has_warp_shuffles (&pocl, 32));
  fail_if (gst_cl_device_has_warp_shuffles (&nv, 16));  /* a row: 2 warps */
  nv.is_gpu = FALSE;
  fail_if (gst_cl_device_has_warp_shuffles (&nv, 32));
  nv.is_gpu = TRUE;
  g_setenv (GST_CL_WARP_XCHG_ENV, "0", TRUE);
  fail_if (gst_cl_device_has_warp_shuffles (&nv, 32));
  g_unsetenv (GST_CL_WARP_XCHG_ENV);
}

GST_END_TEST;

/* clblur ! clsobel: the edges are those of the blurred frame (tee'd off
 * before clsobel), also when the two elements run on different devices. */
GST_START_TEST (test_chain_result)
{
  GPtrArray *pairs = device_pairs ();
  Params pr = { 5, GST_CL_SOBEL_MAGNITUDE, 0.1, 0, 0 };

  for (guint k = 0; k < pairs->len; k += 2)
    for (guint f = 0; f < 2; f++) {
      const gchar *fmt = f ? "NV12" : "RGBA";
      gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 "
          "pattern=smpte ! video/x-raw,format=%s,width=97,height=61 ! "
          "clblur name=b device=%s sigma=1.5 ! tee name=t ! queue ! "
          "clsobel name=s device=%s kernel-size=5 scale=0.1 ! "
          "appsink name=edges sync=false  t. ! queue ! "
          "appsink name=blurred sync=false", fmt,
          (gchar *) pairs->pdata[k], (gchar *) pairs->pdata[k + 1]);
      GstElement *pipe = gst_parse_launch (desc, NULL);
      GstElement *b, *s;
      gchar *bdev = NULL, *sdev = NULL;

      fail_unless (pipe != NULL);
      gst_element_set_state (pipe, GST_STATE_PLAYING);
      for (gint i = 0; i < 3; i++) {
        GstVideoInfo bi, ei;
        GstBuffer *bb = pull_buffer (pipe, "blurred", &bi);
        GstBuffer *e = pull_buffer (pipe, "edges", &ei);
        fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&ei),
            GST_VIDEO_FORMAT_GRAY8);
        assert_edges (bb, &bi, e, &ei, &pr);
        gst_buffer_unref (bb);
        gst_buffer_unref (e);
      }
      b = gst_bin_get_by_name (GST_BIN (pipe), "b");
      s = gst_bin_get_by_name (GST_BIN (pipe), "s");
      g_object_get (b, "current-device", &bdev, NULL);
      g_object_get (s, "current-device", &sdev, NULL);
      g_print ("chain %s: clblur on %s ! clsobel on %s: edges match\n", fmt,
          bdev, sdev);
      g_free (bdev);
      g_free (sdev);
      gst_object_unref (b);
      gst_object_unref (s);
      gst_element_set_state (pipe, GST_STATE_NULL);
      gst_object_unref (pipe);
      g_free (desc);
    }
  g_ptr_array_unref (pairs);
}

GST_END_TEST;

static Suite *
clsobel_suite (void)
{
  Suite *s = suite_create ("clsobel");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 1200);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_gray_output);
  tcase_add_test (tc, test_every_format_same_output);
  tcase_add_test (tc, test_caps_order);
  tcase_add_test (tc, test_other_output_format_refused);
  tcase_add_test (tc, test_operators_and_modes);
  tcase_add_test (tc, test_threshold);
  tcase_add_test (tc, test_property_changes_while_playing);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_unsupported_caps_refused);
  tcase_add_test (tc, test_chain_counters);
  tcase_add_test (tc, test_chain_result);
  tcase_add_test (tc, test_warp_shuffles_by_device);
  return s;
}

GST_CHECK_MAIN (clsobel);
