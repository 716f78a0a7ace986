/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An application using the cl elements from C: builds a pipeline, changes
 * properties while it plays, reads cloptflow's messages on the bus and the
 * flow field (GstCLFlowMeta) attached to each buffer, and checks that the
 * two agree. Exits non-zero if something it expects does not happen.
 *
 *   GST_PLUGIN_PATH=build build/examples/app [FRAMES]
 *
 * The meta header is header-only: include it, link only GStreamer. */
#include <gst/gst.h>
#include <gst/clfilters/gstclflowmeta.h>
#include <math.h>
#include <stdlib.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline, *blur, *flow;
  GMutex lock;
  GHashTable *field_means;      /* PTS -> gdouble[2] (from the meta) */
  GHashTable *message_means;    /* PTS -> gdouble[2] (from the messages) */
  guint frames_with_meta;
  guint messages;
  guint compared;
  guint mismatches;
  gint grid_before, grid_after; /* grid-width before/after the change */
  gdouble max_motion;
  gboolean failed;
} App;

/* Streaming thread: the flow field of each frame, averaged. Mapping the
 * field is where the application waits for the device. */
static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  App *app = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCLFlowMeta *meta = gst_buffer_get_cl_flow_meta (buf);
  GstMapInfo map;
  gdouble sx = 0, sy = 0, *mean;

  if (!meta || !gst_buffer_map (meta->field, &map, GST_MAP_READ))
    return GST_PAD_PROBE_OK;
  for (guint y = 0; y < meta->height; y++) {
    const gfloat *row = (const gfloat *) (map.data + y * meta->stride);
    for (guint x = 0; x < meta->width; x++) {
      sx += row[2 * x];
      sy += row[2 * x + 1];
    }
  }
  gst_buffer_unmap (meta->field, &map);
  mean = g_new (gdouble, 2);
  mean[0] = sx / (meta->width * meta->height);
  mean[1] = sy / (meta->width * meta->height);
  g_mutex_lock (&app->lock);
  app->frames_with_meta++;
  g_hash_table_insert (app->field_means,
      g_memdup2 (&GST_BUFFER_PTS (buf), sizeof (guint64)), mean);
  g_mutex_unlock (&app->lock);
  return GST_PAD_PROBE_OK;
}

/* Elements in a list field: cloptflow posts GValueArray (what level and
 * spectrum post, readable from every binding); accept GstValueArray too. */
static guint
list_size (const GValue * v)
{
  guint n = 0;

  if (v && GST_VALUE_HOLDS_ARRAY (v))
    return gst_value_array_get_size (v);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  if (v && G_VALUE_HOLDS (v, g_value_array_get_type ()))
    n = ((GValueArray *) g_value_get_boxed (v))->n_values;
  G_GNUC_END_IGNORE_DEPRECATIONS;
  return n;
}

static void
on_flow_message (App * app, const GstStructure * s)
{
  guint64 ts = 0;
  gdouble mdx = 0, mdy = 0;
  gint gw = 0, gh = 0;
  const GValue *dx;
  gdouble *mean;

  gst_structure_get (s, "timestamp", G_TYPE_UINT64, &ts, "mean-dx",
      G_TYPE_DOUBLE, &mdx, "mean-dy", G_TYPE_DOUBLE, &mdy, "grid-width",
      G_TYPE_INT, &gw, "grid-height", G_TYPE_INT, &gh, NULL);
  dx = gst_structure_get_value (s, "dx");
  app->messages++;
  app->max_motion = MAX (app->max_motion, hypot (mdx, mdy));
  if (app->messages == 1)
    app->grid_before = gw;
  app->grid_after = gw;
  if (list_size (dx) != (guint) (gw * gh)) {
    g_printerr ("message at %" GST_TIME_FORMAT ": %d x %d blocks but %u "
        "values\n", GST_TIME_ARGS (ts), gw, gh, list_size (dx));
    app->failed = TRUE;
  }

  /* compared with the meta's field at the end: the message may come
   * before or after the frame reaches the sink */
  mean = g_new (gdouble, 2);
  mean[0] = mdx;
  mean[1] = mdy;
  g_hash_table_insert (app->message_means, g_memdup2 (&ts, sizeof ts), mean);

  if (app->messages % 30 == 0)
    g_print ("frame %u at %" GST_TIME_FORMAT ": mean flow (%.3f, %.3f) px, "
        "%d x %d blocks\n", app->messages, GST_TIME_ARGS (ts), mdx, mdy, gw,
        gh);

  /* Change properties while playing: they apply from the next frame. */
  if (app->messages == 30) {
    g_print ("setting clblur sigma=3 and cloptflow message-block-size=32\n");
    g_object_set (app->blur, "sigma", 3.0, NULL);
    g_object_set (app->flow, "message-block-size", 32, NULL);
  }
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (app->flow) &&
          gst_structure_has_name (s, "cloptflow"))
        on_flow_message (app, s);
      break;
    }
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      app->failed = TRUE;
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

int
main (int argc, char **argv)
{
  App app = { 0 };
  GError *err = NULL;
  gint frames = argc > 1 ? atoi (argv[1]) : 90;
  gchar *desc;
  GstElement *sink;
  GstPad *pad;
  GstBus *bus;
  gboolean ok;

  gst_init (&argc, &argv);
  desc = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%d "
      "! video/x-raw,format=NV12,width=320,height=240,framerate=30/1 "
      "! clblur name=blur sigma=1.0 "
      "! cloptflow name=flow post-messages=true output=passthrough "
      "! fakesink name=sink sync=false", frames);
  app.pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!app.pipeline) {
    g_printerr ("cannot build the pipeline: %s (is GST_PLUGIN_PATH set to "
        "the build folder?)\n", err->message);
    return 1;
  }
  app.blur = gst_bin_get_by_name (GST_BIN (app.pipeline), "blur");
  app.flow = gst_bin_get_by_name (GST_BIN (app.pipeline), "flow");
  sink = gst_bin_get_by_name (GST_BIN (app.pipeline), "sink");
  app.field_means = g_hash_table_new_full (g_int64_hash, g_int64_equal,
      g_free, g_free);
  app.message_means = g_hash_table_new_full (g_int64_hash, g_int64_equal,
      g_free, g_free);
  g_mutex_init (&app.lock);

  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &app, NULL);
  gst_object_unref (pad);

  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_bus, &app);
  gst_element_set_state (app.pipeline, GST_STATE_PLAYING);
  g_main_loop_run (app.loop);
  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);

  {
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init (&it, app.message_means);
    while (g_hash_table_iter_next (&it, &key, &value)) {
      const gdouble *msg_mean = value;
      const gdouble *field = g_hash_table_lookup (app.field_means, key);
      if (!field)
        continue;
      app.compared++;
      if (fabs (field[0] - msg_mean[0]) > 1e-3 ||
          fabs (field[1] - msg_mean[1]) > 1e-3)
        app.mismatches++;
    }
  }
  g_print ("%u frames with flow meta, %u cloptflow messages, %u compared "
      "with the field, %u disagreeing, grid %d -> %d blocks across, largest "
      "mean motion %.2f px\n", app.frames_with_meta, app.messages,
      app.compared, app.mismatches, app.grid_before,
      app.grid_after, app.max_motion);
  ok = !app.failed && app.messages == (guint) frames &&
      app.frames_with_meta == (guint) frames && app.mismatches == 0 && app.compared == (guint) frames &&
      app.grid_before == 320 / 16 && app.grid_after == 320 / 32 &&
      app.max_motion > 0.1;
  g_print ("%s\n", ok ? "OK" : "FAILED");

  g_hash_table_unref (app.field_means);
  g_hash_table_unref (app.message_means);
  g_mutex_clear (&app.lock);
  gst_object_unref (sink);
  gst_object_unref (app.blur);
  gst_object_unref (app.flow);
  gst_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  return ok ? 0 : 1;
}
