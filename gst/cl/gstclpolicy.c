/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device=auto policy. A window "favours the other device" when:
 *
 *  on the GPU:  the busy signal (others' use of the GPU) is >= busy-high
 *               and the GPU, slowed by that load, is not known to beat the
 *               CPU anyway; or our own latency per frame is slowdown times
 *               our unloaded GPU time and (when known) margin times the
 *               CPU's. The CPU's time is known before the first move when
 *               the elements gave an estimate (a timed warm-up launch on
 *               the CPU device, gst_cl_policy_set_estimate): a GPU that a
 *               load slowed down but that is still faster than the CPU
 *               stays;
 *  on the CPU:  the busy signal is <= busy-low and the GPU is not known to
 *               be slower than the CPU; or, still loaded, the GPU would beat
 *               the CPU by margin; with no busy signal at all, a probe of
 *               the GPU after probe-ms (doubled after each failed probe).
 *
 * A switch needs up-windows (leaving the GPU) or down-windows (returning)
 * such windows in a row and min-dwell-ms since the last switch: a load
 * that comes and goes faster than that never moves the chain, and a slow
 * square wave moves it at most twice per period. */
#include "gstclpolicy.h"

#include <stdlib.h>
#include <string.h>

void
gst_cl_policy_params_init (GstCLPolicyParams * p)
{
  p->window_frames = GST_CL_POLICY_DEFAULT_WINDOW_FRAMES;
  p->window_ms = GST_CL_POLICY_DEFAULT_WINDOW_MS;
  p->up_windows = GST_CL_POLICY_DEFAULT_UP_WINDOWS;
  p->down_windows = GST_CL_POLICY_DEFAULT_DOWN_WINDOWS;
  p->busy_high = GST_CL_POLICY_DEFAULT_BUSY_HIGH;
  p->busy_low = GST_CL_POLICY_DEFAULT_BUSY_LOW;
  p->margin = GST_CL_POLICY_DEFAULT_MARGIN;
  p->slowdown = GST_CL_POLICY_DEFAULT_SLOWDOWN;
  p->min_dwell_ms = GST_CL_POLICY_DEFAULT_MIN_DWELL_MS;
  p->probe_ms = GST_CL_POLICY_DEFAULT_PROBE_MS;
  p->max_probe_ms = GST_CL_POLICY_DEFAULT_MAX_PROBE_MS;
  p->kernel_time = TRUE;
  p->latency_interval_ms = GST_CL_POLICY_DEFAULT_LATENCY_INTERVAL_MS;
}

static void
warn (GString * w, const gchar * key, const gchar * value, const gchar * why)
{
  g_string_append_printf (w, "%s%s=%s: %s", w->len ? "\n" : "", key, value,
      why);
}

static gboolean
parse_uint (GString * w, const gchar * key, const gchar * value, guint min,
    guint max, guint * out)
{
  gchar *end = NULL;
  gint64 v = g_ascii_strtoll (value, &end, 10);

  if (!end || end == value || *end) {
    warn (w, key, value, "not a whole number, ignored");
    return FALSE;
  }
  if (v < min || v > max) {
    warn (w, key, value, "out of range, clamped");
    v = CLAMP (v, (gint64) min, (gint64) max);
  }
  *out = (guint) v;
  return TRUE;
}

static gboolean
parse_double (GString * w, const gchar * key, const gchar * value,
    gdouble min, gdouble max, gdouble * out)
{
  gchar *end = NULL;
  gdouble v = g_ascii_strtod (value, &end);

  if (!end || end == value || *end || v != v) {
    warn (w, key, value, "not a number, ignored");
    return FALSE;
  }
  if (v < min || v > max) {
    warn (w, key, value, "out of range, clamped");
    v = CLAMP (v, min, max);
  }
  *out = v;
  return TRUE;
}

void
gst_cl_policy_params_parse (GstCLPolicyParams * p, const gchar * text,
    gchar ** warnings)
{
  GString *w = g_string_new (NULL);
  gchar **items = g_strsplit (text ? text : "", ",", -1);

  for (gchar ** it = items; *it; it++) {
    gchar **kv = g_strsplit (g_strstrip (*it), "=", 2);
    const gchar *k = kv[0], *v = kv[1];

    if (!*k) {
      g_strfreev (kv);
      continue;
    }
    if (!v) {
      warn (w, k, "", "no value, ignored");
    } else if (!strcmp (k, "window-frames")) {
      parse_uint (w, k, v, 1, 10000, &p->window_frames);
    } else if (!strcmp (k, "window-ms")) {
      parse_uint (w, k, v, 0, 60000, &p->window_ms);
    } else if (!strcmp (k, "up-windows")) {
      parse_uint (w, k, v, 1, 1000, &p->up_windows);
    } else if (!strcmp (k, "down-windows")) {
      parse_uint (w, k, v, 1, 1000, &p->down_windows);
    } else if (!strcmp (k, "busy-high")) {
      parse_double (w, k, v, 0.0, 1.0, &p->busy_high);
    } else if (!strcmp (k, "busy-low")) {
      parse_double (w, k, v, 0.0, 1.0, &p->busy_low);
    } else if (!strcmp (k, "margin")) {
      parse_double (w, k, v, 1.0, 100.0, &p->margin);
    } else if (!strcmp (k, "slowdown")) {
      parse_double (w, k, v, 1.0, 1000.0, &p->slowdown);
    } else if (!strcmp (k, "min-dwell-ms")) {
      parse_uint (w, k, v, 0, 3600000, &p->min_dwell_ms);
    } else if (!strcmp (k, "probe-ms")) {
      parse_uint (w, k, v, 0, 3600000, &p->probe_ms);
    } else if (!strcmp (k, "max-probe-ms")) {
      parse_uint (w, k, v, 0, 3600000, &p->max_probe_ms);
    } else if (!strcmp (k, "latency-interval-ms")) {
      parse_uint (w, k, v, 0, 60000, &p->latency_interval_ms);
    } else if (!strcmp (k, "kernel-time")) {
      if (!g_ascii_strcasecmp (v, "true") || !strcmp (v, "1"))
        p->kernel_time = TRUE;
      else if (!g_ascii_strcasecmp (v, "false") || !strcmp (v, "0"))
        p->kernel_time = FALSE;
      else
        warn (w, k, v, "not true or false, ignored");
    } else if (!strcmp (k, "switching")) {
      /* Read by the auto group (gst_cl_auto_devices), not the policy. */
    } else {
      warn (w, k, v, "unknown knob, ignored");
    }
    g_strfreev (kv);
  }
  g_strfreev (items);

  if (p->busy_low > p->busy_high) {
    warn (w, "busy-low", "", "above busy-high, set to busy-high");
    p->busy_low = p->busy_high;
  }
  if (p->max_probe_ms < p->probe_ms)
    p->max_probe_ms = p->probe_ms;

  if (warnings)
    *warnings = w->len ? g_string_free (w, FALSE) : (g_string_free (w, TRUE),
        NULL);
  else
    g_string_free (w, TRUE);
}

const gchar *
gst_cl_switch_reason_name (GstCLSwitchReason reason)
{
  switch (reason) {
    case GST_CL_SWITCH_GPU_BUSY:
      return "gpu-busy";
    case GST_CL_SWITCH_GPU_SLOW:
      return "gpu-slow";
    case GST_CL_SWITCH_GPU_FREE:
      return "gpu-free";
    case GST_CL_SWITCH_CPU_SLOWER:
      return "cpu-slower";
    case GST_CL_SWITCH_PROBE:
      return "probe";
    case GST_CL_SWITCH_FAULT:
      return "fault";
    default:
      return "none";
  }
}

void
gst_cl_policy_init (GstCLPolicy * policy, const GstCLPolicyParams * p,
    guint active, gint64 now_ms)
{
  memset (policy, 0, sizeof (*policy));
  policy->p = *p;
  policy->active = active < GST_CL_N_SLOTS ? active : GST_CL_SLOT_PREFERRED;
  policy->last_switch_ms = now_ms;
  policy->last_busy = -1;
  policy->probe_ms = p->probe_ms;
  for (guint i = 0; i < GST_CL_N_SLOTS; i++)
    policy->unloaded_ms[i] = policy->last_ms[i] = policy->estimate_ms[i] = -1;
  policy->loaded_ms = policy->loaded_busy = -1;
}

void
gst_cl_policy_set_estimate (GstCLPolicy * policy, guint slot, gdouble ms)
{
  if (slot >= GST_CL_N_SLOTS || !(ms > 0) || !policy->p.kernel_time)
    return;
  policy->estimate_ms[slot] = ms;
  /* A measured window knows better than a launch on an idle device. */
  if (!policy->measured[slot])
    policy->unloaded_ms[slot] = ms;
}

/* Our share of the GPU's time slices when others keep it @busy (at least
 * 5 %). */
static gdouble
slice_share (gdouble busy)
{
  return 1.0 - MIN (MAX (busy, 0.0), 0.95);
}

/* The GPU's time per frame when others keep it @busy: its share of the
 * time slices shrinks to 1 - busy. */
static gdouble
gpu_under_load (const GstCLPolicy * policy, gdouble busy)
{
  gdouble free_ms = policy->unloaded_ms[GST_CL_SLOT_PREFERRED];
  if (free_ms <= 0)
    return -1;
  return free_ms / slice_share (busy);
}

/* ... and at least what it measured under the load it left, scaled by
 * the share of the time slices then and now: a frame that waits for a
 * time slice waits for the slice, however short its own work (H200, four
 * busy loops: 0.017 ms of work, 7 ms a frame), so the unloaded time alone
 * says too little. Off the GPU, @busy is all others' use. */
static gdouble
gpu_still_loaded (const GstCLPolicy * policy, gdouble busy)
{
  gdouble model = gpu_under_load (policy, busy);

  if (policy->loaded_ms <= 0 || policy->loaded_busy < 0)
    return model;
  return MAX (model, policy->loaded_ms * slice_share (policy->loaded_busy) /
      slice_share (busy));
}

static void
learn (GstCLPolicy * policy, const GstCLPolicyWindow * w, gdouble ms)
{
  gdouble *u = &policy->unloaded_ms[w->slot];
  /* The CPU device's time does not depend on the GPU's load. */
  gboolean clean = w->slot == GST_CL_SLOT_FALLBACK || w->busy < 0 ||
      w->busy <= policy->p.busy_low;

  policy->last_ms[w->slot] = ms;
  policy->measured[w->slot] = TRUE;
  /* A window that looks loaded is not an unloaded time, signal or not. */
  if (!clean || (*u > 0 && ms > *u * policy->p.slowdown)) {
    if (w->slot == GST_CL_SLOT_PREFERRED) {
      policy->loaded_ms = ms;
      policy->loaded_busy = -1;
    }
    return;
  }
  if (w->slot == GST_CL_SLOT_PREFERRED)
    policy->loaded_ms = -1;
  /* Falls at once, rises slowly: a few slow windows under an unseen load
   * do not teach the policy that the GPU is slow. */
  if (*u < 0 || ms < *u)
    *u = ms;
  else
    *u += 0.05 * (ms - *u);
}

gboolean
gst_cl_policy_fail (GstCLPolicy * policy, guint slot, gint64 now_ms)
{
  guint other;

  if (slot >= GST_CL_N_SLOTS)
    return FALSE;
  other = slot == GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
      GST_CL_SLOT_PREFERRED;
  policy->failed[slot] = TRUE;
  if (policy->failed[other])
    return FALSE;
  if (policy->active == slot) {
    policy->active = other;
    policy->last_switch_ms = now_ms;
    policy->streak = 0;
    policy->probing = FALSE;
    policy->switches++;
  }
  return TRUE;
}

GstCLSwitchReason
gst_cl_policy_feed (GstCLPolicy * policy, const GstCLPolicyWindow * w)
{
  const GstCLPolicyParams *p = &policy->p;
  gdouble ms = p->kernel_time ? w->ms_per_frame : -1;
  GstCLSwitchReason reason = GST_CL_SWITCH_NONE;
  gboolean on_gpu = policy->active == GST_CL_SLOT_PREFERRED;
  gboolean dwell_ok;
  guint need;

  if (w->slot >= GST_CL_N_SLOTS)
    return GST_CL_SWITCH_NONE;
  if (ms >= 0)
    learn (policy, w, ms);
  policy->last_busy = w->busy;
  /* Frames queued before the last switch: they say nothing of now. A
   * device that failed is never chosen again (in this group's life). */
  if (w->slot != policy->active || policy->failed[policy->active ==
          GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
          GST_CL_SLOT_PREFERRED])
    return GST_CL_SWITCH_NONE;

  if (on_gpu) {
    gdouble cpu = policy->unloaded_ms[GST_CL_SLOT_FALLBACK];
    gdouble gpu_free = policy->unloaded_ms[GST_CL_SLOT_PREFERRED];

    if (w->busy >= p->busy_high) {
      gdouble predicted = MAX (ms, gpu_under_load (policy, w->busy));
      if (cpu < 0 || predicted < 0 || predicted > cpu * p->margin)
        reason = GST_CL_SWITCH_GPU_BUSY;
    } else if (ms >= 0) {
      /* Slowed down against its own unloaded time (a load we cannot see)
       * and, when the CPU's time is known, clearly slower than the CPU:
       * two devices of similar speed do not swap on noise. */
      gboolean slowed = gpu_free <= 0 || ms > gpu_free * p->slowdown;
      gboolean worse = cpu <= 0 ? gpu_free > 0 : ms > cpu * p->margin;
      if (slowed && worse)
        reason = GST_CL_SWITCH_GPU_SLOW;
    }
    need = p->up_windows;
  } else {
    gdouble cpu = ms >= 0 ? ms : policy->unloaded_ms[GST_CL_SLOT_FALLBACK];

    need = p->down_windows;
    /* The load the GPU's last loaded time was measured under, as the
     * first reading off it shows it. */
    if (policy->loaded_ms > 0 && policy->loaded_busy < 0 && w->busy >= 0)
      policy->loaded_busy = w->busy;
    if (w->busy >= 0) {
      gdouble predicted = gpu_under_load (policy, w->busy);
      if (w->busy <= p->busy_low) {
        if (predicted < 0 || cpu < 0 || predicted < cpu * p->margin)
          reason = GST_CL_SWITCH_GPU_FREE;
      } else if ((predicted = gpu_still_loaded (policy, w->busy)) > 0 &&
          cpu > 0 && predicted * p->margin < cpu) {
        reason = GST_CL_SWITCH_CPU_SLOWER;
      }
    } else if (w->time_ms - policy->last_switch_ms >= policy->probe_ms) {
      reason = GST_CL_SWITCH_PROBE;
      need = 1;
    }
  }

  if (reason == GST_CL_SWITCH_NONE) {
    policy->streak = 0;
    /* A probe that stayed clean for a while succeeded. */
    if (on_gpu && policy->probing && w->time_ms - policy->last_switch_ms >=
        2 * (gint64) MAX (p->min_dwell_ms, p->window_ms * p->up_windows)) {
      policy->probing = FALSE;
      policy->probe_ms = p->probe_ms;
    }
    return GST_CL_SWITCH_NONE;
  }
  policy->streak++;
  policy->streak_reason = reason;

  /* A failed probe returns without waiting out the dwell. */
  dwell_ok = w->time_ms - policy->last_switch_ms >= p->min_dwell_ms ||
      (on_gpu && policy->probing);
  if (policy->streak < need || !dwell_ok)
    return GST_CL_SWITCH_NONE;

  if (on_gpu) {
    if (policy->probing)
      policy->probe_ms = MIN (policy->probe_ms * 2, p->max_probe_ms);
    policy->probing = FALSE;
    policy->active = GST_CL_SLOT_FALLBACK;
  } else {
    policy->probing = reason == GST_CL_SWITCH_PROBE;
    policy->active = GST_CL_SLOT_PREFERRED;
  }
  policy->last_switch_ms = w->time_ms;
  policy->streak = 0;
  policy->switches++;
  return reason;
}
