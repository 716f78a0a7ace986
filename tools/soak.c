/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Soak test: N frames through a chain of cl elements, memory sampled as it
 * runs, one frame in every K checked element by element against the C
 * references (gst/ref/).
 *
 *   soak [--frames 100000]
 *        [--elements "clblur ! clsobel ! clhisteq smoothing=1 ! cloptflow"]
 *        [--format NV12|GRAY8] [--size 160x120] [--check-every 1000]
 *        [--warmup 5000] [--max-growth 1.0]
 *
 * Each element of the chain is checked on the frame it actually received
 * (pad probes on its sink and src pads), so any chain works; elements
 * without a reference here are run but not checked, and the report says
 * so. clhisteq is checked when smoothing <= 1 (its temporal state would
 * need every earlier frame); the default chain sets that. cloptflow's flow
 * (the GstCLFlowMeta field) is checked against the C reference's
 * pyramidal Lucas-Kanade (gst/ref/optflow.c, the element's own levels,
 * window, iterations and epsilon) on the pair of frames it received (the
 * frame before the checked one is kept too), within FLOW_TOL.
 * RSS is read from /proc/self/statm every 1000 frames; growth is measured
 * from the end of the warm-up to the end of the run. Exit status 0 when
 * every checked frame matched (within 1) and RSS grew less than the limit. */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gstclref.h"
#include "clfilters/gstclflowmeta.h"
#include "elements/gstcloptflowkernel.h"

/* cloptflow against its C reference, over a whole frame: each kernel
 * matches its reference within 1e-3 px + 1e-3 relative (FLOW_ABS,
 * FLOW_REL: the kernel checker's buffer tolerance,
 * tests/check_optflow_kernels.c), and so does the field, but for the few
 * pixels whose move is within float rounding of epsilon: they stop one
 * iteration earlier or later on one side (the checker allows those flags
 * to differ), and the upsampling doubles what a coarse level left. So:
 * at most FLOW_OUTLIERS of the values outside the checker's tolerance,
 * none further than FLOW_TOL px (seen here: 4 values of 192 000 outside,
 * the worst 0.025 px; one iteration more or fewer puts thousands
 * outside). */
#define FLOW_ABS 1e-3
#define FLOW_REL 1e-3
#define FLOW_OUTLIERS 0.001
#define FLOW_TOL 0.05

typedef struct
{
  GstElement *element;
  const gchar *factory;
  GstVideoInfo in_info, out_info;
  GstBuffer *in;                /* copy of the input of the frame checked */
  GstBuffer *prev;              /* cloptflow: the frame before it */
  GstBuffer *last;              /* cloptflow: the last pre-checked input */
  guint checked, skipped;
  gint worst;
  gdouble flow_worst;           /* cloptflow: largest flow error, px */
  gdouble flow_outliers;        /* ... largest share of values outside the
                                 * kernel checker's tolerance */
} Stage;

static guint64 check_every = 1000;
static GPtrArray *stages;
static guint failures;

static gsize
rss_kib (void)
{
  long pages = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");
  if (f) {
    if (fscanf (f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    fclose (f);
  }
  return (gsize) resident * (sysconf (_SC_PAGESIZE) / 1024);
}

static gboolean
is_checked_offset (guint64 offset)
{
  return offset % check_every == check_every - 1;
}

static gboolean
is_checked_frame (GstBuffer * buf)
{
  /* videotestsrc numbers frames through their offset. */
  return is_checked_offset (GST_BUFFER_OFFSET (buf));
}

/* cloptflow: the largest |flow - reference| in px, or < 0 (unchecked);
 * the share of values outside the kernel checker's tolerance in
 * @outliers. */
static gdouble
check_flow (Stage * st, GstBuffer * out, gdouble * outliers)
{
  GstCLFlowMeta *m = gst_buffer_get_cl_flow_meta (out);
  GstVideoFrame fa, fb;
  GstMapInfo map;
  gint levels, window, iterations, sampling;
  gdouble eps, worst = 0;
  gint w, h;
  gfloat *ref;
  guint64 outside = 0;

  if (!m || !st->prev || GST_BUFFER_OFFSET (st->prev) + 1 !=
      GST_BUFFER_OFFSET (st->in))
    return -1;
  g_object_get (st->element, "levels", &levels, "window-size", &window,
      "iterations", &iterations, "epsilon", &eps, "sampling", &sampling,
      NULL);
  /* sampling=image: texture filtering may round weights (not checked). */
  if (sampling == 2)
    return -1;
  if (!gst_video_frame_map (&fa, &st->in_info, st->prev, GST_MAP_READ))
    return 1e9;
  if (!gst_video_frame_map (&fb, &st->in_info, st->in, GST_MAP_READ)) {
    gst_video_frame_unmap (&fa);
    return 1e9;
  }
  w = GST_VIDEO_FRAME_WIDTH (&fa);
  h = GST_VIDEO_FRAME_HEIGHT (&fa);
  ref = gst_cl_ref_optflow_dense (GST_VIDEO_FRAME_PLANE_DATA (&fa, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0),
      GST_VIDEO_FRAME_PLANE_DATA (&fb, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0), w, h,
      gst_cl_optflow_effective_levels (w, h, levels), 0, window / 2,
      gst_cl_optflow_reg (window / 2), iterations, (gfloat) eps);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  if ((gint) m->width != w || (gint) m->height != h ||
      !gst_buffer_map (m->field, &map, GST_MAP_READ)) {
    free (ref);
    return 1e9;
  }
  for (gint y = 0; y < h; y++) {
    const gfloat *row = (const gfloat *) (map.data + m->stride * y);
    for (gint i = 0; i < 2 * w; i++) {
      gdouble r = ref[2 * w * y + i];
      gdouble e = fabs ((gdouble) row[i] - r);
      if (!(e <= worst))        /* NaN too */
        worst = isnan (e) ? 1e9 : e;
      if (!(e <= FLOW_ABS + FLOW_REL * fabs (r)))
        outside++;
    }
  }
  *outliers = (gdouble) outside / (2.0 * w * h);
  gst_buffer_unmap (m->field, &map);
  free (ref);
  return worst;
}

static gint
compare (const guint8 * a, gint as, const guint8 * b, gint bs, gint w, gint h)
{
  gint worst = 0;
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      worst = MAX (worst, abs (a[y * as + x] - b[y * bs + x]));
  return worst;
}

/* Max difference between @out and the reference of @st on @in, or -1 when
 * there is no reference for this element or configuration. */
static gint
check_stage (Stage * st, GstBuffer * in, GstBuffer * out)
{
  GstVideoFrame fi, fo;
  gint worst = 0;

  if (!gst_video_frame_map (&fi, &st->in_info, in, GST_MAP_READ))
    return 256;
  if (!gst_video_frame_map (&fo, &st->out_info, out, GST_MAP_READ)) {
    gst_video_frame_unmap (&fi);
    return 256;
  }

  if (!strcmp (st->factory, "clblur")) {
    gdouble sigma, sigma_y;
    gint ksize;
    g_object_get (st->element, "sigma", &sigma, "sigma-y", &sigma_y,
        "kernel-size", &ksize, NULL);
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fi); p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];
      gst_video_format_info_component (fi.info.finfo, p, comp);
      gint sub = GST_VIDEO_FORMAT_INFO_W_SUB (fi.info.finfo, comp[0]);
      gint w = GST_VIDEO_FRAME_COMP_WIDTH (&fi, comp[0]);
      gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&fi, comp[0]);
      gint cn = GST_VIDEO_FRAME_COMP_PSTRIDE (&fi, comp[0]);
      gdouble sx = sigma / (1 << sub);
      gdouble sy = (sigma_y > 0 ? sigma_y : sigma) / (1 << sub);
      gint kx = ksize > 0 ? (MAX (ksize >> sub, 1) | 1) :
          gst_cl_gaussian_ksize (sx);
      gint ky = ksize > 0 ? (MAX (ksize >> sub, 1) | 1) :
          gst_cl_gaussian_ksize (sy);
      gdouble *tx = g_new (gdouble, kx), *ty = g_new (gdouble, ky);
      guint8 *ref = g_malloc ((gsize) w * cn * h);

      gst_cl_gaussian_taps (kx, sx, tx);
      gst_cl_gaussian_taps (ky, sy, ty);
      gst_cl_ref_blur_plane (GST_VIDEO_FRAME_PLANE_DATA (&fi, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fi, p), ref, w * cn, w, h, cn, tx,
          kx, ty, ky);
      worst = MAX (worst, compare (ref, w * cn,
              GST_VIDEO_FRAME_PLANE_DATA (&fo, p),
              GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p), w * cn, h));
      g_free (tx);
      g_free (ty);
      g_free (ref);
    }
  } else if (!strcmp (st->factory, "clsobel") &&
      GST_VIDEO_INFO_FORMAT (&st->out_info) == GST_VIDEO_FORMAT_GRAY8) {
    gint ksize, mode, threshold;
    gdouble scale, delta;
    gint w = GST_VIDEO_FRAME_WIDTH (&fi), h = GST_VIDEO_FRAME_HEIGHT (&fi);
    guint8 *ref = g_malloc ((gsize) w * h);
    g_object_get (st->element, "kernel-size", &ksize, "mode", &mode,
        "scale", &scale, "delta", &delta, "threshold", &threshold, NULL);
    /* GRAY8 and NV12: the luma is plane 0. */
    gst_cl_ref_sobel_plane (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), ref, w, w, h, ksize, mode,
        scale, delta, threshold);
    worst = compare (ref, w, GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), w, h);
    g_free (ref);
  } else if (!strcmp (st->factory, "clhisteq")) {
    guint smoothing;
    gint tx, ty;
    gint mode;
    gdouble strength, clip;
    g_object_get (st->element, "smoothing", &smoothing, "mode", &mode,
        "strength", &strength, "clip-limit", &clip, "tiles-x", &tx,
        "tiles-y", &ty, NULL);
    if (smoothing > 1) {
      worst = -1;
    } else {
      GstCLHisteqGeometry g;
      gint w = GST_VIDEO_FRAME_WIDTH (&fi), h = GST_VIDEO_FRAME_HEIGHT (&fi);
      const gint wts[4] = { 0, 0, 0, 0 };
      gint tiles;
      guint32 *hist;
      guint8 *luts, *ref = g_malloc ((gsize) w * h);

      gst_cl_ref_histeq_geometry (&g, w, h, mode != 0, tx, ty, clip);
      tiles = g.tiles_x * g.tiles_y;
      hist = g_new (guint32, tiles * GST_CL_HISTEQ_BINS);
      luts = g_new (guint8, tiles * GST_CL_HISTEQ_BINS);
      gst_cl_ref_histeq_hist (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), w, h, 1, wts, &g, hist);
      for (gint t = 0; t < tiles; t++) {
        gfloat f[GST_CL_HISTEQ_BINS];
        gst_cl_ref_histeq_map (hist + t * GST_CL_HISTEQ_BINS, &g, f);
        gst_cl_ref_histeq_lut (f, strength, luts + t * GST_CL_HISTEQ_BINS);
      }
      gst_cl_ref_histeq_apply (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), ref, w, w, h, 1, wts, &g,
          luts);
      worst = compare (ref, w, GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), w, h);
      /* Chroma is copied. */
      for (guint p = 1; p < GST_VIDEO_FRAME_N_PLANES (&fi); p++)
        worst = MAX (worst, compare (GST_VIDEO_FRAME_PLANE_DATA (&fi, p),
                GST_VIDEO_FRAME_PLANE_STRIDE (&fi, p),
                GST_VIDEO_FRAME_PLANE_DATA (&fo, p),
                GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p),
                GST_VIDEO_FRAME_COMP_WIDTH (&fi, p) *
                GST_VIDEO_FRAME_COMP_PSTRIDE (&fi, p),
                GST_VIDEO_FRAME_COMP_HEIGHT (&fi, p)));
      g_free (hist);
      g_free (luts);
      g_free (ref);
    }
  } else {
    worst = -1;
  }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  return worst;
}

/* A copy in system memory, metadata included (the element may reuse its
 * input once done; a deep copy of OpenCL memory would count as a pool
 * allocation). */
static GstBuffer *
copy_input (GstBuffer * buf)
{
  GstMapInfo map;
  GstBuffer *copy;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return NULL;
  copy = gst_buffer_new_memdup (map.data, map.size);
  gst_buffer_unmap (buf, &map);
  gst_buffer_copy_into (copy, buf, GST_BUFFER_COPY_METADATA, 0, -1);
  return copy;
}

static GstPadProbeReturn
on_sink (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stage *st = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gboolean flow = !strcmp (st->factory, "cloptflow");

  /* cloptflow's flow is of the pair (frame before, checked frame). */
  if (flow && is_checked_frame (buf)) {
    gst_clear_buffer (&st->prev);
    st->prev = st->last;
    st->last = NULL;
  }
  if (flow && is_checked_offset (GST_BUFFER_OFFSET (buf) + 1)) {
    GstCaps *caps = gst_pad_get_current_caps (pad);
    gst_video_info_from_caps (&st->in_info, caps);
    gst_caps_unref (caps);
    gst_clear_buffer (&st->last);
    st->last = copy_input (buf);
  }
  if (is_checked_frame (buf)) {
    GstCaps *caps = gst_pad_get_current_caps (pad);
    gst_video_info_from_caps (&st->in_info, caps);
    gst_caps_unref (caps);
    gst_clear_buffer (&st->in);
    st->in = copy_input (buf);
  }
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_src (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Stage *st = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint worst;

  if (!st->in || !is_checked_frame (buf))
    return GST_PAD_PROBE_OK;
  {
    GstCaps *caps = gst_pad_get_current_caps (pad);
    gst_video_info_from_caps (&st->out_info, caps);
    gst_caps_unref (caps);
  }
  if (!strcmp (st->factory, "cloptflow")) {
    gdouble out = 0, e = check_flow (st, buf, &out);
    worst = e < 0 ? -1 : 0;
    if (e >= 0) {
      st->flow_worst = MAX (st->flow_worst, e);
      st->flow_outliers = MAX (st->flow_outliers, out);
      if (e > FLOW_TOL || out > FLOW_OUTLIERS) {
        g_printerr ("cloptflow: the flow of frame %" G_GUINT64_FORMAT
            " differs from the reference by up to %.4f px, %.3f%% of the "
            "values by more than %g px + %g\n", GST_BUFFER_OFFSET (buf), e,
            100 * out, FLOW_ABS, FLOW_REL);
        g_atomic_int_inc (&failures);
      }
    }
  } else {
    worst = check_stage (st, st->in, buf);
  }
  if (worst < 0) {
    st->skipped++;
  } else {
    st->checked++;
    st->worst = MAX (st->worst, worst);
    if (worst > 1) {
      g_printerr ("%s: frame %" G_GUINT64_FORMAT " differs from the "
          "reference by %d\n", st->factory, GST_BUFFER_OFFSET (buf), worst);
      g_atomic_int_inc (&failures);
    }
  }
  gst_clear_buffer (&st->in);
  return GST_PAD_PROBE_OK;
}

static void
add_stage (const GValue * item, gpointer user_data)
{
  GstElement *e = g_value_get_object (item);
  GstElementFactory *f = gst_element_get_factory (e);
  Stage *st;
  GstPad *pad;

  if (!f || !g_str_has_prefix (GST_OBJECT_NAME (f), "cl"))
    return;
  st = g_new0 (Stage, 1);
  st->element = e;
  st->factory = GST_OBJECT_NAME (f);
  pad = gst_element_get_static_pad (e, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_sink, st, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (e, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_src, st, NULL);
  gst_object_unref (pad);
  g_ptr_array_add (stages, st);
}

int
main (int argc, char **argv)
{
  gint64 frames = 100000, warmup = -1;
  gchar *elements = NULL, *format = NULL, *size = NULL;
  gdouble max_growth = 1.0;
  GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT64, &frames, "Frames to run", "N"},
    {"elements", 0, 0, G_OPTION_ARG_STRING, &elements,
        "The chain (gst-launch syntax)", "CHAIN"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format, "NV12 or GRAY8", "F"},
    {"size", 0, 0, G_OPTION_ARG_STRING, &size, "WxH", "WxH"},
    {"check-every", 0, 0, G_OPTION_ARG_INT64, &check_every,
        "Check one frame in K", "K"},
    {"warmup", 0, 0, G_OPTION_ARG_INT64, &warmup,
        "Frames before the RSS baseline (default: 5% of N, at least 1000)",
        "N"},
    {"max-growth", 0, 0, G_OPTION_ARG_DOUBLE, &max_growth,
        "Largest RSS growth after warm-up, percent", "P"},
    {NULL}
  };
  GOptionContext *opts = g_option_context_new ("- soak test of cl elements");
  GError *err = NULL;
  GstElement *pipe, *sink;
  gint width = 160, height = 120;
  gchar *desc;
  gsize rss_warm = 0, rss_max = 0, rss_end = 0;
  gint64 n = 0, t0, t_end;
  GstSample *sample;
  GString *samples = g_string_new (NULL);
  guint checked = 0;
  gboolean ok;
  GstIterator *it;

  g_option_context_add_main_entries (opts, entries, NULL);
  g_option_context_add_group (opts, gst_init_get_option_group ());
  if (!g_option_context_parse (opts, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (opts);
  if (!elements)
    elements = g_strdup ("clblur ! clsobel ! clhisteq smoothing=1 ! "
        "cloptflow");
  if (!format)
    format = g_strdup ("NV12");
  if (size && sscanf (size, "%dx%d", &width, &height) != 2) {
    g_printerr ("bad --size %s\n", size);
    return 2;
  }
  if (warmup < 0)
    warmup = MAX (frames / 20, 1000);
  if (check_every < 1)
    check_every = 1;

  desc = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%"
      G_GINT64_FORMAT " ! video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1 ! %s ! appsink name=sink sync=false max-buffers=4",
      frames, format, width, height, elements);
  pipe = gst_parse_launch (desc, &err);
  if (!pipe) {
    g_printerr ("%s: %s\n", desc, err->message);
    return 2;
  }
  stages = g_ptr_array_new ();
  it = gst_bin_iterate_recurse (GST_BIN (pipe));
  gst_iterator_foreach (it, add_stage, NULL);
  gst_iterator_free (it);

  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  printf ("soak: %s\n", desc);
  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    gst_sample_unref (sample);
    n++;
    if (n % 1000 == 0 || n == warmup) {
      gsize rss = rss_kib ();
      if (n == warmup)
        rss_warm = rss;
      if (n >= warmup)
        rss_max = MAX (rss_max, rss);
      if (n % MAX (frames / 10 / 1000 * 1000, 1000) == 0 || n == warmup) {
        /* Frames the pools have allocated so far (bounded, 8 per pool):
         * RSS steps of one frame that match these are the pools filling. */
        GstStructure *stats = NULL;
        gint64 bufs = -1;
        if (stages->len) {
          g_object_get (((Stage *) g_ptr_array_index (stages, 0))->element,
              "stats", &stats, NULL);
          if (stats) {
            gst_structure_get_int64 (stats, "buffers-allocated", &bufs);
            gst_structure_free (stats);
          }
        }
        g_string_append_printf (samples, "  frame %" G_GINT64_FORMAT
            ": RSS %" G_GSIZE_FORMAT " KiB, %" G_GINT64_FORMAT
            " OpenCL frames allocated\n", n, rss, bufs);
      }
    }
  }
  t_end = g_get_monotonic_time ();
  rss_end = rss_kib ();
  {
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      GError *e = NULL;
      gst_message_parse_error (msg, &e, NULL);
      g_printerr ("error: %s\n", e->message);
      g_error_free (e);
      gst_message_unref (msg);
      failures++;
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);

  printf ("%s", samples->str);
  printf ("frames: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " in %.1f s "
      "(%.0f fps), %s %dx%d\n", n, frames, (t_end - t0) / 1e6,
      n / ((t_end - t0) / 1e6), format, width, height);
  for (guint i = 0; i < stages->len; i++) {
    Stage *st = g_ptr_array_index (stages, i);
    if (!strcmp (st->factory, "cloptflow"))
      printf ("%s: %u flows checked against the reference (max diff "
          "%.4f px, limit %.2f; at most %.4f%% of the values outside %g px "
          "+ %g, limit %.1f%%)%s\n", st->factory, st->checked,
          st->flow_worst, FLOW_TOL, 100 * st->flow_outliers, FLOW_ABS,
          FLOW_REL, 100 * FLOW_OUTLIERS, st->skipped ?
          ", some not checked (no previous frame or image sampling)" : "");
    else
      printf ("%s: %u frames checked against the reference (max diff %d)%s\n",
          st->factory, st->checked, st->worst, st->skipped ?
          ", not checked (no reference for this configuration)" : "");
    checked += st->checked;
  }
  {
    gdouble growth = rss_warm ? 100.0 * ((gdouble) rss_end - rss_warm) /
        rss_warm : 0;
    gdouble growth_max = rss_warm ? 100.0 * ((gdouble) rss_max - rss_warm) /
        rss_warm : 0;
    printf ("RSS: %" G_GSIZE_FORMAT " KiB after %" G_GINT64_FORMAT
        " warm-up frames, %" G_GSIZE_FORMAT " KiB at the end (%+.2f%%), "
        "peak %" G_GSIZE_FORMAT " KiB (%+.2f%%), limit %.1f%%\n", rss_warm,
        warmup, rss_end, growth, rss_max, growth_max, max_growth);
    ok = n == frames && failures == 0 && (n < warmup || growth < max_growth);
    if (n >= warmup && growth >= max_growth)
      g_printerr ("RSS grew %.2f%% after warm-up\n", growth);
  }
  printf ("%s: %u frames checked, %u failures\n", ok ? "PASS" : "FAIL",
      checked, failures);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
  return ok ? 0 : 1;
}
