/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCheck tests of cloptflow: every format (the flow of a known shift in
 * the meta), refused caps, properties and bad values, the meta's layout
 * through the public header, messages and their fields, the reset on the
 * first frame, a flush, a discontinuity and a size change, passthrough
 * leaving the frame as it was, the overlay drawing only where there is
 * motion, a flat still background staying still next to a moving object,
 * and the counters: no host wait of its own without messages, one per
 * frame with them. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "clcheck.h"
#include <gst/video/video.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clfilters/gstclflowmeta.h"

static const gchar *formats[] = {
  "GRAY8", "NV12", "I420", "RGBA", "BGRA", "RGBx", "BGRx",
};

#define W 160
#define H 120
#define PAD 32
#define CW (W + 2 * PAD)
#define CH (H + 2 * PAD)
#define SHIFT_X 3
#define SHIFT_Y (-2)

static guint8 canvas[CH][CW];

static guint32 seed = 7;

static guint8
rnd (void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed >> 24;
}

/* Texture: noise box-blurred twice (5x5), contrast stretched. The same
 * every call, whichever tests ran before in the process (CK_FORK=no). */
static void
make_canvas (void)
{
  static gfloat a[CH][CW], b[CH][CW];
  gfloat lo = 1e9, hi = -1e9;

  seed = 7;

  for (gint y = 0; y < CH; y++)
    for (gint x = 0; x < CW; x++)
      a[y][x] = rnd ();
  for (gint pass = 0; pass < 2; pass++) {
    for (gint y = 0; y < CH; y++)
      for (gint x = 0; x < CW; x++) {
        gfloat s = 0;
        for (gint j = -2; j <= 2; j++)
          for (gint i = -2; i <= 2; i++)
            s += a[CLAMP (y + j, 0, CH - 1)][CLAMP (x + i, 0, CW - 1)];
        b[y][x] = s / 25;
      }
    memcpy (a, b, sizeof (a));
  }
  for (gint y = 0; y < CH; y++)
    for (gint x = 0; x < CW; x++) {
      lo = MIN (lo, a[y][x]);
      hi = MAX (hi, a[y][x]);
    }
  for (gint y = 0; y < CH; y++)
    for (gint x = 0; x < CW; x++)
      canvas[y][x] = (guint8) (10 + 235 * (a[y][x] - lo) / (hi - lo));
}

/* A frame of @format, @w x @h, whose luma is the canvas seen with the
 * content moved by (dx, dy) (so prev(p) = next(p + d) between a frame at
 * 0 and one at d); chroma 128, RGB grey. */
static GstBuffer *
make_frame (const gchar * format, gint w, gint h, gint dx, gint dy)
{
  GstVideoInfo info;
  GstVideoFrame f;
  GstBuffer *buf;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      h);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    gint pw = GST_VIDEO_FRAME_COMP_WIDTH (&f, p == 0 ? 0 : 1);
    gint ph = GST_VIDEO_FRAME_COMP_HEIGHT (&f, p == 0 ? 0 : 1);
    gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&f, p == 0 ? 0 : 1);
    for (gint y = 0; y < ph; y++)
      for (gint x = 0; x < pw; x++) {
        guint8 *px = d + y * stride + x * ps;
        if (p > 0) {
          memset (px, 128, ps);
        } else {
          guint8 v = canvas[CLAMP (y + PAD - dy, 0, CH - 1)]
              [CLAMP (x + PAD - dx, 0, CW - 1)];
          if (GST_VIDEO_INFO_N_PLANES (&info) == 1 && ps == 4) {
            px[0] = px[1] = px[2] = v;
            px[3] = 255;
          } else {
            px[0] = v;
          }
        }
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* Mean flow of the meta's field inside a 24-pixel margin; checks layout. */
static void
meta_mean (GstBuffer * out, gint w, gint h, gdouble * mx, gdouble * my)
{
  GstCLFlowMeta *m = gst_buffer_get_cl_flow_meta (out);
  GstMapInfo map;
  gdouble sx = 0, sy = 0;
  gint n = 0;

  fail_unless (m != NULL, "no flow meta");
  fail_unless_equals_int (m->width, w);
  fail_unless_equals_int (m->height, h);
  fail_unless_equals_int (m->cell_size, 1);
  fail_unless (m->stride >= (gsize) w * 2 * sizeof (gfloat));
  fail_unless (m->field != NULL);
  fail_unless (gst_buffer_map (m->field, &map, GST_MAP_READ));
  fail_unless (map.size >= m->stride * (h - 1) + (gsize) w * 8);
  for (gint y = 24; y < h - 24; y++)
    for (gint x = 24; x < w - 24; x++) {
      const gfloat *c = (const gfloat *) (map.data + y * m->stride) + 2 * x;
      sx += c[0];
      sy += c[1];
      n++;
    }
  gst_buffer_unmap (m->field, &map);
  *mx = sx / n;
  *my = sy / n;
}

static GstBuffer *
push_pull (GstHarness * h, GstBuffer * in)
{
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  return gst_harness_pull (h);
}

/* Every format: zero flow on the first frame, the shift on the second. */
GST_START_TEST (test_every_format)
{
  make_canvas ();
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = clcheck_new_harness ("cloptflow", "device=cpu");
    GstBuffer *out;
    gdouble mx, my;

    gst_harness_set_src_caps (h, clcheck_caps (formats[i], W, H));
    out = push_pull (h, make_frame (formats[i], W, H, 0, 0));
    meta_mean (out, W, H, &mx, &my);
    fail_unless (mx == 0 && my == 0, "%s: first frame flow %f, %f",
        formats[i], mx, my);
    gst_buffer_unref (out);
    out = push_pull (h, make_frame (formats[i], W, H, SHIFT_X, SHIFT_Y));
    meta_mean (out, W, H, &mx, &my);
    GST_INFO ("%s: mean flow %.4f, %.4f", formats[i], mx, my);
    {
      /* A copy of the frame shares the field; a partial copy drops it. */
      GstBuffer *copy = gst_buffer_copy (out);
      GstBuffer *part = gst_buffer_copy_region (out, GST_BUFFER_COPY_ALL, 0,
          16);
      fail_unless (gst_buffer_get_cl_flow_meta (copy) != NULL);
      fail_unless (gst_buffer_get_cl_flow_meta (copy)->field ==
          gst_buffer_get_cl_flow_meta (out)->field);
      fail_unless (gst_buffer_get_cl_flow_meta (part) == NULL);
      gst_buffer_unref (copy);
      gst_buffer_unref (part);
    }
    fail_unless (fabs (mx - SHIFT_X) < 0.1 && fabs (my - SHIFT_Y) < 0.1,
        "%s: mean flow %f, %f, expected %d, %d", formats[i], mx, my, SHIFT_X,
        SHIFT_Y);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* finest-level: the field refined at a quarter of the resolution still
 * finds the shift; lowered while playing it goes on without a restart
 * (the previous frame's finer levels are prepared then); above the
 * coarsest level it is the coarsest level. */
GST_START_TEST (test_finest_level)
{
  GstHarness *h = clcheck_new_harness ("cloptflow",
      "device=cpu finest-level=2");
  GstBuffer *out;
  gdouble mx, my, cx, cy;

  make_canvas ();
  gst_harness_set_src_caps (h, clcheck_caps ("GRAY8", W, H));
  gst_buffer_unref (push_pull (h, make_frame ("GRAY8", W, H, 0, 0)));
  out = push_pull (h, make_frame ("GRAY8", W, H, SHIFT_X, SHIFT_Y));
  meta_mean (out, W, H, &mx, &my);
  GST_INFO ("finest-level 2: %.4f, %.4f", mx, my);
  /* measured 2.87, -2.01: the quarter-resolution limit of the accuracy
   * test (tests/test_opencv_optflow.py) */
  fail_unless (fabs (mx - SHIFT_X) < 0.25 && fabs (my - SHIFT_Y) < 0.25,
      "finest-level 2: mean flow %f, %f", mx, my);
  gst_buffer_unref (out);

  g_object_set (h->element, "finest-level", 0, NULL);
  out = push_pull (h, make_frame ("GRAY8", W, H, 2 * SHIFT_X, 2 * SHIFT_Y));
  meta_mean (out, W, H, &mx, &my);
  GST_INFO ("finest-level 0 after 2: %.4f, %.4f", mx, my);
  fail_unless (fabs (mx - SHIFT_X) < 0.1 && fabs (my - SHIFT_Y) < 0.1,
      "finest-level lowered while playing: mean flow %f, %f", mx, my);
  gst_buffer_unref (out);

  /* with 3 levels (a restart), 2 is the coarsest (40x30), 7 means the
   * same */
  g_object_set (h->element, "levels", 3, "finest-level", 2, NULL);
  gst_buffer_unref (push_pull (h, make_frame ("GRAY8", W, H, 2 * SHIFT_X,
              2 * SHIFT_Y)));
  out = push_pull (h, make_frame ("GRAY8", W, H, 3 * SHIFT_X, 3 * SHIFT_Y));
  meta_mean (out, W, H, &cx, &cy);
  gst_buffer_unref (out);
  g_object_set (h->element, "finest-level", 7, NULL);
  gst_buffer_unref (push_pull (h, make_frame ("GRAY8", W, H, 2 * SHIFT_X,
              2 * SHIFT_Y)));
  out = push_pull (h, make_frame ("GRAY8", W, H, 3 * SHIFT_X, 3 * SHIFT_Y));
  meta_mean (out, W, H, &mx, &my);
  GST_INFO ("finest-level 2 of 3: %.4f, %.4f; 7: %.4f, %.4f", cx, cy, mx,
      my);
  fail_unless (mx == cx && my == cy, "finest-level 7 %f, %f != 2 %f, %f",
      mx, my, cx, cy);
  fail_unless (fabs (mx - SHIFT_X) < 0.25 && fabs (my - SHIFT_Y) < 0.25,
      "coarsest level only: mean flow %f, %f", mx, my);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_unsupported_caps_refused)
{
  clcheck_assert_refuses ("cloptflow", "YUY2");
  clcheck_assert_refuses ("cloptflow", "RGB");
  clcheck_assert_refuses ("cloptflow", "GRAY16_LE");
}
GST_END_TEST;

GST_START_TEST (test_properties_and_bad_values)
{
  GstElement *e = gst_element_factory_make ("cloptflow", NULL);
  gint levels, win, iters, bs;
  gdouble eps, maxm;
  gboolean post;

  fail_unless (e != NULL);
  g_object_get (e, "levels", &levels, "window-size", &win, "iterations",
      &iters, "epsilon", &eps, "post-messages", &post, "message-block-size",
      &bs, "overlay-max-motion", &maxm, NULL);
  fail_unless_equals_int (levels, 5);
  fail_unless_equals_int (win, 15);
  fail_unless_equals_int (iters, 5);
  fail_unless (eps > 0 && eps < 0.1);
  fail_unless (!post);
  fail_unless_equals_int (bs, 16);
  fail_unless (maxm > 0);

  /* Even windows are rounded up to odd. */
  g_object_set (e, "window-size", 10, NULL);
  g_object_get (e, "window-size", &win, NULL);
  fail_unless_equals_int (win, 11);
  /* Out-of-range values are clamped by the param specs. */
  clcheck_assert_clamped (e, "levels", 0, 1);
  clcheck_assert_clamped (e, "levels", 100, 8);
  clcheck_assert_clamped (e, "iterations", 1000, 100);
  clcheck_assert_clamped (e, "window-size", 99, 31);
  clcheck_assert_clamped (e, "window-size", 1, 3);
  clcheck_assert_clamped (e, "epsilon", -1, 0);
  clcheck_assert_clamped (e, "message-block-size", 0, 1);
  clcheck_assert_clamped (e, "overlay-max-motion", 0, 0.1);
  gst_util_set_object_arg (G_OBJECT (e), "output", "passthrough");
  gst_util_set_object_arg (G_OBJECT (e), "overlay-style", "arrows");
  gst_util_set_object_arg (G_OBJECT (e), "sampling", "buffer");
  gst_object_unref (e);
}
GST_END_TEST;

/* The messages: one per frame, with the documented fields, block means
 * that agree with the field's means, and the frame's timestamp. */
GST_START_TEST (test_messages)
{
  GstHarness *h = clcheck_new_harness ("cloptflow",
      "device=cpu post-messages=true message-block-size=16");
  GstBus *bus = gst_bus_new ();
  GstBuffer *in, *out;
  GstMessage *msg;
  const GstStructure *s;
  const GValue *dx, *dy;
  gint bs, gw, gh;
  guint64 ts;
  gdouble mdx, mdy, mx, my;

  make_canvas ();
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps (h, clcheck_caps ("NV12", W, H));
  in = make_frame ("NV12", W, H, 0, 0);
  GST_BUFFER_PTS (in) = 0;
  gst_buffer_unref (push_pull (h, in));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no message for the first frame");
  gst_message_unref (msg);

  in = make_frame ("NV12", W, H, SHIFT_X, SHIFT_Y);
  GST_BUFFER_PTS (in) = 40 * GST_MSECOND;
  out = push_pull (h, in);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no message for the second frame");
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cloptflow"));
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
  fail_unless_equals_uint64 (ts, 40 * GST_MSECOND);
  fail_unless (gst_structure_get_int (s, "block-size", &bs));
  fail_unless (gst_structure_get_int (s, "grid-width", &gw));
  fail_unless (gst_structure_get_int (s, "grid-height", &gh));
  fail_unless_equals_int (bs, 16);
  fail_unless_equals_int (gw, (W + 15) / 16);
  fail_unless_equals_int (gh, (H + 15) / 16);
  fail_unless (gst_structure_get_double (s, "mean-dx", &mdx));
  fail_unless (gst_structure_get_double (s, "mean-dy", &mdy));
  dx = gst_structure_get_value (s, "dx");
  dy = gst_structure_get_value (s, "dy");
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  fail_unless (dx && G_VALUE_HOLDS (dx, g_value_array_get_type ()));
  fail_unless (dy && G_VALUE_HOLDS (dy, g_value_array_get_type ()));
  {
    GValueArray *ax = g_value_get_boxed (dx), *ay = g_value_get_boxed (dy);
    gdouble cx = 0, cy = 0;
    gint n = 0;
    fail_unless_equals_int (ax->n_values, gw * gh);
    fail_unless_equals_int (ay->n_values, gw * gh);
    fail_unless (G_VALUE_HOLDS_FLOAT (g_value_array_get_nth (ax, 0)));
    /* Interior blocks carry the shift. */
    for (gint by = 2; by < gh - 2; by++)
      for (gint bx = 2; bx < gw - 2; bx++) {
        cx += g_value_get_float (g_value_array_get_nth (ax, by * gw + bx));
        cy += g_value_get_float (g_value_array_get_nth (ay, by * gw + bx));
        n++;
      }
    fail_unless (fabs (cx / n - SHIFT_X) < 0.15 &&
        fabs (cy / n - SHIFT_Y) < 0.15, "block means %f, %f", cx / n,
        cy / n);
  }
  G_GNUC_END_IGNORE_DEPRECATIONS;
  /* The whole-frame mean includes the borders: near the shift still. */
  fail_unless (fabs (mdx - SHIFT_X) < 0.5 && fabs (mdy - SHIFT_Y) < 0.5,
      "mean %f, %f", mdx, mdy);
  meta_mean (out, W, H, &mx, &my);
  fail_unless (fabs (mx - SHIFT_X) < 0.1);
  gst_message_unref (msg);
  gst_buffer_unref (out);

  /* Off again: no more messages. */
  g_object_set (h->element, "post-messages", FALSE, NULL);
  gst_buffer_unref (push_pull (h, make_frame ("NV12", W, H, 0, 0)));
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

static gboolean
flow_is_zero (GstBuffer * out)
{
  gdouble mx, my;
  meta_mean (out, W, H, &mx, &my);
  return mx == 0 && my == 0;
}

/* The previous frame is forgotten on a flush, a discontinuity and a size
 * change; between them the flow follows the content. */
GST_START_TEST (test_reset)
{
  GstHarness *h = clcheck_new_harness ("cloptflow", "device=cpu");
  GstBuffer *in, *out;
  gdouble mx, my;

  make_canvas ();
  gst_harness_set_src_caps (h, clcheck_caps ("GRAY8", W, H));
  gst_buffer_unref (push_pull (h, make_frame ("GRAY8", W, H, 0, 0)));
  out = push_pull (h, make_frame ("GRAY8", W, H, SHIFT_X, SHIFT_Y));
  fail_if (flow_is_zero (out));
  gst_buffer_unref (out);

  /* flush */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  {
    GstSegment seg;
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  out = push_pull (h, make_frame ("GRAY8", W, H, 0, 0));
  fail_unless (flow_is_zero (out), "flow across a flush");
  gst_buffer_unref (out);
  out = push_pull (h, make_frame ("GRAY8", W, H, SHIFT_X, SHIFT_Y));
  meta_mean (out, W, H, &mx, &my);
  fail_unless (fabs (mx - SHIFT_X) < 0.1 && fabs (my - SHIFT_Y) < 0.1);
  gst_buffer_unref (out);

  /* discontinuity */
  in = make_frame ("GRAY8", W, H, 0, 0);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  out = push_pull (h, in);
  fail_unless (flow_is_zero (out), "flow across a discontinuity");
  gst_buffer_unref (out);

  /* size change: the meta follows, the first frame has no flow */
  gst_harness_set_src_caps (h, clcheck_caps ("GRAY8", W / 2 + 1, H / 2 + 3));
  out = push_pull (h, make_frame ("GRAY8", W / 2 + 1, H / 2 + 3, 0, 0));
  {
    GstCLFlowMeta *m = gst_buffer_get_cl_flow_meta (out);
    fail_unless (m && m->width == W / 2 + 1 && m->height == H / 2 + 3);
  }
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A frame dropped for QoS (downstream late): the next frame's flow starts
 * over, as after a discontinuity, instead of spanning two frames' motion
 * (it read twice the shift). */
GST_START_TEST (test_reset_after_qos_drop)
{
  GstHarness *h = clcheck_new_harness ("cloptflow", "device=cpu");
  const GstClockTime dur = 40 * GST_MSECOND;
  GstBuffer *in, *out;
  gdouble mx, my;

  make_canvas ();
  gst_harness_set_src_caps (h, clcheck_caps ("GRAY8", W, H));
  for (gint i = 0; i < 5; i++) {
    in = make_frame ("GRAY8", W, H, i * SHIFT_X, i * SHIFT_Y);
    GST_BUFFER_PTS (in) = i * dur;
    GST_BUFFER_DURATION (in) = dur;
    if (i == 2) {
      /* downstream ran 60 ms late at frame 1: frame 2 (at 80 ms) goes */
      fail_unless (gst_harness_push_upstream_event (h,
              gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 2.0,
                  60 * GST_MSECOND, dur)));
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
      continue;
    }
    out = push_pull (h, in);
    meta_mean (out, W, H, &mx, &my);
    if (i == 3) {
      fail_unless (mx == 0 && my == 0,
          "flow across a dropped frame: %.2f, %.2f", mx, my);
      fail_unless (GST_BUFFER_IS_DISCONT (out));
    } else if (i > 0) {
      fail_unless (fabs (mx - SHIFT_X) < 0.1 && fabs (my - SHIFT_Y) < 0.1,
          "frame %d: %.2f, %.2f", i, mx, my);
    }
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

static gboolean
buffers_equal (GstBuffer * a, GstBuffer * b, const gchar * format, gint w,
    gint h)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;
  gboolean same = TRUE;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      h);
  fail_unless (gst_video_frame_map (&fa, &info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &info, b, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    gint comp = p == 0 ? 0 : 1;
    gint wb = GST_VIDEO_FRAME_COMP_WIDTH (&fa, comp) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, comp);
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fa, comp); y++)
      same &= memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p),
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p), wb) == 0;
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return same;
}

/* output=passthrough leaves every byte of every format as it was, also
 * with motion; the overlay leaves a still frame alone and draws on motion. */
GST_START_TEST (test_passthrough_and_overlay)
{
  make_canvas ();
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    for (gint overlay = 0; overlay <= 1; overlay++) {
      GstHarness *h = clcheck_new_harness ("cloptflow", overlay ?
          "device=cpu output=overlay" : "device=cpu output=passthrough");
      GstBuffer *a = make_frame (formats[i], W, H, 0, 0);
      GstBuffer *b = make_frame (formats[i], W, H, SHIFT_X, SHIFT_Y);
      GstBuffer *oa, *ob;

      gst_harness_set_src_caps (h, clcheck_caps (formats[i], W, H));
      oa = push_pull (h, gst_buffer_ref (a));
      ob = push_pull (h, gst_buffer_ref (b));
      /* No motion yet on the first frame: nothing drawn either way. */
      fail_unless (buffers_equal (oa, a, formats[i], W, H),
          "%s: first frame changed (%s)", formats[i],
          overlay ? "overlay" : "passthrough");
      if (overlay)
        fail_if (buffers_equal (ob, b, formats[i], W, H),
            "%s: overlay drew nothing on motion", formats[i]);
      else
        fail_unless (buffers_equal (ob, b, formats[i], W, H),
            "%s: passthrough changed the frame", formats[i]);
      fail_unless (gst_buffer_get_cl_flow_meta (ob) != NULL);
      gst_buffer_unref (oa);
      gst_buffer_unref (ob);
      gst_buffer_unref (a);
      gst_buffer_unref (b);
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

/* Host waits cloptflow itself makes over @n frames (aligned input used in
 * place, outputs and fields never mapped). */
static gint64
own_host_waits (const gchar * chain, gint n)
{
  GstHarness *h = gst_harness_new_parse (chain);
  GstElement *e = gst_harness_find_element (h, "cloptflow");
  GstVideoInfo info;
  GstCaps *caps = clcheck_caps ("NV12", W, H);
  gint64 waits;

  fail_unless (e != NULL);
  gst_video_info_from_caps (&info, caps);
  gst_harness_set_src_caps (h, caps);
  for (gint i = 0; i < n; i++) {
    guint8 *data = g_aligned_alloc (1, info.size, 4096);
    GstBuffer *src = make_frame ("NV12", W, H, i % 3, 0), *in;
    gst_buffer_extract (src, 0, data, info.size);
    gst_buffer_unref (src);
    in = gst_buffer_new_wrapped_full (0, data, info.size, 0, info.size, data,
        g_aligned_free);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  waits = clcheck_stat (e, "host-waits");
  /* Staged frames wrap nothing: each aligned input is copied once. */
  fail_unless_equals_int (clcheck_stat (e, "frame-copies"),
      clcheck_staged ()? n : 0);
  gst_object_unref (e);
  gst_harness_teardown (h);
  return waits;
}

/* clblur ! cloptflow waits no more than clblur alone without messages;
 * with messages, one wait per frame (the block means' read-back). */
GST_START_TEST (test_counters_host_waits)
{
  const gint n = 12;
  gint64 w_blur = 0, w_flow, w_msgs;
  {
    GstHarness *h = gst_harness_new_parse ("clblur device=cpu");
    GstElement *e = gst_harness_find_element (h, "clblur");
    GstCaps *caps = clcheck_caps ("NV12", W, H);
    GstVideoInfo info;
    gst_video_info_from_caps (&info, caps);
    gst_harness_set_src_caps (h, caps);
    for (gint i = 0; i < n; i++) {
      guint8 *data = g_aligned_alloc0 (1, info.size, 4096);
      fail_unless_equals_int (gst_harness_push (h,
              gst_buffer_new_wrapped_full (0, data, info.size, 0, info.size,
                  data, g_aligned_free)), GST_FLOW_OK);
      gst_buffer_unref (gst_harness_pull (h));
    }
    w_blur = clcheck_stat (e, "host-waits");
    gst_object_unref (e);
    gst_harness_teardown (h);
  }
  w_flow = own_host_waits ("clblur device=cpu ! cloptflow device=cpu", n);
  w_msgs = own_host_waits ("clblur device=cpu ! cloptflow device=cpu "
      "post-messages=true", n);
  GST_INFO ("host waits in %d frames: clblur %" G_GINT64_FORMAT ", with "
      "cloptflow %" G_GINT64_FORMAT ", with messages %" G_GINT64_FORMAT, n,
      w_blur, w_flow, w_msgs);
  /* Staged, each input is copied into a pool frame, and the copy waits
   * when that frame is still in use (the pool's bound on how far the host
   * runs ahead): at most one wait a frame more, never a read-back. */
  gint64 slack = clcheck_staged ()? n : 0;

  fail_unless (w_flow <= w_blur + slack, "clblur ! cloptflow: %"
      G_GINT64_FORMAT " host waits, clblur alone %" G_GINT64_FORMAT, w_flow,
      w_blur);
  fail_unless (w_msgs <= w_blur + n + slack, "with messages: %"
      G_GINT64_FORMAT " host waits", w_msgs);
}
GST_END_TEST;

/* A textured square moving over a flat, still background: the square's
 * motion is found, and the background away from it reports exactly zero
 * (no texture, no motion: not the square's motion spread by the coarse
 * levels). */
GST_START_TEST (test_flat_background_still)
{
  GstHarness *h = clcheck_new_harness ("cloptflow", "device=cpu");
  GstBuffer *out;
  GstCLFlowMeta *m;
  GstMapInfo map;
  gdouble sx = 0, sy = 0;
  gint n = 0;

  make_canvas ();
  gst_harness_set_src_caps (h, clcheck_caps ("GRAY8", W, H));
  for (gint f = 0; f < 2; f++) {
    GstBuffer *b = gst_buffer_new_allocate (NULL, W * H, NULL);
    GstMapInfo bm;
    fail_unless (gst_buffer_map (b, &bm, GST_MAP_WRITE));
    memset (bm.data, 16, W * H);
    /* 32x32 textured square at (100 + 3f, 60) */
    for (gint y = 60; y < 92; y++)
      for (gint x = 100; x < 132; x++)
        bm.data[y * W + x + 3 * f] = canvas[y][x];
    gst_buffer_unmap (b, &bm);
    out = push_pull (h, b);
    if (f == 0)
      gst_buffer_unref (out);
  }
  m = gst_buffer_get_cl_flow_meta (out);
  fail_unless (m != NULL);
  fail_unless (gst_buffer_map (m->field, &map, GST_MAP_READ));
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++) {
      const gfloat *c = (const gfloat *) (map.data + y * m->stride) + 2 * x;
      /* Far from the square (more than a window away): exactly zero. */
      if (x < 100 - 16 || y < 60 - 16)
        fail_unless (c[0] == 0.0f && c[1] == 0.0f,
            "background (%d, %d) moves by %f, %f", x, y, c[0], c[1]);
      /* The square's inside, away from its edges. */
      if (x >= 108 && x < 124 && y >= 68 && y < 84) {
        sx += c[0];
        sy += c[1];
        n++;
      }
    }
  gst_buffer_unmap (m->field, &map);
  fail_unless (fabs (sx / n - 3) < 0.2 && fabs (sy / n) < 0.2,
      "square moves by %f, %f", sx / n, sy / n);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

static Suite *
cloptflow_suite (void)
{
  Suite *s = suite_create ("cloptflow");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_finest_level);
  tcase_add_test (tc, test_unsupported_caps_refused);
  tcase_add_test (tc, test_properties_and_bad_values);
  tcase_add_test (tc, test_messages);
  tcase_add_test (tc, test_reset);
  tcase_add_test (tc, test_reset_after_qos_drop);
  tcase_add_test (tc, test_passthrough_and_overlay);
  tcase_add_test (tc, test_counters_host_waits);
  tcase_add_test (tc, test_flat_background_still);
  return s;
}

GST_CHECK_MAIN (cloptflow);
