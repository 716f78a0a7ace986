/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* device=auto without a device: the policy fed scripted windows (leave a
 * loaded GPU, return when it frees up, hysteresis, dwell, square waves,
 * kernel-time signal and probes), the knobs' parser, the load sources on
 * scripted input (DRM fdinfo text in the kernel's format, NVML absent and
 * present through a fake library, the fake script), and the VA render
 * node of an encoder factory. */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "cl/gstclload.h"
#include "cl/gstclpolicy.h"
#include "fakehwenc.h"

#define GPU GST_CL_SLOT_PREFERRED
#define CPU GST_CL_SLOT_FALLBACK

/* Params that make windows purely a matter of frames. */
static void
test_params (GstCLPolicyParams * p)
{
  gst_cl_policy_params_init (p);
  p->min_dwell_ms = 1000;
}

/* Feeds one window 100 ms after the last one. */
static GstCLSwitchReason
feed (GstCLPolicy * pol, gint64 * t, gdouble busy, gdouble ms)
{
  GstCLPolicyWindow w = { 0 };
  *t += 100;
  w.time_ms = *t;
  w.slot = pol->active;
  w.busy = busy;
  w.ms_per_frame = ms;
  return gst_cl_policy_feed (pol, &w);
}

GST_START_TEST (test_policy_load_and_back)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint i;

  test_params (&p);
  gst_cl_policy_init (&pol, &p, GPU, 0);
  /* Free GPU for 2 s: stays. */
  for (i = 0; i < 20; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.05, 1.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.active, GPU);
  fail_unless (pol.unloaded_ms[GPU] > 0.99 && pol.unloaded_ms[GPU] < 1.01);
  /* Loaded: leaves after exactly up-windows windows. */
  for (i = 0; i + 1 < p.up_windows; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.95, 3.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (feed (&pol, &t, 0.95, 3.0), GST_CL_SWITCH_GPU_BUSY);
  fail_unless_equals_int (pol.active, CPU);
  /* Still loaded: stays on the CPU (its time learnt, 4 ms). */
  for (i = 0; i < 30; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.95, 4.0), GST_CL_SWITCH_NONE);
  fail_unless (pol.unloaded_ms[CPU] > 3.99 && pol.unloaded_ms[CPU] < 4.01);
  /* Load gone: returns after down-windows windows. */
  for (i = 0; i + 1 < p.down_windows; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.0, 4.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (feed (&pol, &t, 0.0, 4.0), GST_CL_SWITCH_GPU_FREE);
  fail_unless_equals_int (pol.active, GPU);
  fail_unless_equals_int (pol.switches, 2);
  /* A busy value between the thresholds moves nothing. */
  for (i = 0; i < 50; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.5, 1.0), GST_CL_SWITCH_NONE);
}

GST_END_TEST;

/* A device that failed: the policy leaves it at once and never returns,
 * however free the GPU looks and however long the probes wait. */
GST_START_TEST (test_policy_fault)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint i;

  test_params (&p);
  p.probe_ms = 500;
  gst_cl_policy_init (&pol, &p, GPU, 0);
  for (i = 0; i < 5; i++)
    feed (&pol, &t, 0.0, 1.0);
  fail_unless (gst_cl_policy_fail (&pol, GPU, t));
  fail_unless_equals_int (pol.active, CPU);
  fail_unless_equals_int (pol.switches, 1);
  fail_unless_equals_string (gst_cl_switch_reason_name
      (GST_CL_SWITCH_FAULT), "fault");
  /* Free (busy 0), and no busy signal at all (probes): stays. */
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.0, 4.0), GST_CL_SWITCH_NONE);
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, -1, 4.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.active, CPU);
  /* The other fails too: nowhere to go. */
  fail_if (gst_cl_policy_fail (&pol, CPU, t));

  /* The standby failing (e.g. its programs did not build) moves nothing
   * now and forbids the move later: loaded, the GPU stays. */
  gst_cl_policy_init (&pol, &p, GPU, 0);
  t = 0;
  fail_unless (gst_cl_policy_fail (&pol, CPU, t));
  fail_unless_equals_int (pol.active, GPU);
  fail_unless_equals_int (pol.switches, 0);
  for (i = 0; i < 50; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.95, 3.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.active, GPU);
}

GST_END_TEST;

GST_START_TEST (test_policy_dwell)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint i, n = 0;

  test_params (&p);
  p.min_dwell_ms = 5000;
  gst_cl_policy_init (&pol, &p, GPU, 0);
  /* Loaded from the first window: nothing before the dwell has passed. */
  for (i = 0; i < 49; i++)
    n += feed (&pol, &t, 1.0, -1) != GST_CL_SWITCH_NONE;
  fail_unless_equals_int (n, 0);
  fail_unless_equals_int (feed (&pol, &t, 1.0, -1), GST_CL_SWITCH_GPU_BUSY);
  fail_unless_equals_int (t, 5000);
}

GST_END_TEST;

/* Square wave of the busy signal, @half windows high then @half low, for
 * @periods periods; returns the switches. */
static guint
square_wave (guint half, guint periods)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint n = 0;

  test_params (&p);
  gst_cl_policy_init (&pol, &p, GPU, 0);
  for (guint k = 0; k < periods; k++)
    for (guint i = 0; i < 2 * half; i++) {
      gdouble busy = i < half ? 1.0 : 0.0;
      /* The CPU is 2x slower than the free GPU, 4x faster than the
       * loaded one (as a GPU time-sliced with a saturating load). */
      gdouble ms = pol.active == CPU ? 2.0 : busy > 0 ? 8.0 : 1.0;
      if (feed (&pol, &t, busy, ms) != GST_CL_SWITCH_NONE)
        n++;
    }
  return n;
}

GST_START_TEST (test_policy_square_wave)
{
  /* Faster than the hysteresis: never moves. */
  fail_unless_equals_int (square_wave (1, 100), 0);
  fail_unless_equals_int (square_wave (2, 100), 0);
  /* Slower: follows, at most twice per period, at least once per period
   * after the first. */
  {
    guint n = square_wave (40, 10);
    fail_unless (n <= 20 && n >= 18, "%u switches for 10 slow periods", n);
  }
  /* In between (0.6 s up, 0.6 s down, 1 s dwell): bounded by the dwell. */
  {
    guint n = square_wave (6, 50);
    fail_unless (n <= 60000 / 1000, "%u switches in 60 s", n);
  }
}

GST_END_TEST;

GST_START_TEST (test_policy_kernel_time)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint i;
  GstCLSwitchReason r = GST_CL_SWITCH_NONE;

  /* No busy signal at all: our own kernels slow down 3x on the GPU. */
  test_params (&p);
  gst_cl_policy_init (&pol, &p, GPU, 0);
  for (i = 0; i < 20; i++)
    feed (&pol, &t, -1, 1.0);
  for (i = 0; i < p.up_windows && r == GST_CL_SWITCH_NONE; i++)
    r = feed (&pol, &t, -1, 3.0);
  fail_unless_equals_int (r, GST_CL_SWITCH_GPU_SLOW);
  fail_unless_equals_int (i, p.up_windows);
  /* On the CPU (2 ms), no signal: a probe after probe-ms. */
  for (i = 0, r = GST_CL_SWITCH_NONE; r == GST_CL_SWITCH_NONE; i++)
    r = feed (&pol, &t, -1, 2.0);
  fail_unless_equals_int (r, GST_CL_SWITCH_PROBE);
  fail_unless_equals_int (i * 100, p.probe_ms);
  /* Still slow (3 ms > 2 ms x 1.25): back without waiting out the dwell,
   * and the next probe comes twice as late. */
  for (i = 0, r = GST_CL_SWITCH_NONE; r == GST_CL_SWITCH_NONE; i++)
    r = feed (&pol, &t, -1, 3.0);
  fail_unless_equals_int (r, GST_CL_SWITCH_GPU_SLOW);
  fail_unless_equals_int (i, p.up_windows);
  for (i = 0, r = GST_CL_SWITCH_NONE; r == GST_CL_SWITCH_NONE; i++)
    r = feed (&pol, &t, -1, 2.0);
  fail_unless_equals_int (r, GST_CL_SWITCH_PROBE);
  fail_unless_equals_int (i * 100, 2 * p.probe_ms);
  /* The GPU is free again: the probe sticks. */
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, -1, 1.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.active, GPU);
  fail_unless_equals_int (pol.probe_ms, p.probe_ms);

  /* With kernel-time=false the same slowdown moves nothing. */
  p.kernel_time = FALSE;
  gst_cl_policy_init (&pol, &p, GPU, t);
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, -1, i < 20 ? 1.0 : 9.0),
        GST_CL_SWITCH_NONE);
}

GST_END_TEST;

GST_START_TEST (test_policy_gpu_still_faster)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint i, n = 0;

  /* A GPU 50x faster than the CPU: busy at 80% it is still 10x faster, so
   * after one look at the CPU the chain goes back and stays. */
  test_params (&p);
  gst_cl_policy_init (&pol, &p, GPU, 0);
  for (i = 0; i < 20; i++)
    feed (&pol, &t, 0.0, 0.1);
  for (i = 0; i < 200; i++) {
    gdouble ms = pol.active == CPU ? 5.0 : 0.5;
    GstCLSwitchReason r = feed (&pol, &t, 0.8, ms);
    if (r != GST_CL_SWITCH_NONE) {
      n++;
      fail_unless (n > 1 || r == GST_CL_SWITCH_GPU_BUSY);
      fail_unless (n < 2 || r == GST_CL_SWITCH_CPU_SLOWER);
    }
  }
  fail_unless_equals_int (n, 2);
  fail_unless_equals_int (pol.active, GPU);
}

GST_END_TEST;

/* The H200 case (docs/AUTO.md): another process time-slices the GPU, our
 * latency there rises 4x (0.26 -> 1.1 ms a frame) but the CPU device needs
 * 10 ms a frame. With the CPU's time known before the first move (the
 * warm-up estimate) the chain stays; once the GPU gets slower than the CPU
 * by the margin, it leaves. */
GST_START_TEST (test_policy_standby_estimate)
{
  GstCLPolicyParams p;
  GstCLPolicy pol, blind;
  gint64 t = 0, tb = 0;
  guint i;
  GstCLSwitchReason r = GST_CL_SWITCH_NONE;

  test_params (&p);
  gst_cl_policy_init (&pol, &p, GPU, 0);
  gst_cl_policy_init (&blind, &p, GPU, 0);
  gst_cl_policy_set_estimate (&pol, CPU, 10.0);
  fail_unless (pol.unloaded_ms[CPU] == 10.0);
  for (i = 0; i < 20; i++) {
    feed (&pol, &t, -1, 0.26);
    feed (&blind, &tb, -1, 0.26);
  }
  /* Slowed 4x, no busy signal (NVML cannot see our PID in a container):
   * without the estimate the policy leaves (the old behaviour), with it
   * the GPU, still 9x faster than the CPU, keeps the chain. */
  for (i = 0; i < p.up_windows && r == GST_CL_SWITCH_NONE; i++)
    r = feed (&blind, &tb, -1, 1.1);
  fail_unless_equals_int (r, GST_CL_SWITCH_GPU_SLOW);
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, -1, 1.1), GST_CL_SWITCH_NONE);
  /* ... also when a busy signal says the GPU is fully loaded: slowed by
   * 1/(1-0.95) from 0.26 ms it is still faster than 10 ms x margin. */
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, 1.0, 1.1), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.active, GPU);
  fail_unless_equals_int (pol.switches, 0);
  /* Within the margin (11 ms against 10 x 1.25): still stays. */
  for (i = 0; i < 50; i++)
    fail_unless_equals_int (feed (&pol, &t, -1, 11.0), GST_CL_SWITCH_NONE);
  /* The load grows and the GPU gets clearly slower than the CPU: leaves
   * after up-windows windows. */
  for (i = 0, r = GST_CL_SWITCH_NONE; r == GST_CL_SWITCH_NONE; i++)
    r = feed (&pol, &t, -1, 14.0);
  fail_unless_equals_int (r, GST_CL_SWITCH_GPU_SLOW);
  fail_unless_equals_int (i, p.up_windows);
  fail_unless_equals_int (pol.active, CPU);
  /* The same with the busy signal. */
  gst_cl_policy_init (&pol, &p, GPU, t);
  gst_cl_policy_set_estimate (&pol, CPU, 10.0);
  for (i = 0; i < 20; i++)
    feed (&pol, &t, 0.0, 0.26);
  for (i = 0, r = GST_CL_SWITCH_NONE; r == GST_CL_SWITCH_NONE && i < 100; i++)
    r = feed (&pol, &t, 1.0, 14.0);
  fail_unless_equals_int (r, GST_CL_SWITCH_GPU_BUSY);
  fail_unless_equals_int (i, p.up_windows);
  /* On the CPU its measured time replaces the estimate, which a later
   * estimate no longer overrides. */
  for (i = 0; i < 5; i++)
    feed (&pol, &t, 1.0, 8.0);
  fail_unless (pol.unloaded_ms[CPU] == 8.0);
  gst_cl_policy_set_estimate (&pol, CPU, 20.0);
  fail_unless (pol.unloaded_ms[CPU] == 8.0);
  /* kernel-time=false: estimates are ignored like the latencies. */
  p.kernel_time = FALSE;
  gst_cl_policy_init (&pol, &p, GPU, t);
  gst_cl_policy_set_estimate (&pol, CPU, 10.0);
  fail_unless (pol.unloaded_ms[CPU] < 0);
}

GST_END_TEST;

/* Feeds windows of (@busy, @ms) until the policy switches, at most @max;
 * the reason (NONE if it never did), *@windows how many it took. */
static GstCLSwitchReason
feed_until_switch (GstCLPolicy * pol, gint64 * t, gdouble busy, gdouble ms,
    guint max, guint * windows)
{
  GstCLSwitchReason r = GST_CL_SWITCH_NONE;
  guint i;

  for (i = 0; i < max && r == GST_CL_SWITCH_NONE; i++)
    r = feed (pol, t, busy, ms);
  *windows = i;
  return r;
}

/* The H200 under four busy-loop processes (session 38, run 4): the GPU
 * runs a 640x480 chain in 0.017 ms a frame, but every frame waits some
 * 7 ms for a time slice; the CPU device takes 0.5 ms. Leaving on the
 * measured latency, the policy must not come back on the time-slice model
 * (0.017 ms / (1 - 0.95) = 0.34 ms, "faster than the CPU") while the
 * load lasts: it flapped every 1.5 s. It returns when the load ends, and
 * when the load eases enough for the GPU's measured time, scaled by the
 * share of the time slices, to beat the CPU. */
GST_START_TEST (test_policy_time_slices)
{
  GstCLPolicyParams p;
  GstCLPolicy pol;
  gint64 t = 0;
  guint i;

  test_params (&p);
  gst_cl_policy_init (&pol, &p, GPU, 0);
  gst_cl_policy_set_estimate (&pol, CPU, 0.34);
  for (i = 0; i < 20; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.0, 0.017), GST_CL_SWITCH_NONE);
  /* The load: NVML cannot see our PID, so no busy figure on the GPU. */
  fail_unless_equals_int (feed_until_switch (&pol, &t, -1, 6.8, 10, &i),
      GST_CL_SWITCH_GPU_SLOW);
  fail_unless_equals_int (pol.active, CPU);
  /* Off the GPU, NVML's device figure is all others': busy 1.0. */
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (feed (&pol, &t, 1.0, 0.5), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.switches, 1);
  fail_unless (pol.loaded_busy == 1.0, "%f", pol.loaded_busy);
  /* Easing to 0.5: 6.8 ms x 0.05 / 0.5 = 0.68 ms, x 1.25 still above the
   * CPU's 0.5: stays. */
  for (i = 0; i < 50; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.5, 0.5), GST_CL_SWITCH_NONE);
  /* The load ends. */
  fail_unless_equals_int (feed_until_switch (&pol, &t, 0.0, 0.5, 20, &i),
      GST_CL_SWITCH_GPU_FREE);
  fail_unless_equals_int (i, p.down_windows);
  /* Back on the free GPU: the loaded time is forgotten. */
  for (i = 0; i < 20; i++)
    fail_unless_equals_int (feed (&pol, &t, 0.0, 0.017), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (pol.active, GPU);
  fail_unless (pol.loaded_ms < 0, "a stale loaded time: %f", pol.loaded_ms);

  /* A slower CPU (2 ms): at busy 1.0 the GPU's 6.8 ms keeps the chain
   * there; eased to 0.5 (0.68 ms) the GPU beats the CPU, and it returns
   * (cpu-slower) after down-windows windows. */
  fail_unless_equals_int (feed_until_switch (&pol, &t, -1, 6.8, 10, &i),
      GST_CL_SWITCH_GPU_SLOW);
  for (i = 0; i < 30; i++)
    fail_unless_equals_int (feed (&pol, &t, 1.0, 2.0), GST_CL_SWITCH_NONE);
  fail_unless_equals_int (feed_until_switch (&pol, &t, 0.5, 2.0, 20, &i),
      GST_CL_SWITCH_CPU_SLOWER);
  fail_unless_equals_int (i, p.down_windows);
  fail_unless_equals_int (pol.active, GPU);
}

GST_END_TEST;

GST_START_TEST (test_policy_params)
{
  GstCLPolicyParams p;
  gchar *warnings = NULL;

  gst_cl_policy_params_init (&p);
  fail_unless_equals_int (p.up_windows, GST_CL_POLICY_DEFAULT_UP_WINDOWS);
  fail_unless_equals_int (p.latency_interval_ms, 10);
  gst_cl_policy_params_parse (&p, "up-windows=4, busy-high=0.9,"
      "busy-low=0.2,min-dwell-ms=250,kernel-time=false,switching=true,"
      "latency-interval-ms=0", &warnings);
  fail_unless (warnings == NULL, "%s", warnings);
  fail_unless_equals_int (p.up_windows, 4);
  fail_unless_equals_int (p.min_dwell_ms, 250);
  fail_unless_equals_int (p.latency_interval_ms, 0);
  fail_unless (p.busy_high == 0.9 && p.busy_low == 0.2 && !p.kernel_time);

  gst_cl_policy_params_parse (&p, "busy-high=7,up-windows=x,bogus=1,"
      "margin=0.5,latency-interval-ms=-3", &warnings);
  fail_unless (warnings != NULL);
  fail_unless (strstr (warnings, "busy-high=7: out of range, clamped"));
  fail_unless (strstr (warnings, "up-windows=x: not a whole number"));
  fail_unless (strstr (warnings, "bogus=1: unknown knob"));
  fail_unless (strstr (warnings, "latency-interval-ms=-3"), "%s", warnings);
  fail_unless (p.busy_high == 1.0 && p.margin == 1.0);
  fail_unless_equals_int (p.up_windows, 4);
  g_free (warnings);

  gst_cl_policy_params_parse (&p, "busy-high=0.3,busy-low=0.6", &warnings);
  fail_unless (warnings && strstr (warnings, "busy-low"));
  fail_unless (p.busy_low == p.busy_high);
  g_free (warnings);
}

GST_END_TEST;

/* ---- load sources -------------------------------------------------------- */

/* Macros, so the format strings are checked. */
#define I915_TEXT \
    "pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1064\n" \
    "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t7\n" \
    "drm-engine-render:\t%" G_GUINT64_FORMAT " ns\n" \
    "drm-engine-copy:\t0 ns\n" \
    "drm-engine-video:\t%" G_GUINT64_FORMAT " ns\n" \
    "drm-engine-capacity-video:\t2\n" \
    "drm-engine-video-enhance:\t0 ns\n"

#define XE_TEXT \
    "drm-driver:\txe\ndrm-pdev:\t0000:03:00.0\ndrm-client-id:\t12\n" \
    "drm-cycles-rcs:\t%" G_GUINT64_FORMAT "\n" \
    "drm-total-cycles-rcs:\t%" G_GUINT64_FORMAT "\n" \
    "drm-cycles-vcs:\t%" G_GUINT64_FORMAT "\n" \
    "drm-total-cycles-vcs:\t%" G_GUINT64_FORMAT "\n" \
    "drm-engine-capacity-vcs:\t1\n"

GST_START_TEST (test_fdinfo_parse)
{
  GstCLFdinfo a, b;
  gchar *ta, *tb, engine[32];
  gdouble busy;

  ta = g_strdup_printf (I915_TEXT, (guint64) 1000000000, (guint64) 0);
  /* 100 ms later: render 50 ms busy, video 150 ms over 2 engines (75%). */
  tb = g_strdup_printf (I915_TEXT, (guint64) 1050000000,
      (guint64) 150000000);
  fail_unless (gst_cl_fdinfo_parse (ta, &a));
  fail_unless (gst_cl_fdinfo_parse (tb, &b));
  fail_unless_equals_string (b.driver, "i915");
  fail_unless_equals_string (b.pdev, "0000:00:02.0");
  fail_unless (b.has_client_id && b.client_id == 7);
  fail_unless_equals_int (b.n_engines, 4);
  busy = gst_cl_fdinfo_busy (&a, &b, 100000000, FALSE, engine);
  fail_unless (busy > 0.749 && busy < 0.751, "busy %f", busy);
  fail_unless_equals_string (engine, "video");
  /* Our own compute engines left out: still the video engine. */
  busy = gst_cl_fdinfo_busy (&a, &b, 100000000, TRUE, engine);
  fail_unless (busy > 0.749 && busy < 0.751);
  g_free (ta);
  g_free (tb);

  /* Render at 50% and nothing else: only the compute-free reading says 0. */
  ta = g_strdup_printf (I915_TEXT, (guint64) 0, (guint64) 0);
  tb = g_strdup_printf (I915_TEXT, (guint64) 50000000, (guint64) 0);
  gst_cl_fdinfo_parse (ta, &a);
  gst_cl_fdinfo_parse (tb, &b);
  busy = gst_cl_fdinfo_busy (&a, &b, 100000000, FALSE, engine);
  fail_unless (busy > 0.499 && busy < 0.501);
  fail_unless_equals_string (engine, "render");
  fail_unless_equals_float (gst_cl_fdinfo_busy (&a, &b, 100000000, TRUE,
          NULL), 0.0);
  g_free (ta);
  g_free (tb);

  /* xe: cycles against total cycles, no wall time needed. */
  ta = g_strdup_printf (XE_TEXT, (guint64) 100, (guint64) 1000,
      (guint64) 0, (guint64) 1000);
  tb = g_strdup_printf (XE_TEXT, (guint64) 200, (guint64) 2000,
      (guint64) 900, (guint64) 2000);
  fail_unless (gst_cl_fdinfo_parse (ta, &a));
  fail_unless (gst_cl_fdinfo_parse (tb, &b));
  busy = gst_cl_fdinfo_busy (&a, &b, 0, FALSE, engine);
  fail_unless (busy > 0.899 && busy < 0.901);
  fail_unless_equals_string (engine, "vcs");
  g_free (ta);
  g_free (tb);

  /* Not a DRM client. */
  fail_if (gst_cl_fdinfo_parse ("pos:\t0\nflags:\t0100002\n", &a));
  fail_unless (gst_cl_fdinfo_engine_is_compute ("ccs"));
  fail_unless (gst_cl_fdinfo_engine_is_compute ("gfx"));
  fail_if (gst_cl_fdinfo_engine_is_compute ("video-enhance"));
  fail_if (gst_cl_fdinfo_engine_is_compute ("enc"));
}

GST_END_TEST;

static void
write_fdinfo (const gchar * root, const gchar * pid, const gchar * fd,
    guint64 render, guint64 video)
{
  gchar *dir = g_build_filename (root, pid, "fdinfo", NULL);
  gchar *path = g_build_filename (dir, fd, NULL);
  gchar *text = g_strdup_printf (I915_TEXT, render, video);
  g_mkdir_with_parents (dir, 0700);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  g_free (text);
  g_free (path);
  g_free (dir);
}

GST_START_TEST (test_fdinfo_source)
{
  gchar *root = g_dir_make_tmp ("gstclauto-XXXXXX", NULL);
  gchar *self = g_strdup_printf ("%d", (gint) getpid ());
  GstCLLoadTarget target = { 0 };
  GstCLLoadSource *own, *all;
  GstCLLoadQuery q = { 0 };
  GString *d = g_string_new (NULL);
  gdouble busy;

  fail_unless (root != NULL);
  target.has_pci = TRUE;
  target.pci_bus = 0;
  target.pci_device = 2;
  /* Our own process: render (our OpenCL) busy, video (an encoder) busy;
   * another process on the same GPU busy on render. */
  write_fdinfo (root, self, "5", 0, 0);
  write_fdinfo (root, self, "6", 0, 0);     /* a dup of fd 5: same client */
  write_fdinfo (root, "4242", "9", 0, 0);
  own = gst_cl_load_fdinfo_new (&target, root, FALSE);
  all = gst_cl_load_fdinfo_new (&target, root, TRUE);
  q.now_ns = GST_SECOND;
  fail_unless (own->sample (own, &q, d) < 0);       /* no delta yet */
  fail_unless (all->sample (all, &q, d) < 0);

  write_fdinfo (root, self, "5", 90000000, 20000000);
  write_fdinfo (root, self, "6", 90000000, 20000000);
  q.now_ns += 100 * GST_MSECOND;
  busy = own->sample (own, &q, d);
  /* Own render time is ours: only video counts, 20 ms / (100 ms x 2). */
  fail_unless (busy > 0.099 && busy < 0.101, "own busy %f", busy);
  write_fdinfo (root, "4242", "9", 60000000, 0);
  busy = all->sample (all, &q, d);
  /* The other process's render 60%; ours is not counted. */
  fail_unless (busy > 0.599 && busy < 0.601, "all busy %f (%s)", busy,
      d->str);

  gst_cl_load_source_free (own);
  gst_cl_load_source_free (all);
  g_string_free (d, TRUE);
  {
    gchar *cmd = g_strdup_printf ("rm -rf '%s'", root);
    fail_unless (system (cmd) == 0);
    g_free (cmd);
  }
  g_free (self);
  g_free (root);
}

GST_END_TEST;

GST_START_TEST (test_nvml_absent)
{
  gchar *why = NULL;
  GstCLLoadSource *src = gst_cl_load_nvml_new (NULL,
      "/nonexistent/libnvidia-ml.so.1", &why);
  fail_unless (src == NULL);
  fail_unless (why && strstr (why, "NVML not loaded"), "%s", why);
  g_free (why);
}

GST_END_TEST;

GST_START_TEST (test_nvml_present)
{
  const gchar *lib = g_getenv ("FAKE_NVML_LIB");
  GstCLLoadSource *src;
  GstCLLoadQuery q = { 0 };
  GString *d = g_string_new (NULL);
  gchar *why = NULL;
  gdouble busy;

  fail_unless (lib != NULL, "FAKE_NVML_LIB not set");
  src = gst_cl_load_nvml_new (NULL, lib, &why);
  fail_unless (src != NULL, "%s", why);
  q.now_ns = GST_SECOND;

  /* Others at 70% and 20%, we at 50%: others 90%, on the GPU or not. */
  g_setenv ("FAKE_NVML_PROCS", "4242:70,self:50,4343:20", TRUE);
  q.self_on_gpu = TRUE;
  busy = src->sample (src, &q, d);
  fail_unless (busy > 0.899 && busy < 0.901, "busy %f", busy);

  /* Our PID not among the samples (another PID namespace): cannot tell
   * others from us while on the GPU; off it, the samples are others. */
  g_setenv ("FAKE_NVML_PROCS", "777:60", TRUE);
  fail_unless (src->sample (src, &q, d) < 0);
  q.self_on_gpu = FALSE;
  busy = src->sample (src, &q, d);
  fail_unless (busy > 0.599 && busy < 0.601, "busy %f", busy);

  /* No process ran: free, once NVML's sampling period has passed. */
  g_setenv ("FAKE_NVML_PROCS", "", TRUE);
  q.now_ns += 2 * GST_SECOND;
  fail_unless_equals_float (src->sample (src, &q, d), 0.0);

  /* Per-process samples that miss the others (the H200 with four loading
   * processes): off the GPU the device utilisation counts. */
  g_setenv ("FAKE_NVML_UTIL", "95", TRUE);
  busy = src->sample (src, &q, d);
  fail_unless (busy > 0.949 && busy < 0.951, "busy %f", busy);
  g_unsetenv ("FAKE_NVML_UTIL");

  /* No per-process figures: the device utilisation, off the GPU only. */
  g_setenv ("FAKE_NVML_PROCS", "unsupported", TRUE);
  g_setenv ("FAKE_NVML_UTIL", "85", TRUE);
  q.self_on_gpu = FALSE;
  busy = src->sample (src, &q, d);
  fail_unless (busy > 0.849 && busy < 0.851, "busy %f", busy);
  q.self_on_gpu = TRUE;
  fail_unless (src->sample (src, &q, d) < 0);

  gst_cl_load_source_free (src);
  g_string_free (d, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_fake_script)
{
  GstCLLoadSource *src = gst_cl_load_fake_new ("10:0,5:1,10:0.5,loop");
  GstCLLoadQuery q = { 0 };
  GString *d = g_string_new (NULL);

  fail_unless (src != NULL);
  q.frame = 0;
  fail_unless_equals_float (src->sample (src, &q, d), 0.0);
  q.frame = 12;
  fail_unless_equals_float (src->sample (src, &q, d), 1.0);
  q.frame = 20;
  fail_unless_equals_float (src->sample (src, &q, d), 0.5);
  q.frame = 25 + 11;            /* looped */
  fail_unless_equals_float (src->sample (src, &q, d), 1.0);
  gst_cl_load_source_free (src);

  src = gst_cl_load_fake_new ("10:0,5:1");
  q.frame = 1000;               /* the last segment holds */
  fail_unless_equals_float (src->sample (src, &q, d), 1.0);
  gst_cl_load_source_free (src);

  fail_unless (gst_cl_load_fake_new ("10") == NULL);
  fail_unless (gst_cl_load_fake_new ("x:1") == NULL);
  fail_unless (gst_cl_load_fake_new ("") == NULL);
  g_string_free (d, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_va_render_node)
{
  gchar *n;
  n = gst_cl_va_render_node ("vah264enc");
  fail_unless_equals_string (n, "renderD128");
  g_free (n);
  n = gst_cl_va_render_node ("varenderD129h265lpenc");
  fail_unless_equals_string (n, "renderD129");
  g_free (n);
  fail_unless (gst_cl_va_render_node ("nvh264enc") == NULL);
  fail_unless (gst_cl_va_render_node ("x264enc") == NULL);
}

GST_END_TEST;

GST_START_TEST (test_encoder_source)
{
  GstCLLoadSource *src = gst_cl_load_encoder_new (NULL, 1.0);
  GstElement *pipe = gst_pipeline_new (NULL);
  GstElement *other = gst_element_factory_make ("identity", NULL);
  GstElement *enc;
  GstCLLoadQuery q = { 0 };
  GString *d = g_string_new (NULL);

  fail_unless (gst_element_register (NULL, "fakehwenc", GST_RANK_NONE,
          fake_hw_enc_get_type ()));
  enc = gst_element_factory_make ("fakehwenc", NULL);
  fail_unless (src->is_hint);
  gst_bin_add_many (GST_BIN (pipe), other, enc, NULL);
  q.element = other;
  /* Not running: no load. */
  fail_unless (src->sample (src, &q, d) < 0);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_float (src->sample (src, &q, d), 1.0);
  fail_unless (strstr (d->str, "hw-encoder=fakehwenc"), "%s", d->str);
  gst_element_set_state (pipe, GST_STATE_NULL);
  /* Without the encoder: nothing. */
  gst_bin_remove (GST_BIN (pipe), enc);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (src->sample (src, &q, d) < 0);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  gst_cl_load_source_free (src);
  g_string_free (d, TRUE);
}

GST_END_TEST;

static Suite *
auto_policy_suite (void)
{
  Suite *s = suite_create ("auto-policy");
  TCase *tc = tcase_create ("policy");
  TCase *tl = tcase_create ("load");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_policy_load_and_back);
  tcase_add_test (tc, test_policy_dwell);
  tcase_add_test (tc, test_policy_fault);
  tcase_add_test (tc, test_policy_square_wave);
  tcase_add_test (tc, test_policy_kernel_time);
  tcase_add_test (tc, test_policy_gpu_still_faster);
  tcase_add_test (tc, test_policy_standby_estimate);
  tcase_add_test (tc, test_policy_time_slices);
  tcase_add_test (tc, test_policy_params);
  suite_add_tcase (s, tl);
  tcase_add_test (tl, test_fdinfo_parse);
  tcase_add_test (tl, test_fdinfo_source);
  tcase_add_test (tl, test_nvml_absent);
  tcase_add_test (tl, test_nvml_present);
  tcase_add_test (tl, test_fake_script);
  tcase_add_test (tl, test_va_render_node);
  tcase_add_test (tl, test_encoder_source);
  return s;
}

GST_CHECK_MAIN (auto_policy);
