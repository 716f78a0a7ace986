/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs videotestsrc ! clblur ! clhisteq ! appsink (NV12) with device=DEVICE
 * for SECONDS and writes a timeline CSV: every 0.25 s the time (CLOCK_
 * MONOTONIC seconds, the clock tools/gpu-load prints), frames/s over the
 * interval, the device the chain runs on ("gpu"/"cpu" and its P.D index),
 * and the auto group's busy signal, latency per frame and switch count,
 * the context's frame copies and wrapped inputs so far (the device the
 * first element is on), and the ms the streaming thread spent sampling
 * load sources.
 * Switch messages of the first element go to EVENTS. The appsink maps
 * every frame for reading, as an encoder would. C, not Python: the GPU
 * machine has no PyGObject. Used by bench/auto-timeline.sh.
 *
 *   auto_timeline DEVICE SECONDS WIDTH HEIGHT CSV EVENTS
 *
 * Environment: TIMELINE_FORMAT (NV12), TIMELINE_CHAIN: the elements between
 * source and sink, "@DEV@" replaced by DEVICE, the first named "first"
 * (default "clblur name=first sigma=2 device=@DEV@ ! clhisteq device=@DEV@"). */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static gint frames;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static GstFlowReturn
on_sample (GstAppSink * sink, gpointer user_data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstMapInfo map;

  if (!sample)
    return GST_FLOW_EOS;
  if (gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ))
    gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  gst_sample_unref (sample);
  g_atomic_int_inc (&frames);
  return GST_FLOW_OK;
}

static double
field_double (const GstStructure * s, const gchar * name)
{
  gdouble v = -1;
  if (s)
    gst_structure_get_double (s, name, &v);
  return v;
}

static void
poll_bus (GstBus * bus, FILE * events)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT |
              GST_MESSAGE_ERROR))) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &err, &dbg);
      fprintf (stderr, "error: %s (%s)\n", err->message, dbg);
      exit (1);
    }
    if (s && gst_structure_has_name (s, "gst-cl-device-switch") &&
        !strcmp (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "first")) {
      gboolean warmed = FALSE;
      gst_structure_get_boolean (s, "warmed", &warmed);
      fprintf (events, "%.3f,%s,%s,%.3f,%.4f,%.4f,%.4f,%d,\"%s\",\"%s\"\n",
          now (), gst_structure_get_string (s, "reason"),
          gst_structure_get_string (s, "to-slot"), field_double (s, "busy"),
          field_double (s, "ms-per-frame"), field_double (s, "cpu-ms"),
          field_double (s, "estimate-ms"), warmed,
          gst_structure_get_string (s, "detail"),
          gst_structure_get_string (s, "sources"));
      fflush (events);
    }
    gst_message_unref (msg);
  }
}

int
main (int argc, char **argv)
{
  GstAppSinkCallbacks cb;
  GstElement *pipe, *first, *sink;
  GstBus *bus;
  FILE *csv, *events;
  gchar *desc;
  double seconds, t, last_t, end;
  gint last_f = 0;

  gst_init (&argc, &argv);
  memset (&cb, 0, sizeof (cb));
  cb.new_sample = on_sample;
  if (argc != 7) {
    fprintf (stderr, "usage: %s DEVICE SECONDS WIDTH HEIGHT CSV EVENTS\n",
        argv[0]);
    return 2;
  }
  seconds = atof (argv[2]);
  {
    const gchar *format = g_getenv ("TIMELINE_FORMAT");
    const gchar *chain = g_getenv ("TIMELINE_CHAIN");
    gchar **parts = g_strsplit (chain ? chain : "clblur name=first sigma=2 "
        "device=@DEV@ ! clhisteq device=@DEV@", "@DEV@", -1);
    gchar *elements = g_strjoinv (argv[1], parts);

    desc = g_strdup_printf ("videotestsrc is-live=false pattern=ball ! "
        "video/x-raw,format=%s,width=%s,height=%s,framerate=30/1 ! %s ! "
        "appsink name=sink sync=false max-buffers=4",
        format ? format : "NV12", argv[3], argv[4], elements);
    g_strfreev (parts);
    g_free (elements);
  }
  fprintf (stderr, "pipeline: %s\n", desc);
  pipe = gst_parse_launch (desc, NULL);
  if (!pipe) {
    fprintf (stderr, "cannot build %s\n", desc);
    return 1;
  }
  first = gst_bin_get_by_name (GST_BIN (pipe), "first");
  if (!first) {
    fprintf (stderr, "no element named first in %s\n", desc);
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, NULL, NULL);
  csv = fopen (argv[5], "w");
  events = fopen (argv[6], "w");
  if (!csv || !events)
    return 1;
  fprintf (csv, "time,fps,device,index,busy,ms_per_frame,switches,"
      "frame_copies,wrapped_inputs,inline_sample_ms\n");
  fprintf (events, "time,reason,to,busy,ms_per_frame,cpu_ms,estimate_ms,"
      "warmed,detail,sources\n");
  bus = gst_element_get_bus (pipe);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  /* The clock starts at the first frame (programs are built before). */
  while (g_atomic_int_get (&frames) == 0) {
    poll_bus (bus, events);
    g_usleep (10000);
  }
  last_t = now ();
  last_f = g_atomic_int_get (&frames);
  end = last_t + seconds;
  while (last_t < end) {
    gchar *dev = NULL, *index;
    GstStructure *stats = NULL;
    gint f;
    gint64 switches = -1, copies = -1, wraps = -1;

    g_usleep (250000);
    poll_bus (bus, events);
    t = now ();
    f = g_atomic_int_get (&frames);
    g_object_get (first, "current-device", &dev, "stats", &stats, NULL);
    if (stats) {
      gst_structure_get_int64 (stats, "auto-switches", &switches);
      gst_structure_get_int64 (stats, "frame-copies", &copies);
      gst_structure_get_int64 (stats, "wrapped-inputs", &wraps);
    }
    index = g_strndup (dev ? dev : "", dev && strchr (dev, ' ') ?
        (gsize) (strchr (dev, ' ') - dev) : 0);
    fprintf (csv, "%.3f,%.1f,%s,%s,%.3f,%.4f,%" G_GINT64_FORMAT ",%"
        G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%.3f\n", t,
        (f - last_f) / (t - last_t), dev && strstr (dev, "GPU") ? "gpu" :
        dev && strstr (dev, "CPU") ? "cpu" : "other", index,
        field_double (stats, "auto-busy"),
        field_double (stats, "auto-ms-per-frame"), switches, copies, wraps,
        field_double (stats, "auto-inline-sample-ms"));
    fflush (csv);
    g_free (index);
    g_free (dev);
    if (stats)
      gst_structure_free (stats);
    last_t = t;
    last_f = f;
  }
  /* The counters of the run (per context: after a switch the first
   * element's stats are those of the device it ended on). */
  {
    GstStructure *stats = NULL;
    g_object_get (first, "stats", &stats, NULL);
    if (stats) {
      gchar *str = gst_structure_to_string (stats);
      fprintf (stderr, "stats: %s\n", str);
      g_free (str);
      gst_structure_free (stats);
    }
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  poll_bus (bus, events);
  fclose (csv);
  fclose (events);
  gst_object_unref (bus);
  gst_object_unref (first);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
  return 0;
}
