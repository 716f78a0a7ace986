/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device=auto group: both devices' contexts, the load sources, the
 * policy and the active slot. The first element of a chain asks it, once
 * per frame, where the frame runs; every element after it follows the
 * device of the memory it receives, so the chain switches at one frame
 * boundary and each frame stays on one queue. */
#include "gstclauto.h"
#include "gstclutils.h"

#include <CL/cl_ext.h>
#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

G_DEFINE_TYPE (GstCLAuto, gst_cl_auto, GST_TYPE_OBJECT);

static void
gst_cl_auto_finalize (GObject * object)
{
  GstCLAuto *self = GST_CL_AUTO (object);

  if (self->sampler) {
    g_mutex_lock (&self->lock);
    self->sampler_stop = TRUE;
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
    g_thread_join (self->sampler);
    self->sampler = NULL;
  }
  /* Timing callbacks run when the queues drain; wait for them. */
  for (guint i = 0; i < GST_CL_N_SLOTS; i++)
    if (self->contexts[i])
      clFinish (self->contexts[i]->queue);
  g_mutex_lock (&self->lock);
  while (self->pending > 0)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < GST_CL_N_SLOTS; i++)
    gst_clear_object (&self->contexts[i]);
  if (self->sources)
    g_ptr_array_free (self->sources, TRUE);
  if (self->threaded)
    g_ptr_array_free (self->threaded, TRUE);
  g_free (self->sampled_detail);
  g_free (self->source_names);
  g_free (self->start_fault);
  g_clear_pointer (&self->decision, gst_structure_free);
  g_clear_pointer (&self->latency, g_hash_table_unref);
  g_clear_pointer (&self->estimates, g_hash_table_unref);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (gst_cl_auto_parent_class)->finalize (object);
}

static void
gst_cl_auto_class_init (GstCLAutoClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_auto_finalize;
}

static void
gst_cl_auto_init (GstCLAuto * self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->last_busy = -1;
  self->last_ms = -1;
  self->sampled_busy = -1;
  self->latency = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->estimates = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; i < GST_CL_N_SLOTS; i++)
    self->estimate_ms[i] = -1;
}

typedef struct
{
  gint64 ns;
  guint frames;
} Latency;

/* Largest mean latency of the elements in this window, ms, < 0: none. */
static gdouble
window_ms (GstCLAuto * self)
{
  GHashTableIter it;
  gpointer k, v;
  gdouble best = -1;

  g_hash_table_iter_init (&it, self->latency);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    Latency *l = v;
    if (l->frames)
      best = MAX (best, l->ns / 1e6 / l->frames);
  }
  return best;
}

static gboolean
switching_enabled (void)
{
  const gchar *env = g_getenv (GST_CL_AUTO_ENV);
  return !env || (!strstr (env, "switching=false") &&
      !strstr (env, "switching=0"));
}

gboolean
gst_cl_auto_devices (const GstCLDeviceInfo ** preferred,
    const GstCLDeviceInfo ** fallback)
{
  const GPtrArray *list = gst_cl_device_list (NULL);
  const gchar *env = g_getenv (GST_CL_AUTO_DEVICES_ENV);

  *preferred = *fallback = NULL;
  if (!list || !switching_enabled ())
    return FALSE;
  if (env && *env) {
    gchar **req = g_strsplit (env, ",", 2);
    if (req[0] && req[1]) {
      *preferred = gst_cl_device_select (g_strstrip (req[0]), NULL);
      *fallback = gst_cl_device_select (g_strstrip (req[1]), NULL);
    }
    if (!*preferred || !*fallback)
      GST_WARNING ("%s=\"%s\" does not name two devices; switching is off",
          GST_CL_AUTO_DEVICES_ENV, env);
    g_strfreev (req);
  } else {
    *preferred = gst_cl_device_first_of_type (list, CL_DEVICE_TYPE_GPU);
    *fallback = gst_cl_device_first_of_type (list, CL_DEVICE_TYPE_CPU);
  }
  return *preferred && *fallback && *preferred != *fallback;
}

static void
load_target (const GstCLDeviceInfo * dev, GstCLLoadTarget * t)
{
  cl_device_pci_bus_info_khr pci;
  cl_uint vendor = 0;

  memset (t, 0, sizeof (*t));
  if (clGetDeviceInfo (dev->device, CL_DEVICE_VENDOR_ID, sizeof (vendor),
          &vendor, NULL) == CL_SUCCESS)
    t->vendor_id = vendor;
  if (clGetDeviceInfo (dev->device, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof (pci),
          &pci, NULL) == CL_SUCCESS) {
    t->has_pci = TRUE;
    t->pci_domain = pci.pci_domain;
    t->pci_bus = pci.pci_bus;
    t->pci_device = pci.pci_device;
    t->pci_function = pci.pci_function;
  }
}

static void
add_source (GPtrArray * to, GstCLLoadSource * src, GString * names)
{
  if (!src)
    return;
  g_ptr_array_add (to, src);
  g_string_append_printf (names, "%s%s", names->len ? "," : "", src->name);
}

static void
make_sources (GstCLAuto * self, const GstCLDeviceInfo * gpu)
{
  const gchar *env = g_getenv (GST_CL_AUTO_SOURCES_ENV);
  const gchar *which = env && *env ? env : "fdinfo,nvml,encoder";
  const gchar *fdinfo = g_getenv (GST_CL_AUTO_FDINFO_ENV);
  GString *names = g_string_new (NULL);
  GstCLLoadTarget target;

  self->sources = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_cl_load_source_free);
  self->threaded = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_cl_load_source_free);
  load_target (gpu, &target);

  /* "fake:SCRIPT" ends the list (its script has commas): alone it
   * replaces the others; after "nvml,fdinfo," it runs with them (the
   * measuring sources then are sampled while the script moves the chain,
   * for the GPU machine's forced runs). */
  const gchar *fake_at = g_str_has_prefix (which, "fake:") ? which :
      strstr (which, ",fake:");
  gchar *head = fake_at ? g_strndup (which, fake_at - which) :
      g_strdup (which);
  gchar **list = g_strsplit (head, ",", -1);

  for (gchar ** s = list; *s; s++) {
    if (!**s) {
      continue;
    } else if (!strcmp (*s, "fdinfo")) {
      add_source (self->threaded, gst_cl_load_fdinfo_new (&target, NULL,
              !g_strcmp0 (fdinfo, "all")), names);
    } else if (!strcmp (*s, "nvml")) {
      gchar *why = NULL;
      add_source (self->threaded, gst_cl_load_nvml_new (&target,
              g_getenv (GST_CL_AUTO_NVML_LIB_ENV), &why), names);
      if (why)
        GST_INFO ("%s", why);
      g_free (why);
    } else if (!strcmp (*s, "encoder")) {
      add_source (self->sources, gst_cl_load_encoder_new (&target, 1.0),
          names);
    } else if (strcmp (*s, "none")) {
      GST_WARNING ("%s: unknown load source \"%s\"", GST_CL_AUTO_SOURCES_ENV,
          *s);
    }
  }
  g_strfreev (list);
  g_free (head);
  if (fake_at) {
    const gchar *script = strstr (fake_at, "fake:") + 5;
    GstCLLoadSource *fake = gst_cl_load_fake_new (script);
    if (!fake)
      GST_WARNING ("%s: bad fake load script \"%s\"", GST_CL_AUTO_SOURCES_ENV,
          script);
    add_source (self->sources, fake, names);
  }
  self->source_names = g_string_free (names, FALSE);
}

static gint64
now_ms (void)
{
  return g_get_monotonic_time () / 1000;
}

/* Samples the threaded sources about once a window (at least every 50 ms,
 * every 100 ms when windows are counted in frames only), so the streaming
 * thread never waits on /proc or on the NVIDIA driver: on the H200 the
 * chain ran slower under device=auto on the CPU device than pinned there,
 * and NVML round trips on the streaming thread were a suspect. */
static gpointer
sampler_thread (gpointer data)
{
  GstCLAuto *self = data;
  GString *detail = g_string_new (NULL);

  g_mutex_lock (&self->lock);
  while (!self->sampler_stop) {
    guint period = self->policy.p.window_ms ? MAX (self->policy.p.window_ms,
        50) : 100;
    gint64 now = g_get_monotonic_time () * GST_USECOND, t0, t1;
    GstCLLoadQuery q = { now, self->frames,
      g_atomic_int_get (&self->active) == GST_CL_SLOT_PREFERRED, NULL
    };
    gdouble busy = -1;

    g_mutex_unlock (&self->lock);
    g_string_truncate (detail, 0);
    t0 = g_get_monotonic_time ();
    for (guint i = 0; i < self->threaded->len; i++) {
      GstCLLoadSource *src = g_ptr_array_index (self->threaded, i);
      busy = MAX (busy, src->sample (src, &q, detail));
    }
    t1 = g_get_monotonic_time ();
    g_mutex_lock (&self->lock);
    self->sampled_busy = busy;
    g_free (self->sampled_detail);
    self->sampled_detail = g_strdup (detail->str);
    self->thread_samples += self->threaded->len;
    self->thread_sample_ns += (t1 - t0) * 1000;
    /* The cond is also broadcast by timing callbacks: wait out the
     * period. */
    {
      gint64 until = g_get_monotonic_time () +
          period * G_TIME_SPAN_MILLISECOND;
      while (!self->sampler_stop &&
          g_cond_wait_until (&self->cond, &self->lock, until));
    }
  }
  g_mutex_unlock (&self->lock);
  g_string_free (detail, TRUE);
  return NULL;
}

static gchar *
device_label (const GstCLDeviceInfo * dev)
{
  return gst_cl_device_info_label (dev);
}

/* The figures of a move forced by a fault, as a policy decision's. */
static void
set_fault_decision (GstCLAuto * self, guint from, guint to,
    const gchar * who, const gchar * what)
{
  gchar *a = device_label (self->devices[from]);
  gchar *b = device_label (self->devices[to]);
  gchar *detail = g_strdup_printf ("%s%s%s", who ? who : "", who ? ": " : "",
      what);

  g_clear_pointer (&self->decision, gst_structure_free);
  self->decision = gst_structure_new ("gst-cl-device-switch",
      "from", G_TYPE_STRING, a, "to", G_TYPE_STRING, b,
      "to-slot", G_TYPE_STRING, to == GST_CL_SLOT_PREFERRED ? "preferred" :
      "fallback",
      "reason", G_TYPE_STRING, gst_cl_switch_reason_name (GST_CL_SWITCH_FAULT),
      "frame", G_TYPE_UINT64, self->frames,
      "busy", G_TYPE_DOUBLE, self->last_busy,
      "ms-per-frame", G_TYPE_DOUBLE, self->last_ms,
      "gpu-unloaded-ms", G_TYPE_DOUBLE,
      self->policy.unloaded_ms[GST_CL_SLOT_PREFERRED],
      "cpu-ms", G_TYPE_DOUBLE, self->policy.unloaded_ms[GST_CL_SLOT_FALLBACK],
      "estimate-ms", G_TYPE_DOUBLE, self->estimate_ms[to],
      "windows", G_TYPE_UINT, 0,
      "switches", G_TYPE_UINT, self->policy.switches,
      "sources", G_TYPE_STRING, self->source_names ? self->source_names : "",
      "detail", G_TYPE_STRING, detail, NULL);
  g_free (a);
  g_free (b);
  g_free (detail);
}

GstCLAuto *
gst_cl_auto_new (const GstCLDeviceInfo * preferred,
    const GstCLDeviceInfo * fallback, GError ** error)
{
  GstCLAuto *self = g_object_new (GST_TYPE_CL_AUTO, NULL);
  GstCLPolicyParams params;
  gchar *warnings = NULL;
  GError *errs[GST_CL_N_SLOTS] = { NULL, NULL };
  guint failed = GST_CL_N_SLOTS;
  GstCLTiming timing;

  gst_object_ref_sink (self);
  self->devices[GST_CL_SLOT_PREFERRED] = preferred;
  self->devices[GST_CL_SLOT_FALLBACK] = fallback;
  /* The load watch reads each frame's latency on the device's clock, but
   * timing the queues that do the work made NVIDIA's queued 1080p chain
   * twice as slow: a timed queue of probes instead (docs/AUTO.md). */
  timing = gst_cl_timing_requested (GST_CL_TIMING_PROBE);
  /* One device that cannot be opened leaves the other: the group runs
   * there (a fault at start), and only both failing is an error. */
  for (guint s = 0; s < GST_CL_N_SLOTS; s++) {
    self->contexts[s] = gst_cl_context_new_full (self->devices[s], timing,
        &errs[s]);
    if (!self->contexts[s])
      failed = s;
  }
  if (!self->contexts[0] && !self->contexts[1]) {
    g_propagate_error (error, errs[0]);
    errs[0] = NULL;
    goto failed;
  }

  gst_cl_policy_params_init (&params);
  gst_cl_policy_params_parse (&params, g_getenv (GST_CL_AUTO_ENV), &warnings);
  if (warnings)
    GST_WARNING ("%s: %s", GST_CL_AUTO_ENV, warnings);
  g_free (warnings);
  gst_cl_policy_init (&self->policy, &params, GST_CL_SLOT_PREFERRED,
      now_ms ());
  self->active = GST_CL_SLOT_PREFERRED;
  make_sources (self, preferred);
  if (failed < GST_CL_N_SLOTS) {
    guint other = failed == GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
        GST_CL_SLOT_PREFERRED;
    self->start_fault = g_strdup_printf ("could not create an OpenCL context "
        "on \"%s\": %s", self->devices[failed]->name,
        errs[failed] ? errs[failed]->message : "unknown error");
    gst_cl_policy_fail (&self->policy, failed, now_ms ());
    self->active = (gint) self->policy.active;
    set_fault_decision (self, failed, other, NULL, self->start_fault);
    GST_WARNING_OBJECT (self, "%s; device=auto runs on \"%s\" only",
        self->start_fault, self->devices[other]->name);
  }
  if (self->threaded->len)
    self->sampler = g_thread_new ("cl-auto-sampler", sampler_thread, self);
  GST_INFO_OBJECT (self, "auto between %s and %s, load sources: %s",
      preferred->name, fallback->name, self->source_names);
  g_clear_error (&errs[0]);
  g_clear_error (&errs[1]);
  return self;

failed:
  g_clear_error (&errs[0]);
  g_clear_error (&errs[1]);
  gst_object_unref (self);
  return NULL;
}

gboolean
gst_cl_auto_slot_usable (GstCLAuto * self, guint slot)
{
  gboolean ok;

  if (slot >= GST_CL_N_SLOTS || !self->contexts[slot])
    return FALSE;
  g_mutex_lock (&self->lock);
  ok = !self->policy.failed[slot];
  g_mutex_unlock (&self->lock);
  return ok;
}

gboolean
gst_cl_auto_fail (GstCLAuto * self, guint slot, GstElement * who,
    const gchar * what)
{
  guint from;
  gboolean ok;

  if (slot >= GST_CL_N_SLOTS)
    return FALSE;
  g_mutex_lock (&self->lock);
  from = self->policy.active;
  ok = gst_cl_policy_fail (&self->policy, slot, now_ms ()) &&
      self->contexts[self->policy.active];
  if (ok && from != self->policy.active) {
    set_fault_decision (self, from, self->policy.active,
        who ? GST_OBJECT_NAME (who) : NULL, what);
    g_atomic_int_set (&self->active, (gint) self->policy.active);
    /* The window under way ran on the failed device. */
    self->window_frames = 0;
    self->window_slot = self->policy.active;
    g_hash_table_remove_all (self->latency);
    GST_WARNING_OBJECT (self, "%s failed on %s (%s): device=auto moves to %s",
        who ? GST_OBJECT_NAME (who) : "an element",
        self->devices[slot]->name, what,
        self->devices[self->policy.active]->name);
  } else if (ok) {
    GST_WARNING_OBJECT (self, "%s failed on %s (%s): device=auto will not "
        "use it", who ? GST_OBJECT_NAME (who) : "an element",
        self->devices[slot]->name, what);
  }
  g_mutex_unlock (&self->lock);
  return ok;
}

guint
gst_cl_auto_get_active (GstCLAuto * self)
{
  return (guint) g_atomic_int_get (&self->active);
}

gint
gst_cl_auto_slot_of (GstCLAuto * self, GstCLContext * context)
{
  for (gint i = 0; i < GST_CL_N_SLOTS; i++)
    if (self->contexts[i] == context)
      return i;
  return -1;
}

static gchar *
slot_label (GstCLAuto * self, guint slot)
{
  return gst_cl_device_info_label (self->devices[slot]);
}

/* Called with the lock held. */
static void
close_window (GstCLAuto * self, GstElement * element, gint64 now)
{
  GstCLLoadQuery q = { now, self->frames,
    self->window_slot == GST_CL_SLOT_PREFERRED, element
  };
  GString *detail = g_string_new (NULL);
  GstCLPolicyWindow w;
  GstCLSwitchReason reason;
  gdouble busy = -1, hint = -1;
  guint from = self->policy.active;

  gint64 t0 = g_get_monotonic_time ();

  for (guint i = 0; i < self->sources->len; i++) {
    GstCLLoadSource *src = g_ptr_array_index (self->sources, i);
    gdouble b = src->sample (src, &q, detail);
    if (src->is_hint)
      hint = MAX (hint, b);
    else
      busy = MAX (busy, b);
  }
  self->inline_samples += self->sources->len;
  self->inline_sample_ns += (g_get_monotonic_time () - t0) * 1000;
  /* The sampler thread's latest figures. */
  if (self->threaded->len) {
    busy = MAX (busy, self->sampled_busy);
    if (self->sampled_detail)
      g_string_append (detail, self->sampled_detail);
  }
  if (busy < 0)
    busy = hint;

  w.time_ms = now / GST_MSECOND;
  w.slot = self->window_slot;
  w.busy = busy;
  w.ms_per_frame = window_ms (self);
  self->last_busy = busy;
  self->last_ms = w.ms_per_frame;
  reason = gst_cl_policy_feed (&self->policy, &w);
  GST_LOG_OBJECT (self, "window: slot %u, %u frames, %.3f ms/frame, busy "
      "%.2f %s-> %s", w.slot, self->window_frames, w.ms_per_frame, busy,
      detail->str, gst_cl_switch_reason_name (reason));

  if (reason != GST_CL_SWITCH_NONE) {
    gchar *a = slot_label (self, from), *b = slot_label (self,
        self->policy.active);
    g_clear_pointer (&self->decision, gst_structure_free);
    self->decision = gst_structure_new ("gst-cl-device-switch",
        "from", G_TYPE_STRING, a, "to", G_TYPE_STRING, b,
        "to-slot", G_TYPE_STRING, self->policy.active ==
        GST_CL_SLOT_PREFERRED ? "preferred" : "fallback",
        "reason", G_TYPE_STRING, gst_cl_switch_reason_name (reason),
        "frame", G_TYPE_UINT64, self->frames,
        "busy", G_TYPE_DOUBLE, busy,
        "ms-per-frame", G_TYPE_DOUBLE, w.ms_per_frame,
        "gpu-unloaded-ms", G_TYPE_DOUBLE,
        self->policy.unloaded_ms[GST_CL_SLOT_PREFERRED],
        "cpu-ms", G_TYPE_DOUBLE, self->policy.unloaded_ms[GST_CL_SLOT_FALLBACK],
        "estimate-ms", G_TYPE_DOUBLE, self->estimate_ms[self->policy.active],
        "windows", G_TYPE_UINT, from == GST_CL_SLOT_PREFERRED ?
        self->policy.p.up_windows : self->policy.p.down_windows,
        "switches", G_TYPE_UINT, self->policy.switches,
        "sources", G_TYPE_STRING, self->source_names,
        "detail", G_TYPE_STRING, g_strstrip (detail->str), NULL);
    GST_INFO_OBJECT (self, "switch %s -> %s: %" GST_PTR_FORMAT, a, b,
        self->decision);
    g_free (a);
    g_free (b);
    g_atomic_int_set (&self->active, (gint) self->policy.active);
  }
  g_string_free (detail, TRUE);

  self->window_start_ns = now;
  self->window_frames = 0;
  self->window_slot = self->policy.active;
  g_hash_table_remove_all (self->latency);
}

guint
gst_cl_auto_leader_frame (GstCLAuto * self, GstElement * element)
{
  gint64 now = g_get_monotonic_time () * GST_USECOND;
  guint slot;

  g_mutex_lock (&self->lock);
  if (self->window_frames == 0 && self->window_start_ns == 0)
    self->window_start_ns = now;
  if (self->window_frames >= self->policy.p.window_frames &&
      now - self->window_start_ns >= self->policy.p.window_ms * GST_MSECOND)
    close_window (self, element, now);
  slot = self->policy.active;
  self->frames++;
  if (slot == self->window_slot)
    self->window_frames++;
  g_mutex_unlock (&self->lock);
  return slot;
}

typedef struct
{
  GstCLAuto *group;
  gpointer who;
  guint slot;
  cl_event start;
} Track;

static void
track_done (cl_event end, cl_int status, void *user_data)
{
  Track *t = user_data;
  GstCLAuto *self = t->group;
  gint64 ns = status == CL_COMPLETE ? gst_cl_latency_ns (t->start, end) : -1;

  if (status == CL_COMPLETE && ns < 0 &&
      g_atomic_int_add (&self->untimed_probes, 1) == 0)
    GST_WARNING_OBJECT (self, "the device gave no times for a frame's "
        "latency: device=auto moves on its load sources and faults only");
  clReleaseEvent (t->start);
  clReleaseEvent (end);

  g_mutex_lock (&self->lock);
  if (ns >= 0)
    self->timed_frames++;
  if (ns >= 0 && t->slot == self->window_slot) {
    Latency *l = g_hash_table_lookup (self->latency, t->who);
    if (!l) {
      l = g_new0 (Latency, 1);
      g_hash_table_insert (self->latency, t->who, l);
    }
    l->ns += ns;
    l->frames++;
  }
  self->pending--;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_free (t);
}

gboolean
gst_cl_auto_track_due (GstCLAuto * self, gint64 * last_us)
{
  gint64 now_us;

  if (!self->policy.p.kernel_time)
    return FALSE;
  now_us = g_get_monotonic_time ();
  if (*last_us != 0 && now_us - *last_us <
      (gint64) self->policy.p.latency_interval_ms * 1000)
    return FALSE;
  *last_us = now_us;
  return TRUE;
}

void
gst_cl_auto_track (GstCLAuto * self, gpointer who, guint slot,
    cl_event start, cl_event end)
{
  Track *t;

  if (!start || !end)
    return;
  t = g_new0 (Track, 1);
  t->group = self;
  t->who = who;
  t->slot = slot;
  t->start = start;
  clRetainEvent (start);
  clRetainEvent (end);
  g_mutex_lock (&self->lock);
  self->pending++;
  g_mutex_unlock (&self->lock);
  if (clSetEventCallback (end, CL_COMPLETE, track_done, t) != CL_SUCCESS)
    track_done (end, CL_INVALID_EVENT, t);
}

void
gst_cl_auto_set_estimate (GstCLAuto * self, gpointer who, guint slot,
    gdouble ms)
{
  GHashTableIter it;
  gpointer k, v;
  gdouble *mine, sum = 0;

  if (slot >= GST_CL_N_SLOTS)
    return;
  g_mutex_lock (&self->lock);
  mine = g_hash_table_lookup (self->estimates, who);
  if (!mine) {
    mine = g_new0 (gdouble, GST_CL_N_SLOTS);
    g_hash_table_insert (self->estimates, who, mine);
  }
  mine[slot] = ms;
  g_hash_table_iter_init (&it, self->estimates);
  while (g_hash_table_iter_next (&it, &k, &v))
    sum += ((gdouble *) v)[slot];
  self->estimate_ms[slot] = sum;
  gst_cl_policy_set_estimate (&self->policy, slot, sum);
  GST_INFO_OBJECT (self, "%s: %.3f ms a frame estimated for %s (chain: "
      "%.3f ms)", GST_IS_OBJECT (who) ? GST_OBJECT_NAME (who) : "?", ms,
      self->devices[slot]->name, sum);
  g_mutex_unlock (&self->lock);
}

GstStructure *
gst_cl_auto_get_decision (GstCLAuto * self)
{
  GstStructure *s;
  g_mutex_lock (&self->lock);
  s = self->decision ? gst_structure_copy (self->decision) : NULL;
  g_mutex_unlock (&self->lock);
  return s;
}

void
gst_cl_auto_add_stats (GstCLAuto * self, GstStructure * s)
{
  gchar *active;

  g_mutex_lock (&self->lock);
  active = slot_label (self, self->policy.active);
  gst_structure_set (s, "auto-switches", G_TYPE_INT64,
      (gint64) self->policy.switches, "auto-active", G_TYPE_STRING, active,
      "auto-frames", G_TYPE_INT64, (gint64) self->frames,
      "auto-busy", G_TYPE_DOUBLE, self->last_busy,
      "auto-ms-per-frame", G_TYPE_DOUBLE, self->last_ms,
      "auto-timed-frames", G_TYPE_INT64, self->timed_frames,
      "auto-sources", G_TYPE_STRING, self->source_names,
      "auto-inline-samples", G_TYPE_INT64, self->inline_samples,
      "auto-inline-sample-ms", G_TYPE_DOUBLE, self->inline_sample_ns / 1e6,
      "auto-thread-samples", G_TYPE_INT64, self->thread_samples,
      "auto-thread-sample-ms", G_TYPE_DOUBLE, self->thread_sample_ns / 1e6,
      NULL);
  g_mutex_unlock (&self->lock);
  g_free (active);
}

/* ---- GstContext sharing ------------------------------------------------ */

static gboolean
same_devices (GstCLAuto * group, const GstCLDeviceInfo * preferred,
    const GstCLDeviceInfo * fallback)
{
  return group->devices[GST_CL_SLOT_PREFERRED] == preferred &&
      group->devices[GST_CL_SLOT_FALLBACK] == fallback;
}

gboolean
gst_cl_auto_handle_set_context (GstElement * element,
    GstContext * gst_context, const GstCLDeviceInfo * preferred,
    const GstCLDeviceInfo * fallback, GstCLAuto ** group)
{
  GstCLAuto *other = NULL;
  const GstStructure *s;

  if (!gst_context || g_strcmp0 (gst_context_get_context_type (gst_context),
          GST_CL_CONTEXT_TYPE_NAME))
    return FALSE;
  s = gst_context_get_structure (gst_context);
  if (!gst_structure_get (s, "auto", GST_TYPE_CL_AUTO, &other, NULL) || !other)
    return FALSE;
  if (!same_devices (other, preferred, fallback)) {
    gst_object_unref (other);
    return FALSE;
  }
  gst_clear_object (group);
  *group = other;
  GST_DEBUG_OBJECT (element, "using shared auto group %" GST_PTR_FORMAT,
      other);
  return TRUE;
}

static void
fill_structure (GstStructure * s, GstCLAuto * group)
{
  GstCLContext *ctx = group->contexts[gst_cl_auto_get_active (group)];
  /* "context" lets elements pinned to one of the devices share it too. */
  gst_structure_set (s, "context", GST_TYPE_CL_CONTEXT, ctx,
      "device", G_TYPE_STRING, ctx->device->name,
      "auto", GST_TYPE_CL_AUTO, group, NULL);
}

gboolean
gst_cl_auto_handle_context_query (GstElement * element, GstQuery * query,
    GstCLAuto * group)
{
  const gchar *type;
  GstContext *old = NULL, *gst_context;

  if (!group || GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  if (!gst_query_parse_context_type (query, &type) ||
      g_strcmp0 (type, GST_CL_CONTEXT_TYPE_NAME))
    return FALSE;
  gst_query_parse_context (query, &old);
  gst_context = old ? gst_context_copy (old) :
      gst_context_new (GST_CL_CONTEXT_TYPE_NAME, TRUE);
  fill_structure (gst_context_writable_structure (gst_context), group);
  gst_query_set_context (query, gst_context);
  gst_context_unref (gst_context);
  return TRUE;
}

typedef struct
{
  const GstCLDeviceInfo *preferred, *fallback;
  GstCLAuto **group;
} GroupWanted;

static gboolean
group_is_wanted (gpointer user_data)
{
  GroupWanted *w = user_data;
  return *w->group && same_devices (*w->group, w->preferred, w->fallback);
}

gboolean
gst_cl_auto_ensure_element_group (GstElement * element,
    const GstCLDeviceInfo * preferred, const GstCLDeviceInfo * fallback,
    GstCLAuto ** group, GError ** error)
{
  GstContext *gst_context;

  if (*group && same_devices (*group, preferred, fallback))
    return TRUE;
  gst_clear_object (group);

  GroupWanted wanted = { preferred, fallback, group };
  if (gst_cl_query_peers_context (element, GST_PAD_SRC, group_is_wanted,
          &wanted) || gst_cl_query_peers_context (element, GST_PAD_SINK,
          group_is_wanted, &wanted))
    return TRUE;

  gst_element_post_message (element, gst_message_new_need_context
      (GST_OBJECT (element), GST_CL_CONTEXT_TYPE_NAME));
  if (*group && same_devices (*group, preferred, fallback))
    return TRUE;
  gst_clear_object (group);

  *group = gst_cl_auto_new (preferred, fallback, error);
  if (!*group)
    return FALSE;
  gst_context = gst_context_new (GST_CL_CONTEXT_TYPE_NAME, TRUE);
  fill_structure (gst_context_writable_structure (gst_context), *group);
  gst_element_set_context (element, gst_context);
  gst_element_post_message (element, gst_message_new_have_context
      (GST_OBJECT (element), gst_context));
  return TRUE;
}
