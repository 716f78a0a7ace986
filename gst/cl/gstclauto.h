/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* device=auto across two devices: the group every auto element of a chain
 * shares (through the same GstContext as GstCLContext), holding one
 * GstCLContext per device (cl_context + in-order queue each), the load
 * sources, the policy and the active device. See docs/AUTO.md. */
#pragma once

#include <gst/gst.h>
#include "gstclcontext.h"
#include "gstclload.h"
#include "gstclpolicy.h"

G_BEGIN_DECLS

/* Knobs: "key=value,..." (gstclpolicy.h; switching=false turns it off). */
#define GST_CL_AUTO_ENV "GST_CL_AUTO"
/* "PREFERRED,FALLBACK" device requests (as the device property takes
 * them) instead of the first GPU and the first CPU device. Lets tests
 * treat one PoCL device as the "GPU". */
#define GST_CL_AUTO_DEVICES_ENV "GST_CL_AUTO_DEVICES"
/* Which load sources: "fdinfo,nvml,encoder" (default), "none", or
 * "fake:SCRIPT" (gst_cl_load_fake_new), which replaces the others, or ends
 * a list ("nvml,fdinfo,fake:SCRIPT") to run with them. */
#define GST_CL_AUTO_SOURCES_ENV "GST_CL_AUTO_SOURCES"
/* "self" (default) or "all": whose DRM fdinfo is read. */
#define GST_CL_AUTO_FDINFO_ENV "GST_CL_AUTO_FDINFO"
/* NVML library to dlopen instead of libnvidia-ml.so.1 (tests). */
#define GST_CL_AUTO_NVML_LIB_ENV "GST_CL_AUTO_NVML_LIB"

#define GST_TYPE_CL_AUTO (gst_cl_auto_get_type ())
G_DECLARE_FINAL_TYPE (GstCLAuto, gst_cl_auto, GST, CL_AUTO, GstObject)

struct _GstCLAuto
{
  GstObject parent;

  /* GST_CL_SLOT_PREFERRED (the GPU) and GST_CL_SLOT_FALLBACK (CPU); NULL
   * for a device whose context could not be created. */
  GstCLContext *contexts[GST_CL_N_SLOTS];
  const GstCLDeviceInfo *devices[GST_CL_N_SLOTS];

  /*< private >*/
  GMutex lock;
  GCond cond;
  GstCLPolicy policy;
  GPtrArray *sources;           /* GstCLLoadSource sampled when a window
                                 * closes (cheap: the fake script, the
                                 * encoder hint) */
  GPtrArray *threaded;          /* ... sampled by the sampler thread (DRM
                                 * fdinfo, NVML: system calls and driver
                                 * round trips kept off the streaming
                                 * thread) */
  GThread *sampler;
  gboolean sampler_stop;
  gdouble sampled_busy;         /* the sampler's last figures */
  gchar *sampled_detail;
  gint64 inline_samples;        /* source samples on the streaming thread */
  gint64 thread_samples;        /* ... on the sampler thread */
  gint64 inline_sample_ns;      /* time they took */
  gint64 thread_sample_ns;
  gchar *source_names;
  gint active;                  /* atomic */
  guint64 frames;               /* leader frames so far */
  gint64 window_start_ns;
  guint window_frames;
  guint window_slot;
  GHashTable *latency;          /* element -> its frames' latency in this
                                 * window (ns, frames) */
  gint pending;                 /* timing callbacks not run yet */
  gint untimed_probes;          /* atomic: probes that gave no times */
  gint64 timed_frames;          /* frames whose latency was read */
  GHashTable *estimates;        /* element -> gdouble[GST_CL_N_SLOTS]: its
                                 * timed warm-up launch per device, ms */
  gdouble estimate_ms[GST_CL_N_SLOTS];  /* their sum, < 0 none */
  GstStructure *decision;       /* figures of the last switch */
  gdouble last_busy;
  gdouble last_ms;
  gchar *start_fault;           /* why a context could not be created */
  gint start_fault_posted;      /* atomic: an element said so */
};

/* The two devices device=auto switches between, or FALSE when auto means
 * one device (no GPU, no CPU device, or switching=false): then auto is
 * resolved by gst_cl_device_select() as before. */
gboolean gst_cl_auto_devices (const GstCLDeviceInfo ** preferred,
    const GstCLDeviceInfo ** fallback);

GstCLAuto *gst_cl_auto_new (const GstCLDeviceInfo * preferred,
    const GstCLDeviceInfo * fallback, GError ** error);

guint gst_cl_auto_get_active (GstCLAuto * self);
/* The slot of @context in the group, -1 when it is not one of them. */
gint gst_cl_auto_slot_of (GstCLAuto * self, GstCLContext * context);

/* Whether @slot's device can run frames: it has a context and no OpenCL
 * call failed on it (gst_cl_auto_fail). */
gboolean gst_cl_auto_slot_usable (GstCLAuto * self, guint slot);

/* An OpenCL call failed on @slot's device (@what says which, with the
 * status): the device is marked failed for the group's life (the policy
 * never returns to it; a restart of the pipeline makes a new group) and,
 * if it was the active one, the other becomes active, with a decision of
 * reason "fault" (gst_cl_auto_get_decision). Returns FALSE when the other
 * device is not usable either. */
gboolean gst_cl_auto_fail (GstCLAuto * self, guint slot, GstElement * who,
    const gchar * what);

/* Called once per frame by the first element of a chain (input not
 * written by a kernel of this group): counts the frame, closes a window
 * when it is full (samples the load, feeds the policy) and returns the
 * slot this frame runs on. @element: for the encoder source. */
guint gst_cl_auto_leader_frame (GstCLAuto * self, GstElement * element);

/* Whether an element times this frame's latency: the policy uses it
 * (knob kernel-time, fixed for the group's life) and the element's last
 * timed frame, *@last_us (0: none yet; updated when TRUE), is at least
 * latency-interval-ms old. */
gboolean gst_cl_auto_track_due (GstCLAuto * self, gint64 * last_us);

/* Records the latency of @who's work for one frame on @slot, from @start
 * and @end (gst_cl_context_latency_start/_end; either NULL: nothing),
 * once @end completes. Never waits. The window's time per frame is the
 * largest element's mean: the elements' intervals overlap, the last
 * element's spans the chain. */
void gst_cl_auto_track (GstCLAuto * self, gpointer who, guint slot,
    cl_event start, cl_event end);

/* @who's work for one frame took @ms on @slot's device in a warm-up launch
 * (before the chain ran there). The chain's estimate for @slot, the sum
 * over its elements (they run one after the other on one queue), goes to
 * the policy, which then knows what the standby device would deliver
 * before it first moves. */
void gst_cl_auto_set_estimate (GstCLAuto * self, gpointer who, guint slot,
    gdouble ms);

/* Copy of the figures of the last switch ("gst-cl-device-switch"), or
 * NULL before the first. */
GstStructure *gst_cl_auto_get_decision (GstCLAuto * self);

/* Group-level stats fields added to @s: auto-switches, auto-active,
 * auto-frames, auto-busy, auto-ms-per-frame. */
void gst_cl_auto_add_stats (GstCLAuto * self, GstStructure * s);

/* GstContext sharing, as gst_cl_ensure_element_context() for a group. */
gboolean gst_cl_auto_ensure_element_group (GstElement * element,
    const GstCLDeviceInfo * preferred, const GstCLDeviceInfo * fallback,
    GstCLAuto ** group, GError ** error);
gboolean gst_cl_auto_handle_set_context (GstElement * element,
    GstContext * gst_context, const GstCLDeviceInfo * preferred,
    const GstCLDeviceInfo * fallback, GstCLAuto ** group);
gboolean gst_cl_auto_handle_context_query (GstElement * element,
    GstQuery * query, GstCLAuto * group);

G_END_DECLS
