/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCheck tests of clhisteq: every format against the C reference (global
 * and CLAHE), chroma untouched, properties and bad values, renegotiation,
 * property changes while playing, no smoothing across a flush, a seek, a
 * caps change or a new stream, and the counters: clblur ! clhisteq waits on the host no more than clblur. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "clcheck.h"
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

#include "gstclref.h"

#define BINS GST_CL_HISTEQ_BINS

static const gchar *formats[] = {
  "GRAY8", "NV12", "I420", "RGBA", "BGRA", "RGBx", "BGRx",
};

static guint32 seed = 1;

static guint8
rnd (void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed >> 24;
}

/* A picture with a skewed histogram (dark, some bright spots) so the
 * mapping is far from the identity. */
static void
fill_picture (GstBuffer * buf)
{
  GstMapInfo map;
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; i++) {
    guint8 r = rnd ();
    map.data[i] = r < 230 ? 20 + r / 6 : r;
  }
  gst_buffer_unmap (buf, &map);
}


static void
weights_of (GstVideoFormat f, gint w[4])
{
  memset (w, 0, 4 * sizeof (gint));
  if (f == GST_VIDEO_FORMAT_RGBA || f == GST_VIDEO_FORMAT_RGBx) {
    w[0] = 77;
    w[1] = 150;
    w[2] = 29;
  } else if (f == GST_VIDEO_FORMAT_BGRA || f == GST_VIDEO_FORMAT_BGRx) {
    w[2] = 77;
    w[1] = 150;
    w[0] = 29;
  }
}

typedef struct
{
  gboolean clahe;
  gint tiles_x, tiles_y;
  gdouble clip;
  gfloat strength;
} Expect;

static const Expect global_full = { FALSE, 1, 1, 0, 1.0f };

/* Compares @out with the reference equalisation of @in (no smoothing). */
static void
assert_equalised (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info,
    const Expect * e)
{
  GstVideoFrame fi, fo;
  GstCLHisteqGeometry g;
  gint w[4];

  fail_unless (gst_video_frame_map (&fi, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, info, out, GST_MAP_READ));
  weights_of (GST_VIDEO_INFO_FORMAT (info), w);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fi); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    gint pw = GST_VIDEO_FRAME_COMP_WIDTH (&fi, comp[0]);
    gint ph = GST_VIDEO_FRAME_COMP_HEIGHT (&fi, comp[0]);
    gint cn = GST_VIDEO_FRAME_COMP_PSTRIDE (&fi, comp[0]);
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&fi, p);
    const guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&fo, p);
    gint ss = GST_VIDEO_FRAME_PLANE_STRIDE (&fi, p);
    gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p);
    guint8 *ref = g_malloc ((gsize) pw * cn * ph);
    gint maxdiff = 0, tol;

    if (p == 0) {
      gst_cl_ref_histeq_geometry (&g, pw, ph, e->clahe, e->tiles_x,
          e->tiles_y, e->clip);
      gint tiles = g.tiles_x * g.tiles_y;
      guint32 *hist = g_new (guint32, tiles * BINS);
      guint8 *luts = g_new (guint8, tiles * BINS);
      gst_cl_ref_histeq_hist (src, ss, pw, ph, cn, w, &g, hist);
      for (gint t = 0; t < tiles; t++) {
        gfloat f[BINS];
        gst_cl_ref_histeq_map (hist + t * BINS, &g, f);
        gst_cl_ref_histeq_lut (f, e->strength, luts + t * BINS);
      }
      gst_cl_ref_histeq_apply (src, ss, ref, pw * cn, pw, ph, cn, w, &g, luts);
      g_free (hist);
      g_free (luts);
      tol = (!e->clahe && cn == 1) ? 0 : 1;
    } else {
      for (gint y = 0; y < ph; y++)
        memcpy (ref + y * pw * cn, src + y * ss, pw * cn);
      tol = 0;
    }
    for (gint y = 0; y < ph; y++)
      for (gint x = 0; x < pw * cn; x++)
        maxdiff = MAX (maxdiff, abs (dst[y * ds + x] - ref[y * pw * cn + x]));
    fail_unless (maxdiff <= tol, "%s %dx%d plane %u %s: max diff %d",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), p,
        e->clahe ? "clahe" : "global", maxdiff);
    g_free (ref);
  }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
}



static void
push_and_check (GstHarness * h, const gchar * format, gint w, gint ht,
    const Expect * e)
{
  GstCaps *caps = clcheck_caps (format, w, ht);
  GstVideoInfo info;
  GstBuffer *in, *out;

  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  fill_picture (in);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  assert_equalised (in, out, &info, e);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_START_TEST (test_every_format_global)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = clcheck_new_harness ("clhisteq", "smoothing=0 device=cpu");
    push_and_check (h, formats[i], 64, 48, &global_full);
    push_and_check (h, formats[i], 33, 17, &global_full);
    push_and_check (h, formats[i], 1, 1, &global_full);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

GST_START_TEST (test_every_format_clahe)
{
  const Expect e = { TRUE, 8, 8, 2.0, 1.0f };
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = clcheck_new_harness ("clhisteq", "mode=clahe smoothing=0 device=cpu");
    push_and_check (h, formats[i], 64, 48, &e);
    push_and_check (h, formats[i], 37, 23, &e);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

GST_START_TEST (test_property_changes_while_playing)
{
  GstHarness *h = clcheck_new_harness ("clhisteq", "smoothing=0 device=cpu");
  const Expect half = { FALSE, 1, 1, 0, 0.5f };
  const Expect c1 = { TRUE, 8, 8, 2.0, 1.0f };
  const Expect c2 = { TRUE, 3, 5, 4.0, 1.0f };

  push_and_check (h, "GRAY8", 40, 30, &global_full);
  g_object_set (h->element, "strength", 0.5, NULL);
  push_and_check (h, "GRAY8", 40, 30, &half);
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "clahe");
  g_object_set (h->element, "strength", 1.0, NULL);
  push_and_check (h, "GRAY8", 40, 30, &c1);
  g_object_set (h->element, "tiles-x", 3, "tiles-y", 5, "clip-limit", 4.0,
      NULL);
  push_and_check (h, "GRAY8", 40, 30, &c2);
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "global");
  push_and_check (h, "GRAY8", 40, 30, &global_full);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_properties_and_bad_values)
{
  GstElement *e = gst_element_factory_make ("clhisteq", NULL);
  gdouble strength, clip, cut;
  guint smoothing;
  gint tx, ty, mode;

  g_object_get (e, "strength", &strength, "clip-limit", &clip,
      "scene-cut-threshold", &cut, "smoothing", &smoothing, "tiles-x", &tx,
      "tiles-y", &ty, "mode", &mode, NULL);
  fail_unless_equals_float (strength, 1.0);
  fail_unless_equals_float (clip, 2.0);
  fail_unless_equals_float (cut, 0.3);
  fail_unless_equals_int (smoothing, 8);
  fail_unless_equals_int (tx, 8);
  fail_unless_equals_int (ty, 8);
  fail_unless_equals_int (mode, 0);

  clcheck_assert_clamped (e, "strength", 1.5, 1.0);
  clcheck_assert_clamped (e, "strength", -0.5, 0.0);
  clcheck_assert_clamped (e, "clip-limit", -1.0, 0.0);
  clcheck_assert_clamped (e, "tiles-x", 0, 1);
  clcheck_assert_clamped (e, "tiles-y", 1000, 64);
  clcheck_assert_clamped (e, "scene-cut-threshold", 2.0, 1.0);
  clcheck_assert_clamped (e, "smoothing", 100000, 1000);

  /* An unknown mode name leaves the mode as it was. */
  gst_util_set_object_arg (G_OBJECT (e), "mode", "clahe");
  g_object_get (e, "mode", &mode, NULL);
  fail_unless_equals_int (mode, 1);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  GstHarness *h = clcheck_new_harness ("clhisteq", "smoothing=0 device=cpu");
  push_and_check (h, "GRAY8", 64, 48, &global_full);
  push_and_check (h, "NV12", 80, 62, &global_full);
  push_and_check (h, "RGBA", 31, 9, &global_full);
  push_and_check (h, "I420", 1921, 1081, &global_full);
  push_and_check (h, "GRAY8", 64, 48, &global_full);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_unsupported_caps_refused)
{
  clcheck_assert_refuses ("clhisteq", "YUY2");
}
GST_END_TEST;

/* Host waits, copies and builds of a pipeline of @n frames through @chain. */
static void
run_counted (const gchar * chain, gint n, gint64 * waits, gint64 * copies,
    gint64 * builds_after_start)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=NV12,width=320,height=240 ! %s ! "
      "appsink name=sink sync=false", n, chain);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *head = gst_bin_get_by_name (GST_BIN (pipe), "first");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  gint64 built, frames = 0;

  fail_unless (head != NULL && sink != NULL);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  built = clcheck_stat (head, "program-builds") +
      clcheck_stat (head, "program-cache-loads");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  /* A CPU consumer: it maps every frame, as a non-OpenCL element does. */
  frames = clcheck_drain_mapping (sink);
  fail_unless_equals_int (frames, n);
  *waits = clcheck_stat (head, "host-waits");
  *copies = clcheck_stat (head, "frame-copies");
  *builds_after_start = clcheck_stat (head, "program-builds") +
      clcheck_stat (head, "program-cache-loads") - built;
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (head);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
}

/* Host waits the elements themselves make over @n frames of @chain, run in
 * a harness: aligned input is used in place and the output is never mapped,
 * so every wait counted is one the elements asked for (a read-back, a
 * finish). Timing cannot change the count. */
static gint64
own_host_waits (const gchar * chain, const gchar * name, gint n)
{
  GstHarness *h = gst_harness_new_parse (chain);
  GstElement *e;
  GstVideoInfo info;
  GstCaps *caps = clcheck_caps ("NV12", 320, 240);
  gint64 waits, copies;

  gst_video_info_from_caps (&info, caps);
  gst_harness_set_src_caps (h, caps);
  e = gst_harness_find_element (h, name);
  fail_unless (e != NULL, "%s", name);
  for (gint i = 0; i < n; i++) {
    guint8 *data = g_aligned_alloc (1, info.size, 4096);
    GstBuffer *in = gst_buffer_new_wrapped_full (0, data, info.size, 0,
        info.size, data, g_aligned_free);
    fill_picture (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  waits = clcheck_stat (e, "host-waits");
  copies = clcheck_stat (e, "frame-copies");
  /* Staged frames wrap nothing: each aligned input is copied once. */
  fail_unless_equals_int (copies, clcheck_staged ()? n : 0);
  gst_object_unref (e);
  gst_harness_teardown (h);
  return waits;
}

/* clblur ! clhisteq shares one queue and makes no more host waits than
 * clblur alone: none. */
GST_START_TEST (test_counters_no_extra_host_waits)
{
  gint64 w_blur = own_host_waits ("clblur device=cpu", "clblur", 30);
  gint64 w_both =
      own_host_waits ("clblur device=cpu ! clhisteq device=cpu mode=clahe",
      "clhisteq", 30);
  gint64 w_smooth = own_host_waits ("clblur device=cpu ! clhisteq device=cpu",
      "clhisteq", 30);

  GST_INFO ("host waits in 30 frames: clblur %" G_GINT64_FORMAT
      ", clblur ! clhisteq %" G_GINT64_FORMAT " (clahe), %" G_GINT64_FORMAT
      " (global, smoothing)", w_blur, w_both, w_smooth);
  /* Staged, each input is copied into a pool frame, and the copy waits
   * when that frame is still in use (the pool's bound on how far the host
   * runs ahead): at most one wait a frame more, never a read-back. */
  gint64 slack = clcheck_staged ()? 30 : 0;

  fail_unless (w_both <= w_blur + slack, "clblur ! clhisteq: %"
      G_GINT64_FORMAT " host waits, clblur alone %" G_GINT64_FORMAT, w_both,
      w_blur);
  fail_unless (w_smooth <= w_blur + slack, "clblur ! clhisteq: %"
      G_GINT64_FORMAT " host waits, clblur alone %" G_GINT64_FORMAT,
      w_smooth, w_blur);
}
GST_END_TEST;

/* Unpaced: at most the two waits per frame clblur is allowed (producer
 * write-map, consumer read-map), nothing built after start, no copies. */
GST_START_TEST (test_counters_300_frames)
{
  gint64 waits, copies, builds;

  run_counted ("clhisteq name=first device=cpu mode=clahe", 300, &waits,
      &copies, &builds);
  fail_unless (waits <= 2 * 300 + 10, "%" G_GINT64_FORMAT " host waits",
      waits);
  fail_unless_equals_int (copies, 0);
  fail_unless_equals_int (builds, 0);
}
GST_END_TEST;

/* Max difference of a GRAY8 @out from equalizeHist of @in (the reference,
 * no smoothing). */
static gint
gray_diff_from_equalised (GstBuffer * in, GstBuffer * out,
    const GstVideoInfo * info)
{
  const gint w = GST_VIDEO_INFO_WIDTH (info), ht = GST_VIDEO_INFO_HEIGHT (info);
  const gint wts[4] = { 0 };
  GstVideoFrame fi, fo;
  GstCLHisteqGeometry g;
  guint32 hist[BINS];
  gfloat f[BINS];
  guint8 lut[BINS];
  gint maxdiff = 0;

  fail_unless (gst_video_frame_map (&fi, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, info, out, GST_MAP_READ));
  gst_cl_ref_histeq_geometry (&g, w, ht, FALSE, 1, 1, 0);
  gst_cl_ref_histeq_hist (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), w, ht, 1, wts, &g, hist);
  gst_cl_ref_histeq_map (hist, &g, f);
  gst_cl_ref_histeq_lut (f, 1.0f, lut);
  for (gint y = 0; y < ht; y++) {
    const guint8 *s = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0);
    const guint8 *d = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0);
    for (gint x = 0; x < w; x++)
      maxdiff = MAX (maxdiff, abs (d[x] - lut[s[x]]));
  }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  return maxdiff;
}

/* A frame of scene B: a bright ramp, unlike fill_picture's dark scene A. */
static void
fill_ramp (GstBuffer * buf, const GstVideoInfo * info)
{
  GstVideoFrame fr;
  fail_unless (gst_video_frame_map (&fr, info, buf, GST_MAP_WRITE));
  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fr, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fr, 0);
    for (gint x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      row[x] = 100 + (x * 3 + y) % 150;
  }
  gst_video_frame_unmap (&fr);
}

enum
{ NOTHING, FLUSHING_SEEK, SEGMENT_ONLY, CAPS_CHANGE, STREAM_START };
static const gchar *between_names[] = { "nothing", "flushing seek",
  "new segment", "caps change", "stream start"
};

/* Six frames of scene A with the default smoothing and the cut detector
 * off (scene-cut-threshold=1, so only an explicit reset can restart the
 * smoothing), then @between, then one frame of scene B: returns how far
 * that frame is from equalizeHist of B (0: nothing smoothed across). */
static gint
first_frame_after (gint between)
{
  GstHarness *h = clcheck_new_harness ("clhisteq",
      "device=cpu scene-cut-threshold=1");
  GstCaps *caps = clcheck_caps ("GRAY8", 64, 48);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gint diff;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, caps);
  for (gint i = 0; i < 6; i++) {
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    fill_picture (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  switch (between) {
    case FLUSHING_SEEK:{
      /* what a flushing seek sends downstream */
      GstSegment seg;
      gst_segment_init (&seg, GST_FORMAT_TIME);
      seg.start = seg.time = 5 * GST_SECOND;
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
      fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
      break;
    }
    case SEGMENT_ONLY:{
      /* a non-flushing seek: only a new segment */
      GstSegment seg;
      gst_segment_init (&seg, GST_FORMAT_TIME);
      seg.start = seg.time = 5 * GST_SECOND;
      fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
      break;
    }
    case CAPS_CHANGE:{
      /* the same size and format: only the caps event can tell */
      GstCaps *c2 = clcheck_caps ("GRAY8", 64, 48);
      gst_caps_set_simple (c2, "framerate", GST_TYPE_FRACTION, 25, 1, NULL);
      gst_harness_set_src_caps (h, c2);
      break;
    }
    case STREAM_START:
      fail_unless (gst_harness_push_event (h,
              gst_event_new_stream_start ("another")));
      break;
    default:
      break;
  }
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  fill_ramp (in, &info);
  GST_BUFFER_PTS (in) = 5 * GST_SECOND;
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  diff = gray_diff_from_equalised (in, out, &info);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return diff;
}

/* No smoothing across a flush, a seek, a caps change or a new stream: the
 * first frame after one is equalised on its own (bit for bit). Without
 * any of them the same frame is blended with the old scene's mapping, so
 * the check can tell. */
GST_START_TEST (test_reset_on_flush_seek_caps)
{
  gint blended = first_frame_after (NOTHING);

  GST_INFO ("without a reset the frame is %d levels off", blended);
  fail_unless (blended > 20, "no reset: %d levels from equalizeHist, the "
      "smoothing should have kept the old scene", blended);
  for (gint b = FLUSHING_SEEK; b <= STREAM_START; b++) {
    gint diff = first_frame_after (b);
    fail_unless (diff == 0, "after a %s the frame is %d levels "
        "from equalizeHist: smoothed across", between_names[b], diff);
  }
}
GST_END_TEST;

static Suite *
clhisteq_suite (void)
{
  Suite *s = suite_create ("clhisteq");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_global);
  tcase_add_test (tc, test_every_format_clahe);
  tcase_add_test (tc, test_property_changes_while_playing);
  tcase_add_test (tc, test_properties_and_bad_values);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_reset_on_flush_seek_caps);
  tcase_add_test (tc, test_unsupported_caps_refused);
  tcase_add_test (tc, test_counters_no_extra_host_waits);
  tcase_add_test (tc, test_counters_300_frames);
  return s;
}

GST_CHECK_MAIN (clhisteq);
