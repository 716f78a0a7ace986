/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCheck tests of clblur: every format against the C reference, property
 * ranges, renegotiation, refused caps, foreign input (copied and wrapped),
 * passthrough, the program cache, counters over 300 frames, device errors. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "clcheck.h"
#include <gst/app/gstappsink.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "gstclref.h"

static const gchar *formats[] = {
  "GRAY8", "NV12", "I420", "RGBA", "BGRA", "RGBx", "BGRx",
};

static guint32 seed = 1;

/* Compares every plane of @out with the reference blur of @in. */
static void
assert_blurred (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info,
    gdouble sigma, gdouble sigma_y, gint ksize)
{
  GstVideoFrame fi, fo;

  fail_unless (gst_video_frame_map (&fi, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, info, out, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fi); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    gint sub = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, comp[0]);
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&fi, comp[0]);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&fi, comp[0]);
    gint cn = GST_VIDEO_FRAME_COMP_PSTRIDE (&fi, comp[0]);
    gdouble sx = sigma / (1 << sub), sy = (sigma_y > 0 ? sigma_y : sigma) /
        (1 << sub);
    gint kx = ksize > 0 ? (MAX (ksize >> sub, 1) | 1) :
        gst_cl_gaussian_ksize (sx);
    gint ky = ksize > 0 ? (MAX (ksize >> sub, 1) | 1) :
        gst_cl_gaussian_ksize (sy);
    gdouble *tx = g_new (gdouble, kx), *ty = g_new (gdouble, ky);
    guint8 *ref = g_malloc ((gsize) w * cn * h);
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&fi, p);
    const guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&fo, p);
    gint ss = GST_VIDEO_FRAME_PLANE_STRIDE (&fi, p);
    gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p);
    gint maxdiff = 0;

    gst_cl_gaussian_taps (kx, sx, tx);
    gst_cl_gaussian_taps (ky, sy, ty);
    gst_cl_ref_blur_plane (src, ss, ref, w * cn, w, h, cn, tx, kx, ty, ky);
    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w * cn; x++)
        maxdiff = MAX (maxdiff, abs (dst[y * ds + x] - ref[y * w * cn + x]));
    fail_unless (maxdiff <= 1, "%s %dx%d plane %u: max diff %d",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), p, maxdiff);
    g_free (tx);
    g_free (ty);
    g_free (ref);
  }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
}

static void
push_and_check (GstHarness * h, const gchar * format, gint w, gint ht,
    gdouble sigma, gdouble sigma_y, gint ksize)
{
  GstCaps *caps = clcheck_caps (format, w, ht);
  GstVideoInfo info;
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
  assert_blurred (in, out, &info, sigma, sigma_y, ksize);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_START_TEST (test_every_format_matches_reference)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstHarness *h = clcheck_new_harness ("clblur", "sigma=1.5");
    push_and_check (h, formats[i], 64, 48, 1.5, 0, 0);
    push_and_check (h, formats[i], 33, 17, 1.5, 0, 0);
    push_and_check (h, formats[i], 1, 1, 1.5, 0, 0);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

GST_START_TEST (test_sigma_y_and_kernel_size)
{
  GstHarness *h = clcheck_new_harness ("clblur", "sigma=0.7 sigma-y=2.0");
  push_and_check (h, "NV12", 50, 30, 0.7, 2.0, 0);
  gst_harness_teardown (h);

  h = clcheck_new_harness ("clblur", "sigma=0 kernel-size=9");
  push_and_check (h, "I420", 40, 22, 0, 0, 9);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_property_changes_while_playing)
{
  GstHarness *h = clcheck_new_harness ("clblur", "sigma=1.0");
  push_and_check (h, "GRAY8", 40, 30, 1.0, 0, 0);
  g_object_set (h->element, "sigma", 3.0, NULL);
  push_and_check (h, "GRAY8", 40, 30, 3.0, 0, 0);
  g_object_set (h->element, "kernel-size", 5, NULL);
  push_and_check (h, "GRAY8", 40, 30, 3.0, 0, 5);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make ("clblur", NULL);
  gdouble sigma, sigma_y;
  gint k;
  gchar *dev = NULL;

  g_object_get (e, "sigma", &sigma, "sigma-y", &sigma_y, "kernel-size", &k,
      "device", &dev, NULL);
  fail_unless_equals_float (sigma, 1.0);
  fail_unless_equals_float (sigma_y, 0.0);
  fail_unless_equals_int (k, 0);
  g_free (dev);

  /* Even sizes are raised to the next odd one. */
  g_object_set (e, "kernel-size", 4, NULL);
  g_object_get (e, "kernel-size", &k, NULL);
  fail_unless_equals_int (k, 5);

  /* Out of range values are refused by the param spec: value unchanged. */
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "sigma");
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 1000.0);
  fail_unless (g_param_value_validate (ps, &v), "1000 should be clamped");
  fail_unless_equals_float (g_value_get_double (&v), 42.0);
  g_value_unset (&v);
  fail_unless (G_PARAM_SPEC_INT (g_object_class_find_property
          (G_OBJECT_GET_CLASS (e), "kernel-size"))->maximum == 255);

  g_object_get (e, "current-device", &dev, NULL);
  fail_unless (dev == NULL, "no device before start");
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  GstHarness *h = clcheck_new_harness ("clblur", "sigma=2.0");
  push_and_check (h, "GRAY8", 64, 48, 2.0, 0, 0);
  push_and_check (h, "NV12", 80, 62, 2.0, 0, 0);
  push_and_check (h, "RGBA", 31, 9, 2.0, 0, 0);
  push_and_check (h, "GRAY8", 64, 48, 2.0, 0, 0);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_unsupported_caps_refused)
{
  clcheck_assert_refuses ("clblur", "YUY2");
}
GST_END_TEST;

/* Pushes 5 frames in memory that is not OpenCL memory, at a 4096-byte
 * aligned address or deliberately not, and checks each output. */
static void
push_foreign (const gchar * format, gint w, gint ht, gboolean aligned,
    gint64 want_copies, gint64 want_wraps)
{
  GstHarness *h = clcheck_new_harness ("clblur", "sigma=1.2 device=cpu");
  GstCaps *caps = clcheck_caps (format, w, ht);
  GstVideoInfo info;

  gst_video_info_from_caps (&info, caps);
  gst_harness_set_src_caps (h, caps);
  for (gint i = 0; i < 5; i++) {
    guint8 *mem = g_aligned_alloc (1, info.size + 4096, 4096);
    guint8 *data = aligned ? mem : mem + 3;
    GstBuffer *in = gst_buffer_new_wrapped_full (0, data, info.size, 0,
        info.size, mem, g_aligned_free), *out;
    clcheck_fill_random (in, &seed);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    assert_blurred (in, out, &info, 1.2, 0, 0);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  /* Staged frames wrap nothing: a foreign frame is copied once. */
  if (clcheck_staged ()) {
    want_copies += want_wraps;
    want_wraps = 0;
  }
  fail_unless_equals_int (clcheck_stat (h->element, "frame-copies"), want_copies);
  fail_unless_equals_int (clcheck_stat (h->element, "wrapped-inputs"), want_wraps);
  gst_harness_teardown (h);
}

/* Memory that is neither OpenCL memory nor 4096-byte aligned: copied once. */
GST_START_TEST (test_foreign_unaligned_input)
{
  push_foreign ("NV12", 64, 36, FALSE, 5, 0);
}
GST_END_TEST;

/* Aligned foreign memory is used in place on a device sharing host memory. */
GST_START_TEST (test_foreign_aligned_input_wrapped)
{
  push_foreign ("GRAY8", 128, 64, TRUE, 0, 5);
}
GST_END_TEST;

GST_START_TEST (test_identity_is_passthrough)
{
  GstHarness *h = clcheck_new_harness ("clblur", "sigma=0");
  GstBuffer *in, *out;

  gst_harness_set_src_caps (h, clcheck_caps ("GRAY8", 16, 16));
  in = gst_buffer_new_allocate (NULL, 256, NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out == in, "sigma=0 must pass the buffer through");
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (h->element)));
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

typedef struct
{
  GMutex lock;
  gint received;
  GHashTable *contents;         /* distinct frames seen: md5 -> 1 */
} Handoffs;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer data)
{
  Handoffs *h = data;
  GstMapInfo map;
  gchar *md5 = NULL;

  (void) sink;
  (void) pad;
  if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
    /* GRAY8 64x48: rows of 64 bytes, the visible frame first */
    md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, map.data,
        MIN (map.size, 64 * 48));
    gst_buffer_unmap (buf, &map);
  }
  g_mutex_lock (&h->lock);
  h->received++;
  g_hash_table_add (h->contents, md5 ? md5 : g_strdup ("unmappable"));
  g_mutex_unlock (&h->lock);
}

/* The blur switched off and on while playing (sigma 0 is passthrough), from
 * the application's thread, as fast as it goes. Every frame comes out, with
 * no error, and each is either the source's frame (still checkers) or its
 * blur: nothing else (an untouched output buffer, an input blurred in
 * place). It used to stop the pipeline within tens to hundreds of
 * switches: GstBaseTransform reads passthrough twice per frame, and the
 * switch came between (docs/RELIABILITY.md, bug 8). */
GST_START_TEST (test_passthrough_toggled_while_playing)
{
  const gint frames = 3000;
  /* live at 2000 frames a second: the switches spread over 1.5 s however
   * fast passthrough frames go */
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=3000 "
      "pattern=checkers-8 is-live=true ! video/x-raw,format=GRAY8,"
      "width=64,height=48,framerate=2000/1 ! "
      "clblur name=blur sigma=2 device=cpu ! "
      "fakesink name=sink sync=false signal-handoffs=true", NULL);
  GstElement *blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = NULL;
  Handoffs h = { 0 };
  gint toggles = 0;

  g_mutex_init (&h.lock);
  h.contents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), &h);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while (!msg) {
    g_object_set (blur, "sigma", toggles % 2 ? 2.0 : 0.0, NULL);
    toggles++;
    msg = gst_bus_timed_pop_filtered (bus, 200 * GST_USECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_if (toggles > 2000000, "no EOS");
  }
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    fail_if (TRUE, "after %d switches: %s (%s)", toggles, err->message, dbg);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless_equals_int (h.received, frames);
  fail_unless (toggles > 100, "only %d switches", toggles);
  fail_unless (g_hash_table_size (h.contents) <= 2,
      "%u different frames out of one still frame, blurred or not",
      g_hash_table_size (h.contents));
  g_hash_table_unref (h.contents);
  g_mutex_clear (&h.lock);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (blur);
  gst_object_unref (pipe);
}
GST_END_TEST;

static GstElement *
run_pipeline (const gchar * desc, GstElement ** blur, gchar ** error_text)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipe != NULL, "%s", err ? err->message : "parse");
  *blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "pipeline timed out");
  if (error_text) {
    *error_text = NULL;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &err, &dbg);
      *error_text = g_strdup_printf ("%s | %s", err->message, dbg);
      g_clear_error (&err);
      g_free (dbg);
    }
  } else {
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  return pipe;
}

static void
stop_pipeline (GstElement * pipe, GstElement * blur)
{
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (blur);
  gst_object_unref (pipe);
}

/* 300 frames: nothing built after start, a bounded number of buffers, no
 * frame copied, and at most two host waits per frame (producer write-map,
 * consumer read-map). */
GST_START_TEST (test_counters_300_frames)
{
  const gchar *desc = "videotestsrc num-buffers=300 pattern=ball ! "
      "video/x-raw,format=NV12,width=320,height=240 ! "
      "clblur name=blur sigma=1.3 device=cpu ! appsink name=sink sync=false";
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstElement *blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  gint64 built_at_start, frames = 0;

  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  built_at_start = clcheck_stat (blur, "program-builds") +
      clcheck_stat (blur, "program-cache-loads");
  fail_unless (built_at_start >= 1, "programs must be ready at start");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  /* A CPU consumer: it maps every frame, as a non-OpenCL element does. */
  frames = clcheck_drain_mapping (sink);
  fail_unless_equals_int (frames, 300);
  fail_unless_equals_int (clcheck_stat (blur, "program-builds") +
      clcheck_stat (blur, "program-cache-loads"), built_at_start);
  fail_unless (clcheck_stat (blur, "buffers-allocated") <= 16,
      "%" G_GINT64_FORMAT " buffers for 300 frames",
      clcheck_stat (blur, "buffers-allocated"));
  fail_unless_equals_int (clcheck_stat (blur, "frame-copies"), 0);
  /* Staged: the source's frame goes up once, the output comes down once. */
  fail_unless_equals_int (clcheck_stat (blur, "uploads"),
      clcheck_staged ()? 300 : 0);
  fail_unless_equals_int (clcheck_stat (blur, "downloads"),
      clcheck_staged ()? 300 : 0);
  fail_unless (clcheck_stat (blur, "host-waits") <= 2 * 300 + 10,
      "%" G_GINT64_FORMAT " host waits", clcheck_stat (blur, "host-waits"));
  gst_object_unref (sink);
  stop_pipeline (pipe, blur);
}
GST_END_TEST;

static gchar *
first_cache_file (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name = d ? g_dir_read_name (d) : NULL;
  gchar *path = name ? g_build_filename (dir, name, NULL) : NULL;
  if (d)
    g_dir_close (d);
  return path;
}

/* Sets @name to @value, or unsets it when @value is NULL. */
static void
set_env (const gchar * name, const gchar * value)
{
  if (value)
    g_setenv (name, value, TRUE);
  else
    g_unsetenv (name);
}

/* Which devices' programs are kept; with them kept, the first run builds,
 * the second loads binaries, a corrupt entry is rebuilt.
 * Pinned to the first device: with device=auto and two devices the stats
 * are the active context's, while both contexts build and load (on the
 * H200 machine the truncated entry was PoCL's and the GPU loaded its own). */
GST_START_TEST (test_program_cache)
{
  gchar *dir = g_dir_make_tmp ("clcache-XXXXXX", NULL);
  const gchar *desc = "videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! "
      "clblur name=blur sigma=1.7 device=0.0 ! fakesink";
  GstElement *pipe, *blur;
  gchar *entry, *data;
  gsize len;
  /* put back at the end: in one process (CK_FORK=no) later tests read them */
  gchar *old_dir = g_strdup (g_getenv ("GST_CL_CACHE_DIR"));
  gchar *old_binaries = g_strdup (g_getenv ("GST_CL_CACHE_BINARIES"));

  g_setenv ("GST_CL_CACHE_DIR", dir, TRUE);

  /* By default PoCL's programs are left to PoCL's own cache: it compiles
   * every kernel of a program to hand out its binary (gstclprogram.c).
   * GST_CL_CACHE_BINARIES=0 keeps none. */
  for (gint every = -1; every <= 0; every++) {
    gchar *dev = NULL;
    gboolean own;

    set_env ("GST_CL_CACHE_BINARIES", every < 0 ? NULL : "0");
    for (gint run = 0; run < 2; run++) {
      pipe = run_pipeline (desc, &blur, NULL);
      g_object_get (blur, "current-device", &dev, NULL);
      own = every == 0 || strstr (dev, "Portable Computing Language");
      if (own || run == 0) {
        fail_unless (clcheck_stat (blur, "program-builds") >= 1);
        fail_unless_equals_int (clcheck_stat (blur, "program-cache-loads"), 0);
      } else {
        fail_unless_equals_int (clcheck_stat (blur, "program-builds"), 0);
        fail_unless (clcheck_stat (blur, "program-cache-loads") >= 1);
      }
      stop_pipeline (pipe, blur);
      entry = first_cache_file (dir);
      fail_unless ((entry == NULL) == own, "%s: %s cache entry",
          dev, entry ? "a" : "no");
      g_free (dev);
      g_free (entry);
    }
    while ((entry = first_cache_file (dir))) {
      g_unlink (entry);
      g_free (entry);
    }
  }

  g_setenv ("GST_CL_CACHE_BINARIES", "1", TRUE);
  pipe = run_pipeline (desc, &blur, NULL);
  fail_unless (clcheck_stat (blur, "program-builds") >= 1);
  fail_unless_equals_int (clcheck_stat (blur, "program-cache-loads"), 0);
  stop_pipeline (pipe, blur);

  pipe = run_pipeline (desc, &blur, NULL);
  fail_unless_equals_int (clcheck_stat (blur, "program-builds"), 0);
  fail_unless (clcheck_stat (blur, "program-cache-loads") >= 1);
  stop_pipeline (pipe, blur);

  /* Flip a byte in the middle of every entry: the checksum catches it. */
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  while ((name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);
    fail_unless (g_file_get_contents (path, &data, &len, NULL));
    data[len / 2] ^= 0x5a;
    fail_unless (g_file_set_contents (path, data, len, NULL));
    g_free (data);
    g_free (path);
  }
  g_dir_close (d);
  pipe = run_pipeline (desc, &blur, NULL);
  fail_unless (clcheck_stat (blur, "program-builds") >= 1);
  fail_unless_equals_int (clcheck_stat (blur, "program-cache-loads"), 0);
  stop_pipeline (pipe, blur);

  /* Truncated entries too. */
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);
    fail_unless (g_file_set_contents (path, "GSTCLBIN", 8, NULL));
    g_free (path);
  }
  g_dir_close (d);
  pipe = run_pipeline (desc, &blur, NULL);
  fail_unless (clcheck_stat (blur, "program-builds") >= 1);
  stop_pipeline (pipe, blur);

  set_env ("GST_CL_CACHE_DIR", old_dir);
  set_env ("GST_CL_CACHE_BINARIES", old_binaries);
  g_free (old_dir);
  g_free (old_binaries);
  entry = first_cache_file (dir);
  while (entry) {
    g_unlink (entry);
    g_free (entry);
    entry = first_cache_file (dir);
  }
  g_rmdir (dir);
  g_free (dir);
}
GST_END_TEST;

GST_START_TEST (test_unknown_device_lists_devices)
{
  GstElement *blur;
  gchar *text;
  GstElement *pipe = run_pipeline ("videotestsrc num-buffers=1 ! "
      "clblur name=blur device=no-such-device ! fakesink", &blur, &text);

  fail_unless (text != NULL, "expected an error");
  fail_unless (strstr (text, "no OpenCL device matches \"no-such-device\""),
      "%s", text);
  fail_unless (strstr (text, "available devices: 0.0"), "%s", text);
  g_free (text);
  stop_pipeline (pipe, blur);
}
GST_END_TEST;

GST_START_TEST (test_device_selection)
{
  const gchar *requests[] = { "auto", "cpu", "0.0" };
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++) {
    /* Set before the harness starts the element: the device is chosen at
     * start. */
    gchar *props = g_strdup_printf ("device=%s", requests[i]);
    GstHarness *h = clcheck_new_harness ("clblur", props);
    gchar *dev = NULL;
    g_object_get (h->element, "current-device", &dev, NULL);
    fail_unless (dev != NULL && strstr (dev, " ("), "%s -> %s", requests[i],
        dev);
    if (!strcmp (requests[i], "cpu"))
      fail_unless (strstr (dev, "(CPU,") != NULL, "device=%s ran on %s",
          requests[i], dev);
    if (!strcmp (requests[i], "0.0"))
      fail_unless (g_str_has_prefix (dev, "0.0 "), "%s", dev);
    g_free (dev);
    g_free (props);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* Two cl elements share one context (one queue). */
GST_START_TEST (test_context_shared)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "clblur name=a ! clblur name=b ! fakesink", NULL);
  GstElement *a = gst_bin_get_by_name (GST_BIN (pipe), "a");
  GstElement *b = gst_bin_get_by_name (GST_BIN (pipe), "b");

  gst_element_set_state (pipe, GST_STATE_PAUSED);
  gst_element_get_state (pipe, NULL, NULL, GST_CLOCK_TIME_NONE);
  GstContext *ctx = gst_element_get_context (a, "gst.cl.context");
  GstContext *ctx_b = gst_element_get_context (b, "gst.cl.context");
  fail_unless (ctx != NULL, "a has no context");
  fail_unless (ctx_b != NULL, "b has no context");
  const GValue *va = gst_structure_get_value (gst_context_get_structure (ctx),
      "context");
  const GValue *vb =
      gst_structure_get_value (gst_context_get_structure (ctx_b), "context");
  fail_unless (g_value_get_object (va) == g_value_get_object (vb));
  gst_context_unref (ctx);
  gst_context_unref (ctx_b);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (a);
  gst_object_unref (b);
  gst_object_unref (pipe);
}
GST_END_TEST;

static Suite *
clblur_suite (void)
{
  Suite *s = suite_create ("clblur");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_matches_reference);
  tcase_add_test (tc, test_sigma_y_and_kernel_size);
  tcase_add_test (tc, test_property_changes_while_playing);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_unsupported_caps_refused);
  tcase_add_test (tc, test_foreign_unaligned_input);
  tcase_add_test (tc, test_foreign_aligned_input_wrapped);
  tcase_add_test (tc, test_identity_is_passthrough);
  tcase_add_test (tc, test_passthrough_toggled_while_playing);
  tcase_add_test (tc, test_counters_300_frames);
  tcase_add_test (tc, test_program_cache);
  tcase_add_test (tc, test_unknown_device_lists_devices);
  tcase_add_test (tc, test_device_selection);
  tcase_add_test (tc, test_context_shared);
  return s;
}

GST_CHECK_MAIN (clblur);
