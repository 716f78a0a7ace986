/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Bad and awkward input for every cl element (clblur, clsobel, clhisteq,
 * cloptflow): every raw video format the
 * element does not list is refused at negotiation; sizes from 1x1 (odd
 * widths and heights for the subsampled formats) to 8192x8192; frames over
 * the device's largest allocation refused with a clear error; padded
 * strides and offsets (GstVideoMeta) and buffers without meta give the same
 * pixels; short buffers are an error, never an overread; flushing seeks mid
 * stream; EOS with frames in flight; pipelines in parallel threads, with
 * their own context and sharing one. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "clcheck.h"
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

#include "gstclref.h"

static const gchar *elements[] = {
  "clblur", "clsobel", "clhisteq", "cloptflow"
};

/* What the elements list (gst/elements/gstcl*.c FORMATS). */
static const gchar *supported[] = {
  "GRAY8", "NV12", "I420", "RGBA", "BGRA", "RGBx", "BGRx",
};

static guint32 seed = 7;

/* The visible pixels of @buf (whatever its layout), plane after plane,
 * rows packed. */
static GByteArray *
packed_pixels (GstBuffer * buf, const GstVideoInfo * info)
{
  GstVideoFrame f;
  GByteArray *out = g_byte_array_new ();

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&f, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&f, comp[0]);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&f, comp[0]);
    const guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    for (gint y = 0; y < h; y++)
      g_byte_array_append (out, d + y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p),
          w);
  }
  gst_video_frame_unmap (&f);
  return out;
}

/* @in (tight layout of @info) copied into a layout with every row padded
 * by @pad bytes and @gap bytes between planes, described by a GstVideoMeta. */
static GstBuffer *
padded_copy (GstBuffer * in, const GstVideoInfo * info, gint pad, gint gap)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize size = gap;
  GstBuffer *out;
  GstVideoFrame src, dst;
  GstVideoInfo pinfo = *info;

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + pad;
    offset[p] = size;
    size += (gsize) stride[p] * GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]) +
        gap;
    pinfo.stride[p] = stride[p];
    pinfo.offset[p] = offset[p];
  }
  pinfo.size = size;
  out = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_memset (out, 0, 0xA5, size);
  gst_buffer_add_video_meta_full (out, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
      stride);
  fail_unless (gst_video_frame_map (&src, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, &pinfo, out, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&dst, &src));
  gst_video_frame_unmap (&src);
  gst_video_frame_unmap (&dst);
  return out;
}

/* One frame through @factory; returns the output's visible pixels. */
static GByteArray *
process (const gchar * factory, const gchar * props, const gchar * format,
    gint w, gint h, GstBuffer * in, GstVideoInfo * out_info)
{
  GstHarness *hs = clcheck_new_harness (factory, props);
  GstBuffer *out;
  GByteArray *pixels;
  GstCaps *caps;

  gst_harness_set_src_caps (hs, clcheck_caps (format, w, h));
  fail_unless_equals_int (gst_harness_push (hs, in), GST_FLOW_OK);
  out = gst_harness_pull (hs);
  fail_unless (out != NULL, "%s %s %dx%d: no output", factory, format, w, h);
  caps = gst_pad_get_current_caps (hs->sinkpad);
  fail_unless (gst_video_info_from_caps (out_info, caps));
  gst_caps_unref (caps);
  fail_unless (gst_buffer_get_size (out) >= out_info->size);
  pixels = packed_pixels (out, out_info);
  gst_buffer_unref (out);
  gst_harness_teardown (hs);
  return pixels;
}

/* ---- negotiation ------------------------------------------------------- */

static gboolean
is_supported (const gchar * format)
{
  for (guint i = 0; i < G_N_ELEMENTS (supported); i++)
    if (!strcmp (format, supported[i]))
      return TRUE;
  return FALSE;
}

/* Every raw format GStreamer knows: the element accepts exactly its list;
 * the rest are refused at negotiation (not-negotiated, nothing processed). */
GST_START_TEST (test_every_raw_format)
{
  guint n_formats = 0;
  const GstVideoFormat *all = gst_video_formats_raw (&n_formats);
  guint refused = 0;

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstElement *el = gst_element_factory_make (elements[e], NULL);
    GstPad *sink = gst_element_get_static_pad (el, "sink");
    for (guint i = 0; i < n_formats; i++) {
      const gchar *name = gst_video_format_to_string (all[i]);
      GstCaps *caps = clcheck_caps (name, 64, 48);
      gboolean ok = gst_pad_query_accept_caps (sink, caps);
      fail_unless_equals_int (ok, is_supported (name));
      if (!ok && i % 16 == 0)
        clcheck_assert_refuses (elements[e], name);
      refused += !ok;
      gst_caps_unref (caps);
    }
    /* Not video at all, or not raw. */
    {
      GstCaps *audio = gst_caps_from_string ("audio/x-raw, format=S16LE, "
          "rate=48000, channels=2, layout=interleaved");
      GstCaps *h264 = gst_caps_from_string ("video/x-h264, width=64, "
          "height=48");
      fail_if (gst_pad_query_accept_caps (sink, audio));
      fail_if (gst_pad_query_accept_caps (sink, h264));
      gst_caps_unref (audio);
      gst_caps_unref (h264);
    }
    gst_object_unref (sink);
    gst_object_unref (el);
  }
  g_print ("%u raw formats x %zu elements: %u refused\n", n_formats,
      G_N_ELEMENTS (elements), refused);
}
GST_END_TEST;

/* ---- sizes ------------------------------------------------------------- */

/* clblur against the C reference on tiny and odd sizes, every format;
 * clsobel and clhisteq must produce a frame of the right size. */
GST_START_TEST (test_tiny_and_odd_sizes)
{
  static const gint sizes[][2] = {
    {1, 1}, {1, 2}, {2, 1}, {1, 7}, {7, 1}, {3, 3}, {5, 3}, {33, 17},
  };

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++)
    for (guint f = 0; f < G_N_ELEMENTS (supported); f++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
        gint w = sizes[s][0], h = sizes[s][1];
        GstVideoInfo info, out_info;
        GstCaps *caps = clcheck_caps (supported[f], w, h);
        GstBuffer *in;
        GByteArray *px;

        fail_unless (gst_video_info_from_caps (&info, caps));
        gst_caps_unref (caps);
        in = gst_buffer_new_allocate (NULL, info.size, NULL);
        clcheck_fill_random (in, &seed);
        px = process (elements[e], "device=cpu", supported[f], w, h,
            gst_buffer_ref (in), &out_info);
        fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), w);
        fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), h);
        if (!strcmp (elements[e], "clblur")) {
          /* sigma 1.0 default: compare the first plane with the reference */
          GByteArray *src = packed_pixels (in, &info);
          gint cn = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
          /* the default sigma, 1.0 */
          gint k = gst_cl_gaussian_ksize (1.0);
          gdouble *taps = g_new (gdouble, k);
          guint8 *ref = g_malloc ((gsize) w * h * cn);
          gint worst = 0;

          gst_cl_gaussian_taps (k, 1.0, taps);
          gst_cl_ref_blur_plane (src->data, w * cn, ref, w * cn, w, h, cn,
              taps, k, taps, k);
          for (gint i = 0; i < w * h * cn; i++)
            worst = MAX (worst, abs (ref[i] - px->data[i]));
          fail_unless (worst <= 1, "clblur %s %dx%d: max diff %d",
              supported[f], w, h, worst);
          g_free (taps);
          g_free (ref);
          g_byte_array_unref (src);
        }
        g_byte_array_unref (px);
        gst_buffer_unref (in);
      }
}
GST_END_TEST;

/* The largest frames the caps allow that fit the device: one 8192x8192
 * frame per format family, checked against the reference at the corners
 * (clblur), or for size (others). */
GST_START_TEST (test_8192x8192)
{
  static const gchar *fmts[] = { "GRAY8", "NV12" };

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    GstVideoInfo info, out_info;
    GstCaps *caps = clcheck_caps (fmts[f], 8192, 8192);
    GstBuffer *in;
    GByteArray *px, *src;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    clcheck_fill_random (in, &seed);
    src = packed_pixels (in, &info);
    px = process ("clblur", "device=cpu sigma=1.0", fmts[f], 8192, 8192,
        gst_buffer_ref (in), &out_info);
    fail_unless_equals_int (px->len, src->len);
    {
      /* Reference on the 32x32 corners (blur only reaches 3 pixels in). */
      static const gint corner[][2] = { {0, 0}, {8160, 0}, {0, 8160},
      {8160, 8160}
      };
      gint k = gst_cl_gaussian_ksize (1.0);
      gdouble *taps = g_new (gdouble, k);
      gst_cl_gaussian_taps (k, 1.0, taps);
      for (guint c = 0; c < G_N_ELEMENTS (corner); c++) {
        gint x0 = corner[c][0], y0 = corner[c][1];
        guint8 *ref = g_malloc (32 * 32);
        gst_cl_ref_blur_plane (src->data + (gsize) y0 * 8192 + x0, 8192, ref,
            32, 32, 32, 1, taps, k, taps, k);
        /* Only the pixels whose taps lie inside the tile or the frame. */
        for (gint y = 0; y < 32; y++)
          for (gint x = 0; x < 32; x++) {
            gboolean inner_x = (x >= k / 2 || x0 == 0) &&
                (x < 32 - k / 2 || x0 + 32 == 8192);
            gboolean inner_y = (y >= k / 2 || y0 == 0) &&
                (y < 32 - k / 2 || y0 + 32 == 8192);
            if (inner_x && inner_y)
              fail_unless (abs (ref[y * 32 + x] -
                      px->data[(gsize) (y0 + y) * 8192 + x0 + x]) <= 1,
                  "%s 8192x8192 at (%d,%d)", fmts[f], x0 + x, y0 + y);
          }
        g_free (ref);
      }
      g_free (taps);
    }
    g_byte_array_unref (px);
    g_byte_array_unref (src);
    gst_buffer_unref (in);
  }
  /* clsobel and clhisteq (cloptflow's pyramid at 8192x8192 is minutes on
   * a CPU device). */
  for (guint e = 1; e <= 2; e++) {
    GstVideoInfo info, out_info;
    GstCaps *caps = clcheck_caps ("GRAY8", 8192, 8192);
    GstBuffer *in;
    GByteArray *px;
    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    clcheck_fill_random (in, &seed);
    px = process (elements[e], "device=cpu", "GRAY8", 8192, 8192, in,
        &out_info);
    fail_unless_equals_int (px->len, 8192 * 8192);
    g_byte_array_unref (px);
  }
}
GST_END_TEST;

/* RGBA 32768x16400 (2.002 GiB) is inside the caps range but beyond the
 * largest allocation of PoCL (2 GiB) and most GPUs: refused with a clear
 * error before anything is allocated. 32768x32768 RGBA (4 GiB) is beyond
 * what GstVideoInfo computes: refused too. */
GST_START_TEST (test_beyond_largest_allocation)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstHarness *h = clcheck_new_harness (elements[e], "device=cpu");
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;
    GError *err = NULL;

    gst_element_set_bus (h->element, bus);
    gst_harness_set_src_caps (h, clcheck_caps ("RGBA", 32768,
            e == 2 ? 32768 : 16400));
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate
            (NULL, 16, NULL)), GST_FLOW_NOT_NEGOTIATED);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s: no error message", elements[e]);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, e == 2 ? "too large" :
            "largest allocation") != NULL, "%s", err->message);
    g_print ("%s RGBA 32768x%d: %s\n", elements[e], e == 2 ? 32768 : 16400,
        err->message);
    g_error_free (err);
    gst_message_unref (msg);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* ---- layouts ----------------------------------------------------------- */

/* The same pixels in a padded layout with a GstVideoMeta (odd padding, so
 * unaligned rows and planes; and 4096-aligned padding, which the elements
 * may use in place) give the same output as the tight layout without meta. */
GST_START_TEST (test_padded_strides_and_no_meta)
{
  static const gint pads[][2] = { {3, 5}, {64, 4096}, {1, 1} };

  for (guint e = 0; e < G_N_ELEMENTS (elements); e++)
    for (guint f = 0; f < G_N_ELEMENTS (supported); f++) {
      gint w = 37, h = 21;
      GstVideoInfo info, oi;
      GstCaps *caps = clcheck_caps (supported[f], w, h);
      GstBuffer *in;
      GByteArray *tight;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_caps_unref (caps);
      in = gst_buffer_new_allocate (NULL, info.size, NULL);
      clcheck_fill_random (in, &seed);
      fail_if (gst_buffer_get_video_meta (in) != NULL);
      tight = process (elements[e], "device=cpu", supported[f], w, h,
          gst_buffer_ref (in), &oi);
      for (guint p = 0; p < G_N_ELEMENTS (pads); p++) {
        GstBuffer *padded = padded_copy (in, &info, pads[p][0], pads[p][1]);
        GByteArray *px = process (elements[e], "device=cpu", supported[f], w,
            h, padded, &oi);
        fail_unless_equals_int (px->len, tight->len);
        fail_unless (memcmp (px->data, tight->data, px->len) == 0,
            "%s %s: padding %d/%d changes the output", elements[e],
            supported[f], pads[p][0], pads[p][1]);
        g_byte_array_unref (px);
      }
      g_byte_array_unref (tight);
      gst_buffer_unref (in);
    }
}
GST_END_TEST;

/* A buffer smaller than its caps say is an error, not an overread. */
GST_START_TEST (test_short_buffer_is_an_error)
{
  for (guint e = 0; e < G_N_ELEMENTS (elements); e++) {
    GstHarness *h = clcheck_new_harness (elements[e], "device=cpu");
    GstVideoInfo info;
    GstCaps *caps = clcheck_caps ("NV12", 64, 48);

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_harness_set_src_caps (h, caps);
    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_new_allocate (NULL, info.size - 1, NULL)),
        GST_FLOW_ERROR);
    fail_unless_equals_int (gst_harness_buffers_received (h), 0);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* ---- stream events ------------------------------------------------------ */

/* MD5 of the visible pixels only: row padding is never written by the
 * kernels, so it holds whatever the allocation held. */
static gchar *
frame_sum (GstSample * sample)
{
  GstVideoInfo info;
  GByteArray *px;
  gchar *sum;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
          (sample)));
  px = packed_pixels (gst_sample_get_buffer (sample), &info);
  sum = g_compute_checksum_for_data (G_CHECKSUM_MD5, px->data, px->len);
  g_byte_array_unref (px);
  return sum;
}

/* Sums of every frame until EOS; the bus must not carry an error. */
static GPtrArray *
pull_all (GstElement * pipe)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GPtrArray *sums = g_ptr_array_new_with_free_func (g_free);
  GstSample *s;
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *err;

  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    g_ptr_array_add (sums, frame_sum (s));
    gst_sample_unref (s);
  }
  err = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_if (err != NULL, "error on the bus");
  gst_object_unref (bus);
  gst_object_unref (sink);
  return sums;
}

#define STATELESS "videotestsrc num-buffers=40 pattern=ball ! " \
    "video/x-raw,format=I420,width=99,height=51,framerate=30/1 ! " \
    "clblur device=cpu ! clsobel device=cpu ! " \
    "appsink name=sink sync=false"

/* A flushing seek back to 0 after 15 frames: no error, and the frames after
 * it are those of a clean run from the start. */
GST_START_TEST (test_flushing_seek_mid_stream)
{
  GstElement *pipe = gst_parse_launch (STATELESS, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GPtrArray *clean, *after;
  gchar *head;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  clean = pull_all (pipe);
  fail_unless_equals_int (clean->len, 40);
  gst_element_set_state (pipe, GST_STATE_NULL);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (gint i = 0; i < 15; i++) {
    GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    fail_unless (s != NULL);
    head = frame_sum (s);
    gst_sample_unref (s);
    fail_unless (!strcmp (head, g_ptr_array_index (clean, i)),
        "second run, frame %d differs from the first run's", i);
    g_free (head);
  }
  fail_unless (gst_element_seek_simple (pipe, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, 0));
  after = pull_all (pipe);
  /* The stream restarts at frame 0 (num-buffers counts every frame made,
   * so it ends sooner): frame i after the seek is frame i of a clean run. */
  fail_unless (after->len >= 10, "%u frames after the seek", after->len);
  for (guint i = 0; i < after->len; i++)
    fail_unless_equals_string (g_ptr_array_index (after, i),
        g_ptr_array_index (clean, i));
  g_print ("flushing seek after 15 frames: %u frames after it, all equal to "
      "a clean run's\n", after->len);
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_ptr_array_unref (clean);
  g_ptr_array_unref (after);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}
GST_END_TEST;

/* Seeks while clhisteq keeps temporal state: no error, no hang, every
 * frame delivered. */
GST_START_TEST (test_seeks_with_histeq)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=60 "
      "pattern=ball ! video/x-raw,format=NV12,width=64,height=48,"
      "framerate=30/1 ! clblur device=cpu ! clhisteq device=cpu ! "
      "appsink name=sink sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GPtrArray *rest;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (gint round = 0; round < 5; round++) {
    for (gint i = 0; i < 5; i++) {
      GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));
      fail_unless (s != NULL);
      gst_sample_unref (s);
    }
    fail_unless (gst_element_seek_simple (pipe, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH, round * GST_SECOND / 3));
  }
  /* num-buffers counts every frame made, seeks or not: what is left of
   * the 60 arrives, then EOS. */
  rest = pull_all (pipe);
  fail_unless (rest->len > 0);
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_ptr_array_unref (rest);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}
GST_END_TEST;

/* 30 frames pushed at once, then EOS at once: all 30 arrive, each equal to
 * the frame the chain gives when fed one at a time. */
GST_START_TEST (test_eos_with_frames_in_flight)
{
  const gchar *desc = "appsrc name=src format=time "
      "caps=video/x-raw,format=NV12,width=80,height=46,framerate=30/1 ! "
      "clblur device=cpu ! clsobel device=cpu ! "
      "clhisteq device=cpu smoothing=1 ! appsink name=sink sync=false";
  GPtrArray *burst = NULL, *single = g_ptr_array_new_with_free_func (g_free);
  GstBuffer *frames[30];
  GstVideoInfo info;
  GstCaps *caps = clcheck_caps ("NV12", 80, 46);

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  for (gint i = 0; i < 30; i++) {
    frames[i] = gst_buffer_new_allocate (NULL, info.size, NULL);
    clcheck_fill_random (frames[i], &seed);
    GST_BUFFER_PTS (frames[i]) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (frames[i]) = GST_SECOND / 30;
  }

  for (gint mode = 0; mode < 2; mode++) {
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");

    gst_element_set_state (pipe, GST_STATE_PLAYING);
    for (gint i = 0; i < 30; i++) {
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
              gst_buffer_ref (frames[i])), GST_FLOW_OK);
      if (mode == 1) {
        GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));
        fail_unless (s != NULL);
        g_ptr_array_add (single, frame_sum (s));
        gst_sample_unref (s);
      }
    }
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    if (mode == 0)
      burst = pull_all (pipe);
    else {
      GPtrArray *none = pull_all (pipe);
      fail_unless_equals_int (none->len, 0);
      g_ptr_array_unref (none);
    }
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (src);
    gst_object_unref (sink);
    gst_object_unref (pipe);
  }
  fail_unless_equals_int (burst->len, 30);
  for (gint i = 0; i < 30; i++) {
    fail_unless_equals_string (g_ptr_array_index (burst, i),
        g_ptr_array_index (single, i));
    gst_buffer_unref (frames[i]);
  }
  g_ptr_array_unref (burst);
  g_ptr_array_unref (single);
}
GST_END_TEST;

/* ---- threads ----------------------------------------------------------- */

typedef struct
{
  GstContext *shared;           /* NULL: each pipeline makes its own */
  GPtrArray *sums;
} Job;

static gpointer
run_job (gpointer data)
{
  Job *job = data;
  GstElement *pipe = gst_parse_launch (STATELESS, NULL);

  if (job->shared)
    gst_element_set_context (pipe, job->shared);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  job->sums = pull_all (pipe);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return NULL;
}

/* Four pipelines at once in four threads, each with its own context, then
 * all on one shared context (one queue fed from four threads): every frame
 * equals the single-pipeline run. */
GST_START_TEST (test_parallel_pipelines)
{
  Job ref = { NULL, NULL };
  GstContext *shared = NULL;

  run_job (&ref);
  fail_unless_equals_int (ref.sums->len, 40);
  for (gint sharing = 0; sharing < 2; sharing++) {
    Job jobs[4];
    GThread *threads[4];

    GstElement *owner = NULL;

    if (sharing) {
      /* The context a first pipeline made, handed to the four others. */
      GstBus *bus;
      GstMessage *msg;

      owner = gst_parse_launch (STATELESS, NULL);
      bus = gst_element_get_bus (owner);
      gst_element_set_state (owner, GST_STATE_PAUSED);
      msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
          GST_MESSAGE_HAVE_CONTEXT);
      fail_unless (msg != NULL);
      gst_message_parse_have_context (msg, &shared);
      gst_message_unref (msg);
      gst_object_unref (bus);
    }
    for (gint t = 0; t < 4; t++) {
      jobs[t].shared = shared;
      jobs[t].sums = NULL;
      threads[t] = g_thread_new ("pipeline", run_job, &jobs[t]);
    }
    for (gint t = 0; t < 4; t++) {
      g_thread_join (threads[t]);
      fail_unless_equals_int (jobs[t].sums->len, 40);
      for (guint i = 0; i < 40; i++)
        fail_unless (!strcmp (g_ptr_array_index (jobs[t].sums, i),
                g_ptr_array_index (ref.sums, i)),
            "%s context, thread %d, frame %u differs", sharing ? "shared" :
            "own", t, i);
      g_ptr_array_unref (jobs[t].sums);
    }
    if (owner) {
      gst_element_set_state (owner, GST_STATE_NULL);
      gst_object_unref (owner);
      gst_context_unref (shared);
    }
    shared = NULL;
  }
  g_ptr_array_unref (ref.sums);
}
GST_END_TEST;

static Suite *
robustness_suite (void)
{
  Suite *s = suite_create ("robustness");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 900);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_raw_format);
  tcase_add_test (tc, test_tiny_and_odd_sizes);
  tcase_add_test (tc, test_8192x8192);
  tcase_add_test (tc, test_beyond_largest_allocation);
  tcase_add_test (tc, test_padded_strides_and_no_meta);
  tcase_add_test (tc, test_short_buffer_is_an_error);
  tcase_add_test (tc, test_flushing_seek_mid_stream);
  tcase_add_test (tc, test_seeks_with_histeq);
  tcase_add_test (tc, test_eos_with_frames_in_flight);
  tcase_add_test (tc, test_parallel_pipelines);
  return s;
}

GST_CHECK_MAIN (robustness);
