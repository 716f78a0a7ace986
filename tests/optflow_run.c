/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs cloptflow over raw GRAY8 frames and writes the flow field of every
 * output frame, read through the public meta header the way an application
 * reads it. Used by tests/test_opencv_optflow.py (and handy by hand).
 * Usage: optflow_run WIDTH HEIGHT IN.gray OUT.flow [name=value ...]
 * OUT holds, per frame, HEIGHT x WIDTH x 2 native floats (dx, dy). */
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clfilters/gstclflowmeta.h"

int
main (int argc, char **argv)
{
  GstElement *e;
  GstHarness *h;
  GstVideoInfo info;
  FILE *in, *out;
  gint w, hh, frames = 0;
  gsize size;
  guint8 *buf;

  gst_init (&argc, &argv);
  if (argc < 5) {
    g_printerr ("usage: %s W H IN OUT [prop=value ...]\n", argv[0]);
    return 2;
  }
  w = atoi (argv[1]);
  hh = atoi (argv[2]);
  size = (gsize) w * hh;
  /* GStreamer's GRAY8 rows are 4-byte aligned: the file's are not */
  if (w <= 0 || hh <= 0 || !gst_video_info_set_format (&info,
          GST_VIDEO_FORMAT_GRAY8, w, hh)) {
    g_printerr ("bad size %s x %s\n", argv[1], argv[2]);
    return 2;
  }
  in = fopen (argv[3], "rb");
  out = fopen (argv[4], "wb");
  if (!in || !out) {
    g_printerr ("cannot open %s or %s\n", argv[3], argv[4]);
    return 2;
  }
  e = gst_element_factory_make ("cloptflow", NULL);
  if (!e) {
    g_printerr ("no cloptflow (GST_PLUGIN_PATH?)\n");
    return 2;
  }
  g_object_set (e, "output", 1, NULL);  /* passthrough */
  for (gint i = 5; i < argc; i++) {
    gchar **kv = g_strsplit (argv[i], "=", 2);
    if (kv[0] && kv[1])
      gst_util_set_object_arg (G_OBJECT (e), kv[0], kv[1]);
    g_strfreev (kv);
  }
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, g_strdup_printf ("video/x-raw,"
          "format=GRAY8,width=%d,height=%d,framerate=30/1", w, hh));

  buf = g_malloc (size);
  while (fread (buf, 1, size, in) == size) {
    GstBuffer *b = gst_buffer_new_allocate (NULL, info.size, NULL), *o;
    GstCLFlowMeta *m;
    GstMapInfo map;

    gst_buffer_map (b, &map, GST_MAP_WRITE);
    for (gint y = 0; y < hh; y++)
      memcpy (map.data + y * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0),
          buf + (gsize) y * w, w);
    gst_buffer_unmap (b, &map);

    GST_BUFFER_PTS (b) = frames * GST_SECOND / 30;
    if (gst_harness_push (h, b) != GST_FLOW_OK) {
      g_printerr ("push failed at frame %d\n", frames);
      return 1;
    }
    o = gst_harness_pull (h);
    m = gst_buffer_get_cl_flow_meta (o);
    if (!m || m->width != (guint) w || m->height != (guint) hh) {
      g_printerr ("frame %d: no flow meta of %dx%d\n", frames, w, hh);
      return 1;
    }
    if (!gst_buffer_map (m->field, &map, GST_MAP_READ)) {
      g_printerr ("cannot map the field\n");
      return 1;
    }
    for (gint y = 0; y < hh; y++)
      fwrite (map.data + y * m->stride, sizeof (gfloat) * 2, w, out);
    gst_buffer_unmap (m->field, &map);
    gst_buffer_unref (o);
    frames++;
  }
  g_free (buf);
  gst_harness_teardown (h);
  fclose (in);
  fclose (out);
  g_print ("%d frames\n", frames);
  return 0;
}
