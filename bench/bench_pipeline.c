/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* End-to-end throughput of GStreamer pipelines fed from memory, one JSON
 * line per pipeline, for bench/bench.py. A report, never a test.
 *
 * Usage: bench_pipeline [--width W] [--height H] [--format F] [--frames N]
 *                       [--warmup N] [--seconds S] [--touch] MIDDLE...
 * Each MIDDLE is a gst-launch fragment ("clblur device=cpu", "identity");
 * it runs as
 *     benchsrc ! video/x-raw,format=F,width=W,height=H ! MIDDLE
 *       ! video/x-raw ! fakesink
 * benchsrc (below) copies one of 8 pre-made frames (texture, edges, noise;
 * each shifted 2 pixels from the last, so optical flow has motion) into a
 * buffer of the downstream pool, like a decoder: the frames come from
 * memory, and the copy is the same for every pipeline (the `identity` one
 * is the baseline to subtract). The sink maps every memory of every buffer
 * for reading, as any CPU consumer does, so asynchronous work is waited for.
 *
 * Per pipeline: wall time per frame over frames warmup..N-1 (start-up,
 * program builds and the first frames are left out); the change of every
 * `stats` counter of our elements' shared contexts (host-waits per frame);
 * and, when run under LD_PRELOAD=libclprof.so, the device time of every
 * kernel and transfer from profiling events over the same frames.
 * --seconds: frames are chosen so the measured part takes about that long
 * (from the warm-up's pace), between 10 and --frames.
 * --touch: the source writes one byte a page instead of copying a frame, so
 * the frame still crosses the bus but the host's copy (~10 GB/s on one core)
 * no longer sets the pace: what is left is the device and the elements. */
#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>
#include <gst/video/video.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FRAMES 8

/* ---- benchsrc: pre-made frames into the downstream pool ---------------- */

typedef struct
{
  GstPushSrc parent;
  GstVideoInfo info;
  guint8 *frames[N_FRAMES];     /* tightly packed planes, format of info */
  guint64 n;
} BenchSrc;

typedef struct
{
  GstPushSrcClass parent_class;
} BenchSrcClass;

GType bench_src_get_type (void);
G_DEFINE_TYPE (BenchSrc, bench_src, GST_TYPE_PUSH_SRC);

static GstCaps *bench_caps;     /* fixed caps the source offers */
/* --touch: the source writes one byte a page instead of the frame */
static gboolean touch_only;
/* set by the sink after the last measured frame: the source ends */
static gint stop_source;

static GstCaps *
bench_src_get_caps (GstBaseSrc * src, GstCaps * filter)
{
  return filter ? gst_caps_intersect (bench_caps, filter) :
      gst_caps_ref (bench_caps);
}

/* Luma: gradients, ripples, blocks (edges) and noise, shifted by 2*k px;
 * chroma: smooth ramps. Values are fixed (seeded) so runs compare. */
static guint8 *
make_frame (const GstVideoInfo * info, gint k)
{
  const gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gsize size = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    size += (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, p) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, p) *
        GST_VIDEO_INFO_COMP_HEIGHT (info, p);
  guint8 *d = g_malloc (size), *o = d;
  GRand *rand = g_rand_new_with_seed (1234 + k);

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint pw = GST_VIDEO_INFO_COMP_WIDTH (info, p) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, p);
    gint ph = GST_VIDEO_INFO_COMP_HEIGHT (info, p);
    for (gint y = 0; y < ph; y++)
      for (gint x = 0; x < pw; x++) {
        gint v;
        if (p == 0) {
          gint xs = x + 2 * k;  /* motion: the scene moves left 2 px/frame */
          v = xs * 150 / w + y * 60 / h;
          v += (((xs / 64) + (y / 48)) & 1) ? 40 : 0;   /* blocks: edges */
          v += (gint) (25 * ((xs * 7 + y * 3) % 97) / 97.0);    /* ripple */
          v += (gint) g_rand_int_range (rand, -12, 13);
        } else {
          v = 96 + ((x + y) * 64) / (pw + ph);
        }
        *o++ = CLAMP (v, 0, 255);
      }
  }
  g_rand_free (rand);
  return d;
}

static gboolean
bench_src_set_caps (GstBaseSrc * src, GstCaps * caps)
{
  BenchSrc *self = (BenchSrc *) src;
  if (!gst_video_info_from_caps (&self->info, caps))
    return FALSE;
  for (gint k = 0; k < N_FRAMES; k++) {
    g_free (self->frames[k]);
    self->frames[k] = make_frame (&self->info, k);
  }
  return TRUE;
}

/* The downstream pool when there is one (as a decoder does), else a video
 * pool of our own. */
static gboolean
bench_src_decide_allocation (GstBaseSrc * src, GstQuery * query)
{
  BenchSrc *self = (BenchSrc *) src;
  GstBufferPool *pool = NULL;
  guint size = self->info.size, min = 0, max = 0;
  GstStructure *config;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    size = MAX (size, self->info.size);
  }
  if (!pool)
    pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* the pool rewrote the config (alignment): take it as it is */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      return FALSE;
    }
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

static GstFlowReturn
bench_src_fill (GstPushSrc * src, GstBuffer * buf)
{
  BenchSrc *self = (BenchSrc *) src;
  GstVideoFrame vf;
  const guint8 *s = self->frames[self->n % N_FRAMES];

  if (g_atomic_int_get (&stop_source))
    return GST_FLOW_EOS;
  if (!gst_video_frame_map (&vf, &self->info, buf, GST_MAP_WRITE))
    return GST_FLOW_ERROR;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&vf); p++) {
    gint rb = GST_VIDEO_FRAME_COMP_WIDTH (&vf, p) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
    gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&vf, p);
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
    if (touch_only) {
      for (gsize at = 0; at < (gsize) stride * rows; at += 4096)
        d[at] = (guint8) self->n;
    } else {
      for (gint y = 0; y < rows; y++, s += rb)
        memcpy (d + (gsize) y * stride, s, rb);
    }
  }
  gst_video_frame_unmap (&vf);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (self->n, GST_SECOND, 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  self->n++;
  return GST_FLOW_OK;
}

static void
bench_src_finalize (GObject * obj)
{
  BenchSrc *self = (BenchSrc *) obj;
  for (gint k = 0; k < N_FRAMES; k++)
    g_free (self->frames[k]);
  G_OBJECT_CLASS (bench_src_parent_class)->finalize (obj);
}

static void
bench_src_init (BenchSrc * self)
{
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
bench_src_class_init (BenchSrcClass * klass)
{
  GstElementClass *ec = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bc = GST_BASE_SRC_CLASS (klass);
  static GstStaticPadTemplate src_tmpl = GST_STATIC_PAD_TEMPLATE ("src",
      GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-raw"));

  G_OBJECT_CLASS (klass)->finalize = bench_src_finalize;
  gst_element_class_add_static_pad_template (ec, &src_tmpl);
  gst_element_class_set_static_metadata (ec, "benchsrc", "Source/Video",
      "Pre-made frames from memory into the downstream pool", "bench");
  bc->get_caps = bench_src_get_caps;
  bc->set_caps = bench_src_set_caps;
  bc->decide_allocation = bench_src_decide_allocation;
  GST_PUSH_SRC_CLASS (klass)->fill = bench_src_fill;
}

/* ---- measuring -------------------------------------------------------- */

typedef struct
{
  GstElement *pipeline;
  gint warmup, frames, seen;
  gdouble seconds;
  gint64 t_start, t0, t1;
  GstStructure *stats0;         /* "device name" -> counters, at t0 */
  GstStructure *stats1;
  gchar *prof;                  /* clprof JSON over the measured frames */
  gsize out_bytes;              /* the last frame the sink took, and its */
  gchar *out_format;            /* format: a chain may end in another */
} Run;

static void (*prof_reset) (void);
static char *(*prof_json) (void);

/* Counters of every distinct context in the pipeline, one field per device
 * and counter: "DEVICE|host-waits" = N. */
static GstStructure *
snapshot_stats (GstElement * pipeline)
{
  GstStructure *all = gst_structure_new_empty ("stats");
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  GValue v = G_VALUE_INIT;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&v);
    GstStructure *s = NULL;
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "stats"))
      g_object_get (e, "stats", &s, NULL);
    if (s && gst_structure_has_name (s, "gst-cl-stats")) {
      const gchar *dev = gst_structure_get_string (s, "device");
      for (gint i = 0; i < gst_structure_n_fields (s); i++) {
        const gchar *f = gst_structure_nth_field_name (s, i);
        gint64 n;
        if (gst_structure_get_int64 (s, f, &n)) {
          gchar *key = g_strdup_printf ("%s|%s", dev ? dev : "?", f);
          gst_structure_set (all, key, G_TYPE_INT64, n, NULL);
          g_free (key);
        }
      }
    }
    if (s)
      gst_structure_free (s);
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  return all;
}

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Run * r)
{
  /* a CPU consumer: map every memory for reading (waits for the device) */
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++) {
    GstMapInfo mi;
    GstMemory *m = gst_buffer_peek_memory (buf, i);
    if (gst_memory_map (m, &mi, GST_MAP_READ)) {
      volatile guint8 x = mi.size ? mi.data[mi.size - 1] : 0;
      (void) x;
      gst_memory_unmap (m, &mi);
    }
  }
  r->seen++;
  r->out_bytes = gst_buffer_get_size (buf);
  if (r->seen == 1) {
    r->t_start = g_get_monotonic_time ();
    GstCaps *caps = gst_pad_get_current_caps (pad);
    const gchar *format = caps ?
        gst_structure_get_string (gst_caps_get_structure (caps, 0), "format") :
        NULL;
    r->out_format = g_strdup (format ? format : "?");
    if (caps)
      gst_caps_unref (caps);
  }
  if (r->seen == r->warmup) {
    /* every frame before this one is done (one streaming thread: nothing
     * of the next frame has been enqueued yet) */
    gint64 now = g_get_monotonic_time ();
    if (r->seconds > 0) {
      gdouble per = (now - r->t_start) / 1e6 / MAX (1, r->warmup - 1);
      gint n = r->warmup + (gint) (r->seconds / MAX (per, 1e-6));
      r->frames = CLAMP (n, r->warmup + 10, r->frames);
    }
    r->stats0 = snapshot_stats (r->pipeline);
    if (prof_reset)
      prof_reset ();
    r->t0 = g_get_monotonic_time ();    /* after the snapshots */
  } else if (r->seen == r->frames) {
    r->t1 = g_get_monotonic_time ();
    r->stats1 = snapshot_stats (r->pipeline);
    if (prof_json)
      r->prof = prof_json ();
    /* stop the source: its next fill returns EOS. Not an EOS event sent
     * to it from here: with queues in the middle the source's thread can
     * be waiting for a buffer from a pool that only this thread refills,
     * and the event waits for the source's stream lock. */
    g_atomic_int_set (&stop_source, 1);
  }
}

static void
json_string (GString * out, const gchar * s)
{
  g_string_append_c (out, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c (out, '\\');
    if ((guchar) * s >= 0x20)
      g_string_append_c (out, *s);
  }
  g_string_append_c (out, '"');
}

static void
run_one (const gchar * caps, const gchar * middle, gint frames, gint warmup,
    gdouble seconds)
{
  GError *err = NULL;
  /* capsfilter by name: MIDDLE may start or end with caps of its own */
  gchar *desc = g_strdup_printf ("benchsrc name=src ! capsfilter caps=\"%s\" "
      "! %s ! capsfilter caps=video/x-raw ! fakesink name=sink sync=false "
      "enable-last-sample=false signal-handoffs=true", caps, middle);
  Run r = {.warmup = warmup,.frames = frames,.seconds = seconds };
  GString *out = g_string_new ("{\"pipeline\":");
  json_string (out, middle);

  g_atomic_int_set (&stop_source, 0);
  r.pipeline = gst_parse_launch (desc, &err);
  if (!r.pipeline || err) {
    g_string_append (out, ",\"error\":");
    json_string (out, err ? err->message : "parse failed");
    goto done;
  }
  GstElement *sink = gst_bin_get_by_name (GST_BIN (r.pipeline), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &r);
  gst_object_unref (sink);

  gst_element_set_state (r.pipeline, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (r.pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 600 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR || !r.t1) {
    gchar *dbg = NULL;
    GError *e = NULL;
    if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &e, &dbg);
    g_string_append (out, ",\"error\":");
    json_string (out, e ? e->message : msg ? "EOS before the last frame" :
        "timeout");
    g_clear_error (&e);
    g_free (dbg);
  } else {
    gint n = r.frames - r.warmup;
    g_string_append_printf (out, ",\"frames\":%d,\"ms\":%.6f,"
        "\"startup_ms\":%.3f,\"out_bytes\":%" G_GSIZE_FORMAT ",\"out_format\":",
        n, (r.t1 - r.t0) / 1e3 / n, (r.t0 - r.t_start) / 1e3, r.out_bytes);
    json_string (out, r.out_format);
    /* counters: change over the measured frames, per frame */
    g_string_append (out, ",\"stats\":{");
    for (gint i = 0; i < gst_structure_n_fields (r.stats1); i++) {
      const gchar *f = gst_structure_nth_field_name (r.stats1, i);
      gint64 a = 0, b = 0;
      gst_structure_get_int64 (r.stats0, f, &a);
      gst_structure_get_int64 (r.stats1, f, &b);
      g_string_append (out, i ? "," : "");
      json_string (out, f);
      g_string_append_printf (out, ":%.4f", (gdouble) (b - a) / n);
    }
    g_string_append (out, "}");
    if (r.prof)
      g_string_append_printf (out, ",\"prof\":%s", r.prof);
  }
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
done:
  g_string_append (out, "}");
  g_print ("%s\n", out->str);
  if (r.pipeline) {
    gst_element_set_state (r.pipeline, GST_STATE_NULL);
    gst_object_unref (r.pipeline);
  }
  if (r.stats0)
    gst_structure_free (r.stats0);
  if (r.stats1)
    gst_structure_free (r.stats1);
  free (r.prof);
  g_free (r.out_format);
  g_string_free (out, TRUE);
  g_clear_error (&err);
  g_free (desc);
}

int
main (int argc, char **argv)
{
  gint width = 1920, height = 1080, frames = 200, warmup = 10;
  gdouble seconds = 0;
  gchar *format = NULL, *dump = NULL;
  gchar **middles = NULL;
  GOptionEntry entries[] = {
    {"width", 0, 0, G_OPTION_ARG_INT, &width, "frame width", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height, "frame height", "H"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format, "GRAY8, NV12, ...", "F"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "frames in all", "N"},
    {"warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "frames not timed", "N"},
    {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds,
        "aim the timed part at this long (frames is then the most)", "S"},
    {"touch", 0, 0, G_OPTION_ARG_NONE, &touch_only,
        "the source writes one byte a page, not the frame: each frame is "
          "still written by the CPU (and so uploaded), but the host's copy "
          "no longer sets the pace", NULL},
    {"dump", 0, 0, G_OPTION_ARG_FILENAME, &dump,
        "write the pre-made frames (packed planes, one after another) to "
          "FILE and exit: the same input for FFmpeg and OpenCV", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &middles, NULL,
        "MIDDLE..."},
    {NULL}
  };
  GOptionContext *oc = g_option_context_new ("MIDDLE... - pipeline "
      "throughput from memory");
  GError *err = NULL;

  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_add_group (oc, gst_init_get_option_group ());
  if (!g_option_context_parse (oc, &argc, &argv, &err) || (!middles && !dump)) {
    g_printerr ("%s\n", err ? err->message : "no pipeline given");
    return 2;
  }
  g_option_context_free (oc);
  warmup = MAX (warmup, 2);
  frames = MAX (frames, warmup + 10);

  gst_element_register (NULL, "benchsrc", GST_RANK_NONE, bench_src_get_type ());
  bench_caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      format ? format : "GRAY8", "width", G_TYPE_INT, width, "height",
      G_TYPE_INT, height, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  if (dump) {
    GstVideoInfo info;
    FILE *f = fopen (dump, "wb");
    if (!f || !gst_video_info_from_caps (&info, bench_caps)) {
      g_printerr ("cannot write %s\n", dump);
      return 1;
    }
    for (gint k = 0; k < N_FRAMES; k++) {
      guint8 *d = make_frame (&info, k);
      gsize size = 0;
      for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
        size += (gsize) GST_VIDEO_INFO_COMP_WIDTH (&info, p) *
            GST_VIDEO_INFO_COMP_PSTRIDE (&info, p) *
            GST_VIDEO_INFO_COMP_HEIGHT (&info, p);
      fwrite (d, 1, size, f);
      g_free (d);
    }
    fclose (f);
    return 0;
  }
  gchar *caps = gst_caps_to_string (bench_caps);
  /* gst-launch syntax: no spaces */
  for (gchar * c = caps; *c; c++)
    if (*c == ' ')
      memmove (c, c + 1, strlen (c));

  /* present when run under LD_PRELOAD=libclprof.so */
  prof_reset = (void (*)(void)) dlsym (RTLD_DEFAULT, "clprof_reset");
  prof_json = (char *(*)(void)) dlsym (RTLD_DEFAULT, "clprof_json");

  for (gint i = 0; middles[i]; i++)
    run_one (caps, middles[i], frames, warmup, seconds);

  g_free (caps);
  g_strfreev (middles);
  g_free (format);
  gst_caps_unref (bench_caps);
  return 0;
}
