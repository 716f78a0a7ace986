/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* device=auto: when to move between the preferred device (a GPU) and the
 * fallback (the CPU device). Pure logic over windows of frames, no OpenCL
 * and no clock of its own, so tests feed it scripted windows. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Device slots of an auto group. */
enum
{
  GST_CL_SLOT_PREFERRED = 0,    /* the GPU */
  GST_CL_SLOT_FALLBACK = 1,     /* the CPU device */
  GST_CL_N_SLOTS
};

/* Knobs, all settable with GST_CL_AUTO="key=value,..." (docs/AUTO.md). */
typedef struct
{
  guint window_frames;          /* a window has at least this many frames */
  guint window_ms;              /* ... and lasts at least this long */
  guint up_windows;             /* consecutive windows against the GPU to
                                 * leave it */
  guint down_windows;           /* consecutive windows for the GPU to return */
  gdouble busy_high;            /* GPU busy (others) at or above: loaded */
  gdouble busy_low;             /* at or below: free */
  gdouble margin;               /* the other device must be this many times
                                 * faster (per frame) to count as better */
  gdouble slowdown;             /* own GPU time this many times its unloaded
                                 * time counts as loaded when the CPU's time
                                 * is not known yet */
  guint min_dwell_ms;           /* no switch sooner after the last one */
  guint probe_ms;               /* no busy signal: retry the GPU after this
                                 * long on the CPU, doubled per failed probe */
  guint max_probe_ms;           /* ... up to this */
  gboolean kernel_time;         /* use the measured kernel times */
  guint latency_interval_ms;    /* an element times a frame at most this
                                 * often (0: every frame) */
} GstCLPolicyParams;

#define GST_CL_POLICY_DEFAULT_WINDOW_FRAMES 5
#define GST_CL_POLICY_DEFAULT_WINDOW_MS 200
#define GST_CL_POLICY_DEFAULT_UP_WINDOWS 3
#define GST_CL_POLICY_DEFAULT_DOWN_WINDOWS 5
#define GST_CL_POLICY_DEFAULT_BUSY_HIGH 0.70
#define GST_CL_POLICY_DEFAULT_BUSY_LOW 0.30
#define GST_CL_POLICY_DEFAULT_MARGIN 1.25
#define GST_CL_POLICY_DEFAULT_SLOWDOWN 2.0
#define GST_CL_POLICY_DEFAULT_MIN_DWELL_MS 1500
#define GST_CL_POLICY_DEFAULT_PROBE_MS 3000
#define GST_CL_POLICY_DEFAULT_MAX_PROBE_MS 60000
#define GST_CL_POLICY_DEFAULT_LATENCY_INTERVAL_MS 10

void gst_cl_policy_params_init (GstCLPolicyParams * p);

/* Applies "key=value,key=value" (keys as in docs/AUTO.md: window-frames,
 * window-ms, up-windows, down-windows, busy-high, busy-low, margin,
 * slowdown, min-dwell-ms, probe-ms, max-probe-ms, kernel-time,
 * latency-interval-ms). Unknown
 * keys and out-of-range values are reported in @warnings (a newline-
 * separated list, or NULL) and ignored or clamped. */
void gst_cl_policy_params_parse (GstCLPolicyParams * p, const gchar * text,
    gchar ** warnings);

/* What one window of frames showed. */
typedef struct
{
  gint64 time_ms;               /* when it closed (any monotonic clock) */
  guint slot;                   /* where its frames ran */
  gdouble ms_per_frame;         /* device time per frame of the whole chain,
                                 * < 0: not measured */
  gdouble busy;                 /* GPU busy from others, 0..1; < 0: no
                                 * signal */
} GstCLPolicyWindow;

typedef enum
{
  GST_CL_SWITCH_NONE,
  GST_CL_SWITCH_GPU_BUSY,       /* the busy signal says the GPU is loaded */
  GST_CL_SWITCH_GPU_SLOW,       /* our own kernels slowed down on the GPU */
  GST_CL_SWITCH_GPU_FREE,       /* the GPU is free again */
  GST_CL_SWITCH_CPU_SLOWER,     /* even loaded, the GPU beats the CPU */
  GST_CL_SWITCH_PROBE,          /* no busy signal: trying the GPU again */
  GST_CL_SWITCH_FAULT,          /* an OpenCL call failed on the device */
} GstCLSwitchReason;

const gchar *gst_cl_switch_reason_name (GstCLSwitchReason reason);

typedef struct
{
  GstCLPolicyParams p;
  guint active;                 /* GST_CL_SLOT_* */
  gint64 last_switch_ms;
  guint streak;                 /* consecutive windows favouring the other */
  GstCLSwitchReason streak_reason;
  gdouble unloaded_ms[GST_CL_N_SLOTS];  /* learnt (or estimated until a
                                         * window was measured); < 0
                                         * unknown */
  gdouble estimate_ms[GST_CL_N_SLOTS];  /* gst_cl_policy_set_estimate() */
  gboolean measured[GST_CL_N_SLOTS];    /* a window of it was measured */
  gdouble last_ms[GST_CL_N_SLOTS];
  gdouble loaded_ms;            /* the GPU's time in its last loaded window
                                 * (< 0: none since it last ran free) */
  gdouble loaded_busy;          /* others' busy when the chain then ran on
                                 * the CPU (< 0: not read yet) */
  gdouble last_busy;
  guint probe_ms;               /* current probe interval */
  gboolean probing;             /* on the GPU because of a probe */
  guint switches;
  gboolean failed[GST_CL_N_SLOTS];      /* gst_cl_policy_fail() */
} GstCLPolicy;

void gst_cl_policy_init (GstCLPolicy * policy, const GstCLPolicyParams * p,
    guint active, gint64 now_ms);

/* The per-frame device time of @slot before the chain has run there (a
 * timed warm-up launch on that device): it stands in for the learnt time
 * until a window on @slot is measured, so the policy compares against
 * what the other device would deliver from the first move on, not only
 * against the current device's unloaded time. Ignored with kernel-time
 * off or @ms <= 0. */
void gst_cl_policy_set_estimate (GstCLPolicy * policy, guint slot,
    gdouble ms);

/* @slot failed (an OpenCL error there): the policy never chooses it
 * again. If it was the active slot, the other becomes active (counted as
 * a switch). Returns FALSE when the other slot has failed too. */
gboolean gst_cl_policy_fail (GstCLPolicy * policy, guint slot, gint64 now_ms);

/* Feeds one window. Returns why the policy switched (policy->active is
 * then the other slot) or GST_CL_SWITCH_NONE. */
GstCLSwitchReason gst_cl_policy_feed (GstCLPolicy * policy,
    const GstCLPolicyWindow * w);

G_END_DECLS
