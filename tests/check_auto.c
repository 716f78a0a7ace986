/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* device=auto switching for real, between two OpenCL devices. This machine
 * has one CPU, so PoCL is asked for two devices (POCL_DEVICES="pthread
 * pthread", set by tests/meson.build) and GST_CL_AUTO_DEVICES makes the
 * first one the "GPU" (preferred) and the second the fallback; the load
 * is scripted (GST_CL_AUTO_SOURCES=fake:...) and the windows are counted
 * in frames, so every run switches at the same frames.
 *
 * Checked: the chain moves to the fallback under load and back when it
 * ends, together (first element and follower), with no compilation; frames
 * in = frames out; every frame equals a single-device run's (clhisteq's
 * temporal smoothing carried over) and clblur's frames are within 1 of
 * the C reference across both switches; a fast square wave moves nothing,
 * a slow one a bounded number of times; pinned devices never move. */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <CL/cl.h>
#include <math.h>
#include <string.h>

#include "gstclref.h"
#include "clfilters/gstclflowmeta.h"
#include "fakehwenc.h"
#include "clcheck.h"

#define W 96                    /* a multiple of 4: GRAY8 stride == width */
#define H 64
#define N_FRAMES 200

/* Deterministic windows: 5 frames each, no time floor, no dwell; the
 * kernel-time signal off (it is real timing, so it would not be). */
#define KNOBS "window-frames=5,window-ms=0,min-dwell-ms=0,kernel-time=false"

typedef struct
{
  guint8 *frames[1000];
  gfloat *flows[1000];          /* cloptflow's field per frame, or NULL */
  guint n;
  GHashTable *switches;         /* element name -> GPtrArray of structures */
  gint notifies;
} Run;

static void
run_clear (Run * r)
{
  for (guint i = 0; i < r->n; i++) {
    g_free (r->frames[i]);
    g_free (r->flows[i]);
  }
  if (r->switches)
    g_hash_table_unref (r->switches);
  memset (r, 0, sizeof (*r));
}

/* Input frame @k: noise on a brightness that drifts, so the histogram
 * moves slowly (no scene cut) and the smoothing state matters. */
static void
make_frame (guint k, guint8 * data)
{
  guint32 seed = 12345 + k * 7919;
  gint base = 60 + (gint) (40 * sin (k / 9.0));
  for (gint i = 0; i < W * H; i++) {
    seed = seed * 1664525u + 1013904223u;
    data[i] = CLAMP (base + (gint) ((seed >> 24) % 90) - 20 + (i % W) / 3, 0,
        255);
  }
}

static void
on_notify (GObject * obj, GParamSpec * pspec, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
}

/* Input frame @k for the flow: a smooth texture moving right by 1 pixel
 * a frame. */
static void
make_moving_frame (guint k, guint8 * data)
{
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++) {
      gdouble u = x - (gdouble) k;
      data[y * W + x] = (guint8) (128 + 50 * sin (u * 0.31) * cos (y * 0.23)
          + 30 * sin ((u + y) * 0.13));
    }
}

static gboolean moving_input;
static const gchar *extra_element;      /* added to the pipeline, unlinked */

/* Runs appsrc ! @chain ! appsink on input frames @start..@start+@n-1 with
 * the auto knobs and fake load @script. */
static void
run_chain (const gchar * chain, const gchar * script, guint start, guint n,
    Run * r)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps="
      "video/x-raw,format=GRAY8,width=%d,height=%d,framerate=30/1 ! %s ! "
      "appsink name=sink sync=false", W, H, chain);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *src, *sink;
  GstBus *bus;
  GstMessage *msg;
  GstSample *sample;
  GstIterator *it;
  GValue item = G_VALUE_INIT;

  fail_unless (pipe != NULL, "%s", desc);
  g_setenv ("GST_CL_AUTO", KNOBS, TRUE);
  g_setenv ("GST_CL_AUTO_SOURCES", script, TRUE);
  memset (r, 0, sizeof (*r));
  r->switches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) g_ptr_array_unref);

  it = gst_bin_iterate_elements (GST_BIN (pipe));
  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GObject *e = g_value_get_object (&item);
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
            "current-device"))
      g_signal_connect (e, "notify::current-device", G_CALLBACK (on_notify),
          &r->notifies);
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);

  if (extra_element)
    fail_unless (gst_bin_add (GST_BIN (pipe),
            gst_element_factory_make (extra_element, NULL)));
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  for (guint k = 0; k < n; k++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);
    GstMapInfo map;
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
    if (moving_input)
      make_moving_frame (start + k, map.data);
    else
      make_frame (start + k, map.data);
    gst_buffer_unmap (buf, &map);
    GST_BUFFER_PTS (buf) = k * GST_SECOND / 30;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  /* A broken pipeline fails the test instead of hanging it. */
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              60 * GST_SECOND))) {
    GstMapInfo map;
    fail_unless (r->n < G_N_ELEMENTS (r->frames));
    fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
            GST_MAP_READ));
    r->frames[r->n] = g_memdup2 (map.data, W * H);
    gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
    {
      GstCLFlowMeta *m =
          gst_buffer_get_cl_flow_meta (gst_sample_get_buffer (sample));
      GstMapInfo fm;
      if (m && gst_buffer_map (m->field, &fm, GST_MAP_READ)) {
        fail_unless (m->width == W && m->height == H);
        r->flows[r->n] = g_new (gfloat, 2 * W * H);
        for (gint y = 0; y < H; y++)
          memcpy (r->flows[r->n] + 2 * W * y, fm.data + m->stride * y,
              sizeof (gfloat) * 2 * W);
        gst_buffer_unmap (m->field, &fm);
      }
    }
    r->n++;
    gst_sample_unref (sample);
  }

  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)),
      "no frame for 60 s and no end of stream");
  bus = gst_element_get_bus (pipe);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT |
              GST_MESSAGE_ERROR))) {
    const GstStructure *s = gst_message_get_structure (msg);
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "error from %s",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
    if (gst_structure_has_name (s, "gst-cl-device-switch")) {
      const gchar *name = GST_OBJECT_NAME (GST_MESSAGE_SRC (msg));
      GPtrArray *list = g_hash_table_lookup (r->switches, name);
      if (!list) {
        list = g_ptr_array_new_with_free_func ((GDestroyNotify)
            gst_structure_free);
        g_hash_table_insert (r->switches, g_strdup (name), list);
      }
      g_ptr_array_add (list, gst_structure_copy (s));
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
}

static guint
n_switches (Run * r, const gchar * element)
{
  GPtrArray *list = g_hash_table_lookup (r->switches, element);
  return list ? list->len : 0;
}

static const GstStructure *
nth_switch (Run * r, const gchar * element, guint i)
{
  GPtrArray *list = g_hash_table_lookup (r->switches, element);
  fail_unless (list && i < list->len);
  return g_ptr_array_index (list, i);
}

static gint
max_diff (const guint8 * a, const guint8 * b)
{
  gint m = 0;
  for (gint i = 0; i < W * H; i++)
    m = MAX (m, ABS ((gint) a[i] - (gint) b[i]));
  return m;
}

/* "P.0,P.1" of the first platform with two devices, or NULL. Called in
 * each test's process: PoCL's threads do not survive check's fork. */
static gchar *
two_devices (void)
{
  cl_platform_id platforms[16];
  cl_uint n = 0;

  if (clGetPlatformIDs (16, platforms, &n) != CL_SUCCESS)
    return NULL;
  for (cl_uint p = 0; p < MIN (n, 16); p++) {
    cl_uint d = 0;
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_CPU, 0, NULL, &d) ==
        CL_SUCCESS && d >= 2)
      return g_strdup_printf ("%u.0,%u.1", p, p);
  }
  return NULL;
}

/* The first device plays the GPU. */
static gboolean
have_two_devices (void)
{
  gchar *devices = two_devices ();
  if (!devices) {
    g_printerr ("fewer than two OpenCL CPU devices: switching is not "
        "exercised (set POCL_DEVICES=\"pthread pthread\")\n");
    return FALSE;
  }
  g_setenv ("GST_CL_AUTO_DEVICES", devices, TRUE);
  g_free (devices);
  return TRUE;
}

#define SKIP_WITHOUT_TWO_DEVICES() G_STMT_START { \
  if (!have_two_devices ()) \
    return; \
  } G_STMT_END


/* Load from frame 40 to 100: to the fallback after 3 windows, back 5
 * windows after the load ends. */
#define SCRIPT "fake:40:0,60:1,100:0"

GST_START_TEST (test_switch_and_back)
{
  Run a, pinned, fresh;
  const gchar *roles[] = { "leader", "follower" };
  const gchar *names[] = { "blur", "histeq" };
  guint64 back_frame = 0;

  SKIP_WITHOUT_TWO_DEVICES ();
  run_chain ("clblur name=blur sigma=1.5 ! queue ! clhisteq name=histeq "
      "smoothing=8", SCRIPT, 0, N_FRAMES, &a);
  run_chain ("clblur name=blur sigma=1.5 device=0.0 ! queue ! clhisteq "
      "name=histeq smoothing=8 device=0.0", SCRIPT, 0, N_FRAMES, &pinned);

  /* Frames in = frames out. */
  fail_unless_equals_int (a.n, N_FRAMES);
  fail_unless_equals_int (pinned.n, N_FRAMES);

  /* Both elements moved twice, together, compiling nothing. */
  for (guint e = 0; e < 2; e++) {
    const GstStructure *to_cpu, *back;
    gint64 compiled = -1;
    guint64 f0 = 0, f1 = 0;

    fail_unless_equals_int (n_switches (&a, names[e]), 2);
    to_cpu = nth_switch (&a, names[e], 0);
    back = nth_switch (&a, names[e], 1);
    fail_unless_equals_string (gst_structure_get_string (to_cpu, "reason"),
        "gpu-busy");
    fail_unless_equals_string (gst_structure_get_string (to_cpu, "to-slot"),
        "fallback");
    fail_unless_equals_string (gst_structure_get_string (back, "reason"),
        "gpu-free");
    fail_unless_equals_string (gst_structure_get_string (back, "to-slot"),
        "preferred");
    fail_unless_equals_string (gst_structure_get_string (to_cpu, "role"),
        roles[e]);
    fail_unless (gst_structure_get_int64 (to_cpu, "programs-compiled",
            &compiled) && compiled == 0);
    fail_unless (gst_structure_get_int64 (back, "programs-compiled",
            &compiled) && compiled == 0);
    /* The fallback had run this element's kernels at the negotiated size
     * (a warm-up on scratch frames) before the first switch, so PoCL had
     * compiled their work-group functions; and the group knew its time
     * per frame before moving. */
    {
      gboolean warmed = FALSE;
      gdouble estimate = -1;
      fail_unless (gst_structure_get_boolean (to_cpu, "warmed", &warmed));
      fail_unless (warmed, "%s switched to a device it had not warmed",
          names[e]);
      fail_unless (gst_structure_get_double (to_cpu, "estimate-ms",
              &estimate) && estimate > 0);
      fail_unless (gst_structure_get_boolean (back, "warmed", &warmed) &&
          warmed);
      g_print ("%s: fallback warmed before the switch, chain estimate "
          "%.3f ms a frame\n", names[e], estimate);
    }
    /* The decision's frame: 3 loaded windows of 5 after frame 40, then 5
     * free windows after frame 100. */
    fail_unless (gst_structure_get_uint64 (to_cpu, "frame", &f0));
    fail_unless (gst_structure_get_uint64 (back, "frame", &f1));
    fail_unless (f0 >= 50 && f0 <= 60, "left at frame %" G_GUINT64_FORMAT,
        f0);
    fail_unless (f1 >= 120 && f1 <= 135, "back at frame %" G_GUINT64_FORMAT,
        f1);
    back_frame = f1;
    g_print ("%s (%s): to the fallback at frame %" G_GUINT64_FORMAT
        ", back at frame %" G_GUINT64_FORMAT "\n", names[e], roles[e], f0, f1);
  }
  /* current-device followed: 2 notifies per element for the switches,
   * plus start and stop. */
  fail_unless_equals_int (a.notifies, 2 * (2 + 2));
  fail_unless_equals_int (pinned.notifies, 2 * 2);
  fail_unless_equals_int (g_hash_table_size (pinned.switches), 0);

  /* Every frame as on one device, within clhisteq's tolerance (1). */
  {
    gint worst = 0;
    for (guint k = 0; k < N_FRAMES; k++) {
      gint d = max_diff (a.frames[k], pinned.frames[k]);
      fail_unless (d <= 1, "frame %u differs by %d from the single-device "
          "run", k, d);
      worst = MAX (worst, d);
    }
    g_print ("largest difference from the single-device run: %d\n", worst);
  }

  /* The check can fail: had the switch back reset the smoothing, the frame
   * after it would differ (a run starting at that frame has no state). */
  run_chain ("clblur sigma=1.5 device=0.0 ! clhisteq smoothing=8 device=0.0",
      "none", back_frame, 1, &fresh);
  fail_unless_equals_int (fresh.n, 1);
  fail_unless (max_diff (fresh.frames[0], pinned.frames[back_frame]) > 1,
      "a fresh state gives the same frame: the test proves nothing");
  g_print ("a fresh smoothing state at frame %" G_GUINT64_FORMAT " differs "
      "by %d\n", back_frame, max_diff (fresh.frames[0],
          pinned.frames[back_frame]));
  run_clear (&fresh);
  run_clear (&a);
  run_clear (&pinned);
}

GST_END_TEST;

GST_START_TEST (test_blur_reference_across_switches)
{
  Run a;
  gint k = gst_cl_gaussian_ksize (1.5);
  gdouble taps[GST_CL_GAUSSIAN_MAX_TAPS];
  guint8 *in = g_malloc (W * H), *ref = g_malloc (W * H);

  SKIP_WITHOUT_TWO_DEVICES ();
  gst_cl_gaussian_taps (k, 1.5, taps);
  run_chain ("clblur name=blur sigma=1.5", "fake:20:0,40:1,40:0", 0, 120, &a);
  fail_unless_equals_int (a.n, 120);
  fail_unless_equals_int (n_switches (&a, "blur"), 2);
  for (guint f = 0; f < a.n; f++) {
    gint d;
    make_frame (f, in);
    gst_cl_ref_blur_plane (in, W, ref, W, W, H, 1, taps, k, taps, k);
    d = max_diff (a.frames[f], ref);
    fail_unless (d <= 1, "frame %u: %d from the C reference", f, d);
  }
  g_free (in);
  g_free (ref);
  run_clear (&a);
}

GST_END_TEST;

static gfloat
flow_diff (const gfloat * a, const gfloat * b)
{
  gfloat m = 0;
  for (gint i = 0; i < 2 * W * H; i++)
    m = MAX (m, fabsf (a[i] - b[i]));
  return m;
}

/* cloptflow carries its previous frame: the flow across each switch is the
 * single-device run's. */
GST_START_TEST (test_optflow_across_switches)
{
  Run a, pinned, fresh;
  const gchar *script = "fake:10:0,20:1,30:0";
  gfloat worst = 0;
  guint64 back = 0;

  SKIP_WITHOUT_TWO_DEVICES ();
  moving_input = TRUE;
  run_chain ("cloptflow name=flow output=passthrough levels=2", script, 0, 60,
      &a);
  run_chain ("cloptflow name=flow output=passthrough levels=2 device=0.0",
      script, 0, 60, &pinned);
  fail_unless_equals_int (a.n, 60);
  fail_unless_equals_int (pinned.n, 60);
  fail_unless_equals_int (n_switches (&a, "flow"), 2);
  fail_unless (gst_structure_get_uint64 (nth_switch (&a, "flow", 1), "frame",
          &back));
  for (guint k = 0; k < a.n; k++) {
    fail_unless (a.flows[k] && pinned.flows[k], "frame %u has no field", k);
    worst = MAX (worst, flow_diff (a.flows[k], pinned.flows[k]));
  }
  g_print ("optflow: largest flow difference from the single-device run "
      "%g px (back at frame %" G_GUINT64_FORMAT ")\n", worst, back);
  fail_unless (worst <= 0.01f, "flow differs by %g px", worst);

  /* Without the previous frame the flow after the switch would be zeros. */
  run_chain ("cloptflow output=passthrough levels=2 device=0.0", "none",
      back, 1, &fresh);
  fail_unless (flow_diff (fresh.flows[0], pinned.flows[back]) > 0.5f,
      "a fresh start gives the same flow: the test proves nothing");
  moving_input = FALSE;
  run_clear (&fresh);
  run_clear (&a);
  run_clear (&pinned);
}

GST_END_TEST;

/* Runs videotestsrc ! @chain ! appsink (NV12, the bench's pipeline) for
 * @n frames with load @script and returns @name's stats at EOS (the
 * counters of the context it ended on); the switch count in @switches. */
static GstStructure *
run_producer_chain (const gchar * chain, const gchar * script, guint n,
    const gchar * name, gint * switches)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%u pattern=ball ! "
      "video/x-raw,format=NV12,width=160,height=96,framerate=30/1 ! %s ! "
      "fakesink sync=false", n, chain);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *e;
  GstBus *bus;
  GstMessage *msg;
  GstStructure *stats = NULL;
  gboolean eos = FALSE;

  fail_unless (pipe != NULL, "%s", desc);
  g_setenv ("GST_CL_AUTO", KNOBS, TRUE);
  g_setenv ("GST_CL_AUTO_SOURCES", script, TRUE);
  *switches = 0;
  bus = gst_element_get_bus (pipe);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  while ((msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);
    GstMessageType type = GST_MESSAGE_TYPE (msg);
    if (type == GST_MESSAGE_ELEMENT) {
      if (gst_structure_has_name (s, "gst-cl-device-switch") &&
          !g_strcmp0 (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), name))
        (*switches)++;
      gst_message_unref (msg);
      continue;
    }
    fail_unless (type == GST_MESSAGE_EOS, "error running %s", desc);
    gst_message_unref (msg);
    eos = TRUE;
    break;
  }
  fail_unless (eos, "%s did not finish", desc);
  e = gst_bin_get_by_name (GST_BIN (pipe), name);
  g_object_get (e, "stats", &stats, NULL);
  gst_object_unref (e);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
  return stats;
}

static gint64
stat_int (const GstStructure * s, const gchar * field)
{
  gint64 v = -1;
  fail_unless (gst_structure_get_int64 (s, field, &v), "no %s", field);
  return v;
}

/* The H200 run had device=auto on the CPU device slower than pinned there.
 * What the chain pays per frame after a switch, by the counters: the
 * producer (videotestsrc, which takes the first element's pool) is told to
 * reconfigure and allocates from the new device's pool, so on a device
 * sharing host memory no frame is copied, and only the frames already
 * made in the old pool are wrapped. And the measuring load sources (DRM
 * fdinfo, NVML) are sampled by the group's own thread, never on the
 * streaming thread. */
GST_START_TEST (test_no_copies_after_switch)
{
  const gchar *chain = "clblur name=blur sigma=2 ! clhisteq name=histeq";
  GstStructure *st;
  gint switches = 0;
  gint64 copies, wraps, inline_n;

  SKIP_WITHOUT_TWO_DEVICES ();
  /* Loaded from frame 20 on: to the fallback at frame 35, 165 frames
   * there. */
  st = run_producer_chain (chain, "fake:20:0,1000:1", 200, "blur",
      &switches);
  fail_unless_equals_int (switches, 1);
  fail_unless (g_str_has_prefix (gst_structure_get_string (st, "auto-active"),
          "0.1") || strstr (gst_structure_get_string (st, "auto-active"),
          ".1 "), "ended on %s", gst_structure_get_string (st, "auto-active"));
  copies = stat_int (st, "frame-copies");
  wraps = stat_int (st, "wrapped-inputs");
  g_print ("after the switch (165 frames on the fallback): %" G_GINT64_FORMAT
      " frame copies, %" G_GINT64_FORMAT " wrapped inputs\n", copies, wraps);
  /* Frames of the old pool in flight at the switch (copied where frames
   * are staged, which wraps nothing); the rest came from the fallback's
   * pool. */
  if (clcheck_staged ()) {
    fail_unless_equals_int64 (wraps, 0);
    wraps = copies;
  } else {
    fail_unless_equals_int64 (copies, 0);
  }
  fail_unless (wraps <= 2, "%" G_GINT64_FORMAT " inputs wrapped: the "
      "producer did not take the new device's pool", wraps);
  /* The fake script is sampled when a window closes (it counts frames). */
  fail_unless (stat_int (st, "auto-inline-samples") > 0);
  gst_structure_free (st);

  /* The measuring sources: only on the sampler thread. */
  st = run_producer_chain (chain, "fdinfo,nvml", 200, "blur", &switches);
  inline_n = stat_int (st, "auto-inline-samples");
  g_print ("fdinfo,nvml: %" G_GINT64_FORMAT " samples on the streaming "
      "thread, %" G_GINT64_FORMAT " on the sampler thread\n", inline_n,
      stat_int (st, "auto-thread-samples"));
  fail_unless_equals_int64 (inline_n, 0);
  fail_unless (stat_int (st, "auto-thread-samples") > 0);
  gst_structure_free (st);

  /* Both: the script moves the chain while fdinfo is sampled on the
   * thread (the GPU machine's forced runs). */
  st = run_producer_chain (chain, "fdinfo,fake:20:0,1000:1", 200, "blur",
      &switches);
  fail_unless_equals_int (switches, 1);
  fail_unless_equals_string (gst_structure_get_string (st, "auto-sources"),
      "fdinfo,fake");
  fail_unless (stat_int (st, "auto-inline-samples") > 0);
  fail_unless (stat_int (st, "auto-thread-samples") > 0);
  gst_structure_free (st);
}

GST_END_TEST;

GST_START_TEST (test_square_waves)
{
  Run a;
  guint n;

  SKIP_WITHOUT_TWO_DEVICES ();
  /* 2 windows loaded, 2 free: never the 3 in a row it takes. */
  run_chain ("clblur name=blur ! clsobel name=sobel", "fake:10:1,10:0,loop",
      0, 300, &a);
  fail_unless_equals_int (a.n, 300);
  fail_unless_equals_int (n_switches (&a, "blur"), 0);
  fail_unless_equals_int (n_switches (&a, "sobel"), 0);
  run_clear (&a);

  /* 12 windows loaded, 12 free, 3 periods: follows, at most twice a
   * period, and the follower with it. */
  run_chain ("clblur name=blur ! clsobel name=sobel", "fake:60:1,60:0,loop",
      0, 360, &a);
  fail_unless_equals_int (a.n, 360);
  n = n_switches (&a, "blur");
  g_print ("slow square wave: %u switches in 3 periods\n", n);
  fail_unless (n >= 4 && n <= 6, "%u switches in 3 periods", n);
  fail_unless_equals_int (n_switches (&a, "sobel"), n);
  run_clear (&a);
}

GST_END_TEST;

/* The real sources (no fake script): a hardware encoder running in the
 * same pipeline moves the chain to the fallback and keeps it there. */
GST_START_TEST (test_hardware_encoder_in_pipeline)
{
  Run a;
  const GstStructure *s;

  SKIP_WITHOUT_TWO_DEVICES ();
  fail_unless (gst_element_register (NULL, "fakehwenc", GST_RANK_NONE,
          fake_hw_enc_get_type ()));
  extra_element = "fakehwenc";
  run_chain ("clblur name=blur ! clsobel name=sobel", "encoder", 0, 100, &a);
  extra_element = NULL;
  fail_unless_equals_int (a.n, 100);
  fail_unless_equals_int (n_switches (&a, "blur"), 1);
  fail_unless_equals_int (n_switches (&a, "sobel"), 1);
  s = nth_switch (&a, "blur", 0);
  fail_unless_equals_string (gst_structure_get_string (s, "reason"),
      "gpu-busy");
  fail_unless_equals_string (gst_structure_get_string (s, "to-slot"),
      "fallback");
  fail_unless (strstr (gst_structure_get_string (s, "detail"),
          "hw-encoder=fakehwenc"), "%s", gst_structure_get_string (s,
          "detail"));
  run_clear (&a);

  /* The same without the encoder: nothing moves. */
  run_chain ("clblur name=blur ! clsobel name=sobel", "encoder", 0, 100, &a);
  fail_unless_equals_int (a.n, 100);
  fail_unless_equals_int (g_hash_table_size (a.switches), 0);
  run_clear (&a);
}

GST_END_TEST;

/* Whether @e's stats carry the device=auto group's figures */
static gboolean
stats_show_group (GstElement * e)
{
  GstStructure *s = NULL;
  gboolean has;

  g_object_get (e, "stats", &s, NULL);
  fail_unless (s != NULL);
  has = gst_structure_has_field (s, "auto-switches");
  gst_structure_free (s);
  return has;
}

GST_START_TEST (test_pinned_never_moves)
{
  GstElement *e;
  GstStructure *s = NULL;
  Run a;

  SKIP_WITHOUT_TWO_DEVICES ();
  /* Loaded all along, but pinned: no group, no switch. */
  run_chain ("clblur name=blur device=cpu ! clblur name=b2 device=0.1",
      "fake:0:1", 0, 60, &a);
  fail_unless_equals_int (a.n, 60);
  fail_unless_equals_int (g_hash_table_size (a.switches), 0);
  fail_unless_equals_int (a.notifies, 2 * 2);
  run_clear (&a);

  /* switching=false: auto is one device again, no group in the stats. */
  g_setenv ("GST_CL_AUTO", "switching=false", TRUE);
  e = gst_element_factory_make ("clblur", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_if (stats_show_group (e));
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);

  /* With it: the group's figures are in the stats. */
  g_setenv ("GST_CL_AUTO", KNOBS, TRUE);
  e = gst_element_factory_make ("clblur", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (e, "stats", &s, NULL);
  fail_unless (gst_structure_has_field (s, "auto-switches"));
  fail_unless (gst_structure_has_field (s, "device-switches"));
  gst_structure_free (s);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* The pipeline's device=auto group, as the bin keeps it (its context), with
 * a reference; NULL if none. */
static GstObject *
bin_group (GstElement * bin)
{
  GstContext *c = gst_element_get_context (bin, "gst.cl.context");
  const GValue *v;
  GstObject *group = NULL;

  if (!c)
    return NULL;
  v = gst_structure_get_value (gst_context_get_structure (c), "auto");
  if (v && G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v))
    group = gst_object_ref (g_value_get_object (v));
  gst_context_unref (c);
  return group;
}

/* A pipeline that ran device=auto elements, set to NULL: its bin keeps the
 * group (to *@group, a reference) and hands it to every element added
 * later. */
static GstElement *
pipeline_after_auto_run (GstObject ** group)
{
  GstElement *pipe;
  GstMessage *msg;

  g_setenv ("GST_CL_AUTO", KNOBS, TRUE);
  g_unsetenv ("GST_CL_AUTO_SOURCES");
  pipe = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! clblur ! fakesink", NULL);
  fail_unless (pipe != NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  *group = bin_group (pipe);
  fail_unless (*group != NULL, "the bin keeps no device=auto group");
  return pipe;
}

/* An element added to such a pipeline, then set to one device before it
 * starts (the natural order when a server adds a branch): it runs on that
 * device, not as a member of the group it was handed. The first branch
 * runs again beside it, in the group. */
GST_START_TEST (test_pinned_after_bin_add)
{
  GstObject *group;
  GstElement *pipe, *src, *caps, *blur, *sink;
  GstCaps *c;
  GstMessage *msg;

  SKIP_WITHOUT_TWO_DEVICES ();
  pipe = pipeline_after_auto_run (&group);
  src = gst_element_factory_make ("videotestsrc", NULL);
  caps = gst_element_factory_make ("capsfilter", NULL);
  blur = gst_element_factory_make ("clblur", "pinned");
  sink = gst_element_factory_make ("fakesink", NULL);
  g_object_set (src, "num-buffers", 5, NULL);
  c = gst_caps_from_string ("video/x-raw,format=GRAY8,width=64,height=48");
  g_object_set (caps, "caps", c, NULL);
  gst_caps_unref (c);
  gst_bin_add_many (GST_BIN (pipe), src, caps, blur, sink, NULL);
  g_object_set (blur, "device", "0.1", NULL);
  fail_unless (gst_element_link_many (src, caps, blur, sink, NULL));
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    fail_if (TRUE, "pinned after add: %s (%s)", err->message, dbg);
  }
  gst_message_unref (msg);
  /* one device: none of the group's figures */
  fail_if (stats_show_group (blur));
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (group);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* Elements handed the group by a bin but never started give it back when
 * they go (the group holds both devices' contexts and a load thread). */
GST_START_TEST (test_unstarted_elements_release_group)
{
  GstElement *pipe;
  GstObject *group;
  gint before, after;

  SKIP_WITHOUT_TWO_DEVICES ();
  pipe = pipeline_after_auto_run (&group);
  before = GST_OBJECT_REFCOUNT_VALUE (group);
  for (gint i = 0; i < 5; i++) {
    GstElement *e = gst_element_factory_make ("clblur", NULL);
    gst_object_ref (e);
    fail_unless (gst_bin_add (GST_BIN (pipe), e));
    fail_unless (gst_bin_remove (GST_BIN (pipe), e));
    gst_object_unref (e);       /* the last reference: disposed */
  }
  after = GST_OBJECT_REFCOUNT_VALUE (group);
  fail_unless_equals_int (after, before);
  gst_object_unref (group);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
auto_suite (void)
{
  Suite *s = suite_create ("auto");
  TCase *tc = tcase_create ("switching");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_switch_and_back);
  tcase_add_test (tc, test_blur_reference_across_switches);
  tcase_add_test (tc, test_optflow_across_switches);
  tcase_add_test (tc, test_square_waves);
  tcase_add_test (tc, test_no_copies_after_switch);
  tcase_add_test (tc, test_hardware_encoder_in_pipeline);
  tcase_add_test (tc, test_pinned_never_moves);
  tcase_add_test (tc, test_pinned_after_bin_add);
  tcase_add_test (tc, test_unstarted_elements_release_group);
  return s;
}

GST_CHECK_MAIN (auto);
