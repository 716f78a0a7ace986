/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Base class of every cl element: device selection and context sharing,
 * program builds at start, the pool proposed upstream, import of foreign
 * input (wrapped when aligned, otherwise copied once), and the per-frame
 * call into the subclass, which only enqueues. */
#include "gstclfilter.h"
#include "gstclauto.h"
#include "gstclbufferpool.h"
#include "gstclmemory.h"
#include "gstclutils.h"
#include "gstclva.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_filter_debug);
#define GST_CAT_DEFAULT gst_cl_filter_debug

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_CURRENT_DEVICE,
  PROP_STATS,
};

#define DEFAULT_DEVICE "auto"

typedef struct
{
  gchar *device_request;        /* NULL: not set, GST_CL_DEVICE or auto */
  const GstCLDeviceInfo *device;
  GstCLContext *context;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean needs_build;
  gboolean built;

  GstCLVaPath va_path;          /* how VA decoders' frames arrive */
  GstCLVa *va;                  /* VA display, shared context, import */
  gboolean va_input;            /* memory:VAMemory negotiated */
  GstBufferPool *import_pool;   /* copies of unaligned foreign input */
  GstBufferPool *proposed_pool;
  gboolean cpu_consumer;        /* downstream is not an OpenCL element of
                                 * this context: download output early */

  GMutex wrap_lock;
  GCond wrap_cond;
  gint wraps_pending;

  /* device=auto across two devices (docs/AUTO.md) */
  GstCLAuto *group;
  guint slot;                   /* the group slot priv->context is */
  guint frame_slot;             /* where the frame being processed runs */
  gboolean leader;              /* its input came from outside the group */
  GstBufferPool *slot_pools[GST_CL_N_SLOTS];    /* output frames on a device
                                                 * the negotiated pool is not
                                                 * of */
  gint64 switches;
  gboolean warmed[GST_CL_N_SLOTS];      /* this element's work ran there at
                                         * the negotiated caps */
  gint64 warm_ups;              /* standby warm-ups done */
  gdouble warm_ms;              /* the last one's timed launch */
  gint64 last_tracked_us;       /* device=auto: the last frame whose
                                 * latency was tracked */
  gboolean frame_faulted;       /* migrate() runs because the frame failed
                                 * in or after process() */
} GstCLFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCLFilter, gst_cl_filter,
    GST_TYPE_BASE_TRANSFORM);

#define PRIV(f) ((GstCLFilterPrivate *) gst_cl_filter_get_instance_private (f))

/* Foreign input used in place: kept mapped until the kernel is done. */
typedef struct
{
  GstCLFilter *filter;
  GstBuffer *buffer;
  GstMapInfo map;
  cl_mem mem;
} Wrap;

GstCaps *
gst_cl_filter_make_caps (const gchar * formats)
{
  gchar *s = g_strdup_printf ("video/x-raw(" GST_CAPS_FEATURE_MEMORY_OPENCL
      "), format=(string)%s, width=(int)[1, 32768], height=(int)[1, 32768], "
      "framerate=(fraction)[0/1, 2147483647/1]; "
      "video/x-raw, format=(string)%s, width=(int)[1, 32768], "
      "height=(int)[1, 32768], framerate=(fraction)[0/1, 2147483647/1]",
      formats, formats);
  GstCaps *caps = gst_caps_from_string (s);
  g_free (s);
  return caps;
}

void
gst_cl_filter_class_add_pad_templates (GstElementClass * klass,
    const gchar * formats)
{
  GstCaps *caps = gst_cl_filter_make_caps (formats);
  GstCaps *sink = gst_cl_va_sink_caps (caps, GST_CL_VA_PATH_SHARED);

  /* The template allows VA surfaces (NV12); transform_caps offers them
   * only when the probe found sharing possible. */
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink));
  gst_caps_unref (sink);
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

cl_int
gst_cl_plane_set_args (cl_kernel kernel, cl_uint * arg, cl_mem src,
    const GstCLPlane * src_plane, cl_mem dst, const GstCLPlane * dst_plane)
{
  cl_int status = CL_SUCCESS;

  status |= clSetKernelArg (kernel, (*arg)++, sizeof (cl_mem), &src);
  status |= clSetKernelArg (kernel, (*arg)++, sizeof (cl_uint),
      &src_plane->offset);
  status |= clSetKernelArg (kernel, (*arg)++, sizeof (cl_int),
      &src_plane->stride);
  status |= clSetKernelArg (kernel, (*arg)++, sizeof (cl_mem), &dst);
  status |= clSetKernelArg (kernel, (*arg)++, sizeof (cl_uint),
      &dst_plane->offset);
  status |= clSetKernelArg (kernel, (*arg)++, sizeof (cl_int),
      &dst_plane->stride);
  return status;
}

GstCLContext *
gst_cl_filter_get_context (GstCLFilter * filter)
{
  return PRIV (filter)->context;
}

gboolean
gst_cl_filter_can_fail_over (GstCLFilter * filter)
{
  GstCLFilterPrivate *priv = PRIV (filter);

  return priv->group && gst_cl_auto_slot_usable (priv->group,
      priv->slot == GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
      GST_CL_SLOT_PREFERRED);
}

gboolean
gst_cl_filter_frame_faulted (GstCLFilter * filter)
{
  return PRIV (filter)->frame_faulted;
}

void
gst_cl_filter_invalidate (GstCLFilter * filter)
{
  GST_OBJECT_LOCK (filter);
  PRIV (filter)->needs_build = TRUE;
  GST_OBJECT_UNLOCK (filter);
}

/* ---- device and context --------------------------------------------- */

static const gchar *
device_request (GstCLFilter * self)
{
  GstCLFilterPrivate *priv = PRIV (self);
  const gchar *env = g_getenv (GST_CL_DEVICE_ENV);

  if (priv->device_request)
    return priv->device_request;
  return env && *env ? env : DEFAULT_DEVICE;
}

/* device=auto with two devices to switch between: fills @preferred and
 * @fallback. */
static gboolean
wants_group (const gchar * request, const GstCLDeviceInfo ** preferred,
    const GstCLDeviceInfo ** fallback)
{
  if (request && *request && g_ascii_strcasecmp (request, "auto"))
    return FALSE;
  return gst_cl_auto_devices (preferred, fallback);
}

static void
gst_cl_filter_set_context (GstElement * element, GstContext * context)
{
  GstCLFilter *self = GST_CL_FILTER (element);
  GstCLFilterPrivate *priv = PRIV (self);
  const GstCLDeviceInfo *want, *preferred, *fallback;
  gchar *request;

  gst_cl_va_handle_set_context (priv->va, context);
  GST_OBJECT_LOCK (self);
  request = g_strdup (device_request (self));
  GST_OBJECT_UNLOCK (self);
  if (wants_group (request, &preferred, &fallback)) {
    gst_cl_auto_handle_set_context (element, context, preferred, fallback,
        &priv->group);
  } else {
    want = gst_cl_device_select (request, NULL);
    if (want)
      gst_cl_handle_set_context (element, context, want, &priv->context);
  }
  g_free (request);

  GST_ELEMENT_CLASS (gst_cl_filter_parent_class)->set_context (element,
      context);
}

static gboolean
gst_cl_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCLFilterPrivate *priv = PRIV (GST_CL_FILTER (trans));

  /* The sink template allows VAMemory; only a probe that found sharing
   * accepts it. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS &&
      direction == GST_PAD_SINK && priv->va_path != GST_CL_VA_PATH_SHARED) {
    GstCaps *caps = NULL;
    gst_query_parse_accept_caps (query, &caps);
    if (gst_cl_va_caps_have_va_memory (caps)) {
      gst_query_set_accept_caps_result (query, FALSE);
      return TRUE;
    }
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && priv->group &&
      gst_cl_auto_handle_context_query (GST_ELEMENT (trans), query,
          priv->group))
    return TRUE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cl_handle_context_query (GST_ELEMENT (trans), query, priv->context))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cl_filter_parent_class)->query (trans,
      direction, query);
}

static void post_fault_message (GstCLFilter * self, const gchar * from,
    const gchar * to, const gchar * role);

/* device=auto: @slot's device failed for this element (@what): the group
 * stops using it. Posts a warning and, with @post, the switch message
 * (otherwise switch_slot() posts it). FALSE when no usable device is
 * left. */
static gboolean
fail_slot (GstCLFilter * self, guint slot, const gchar * what, gboolean post)
{
  GstCLFilterPrivate *priv = PRIV (self);
  guint other = slot == GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
      GST_CL_SLOT_PREFERRED;
  gchar *a, *b;

  if (!gst_cl_auto_fail (priv->group, slot, GST_ELEMENT (self), what))
    return FALSE;
  a = gst_cl_device_info_label (priv->group->devices[slot]);
  b = gst_cl_device_info_label (priv->group->devices[other]);
  GST_ELEMENT_WARNING (self, RESOURCE, FAILED,
      ("OpenCL failed on %s; device=auto continues on %s.", a, b),
      ("%s; the device is not used again until the pipeline restarts",
          what));
  if (post)
    post_fault_message (self, a, b, "start");
  g_free (a);
  g_free (b);
  return TRUE;
}

static void clear_pool (GstBufferPool ** pool);

/* Makes @slot's context the element's (no kernels built). */
static void
take_slot (GstCLFilter * self, guint slot)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstCLContext *ctx = priv->group->contexts[slot], *old;

  GST_OBJECT_LOCK (self);
  old = priv->context;
  priv->context = gst_object_ref (ctx);
  priv->device = ctx->device;
  priv->slot = priv->frame_slot = slot;
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&old);
  /* Copies of foreign input must be memory of the new device. */
  clear_pool (&priv->import_pool);
}

static GstCLFilter *make_clone (GstCLFilter * self, GstCLContext * ctx);
static void free_clone (GstCLFilter * clone);

/* device=auto: the programs of a device the element is not on, built by a
 * clone of the element in a thread of its own. */
typedef struct
{
  GstCLFilter *clone;
  GThread *thread;
  gboolean ok;
  GError *err;
} StandbyBuild;

/* The clone's kernels are released with it (free_clone ()), built or
 * not: the programs stay in the context's table. */
static gpointer
standby_build (gpointer data)
{
  StandbyBuild *b = data;

  b->ok = GST_CL_FILTER_GET_CLASS (b->clone)->build (b->clone, &b->err);
  return NULL;
}

static gboolean
build_locked (GstCLFilter * self)
{
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (self);
  GstCLFilterPrivate *priv = PRIV (self);
  StandbyBuild standby[GST_CL_N_SLOTS] = { {0} };
  GError *err = NULL;
  gboolean built;

  if (priv->built && klass->release)
    klass->release (self);
  priv->built = FALSE;

  /* device=auto: the other device's programs too, now, so a switch
   * compiles nothing (they stay in that context's program table). A clone
   * builds them while this element builds for the active device: on a
   * fresh machine the two devices' compilers run at once (docs/AUTO.md,
   * "Both devices built at start"). A device that cannot build them is
   * left out of the group. */
  for (guint s = 0; priv->group && klass->build && s < GST_CL_N_SLOTS; s++) {
    StandbyBuild *b = &standby[s];

    if (s == priv->slot || !gst_cl_auto_slot_usable (priv->group, s))
      continue;
    b->clone = make_clone (self, priv->group->contexts[s]);
    b->thread = g_thread_try_new ("cl-standby-build", standby_build, b, &err);
    if (!b->thread) {
      GST_DEBUG_OBJECT (self, "no thread for the standby build (%s): built "
          "first", err ? err->message : "?");
      g_clear_error (&err);
      standby_build (b);
    }
  }
  built = !klass->build || klass->build (self, &err);
  for (guint s = 0; s < GST_CL_N_SLOTS; s++) {
    StandbyBuild *b = &standby[s];

    if (!b->clone)
      continue;
    if (b->thread)
      g_thread_join (b->thread);
    free_clone (b->clone);
    if (!b->ok) {
      gchar *what = g_strdup_printf ("building the kernels: %s",
          b->err ? b->err->message : "unknown error");
      fail_slot (self, s, what, FALSE);
      g_free (what);
      g_clear_error (&b->err);
    }
  }

  while (!built) {
    guint other = priv->slot == GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
        GST_CL_SLOT_PREFERRED;
    gchar *what = g_strdup_printf ("building the kernels: %s",
        err ? err->message : "unknown error");

    /* device=auto: the other device, if it is still usable. */
    if (priv->group && gst_cl_auto_slot_usable (priv->group, other) &&
        fail_slot (self, priv->slot, what, TRUE)) {
      g_free (what);
      g_clear_error (&err);
      take_slot (self, other);
      g_object_notify (G_OBJECT (self), "current-device");
      built = klass->build (self, &err);
      continue;
    }
    g_free (what);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not build the OpenCL kernels for device \"%s\".",
            priv->device->name), ("%s", err ? err->message : "unknown error"));
    g_clear_error (&err);
    return FALSE;
  }
  priv->built = TRUE;
  return TRUE;
}

static gboolean gst_cl_filter_stop (GstBaseTransform * trans);

static gboolean
gst_cl_filter_start (GstBaseTransform * trans)
{
  GstCLFilter *self = GST_CL_FILTER (trans);
  GstCLFilterPrivate *priv = PRIV (self);
  const GstCLDeviceInfo *preferred, *fallback;
  GError *err = NULL;
  gchar *request;

  GST_OBJECT_LOCK (self);
  request = g_strdup (device_request (self));
  GST_OBJECT_UNLOCK (self);

  priv->switches = 0;
  priv->warm_ups = 0;
  priv->warm_ms = -1;
  if (wants_group (request, &preferred, &fallback)) {
    GstCLContext *ctx;
    g_free (request);
    if (!gst_cl_auto_ensure_element_group (GST_ELEMENT (self), preferred,
            fallback, &priv->group, &err)) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not create OpenCL contexts on \"%s\" and \"%s\" for "
              "device=auto.", preferred->name, fallback->name),
          ("%s; set device=gpu or device=cpu to use one device only",
              err->message));
      g_clear_error (&err);
      return FALSE;
    }
    priv->slot = priv->frame_slot = gst_cl_auto_get_active (priv->group);
    ctx = priv->group->contexts[priv->slot];
    /* One device could not be opened: said once per group. */
    if (priv->group->start_fault &&
        g_atomic_int_compare_and_exchange (&priv->group->start_fault_posted,
            0, 1)) {
      GstStructure *d = gst_cl_auto_get_decision (priv->group);
      const gchar *from = d ? gst_structure_get_string (d, "from") : NULL;
      gchar *to = gst_cl_device_info_label (ctx->device);
      GST_ELEMENT_WARNING (self, RESOURCE, FAILED,
          ("OpenCL failed on one device; device=auto runs on \"%s\".",
              ctx->device->name), ("%s", priv->group->start_fault));
      post_fault_message (self, from ? from : "", to, "start");
      g_free (to);
      if (d)
        gst_structure_free (d);
    }
    GST_OBJECT_LOCK (self);
    gst_clear_object (&priv->context);
    priv->context = gst_object_ref (ctx);
    priv->device = ctx->device;
    GST_OBJECT_UNLOCK (self);
    goto started;
  }

  {
    const GstCLDeviceInfo *device = gst_cl_device_select (request, &err);
    GstCLAuto *group;
    /* A group a bin handed over (set_context ()) while the property still
     * said auto, set to a device after that: not this element's. */
    GST_OBJECT_LOCK (self);
    priv->device = device;
    group = priv->group;
    priv->group = NULL;
    GST_OBJECT_UNLOCK (self);
    gst_clear_object (&group);
  }
  if (!priv->device) {
    if (!gst_cl_device_list (NULL))
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
          ("device requested: \"%s\"", request));
    else
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
          ("set the \"device\" property or %s to one of the devices listed",
              GST_CL_DEVICE_ENV));
    g_clear_error (&err);
    g_free (request);
    return FALSE;
  }
  g_free (request);

  if (!gst_cl_ensure_element_context (GST_ELEMENT (self), priv->device,
          &priv->context, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not create an OpenCL context on \"%s\".", priv->device->name),
        ("%s", err->message));
    g_clear_error (&err);
    gst_cl_filter_stop (trans);
    return FALSE;
  }
started:
  GST_INFO_OBJECT (self, "running on %s", priv->device->name);
  if (priv->group) {
    priv->va_path = GST_CL_VA_PATH_SYSTEM_MEMORY;
    GST_DEBUG_OBJECT (self, "VA-API frames: system memory, device=auto");
  } else {
    GstCLContext *va_ctx = NULL;
    const gchar *why = NULL;
    priv->va_path = gst_cl_va_start (priv->va, GST_ELEMENT (self),
        GST_BASE_TRANSFORM_SINK_PAD (self), priv->device, &va_ctx, &why);
    GST_DEBUG_OBJECT (self, "VA-API frames: %s%s",
        priv->va_path == GST_CL_VA_PATH_SHARED ? "shared" : "system memory, ",
        why ? why : "");
    /* Kernels must run in the context the surfaces are imported into. */
    if (va_ctx) {
      GST_OBJECT_LOCK (self);
      gst_object_unref (priv->context);
      priv->context = va_ctx;
      GST_OBJECT_UNLOCK (self);
    }
  }
  g_object_notify (G_OBJECT (self), "current-device");

  GST_OBJECT_LOCK (self);
  priv->needs_build = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (!build_locked (self)) {
    /* A failed start is never followed by stop(): release the context. */
    gst_cl_filter_stop (trans);
    return FALSE;
  }
  return TRUE;
}

static void
wait_for_wraps (GstCLFilter * self)
{
  GstCLFilterPrivate *priv = PRIV (self);

  g_mutex_lock (&priv->wrap_lock);
  while (priv->wraps_pending > 0)
    g_cond_wait (&priv->wrap_cond, &priv->wrap_lock);
  g_mutex_unlock (&priv->wrap_lock);
}

static void
clear_pool (GstBufferPool ** pool)
{
  if (*pool) {
    gst_buffer_pool_set_active (*pool, FALSE);
    gst_clear_object (pool);
  }
}

/* The per-device output pools (device=auto); flushing reads them from
 * another thread, hence the lock. */
static void
clear_slot_pools (GstCLFilter * self)
{
  GstBufferPool *pools[GST_CL_N_SLOTS];

  GST_OBJECT_LOCK (self);
  for (guint s = 0; s < GST_CL_N_SLOTS; s++) {
    pools[s] = PRIV (self)->slot_pools[s];
    PRIV (self)->slot_pools[s] = NULL;
  }
  GST_OBJECT_UNLOCK (self);
  for (guint s = 0; s < GST_CL_N_SLOTS; s++)
    clear_pool (&pools[s]);
}

static gboolean
gst_cl_filter_stop (GstBaseTransform * trans)
{
  GstCLFilter *self = GST_CL_FILTER (trans);
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (self);
  GstCLFilterPrivate *priv = PRIV (self);
  GstCLContext *ctx;
  GstCLAuto *group;

  if (priv->context)
    gst_cl_context_finish (priv->context);
  /* After a switch, work of this element may still be on the other queue. */
  for (guint s = 0; priv->group && s < GST_CL_N_SLOTS; s++)
    if (priv->group->contexts[s] && priv->group->contexts[s] != priv->context)
      gst_cl_context_finish (priv->group->contexts[s]);
  wait_for_wraps (self);
  gst_cl_va_stop (priv->va);
  priv->va_path = GST_CL_VA_PATH_SYSTEM_MEMORY;
  if (priv->built && klass->release)
    klass->release (self);
  priv->built = FALSE;
  clear_pool (&priv->import_pool);
  clear_pool (&priv->proposed_pool);
  clear_slot_pools (self);
  GST_OBJECT_LOCK (self);
  ctx = priv->context;
  priv->context = NULL;
  priv->device = NULL;
  group = priv->group;
  priv->group = NULL;
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&ctx);
  gst_clear_object (&group);
  g_object_notify (G_OBJECT (self), "current-device");
  return TRUE;
}

/* ---- caps and allocation -------------------------------------------- */

GstCaps *
gst_cl_filter_caps_with_features (GstCaps * caps)
{
  GstCaps *result = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && gst_caps_features_is_any (f)) {
      gst_caps_append_structure_full (result, gst_structure_copy (s),
          gst_caps_features_copy (f));
      continue;
    }
    gst_caps_append_structure_full (result, gst_structure_copy (s),
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_OPENCL, NULL));
    gst_caps_append_structure_full (result, gst_structure_copy (s),
        gst_caps_features_new_empty ());
  }
  return gst_caps_simplify (result);
}

/* Same caps with both memory:OpenCL and system memory, OpenCL first. */
static GstCaps *
gst_cl_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *result = gst_cl_filter_caps_with_features (caps);

  /* Upstream may hand over VA surfaces only when they can be shared. */
  if (direction == GST_PAD_SRC) {
    GstCaps *tmp = gst_cl_va_sink_caps (result, PRIV (GST_CL_FILTER
            (trans))->va_path);
    gst_caps_unref (result);
    result = tmp;
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

static GstBufferPool *
make_pool (GstCLFilter * self, GstCLContext * ctx, GstCaps * caps, guint size,
    guint min, guint max)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  if (self)
    gst_cl_buffer_pool_set_owner (pool, GST_ELEMENT (self));

  gst_cl_buffer_pool_config_prepare (ctx, config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

static void warm_standby (GstCLFilter * self);

static gboolean
gst_cl_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCLFilter *self = GST_CL_FILTER (trans);
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (self);
  GstCLFilterPrivate *priv = PRIV (self);
  GstVideoInfo in_info, out_info;

  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps)) {
    /* Caps inside the template that GstVideoInfo refuses: frames too large
     * for its sizes (e.g. RGBA 32768x32768). */
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot process this video: the frame is too large or the format "
            "description is invalid."), ("caps %" GST_PTR_FORMAT " -> %"
            GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  /* Checked here so an impossible size is a clear error, not a failed
   * allocation later. */
  if (priv->device && MAX (in_info.size, out_info.size) >
      priv->device->max_alloc) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("A %dx%d %s frame (%" G_GSIZE_FORMAT " bytes) is larger than the "
            "largest allocation of OpenCL device \"%s\" (%" G_GUINT64_FORMAT
            " bytes).", GST_VIDEO_INFO_WIDTH (&in_info),
            GST_VIDEO_INFO_HEIGHT (&in_info),
            GST_VIDEO_INFO_NAME (&in_info), MAX (in_info.size,
                out_info.size), priv->device->name, priv->device->max_alloc),
        ("scale the video down before this element or pick another device"));
    return FALSE;
  }
  priv->va_input = gst_cl_va_caps_have_va_memory (incaps);
  if (priv->va_input && (priv->va_path != GST_CL_VA_PATH_SHARED ||
          GST_VIDEO_INFO_FORMAT (&in_info) != GST_VIDEO_FORMAT_NV12)) {
    GST_ERROR_OBJECT (self, "VAMemory input without VA sharing");
    return FALSE;
  }
  priv->in_info = in_info;
  priv->out_info = out_info;
  clear_pool (&priv->import_pool);
  clear_slot_pools (self);

  if (klass->set_info && !klass->set_info (self, &in_info, &out_info))
    return FALSE;
  for (guint s = 0; s < GST_CL_N_SLOTS; s++)
    priv->warmed[s] = FALSE;
  if (priv->group && !gst_base_transform_is_passthrough (trans))
    warm_standby (self);
  return TRUE;
}

static gboolean
gst_cl_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCLFilterPrivate *priv = PRIV (GST_CL_FILTER (trans));
  GstCaps *caps = NULL;
  GstVideoInfo info;
  GstAllocationParams params;
  GstAllocator *allocator;

  if (!GST_BASE_TRANSFORM_CLASS (gst_cl_filter_parent_class)->propose_allocation
      (trans, decide_query, query))
    return FALSE;
  /* Passthrough: the query went downstream already. */
  if (!decide_query)
    return TRUE;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !priv->context)
    return FALSE;
  /* A VA decoder allocates its own surfaces; a pool of ours is no use. */
  if (gst_cl_va_caps_have_va_memory (caps)) {
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    return TRUE;
  }

  if (priv->proposed_pool) {
    GstStructure *config = gst_buffer_pool_get_config (priv->proposed_pool);
    GstCaps *pool_caps = NULL;
    gst_buffer_pool_config_get_params (config, &pool_caps, NULL, NULL, NULL);
    if (gst_cl_buffer_pool_get_context (priv->proposed_pool) != priv->context)
      /* device=auto moved: upstream still uses that pool and lets it go
       * when it takes the new one. */
      gst_clear_object (&priv->proposed_pool);
    else if (!pool_caps || !gst_caps_is_equal (pool_caps, caps))
      clear_pool (&priv->proposed_pool);
    gst_structure_free (config);
  }
  if (!priv->proposed_pool) {
    priv->proposed_pool = make_pool (GST_CL_FILTER (trans), priv->context,
        caps, info.size, 0, 0);
    if (!priv->proposed_pool)
      return FALSE;
  }

  gst_query_add_allocation_pool (query, priv->proposed_pool, info.size, 0,
      GST_CL_BUFFER_POOL_DEFAULT_MAX);
  gst_allocation_params_init (&params);
  params.align = GST_CL_HOST_ALIGN - 1;
  allocator = gst_cl_allocator_new (priv->context);
  gst_query_add_allocation_param (query, allocator, &params);
  gst_object_unref (allocator);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

static gboolean
gst_cl_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCLFilterPrivate *priv = PRIV (GST_CL_FILTER (trans));
  GstCaps *caps = NULL;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstVideoInfo info;
  guint size = 0, min = 0, max = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    /* Only a pool of our own context gives memory our kernels can write. */
    if (pool && gst_cl_buffer_pool_get_context (pool) != priv->context)
      gst_clear_object (&pool);
  }
  /* Downstream OpenCL elements of this context propose their pool. */
  priv->cpu_consumer = pool == NULL;
  if (!pool) {
    pool = gst_cl_buffer_pool_new (priv->context);
    gst_cl_buffer_pool_set_owner (pool, GST_ELEMENT (trans));
  }

  size = MAX (size, info.size);
  config = gst_buffer_pool_get_config (pool);
  gst_cl_buffer_pool_config_prepare (priv->context, config, caps, info.size,
      min, max);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_ERROR_OBJECT (trans, "pool refused its own config");
      gst_object_unref (pool);
      return FALSE;
    }
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
  gst_structure_free (config);

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* ---- frames ------------------------------------------------------------ */

static void
fill_planes (GstCLFrame * frame, GstBuffer * buffer, gsize mem_offset)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);

  frame->n_planes = GST_VIDEO_INFO_N_PLANES (&frame->info);
  for (guint p = 0; p < frame->n_planes; p++) {
    GstCLPlane *plane = &frame->planes[p];
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (finfo, p, comp);
    plane->offset = mem_offset + (meta ? meta->offset[p] :
        GST_VIDEO_INFO_PLANE_OFFSET (&frame->info, p));
    plane->stride = meta ? meta->stride[p] :
        GST_VIDEO_INFO_PLANE_STRIDE (&frame->info, p);
    plane->width = GST_VIDEO_INFO_COMP_WIDTH (&frame->info, comp[0]);
    plane->height = GST_VIDEO_INFO_COMP_HEIGHT (&frame->info, comp[0]);
    plane->pixel_bytes = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp[0]);
  }
}

static gboolean
map_cl_frame (GstCLFrame * frame, const GstVideoInfo * info,
    GstBuffer * buffer, GstMapFlags flags)
{
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);

  memset (frame, 0, sizeof (*frame));
  frame->info = *info;
  if (!gst_memory_map (mem, &frame->map, flags | GST_MAP_CL))
    return FALSE;
  frame->memory = mem;
  frame->buffer = buffer;
  frame->mem = (cl_mem) frame->map.data;
  fill_planes (frame, buffer, mem->offset);
  return TRUE;
}

static void
wrap_done (cl_event event, cl_int status, void *user_data)
{
  Wrap *wrap = user_data;
  GstCLFilterPrivate *priv = PRIV (wrap->filter);

  clReleaseMemObject (wrap->mem);
  gst_buffer_unmap (wrap->buffer, &wrap->map);
  gst_buffer_unref (wrap->buffer);
  g_mutex_lock (&priv->wrap_lock);
  priv->wraps_pending--;
  g_cond_broadcast (&priv->wrap_cond);
  g_mutex_unlock (&priv->wrap_lock);
  gst_object_unref (wrap->filter);
  g_free (wrap);
}

/* Foreign memory that a device sharing host memory can use in place. */
static gboolean
wrap_input (GstCLFilter * self, GstBuffer * inbuf, GstCLFrame * frame)
{
  GstCLFilterPrivate *priv = PRIV (self);
  Wrap *wrap;
  cl_int status;

  if (!priv->device->host_unified_memory || gst_buffer_n_memory (inbuf) != 1)
    return FALSE;
  wrap = g_new0 (Wrap, 1);
  if (!gst_buffer_map (inbuf, &wrap->map, GST_MAP_READ)) {
    g_free (wrap);
    return FALSE;
  }
  if ((guintptr) wrap->map.data % GST_CL_HOST_ALIGN != 0 ||
      wrap->map.size < priv->in_info.size) {
    gst_buffer_unmap (inbuf, &wrap->map);
    g_free (wrap);
    return FALSE;
  }
  wrap->mem = clCreateBuffer (priv->context->context,
      CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, wrap->map.size, wrap->map.data,
      &status);
  if (!gst_cl_result (status, "clCreateBuffer(wrap)")) {
    gst_buffer_unmap (inbuf, &wrap->map);
    g_free (wrap);
    return FALSE;
  }
  wrap->buffer = gst_buffer_ref (inbuf);
  wrap->filter = gst_object_ref (self);

  memset (frame, 0, sizeof (*frame));
  frame->info = priv->in_info;
  frame->mem = wrap->mem;
  frame->wrap = wrap;
  fill_planes (frame, inbuf, 0);
  gst_cl_context_count (priv->context, GST_CL_COUNTER_WRAPPED_INPUTS, 1);
  return TRUE;
}

/* A frame of the import pool, made on first use. */
static GstBuffer *
acquire_import_frame (GstCLFilter * self)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstBuffer *frame = NULL;

  if (!priv->import_pool) {
    GstCaps *caps = gst_video_info_to_caps (&priv->in_info);
    priv->import_pool = make_pool (self, priv->context, caps,
        priv->in_info.size, 0, 0);
    gst_caps_unref (caps);
    if (!priv->import_pool ||
        !gst_buffer_pool_set_active (priv->import_pool, TRUE))
      return NULL;
  }
  if (gst_buffer_pool_acquire_buffer (priv->import_pool, &frame,
          NULL) != GST_FLOW_OK)
    return NULL;
  return frame;
}

static void unmap_frame (GstCLFrame * frame, gboolean owns_buffer);

/* A VA surface: imported and copied on the device into a pool frame, which
 * the frame keeps (unmap_frame() drops it). Posts its own error. */
static gboolean
va_import_input (GstCLFilter * self, GstBuffer * inbuf, GstCLFrame * frame)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstBuffer *copy = acquire_import_frame (self);
  GError *err = NULL;

  if (!copy || !map_cl_frame (frame, &priv->in_info, copy, GST_MAP_WRITE)) {
    gst_clear_buffer (&copy);
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate a frame for VA surfaces on \"%s\".",
            priv->device->name), (NULL));
    return FALSE;
  }
  if (!gst_cl_va_import (priv->va, inbuf, frame, &err)) {
    unmap_frame (frame, TRUE);
    GST_ELEMENT_ERROR (self, RESOURCE, READ,
        ("Could not import a VA surface into OpenCL on \"%s\".",
            priv->device->name),
        ("%s; the VA driver and the OpenCL driver must be the same GPU's; "
            "set GST_CL_VA=0 to take VA frames through system memory",
            err->message));
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}

/* Foreign memory that cannot be wrapped: one copy into a pool frame. */
static gboolean
copy_input (GstCLFilter * self, GstBuffer * inbuf, GstCLFrame * frame)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstVideoFrame src, dst;
  GstBuffer *copy = acquire_import_frame (self);
  gboolean ok;

  if (!copy)
    return FALSE;

  if (!gst_video_frame_map (&src, &priv->in_info, inbuf, GST_MAP_READ)) {
    gst_buffer_unref (copy);
    return FALSE;
  }
  if (!gst_video_frame_map (&dst, &priv->in_info, copy, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&src);
    gst_buffer_unref (copy);
    return FALSE;
  }
  ok = gst_video_frame_copy (&dst, &src);
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  gst_cl_context_count (priv->context, GST_CL_COUNTER_FRAME_COPIES, 1);

  /* The frame keeps the copy alive; unmap_frame() drops it. */
  if (!ok || !map_cl_frame (frame, &priv->in_info, copy, GST_MAP_READ)) {
    gst_buffer_unref (copy);
    return FALSE;
  }
  return TRUE;
}

static gboolean
import_input (GstCLFilter * self, GstBuffer * inbuf, GstCLFrame * frame,
    gboolean * owns_buffer)
{
  GstCLFilterPrivate *priv = PRIV (self);

  *owns_buffer = FALSE;
  if (gst_buffer_n_memory (inbuf) == 1 &&
      gst_cl_memory_is_of_context (gst_buffer_peek_memory (inbuf, 0),
          priv->context))
    return map_cl_frame (frame, &priv->in_info, inbuf, GST_MAP_READ);
  if (wrap_input (self, inbuf, frame))
    return TRUE;
  GST_LOG_OBJECT (self, "copying foreign input %" GST_PTR_FORMAT, inbuf);
  *owns_buffer = TRUE;
  return copy_input (self, inbuf, frame);
}

static void
unmap_frame (GstCLFrame * frame, gboolean owns_buffer)
{
  if (frame->memory)
    gst_memory_unmap (frame->memory, &frame->map);
  if (owns_buffer && frame->buffer)
    gst_buffer_unref (frame->buffer);
}

/* ---- device=auto: the standby device, warmed at the negotiated size ---- */

/* The properties of the element class (not those of GstObject, GstElement
 * or GstBaseTransform, nor "device"). */
static void
copy_properties (GstCLFilter * from, GstCLFilter * to)
{
  guint n = 0;
  GParamSpec **specs =
      g_object_class_list_properties (G_OBJECT_GET_CLASS (from), &n);

  for (guint i = 0; i < n; i++) {
    GParamSpec *ps = specs[i];
    GValue v = G_VALUE_INIT;

    if ((ps->flags & (G_PARAM_READABLE | G_PARAM_WRITABLE)) !=
        (G_PARAM_READABLE | G_PARAM_WRITABLE) ||
        (ps->flags & G_PARAM_CONSTRUCT_ONLY) ||
        !g_type_is_a (ps->owner_type, GST_TYPE_CL_FILTER) ||
        !g_strcmp0 (ps->name, "device"))
      continue;
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (from), ps->name, &v);
    g_object_set_property (G_OBJECT (to), ps->name, &v);
    g_value_unset (&v);
  }
  g_free (specs);
}

/* process () of @filter's class on @ctx, between the two latency stamps
 * (gst_cl_context_latency_start/_end) when @timed: *@start and *@end,
 * references to release, or NULL where there are none. */
static cl_int
process_timed (GstCLFilter * filter, GstCLContext * ctx, gboolean timed,
    const GstCLFrame * in, const GstCLFrame * out, cl_event * done,
    cl_event * start, cl_event * end)
{
  cl_int status;

  *start = timed ? gst_cl_context_latency_start (ctx) : NULL;
  *end = NULL;
  status = GST_CL_FILTER_GET_CLASS (filter)->process (filter, in, out, done);
  if (status == CL_SUCCESS && *start)
    *end = gst_cl_context_latency_end (ctx, *done);
  return status;
}

/* A clone of the element (same type and properties) on @ctx, with no
 * kernels yet: its own kernels and temporal state, so the element's are
 * not touched. */
static GstCLFilter *
make_clone (GstCLFilter * self, GstCLContext * ctx)
{
  GstCLFilter *clone = g_object_new (G_OBJECT_TYPE (self), NULL);
  GstCLFilterPrivate *cpriv = PRIV (clone);

  gst_object_ref_sink (clone);
  copy_properties (self, clone);
  cpriv->context = gst_object_ref (ctx);
  cpriv->device = ctx->device;
  return clone;
}

/* Releases the clone's kernels whether or not its build() finished (a
 * build that failed half way has some). */
static void
free_clone (GstCLFilter * clone)
{
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (clone);
  GstCLFilterPrivate *cpriv = PRIV (clone);

  if (klass->release)
    klass->release (clone);
  cpriv->built = FALSE;
  gst_clear_object (&cpriv->context);
  cpriv->device = NULL;
  gst_object_unref (clone);
}

static GstBuffer *
scratch_frame (GstCLContext * ctx, const GstVideoInfo * info,
    GstBufferPool ** pool)
{
  GstCaps *caps = gst_video_info_to_caps (info);
  GstBuffer *buf = NULL;

  *pool = make_pool (NULL, ctx, caps, info->size, 0, 0);
  gst_caps_unref (caps);
  if (!*pool || !gst_buffer_pool_set_active (*pool, TRUE) ||
      gst_buffer_pool_acquire_buffer (*pool, &buf, NULL) != GST_FLOW_OK)
    return NULL;
  return buf;
}

/* Launches this element's work for one frame of the negotiated size on
 * @slot's device, on scratch frames, through a clone of the element (same
 * type and properties, its own kernels and temporal state), so the
 * element's kernels and state are not touched. PoCL compiles a kernel's
 * work-group function at its first launch of a size (seconds on a fresh
 * machine): the first two launches do that for every kernel and path (a
 * fresh temporal state takes another path than a running one), so a
 * switch compiles nothing. The third is timed: the device's time for a
 * frame before the chain ever ran there (@ms). */
#define WARM_LAUNCHES 3

static gboolean
warm_slot (GstCLFilter * self, guint slot, gdouble * ms)
{
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (self);
  GstCLFilterPrivate *priv = PRIV (self);
  GstCLContext *ctx = priv->group->contexts[slot];
  GstCLFilter *clone = make_clone (self, ctx);
  GstCLFilterPrivate *cpriv = PRIV (clone);
  GstBufferPool *in_pool = NULL, *out_pool = NULL;
  GstBuffer *inbuf = NULL, *outbuf = NULL;
  GError *err = NULL;
  gboolean ok = FALSE;
  guint i;

  cpriv->in_info = priv->in_info;
  cpriv->out_info = priv->out_info;
  if (klass->set_info && !klass->set_info (clone, &priv->in_info,
          &priv->out_info))
    goto done;
  if (klass->build && !klass->build (clone, &err))
    goto done;
  cpriv->built = TRUE;
  inbuf = scratch_frame (ctx, &priv->in_info, &in_pool);
  outbuf = scratch_frame (ctx, &priv->out_info, &out_pool);
  if (!inbuf || !outbuf)
    goto done;

  for (i = 0; i < WARM_LAUNCHES; i++) {
    GstCLFrame in, out;
    cl_event start = NULL, end = NULL, done = NULL;
    gint64 t0;
    cl_int status;

    if (!map_cl_frame (&in, &priv->in_info, inbuf, GST_MAP_READ))
      break;
    if (!map_cl_frame (&out, &priv->out_info, outbuf, GST_MAP_WRITE)) {
      unmap_frame (&in, FALSE);
      break;
    }
    t0 = g_get_monotonic_time ();
    /* Timed as the windows are (run_frame). */
    status = process_timed (clone, ctx, TRUE, &in, &out, &done, &start, &end);
    /* Scratch frames: nothing downstream waits on an event, we do. */
    if (status == CL_SUCCESS)
      status = done ? (gst_cl_context_wait (ctx, end ? end : done) ?
          CL_SUCCESS : CL_INVALID_EVENT) : (gst_cl_context_finish (ctx) ?
          CL_SUCCESS : CL_INVALID_COMMAND_QUEUE);
    if (status == CL_SUCCESS && i == WARM_LAUNCHES - 1) {
      gint64 ns = end ? gst_cl_latency_ns (start, end) : -1;
      /* The device's own figures when it has them, else the wall clock
       * around it. */
      *ms = ns >= 0 ? ns / 1e6 : (g_get_monotonic_time () - t0) / 1000.0;
    }
    if (end)
      clReleaseEvent (end);
    if (start)
      clReleaseEvent (start);
    if (done)
      clReleaseEvent (done);
    unmap_frame (&out, FALSE);
    unmap_frame (&in, FALSE);
    if (status != CL_SUCCESS) {
      GST_WARNING_OBJECT (self, "warm-up on %s failed: %s (%d)",
          ctx->device->name, gst_cl_error_name (status), status);
      break;
    }
  }
  ok = i == WARM_LAUNCHES;

done:
  if (err)
    GST_WARNING_OBJECT (self, "warm-up on %s: %s", ctx->device->name,
        err->message);
  g_clear_error (&err);
  /* the frames before the clone's kernels and context */
  gst_clear_buffer (&inbuf);
  gst_clear_buffer (&outbuf);
  clear_pool (&in_pool);
  clear_pool (&out_pool);
  free_clone (clone);
  return ok;
}

/* Every device of the group but the active one: warmed and timed before
 * the first frame at these caps, so a switch neither stalls on compiling
 * nor happens blind to what the other device would deliver. */
static void
warm_standby (GstCLFilter * self)
{
  GstCLFilterPrivate *priv = PRIV (self);

  for (guint s = 0; s < GST_CL_N_SLOTS; s++) {
    gdouble ms = -1;

    if (s == priv->slot || !gst_cl_auto_slot_usable (priv->group, s))
      continue;
    if (!warm_slot (self, s, &ms)) {
      GST_WARNING_OBJECT (self, "could not warm up %s: a switch there may "
          "stall while the device compiles",
          priv->group->contexts[s]->device->name);
      continue;
    }
    priv->warmed[s] = TRUE;
    priv->warm_ups++;
    priv->warm_ms = ms;
    gst_cl_auto_set_estimate (priv->group, self, s, ms);
  }
}

/* ---- device=auto: one frame boundary per switch ------------------------ */

/* Where the frame in @inbuf runs: the device of the memory when an element
 * of the group wrote it (the chain follows its first element), otherwise
 * (this element is the first) the group's choice. */
static guint
frame_slot (GstCLFilter * self, GstBuffer * inbuf)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstMemory *mem = gst_buffer_n_memory (inbuf) == 1 ?
      gst_buffer_peek_memory (inbuf, 0) : NULL;

  if (mem && gst_cl_memory_is_kernel_written (mem)) {
    gint slot = gst_cl_auto_slot_of (priv->group,
        ((GstCLMemory *) mem)->context);
    if (slot >= 0) {
      priv->leader = FALSE;
      /* Made before its device failed: handed over to the active one. */
      if (!gst_cl_auto_slot_usable (priv->group, slot))
        return gst_cl_auto_get_active (priv->group);
      return slot;
    }
  }
  priv->leader = TRUE;
  return gst_cl_auto_leader_frame (priv->group, GST_ELEMENT (self));
}

static GstFlowReturn
gst_cl_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCLFilter *self = GST_CL_FILTER (trans);
  GstCLFilterPrivate *priv = PRIV (self);
  GstBaseTransformClass *bclass = GST_BASE_TRANSFORM_GET_CLASS (trans);
  GstBufferPool *pool;
  GstCLContext *ctx;
  GstFlowReturn ret;
  guint slot;

  if (!priv->group || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS
        (gst_cl_filter_parent_class)->prepare_output_buffer (trans, inbuf,
        outbuf);

  slot = priv->frame_slot = frame_slot (self, inbuf);
  ctx = priv->group->contexts[slot];
  pool = gst_base_transform_get_buffer_pool (trans);
  if (pool && gst_cl_buffer_pool_get_context (pool) == ctx) {
    gst_object_unref (pool);
    return GST_BASE_TRANSFORM_CLASS
        (gst_cl_filter_parent_class)->prepare_output_buffer (trans, inbuf,
        outbuf);
  }
  gst_clear_object (&pool);

  /* Output on the other device: a pool per device. */
  if (!priv->slot_pools[slot]) {
    GstCaps *caps = gst_video_info_to_caps (&priv->out_info);
    pool = make_pool (self, ctx, caps, priv->out_info.size, 0, 0);
    gst_caps_unref (caps);
    if (!pool || !gst_buffer_pool_set_active (pool, TRUE)) {
      gst_clear_object (&pool);
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("Could not allocate output frames on \"%s\".", ctx->device->name),
          (NULL));
      return GST_FLOW_ERROR;
    }
    GST_OBJECT_LOCK (self);
    priv->slot_pools[slot] = pool;
    GST_OBJECT_UNLOCK (self);
  }
  ret = gst_buffer_pool_acquire_buffer (priv->slot_pools[slot], outbuf, NULL);
  if (ret != GST_FLOW_OK)
    return ret;
  if (bclass->copy_metadata && !bclass->copy_metadata (trans, inbuf, *outbuf))
    GST_ELEMENT_WARNING (self, STREAM, NOT_IMPLEMENTED,
        ("could not copy metadata"), (NULL));
  return GST_FLOW_OK;
}

static gboolean
gst_cl_filter_real_migrate (GstCLFilter * self, GstCLContext * from,
    GstCLContext * to, GError ** error)
{
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (self);
  GstCLFilterPrivate *priv = PRIV (self);
  GstCLContext *old;

  if (priv->built && klass->release)
    klass->release (self);
  priv->built = FALSE;
  GST_OBJECT_LOCK (self);
  old = priv->context;
  priv->context = gst_object_ref (to);
  priv->device = to->device;
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&old);
  if (klass->build && !klass->build (self, error))
    return FALSE;
  priv->built = TRUE;
  return TRUE;
}

/* "gst-cl-device-switch": the group's figures say why, these what this
 * element did. */
static void
post_switch_message (GstCLFilter * self, const gchar * from, const gchar * to,
    const gchar * role, gint64 compiled, gboolean warmed)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstStructure *s = gst_cl_auto_get_decision (priv->group);

  if (!s)
    s = gst_structure_new_empty ("gst-cl-device-switch");
  gst_structure_set (s, "element-from", G_TYPE_STRING, from,
      "element-to", G_TYPE_STRING, to,
      "role", G_TYPE_STRING, role,
      "element-switches", G_TYPE_INT64, priv->switches,
      "programs-compiled", G_TYPE_INT64, compiled,
      "warmed", G_TYPE_BOOLEAN, warmed, NULL);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* A fault moved the element without a switch_slot() (at start). */
static void
post_fault_message (GstCLFilter * self, const gchar * from, const gchar * to,
    const gchar * role)
{
  post_switch_message (self, from, to, role, 0, FALSE);
}

static gboolean
switch_slot (GstCLFilter * self, guint slot)
{
  GstCLFilterClass *klass = GST_CL_FILTER_GET_CLASS (self);
  GstCLFilterPrivate *priv = PRIV (self);
  GstCLContext *from = priv->context, *to = priv->group->contexts[slot];
  gchar *a = gst_cl_device_info_label (from->device);
  gchar *b = gst_cl_device_info_label (to->device);
  GError *err = NULL;
  gint64 builds = gst_cl_context_get_counter (to,
      GST_CL_COUNTER_PROGRAM_BUILDS);
  gboolean warmed = priv->warmed[slot];

  gst_object_ref (from);
  /* Copies of foreign input must be memory of the new device. */
  clear_pool (&priv->import_pool);
  if (!klass->migrate (self, from, to, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not move from \"%s\" to \"%s\" (device=auto).",
            from->device->name, to->device->name),
        ("%s; set device=gpu or device=cpu to stay on one device",
            err ? err->message : "unknown error"));
    g_clear_error (&err);
    gst_object_unref (from);
    g_free (a);
    g_free (b);
    return FALSE;
  }
  gst_object_unref (from);
  priv->slot = slot;
  priv->switches++;
  GST_INFO_OBJECT (self, "moved from %s to %s (%s)", a, b,
      priv->leader ? "first of the chain" : "following upstream");
  post_switch_message (self, a, b, priv->leader ? "leader" : "follower",
      gst_cl_context_get_counter (to, GST_CL_COUNTER_PROGRAM_BUILDS) - builds,
      warmed);
  g_free (a);
  g_free (b);
  g_object_notify (G_OBJECT (self), "current-device");

  /* The producer writes into a pool of the old device: have it ask again. */
  if (priv->leader)
    gst_pad_push_event (GST_BASE_TRANSFORM_SINK_PAD (self),
        gst_event_new_reconfigure ());
  return TRUE;
}

/* What became of a frame. */
typedef enum
{
  FRAME_OK,
  FRAME_ERROR,                  /* an element error is posted */
  FRAME_FAULT,                  /* OpenCL failed on the device: *what says
                                 * how; nothing posted yet */
} FrameResult;

/* Which step of a frame failed (for the error when nothing else can run
 * it). */
typedef enum
{
  FAULT_PROCESS,
  FAULT_INPUT,
  FAULT_OUTPUT,
} FaultKind;

static FrameResult
run_frame (GstCLFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    gchar ** what, FaultKind * kind)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstCLFrame in, out;
  gboolean owns_in = FALSE;
  cl_event done = NULL, start = NULL, end = NULL;
  cl_int status;

  if (gst_buffer_n_memory (outbuf) != 1 ||
      !gst_cl_memory_is_of_context (gst_buffer_peek_memory (outbuf, 0),
          priv->context)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("output buffer is not OpenCL memory of this element's context"));
    return FRAME_ERROR;
  }
  if (priv->va_input) {
    owns_in = TRUE;
    if (!va_import_input (self, inbuf, &in))
      return FRAME_ERROR;
  } else if (!import_input (self, inbuf, &in, &owns_in)) {
    *what = g_strdup_printf ("could not access the input frame %"
        GST_PTR_FORMAT, inbuf);
    *kind = FAULT_INPUT;
    return FRAME_FAULT;
  }
  if (!map_cl_frame (&out, &priv->out_info, outbuf, GST_MAP_WRITE)) {
    unmap_frame (&in, owns_in);
    *what = g_strdup ("could not access the output frame");
    *kind = FAULT_OUTPUT;
    return FRAME_FAULT;
  }

  /* device=auto: this element's latency for the frame, on the device's
   * clock, a frame at most every latency-interval-ms: each timed frame
   * costs NVIDIA about 0.05 ms (docs/AUTO.md, "Timing the frames"). */
  status = process_timed (self, priv->context, priv->group &&
      gst_cl_auto_track_due (priv->group, &priv->last_tracked_us), &in, &out,
      &done, &start, &end);
  if (status == CL_SUCCESS)
    priv->warmed[priv->slot] = TRUE;
  if (end) {
    gst_cl_auto_track (priv->group, self, priv->slot, start, end);
    clReleaseEvent (end);
  }
  if (start)
    clReleaseEvent (start);

  if (status == CL_SUCCESS && done) {
    if (in.memory)
      gst_cl_memory_set_event ((GstCLMemory *) in.memory, done, FALSE);
    gst_cl_memory_set_event ((GstCLMemory *) out.memory, done, TRUE);
    if (priv->cpu_consumer)
      gst_cl_memory_download_early ((GstCLMemory *) out.memory);
  }
  if (in.wrap) {
    Wrap *wrap = in.wrap;
    g_mutex_lock (&priv->wrap_lock);
    priv->wraps_pending++;
    g_mutex_unlock (&priv->wrap_lock);
    /* Without an event the queue is drained before the frame is released. */
    if (!done || clSetEventCallback (done, CL_COMPLETE, wrap_done,
            wrap) != CL_SUCCESS) {
      gst_cl_context_finish (priv->context);
      wrap_done (NULL, CL_COMPLETE, wrap);
    }
  }
  if (done)
    clReleaseEvent (done);
  unmap_frame (&out, FALSE);
  unmap_frame (&in, owns_in);

  if (status != CL_SUCCESS) {
    *what = g_strdup_printf ("%s (%d)", gst_cl_error_name (status), status);
    *kind = FAULT_PROCESS;
    return FRAME_FAULT;
  }
  return FRAME_OK;
}

/* An output frame made on another device gets memory of @slot's device:
 * same size, same layout (pools of both devices lay out frames from the
 * caps alone). The old memory goes with the buffer's pool slot (a buffer
 * whose memory was replaced is not reused). Posts its error. */
static gboolean
move_output (GstCLFilter * self, GstBuffer * outbuf, guint slot)
{
  GstCLFilterPrivate *priv = PRIV (self);
  GstAllocator *allocator = gst_cl_allocator_new (priv->group->contexts[slot]);
  GstAllocationParams params;
  GstMemory *mem;

  gst_allocation_params_init (&params);
  params.align = GST_CL_HOST_ALIGN - 1;
  mem = gst_allocator_alloc (allocator, gst_buffer_get_size (outbuf),
      &params);
  gst_object_unref (allocator);
  if (!mem) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate an output frame on \"%s\".",
            priv->group->devices[slot]->name), (NULL));
    return FALSE;
  }
  gst_buffer_replace_all_memory (outbuf, mem);
  return TRUE;
}

/* device=auto: the frame failed on this element's device (@what). The
 * group stops using that device, the element moves to the other one, and
 * @outbuf gets memory of the other device, so the caller can run the same
 * frame again from its input (which no element writes: none works in
 * place). FRAME_OK: run it again; FRAME_FAULT: no other usable device;
 * FRAME_ERROR: the move failed (an error is posted). */
static FrameResult
fail_over (GstCLFilter * self, GstBuffer * outbuf, const gchar * what)
{
  GstCLFilterPrivate *priv = PRIV (self);
  guint failed = priv->slot;
  guint other = failed == GST_CL_SLOT_PREFERRED ? GST_CL_SLOT_FALLBACK :
      GST_CL_SLOT_PREFERRED;
  gchar *detail;

  if (!priv->group || !gst_cl_auto_slot_usable (priv->group, other))
    return FRAME_FAULT;
  detail = g_strdup_printf ("%s on \"%s\"", what, priv->device->name);
  if (!fail_slot (self, failed, detail, FALSE)) {
    g_free (detail);
    return FRAME_FAULT;
  }
  g_free (detail);

  if (!move_output (self, outbuf, other))
    return FRAME_ERROR;
  priv->frame_slot = other;
  return switch_slot (self, other) ? FRAME_OK : FRAME_ERROR;
}

static GstFlowReturn
gst_cl_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCLFilter *self = GST_CL_FILTER (trans);
  GstCLFilterPrivate *priv = PRIV (self);
  gboolean rebuild;
  gchar *what = NULL;
  FaultKind kind = FAULT_PROCESS;
  FrameResult result;

  if (priv->group && priv->frame_slot != priv->slot &&
      !switch_slot (self, priv->frame_slot))
    return GST_FLOW_ERROR;

  GST_OBJECT_LOCK (self);
  rebuild = priv->needs_build;
  priv->needs_build = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (rebuild && !build_locked (self))
    return GST_FLOW_ERROR;
  /* The rebuild left a device that failed to build: the frame too. */
  if (priv->group && gst_buffer_n_memory (outbuf) == 1 &&
      gst_is_cl_memory (gst_buffer_peek_memory (outbuf, 0)) &&
      !gst_cl_memory_is_of_context (gst_buffer_peek_memory (outbuf, 0),
          priv->context) && !move_output (self, outbuf, priv->slot))
    return GST_FLOW_ERROR;

  result = run_frame (self, inbuf, outbuf, &what, &kind);
  if (result == FRAME_FAULT && priv->group) {
    GstCLContext *failed = gst_object_ref (priv->context);
    FrameResult moved;
    /* Failed before process(): the frame changed nothing yet. */
    priv->frame_faulted = kind == FAULT_PROCESS;
    moved = fail_over (self, outbuf, what);
    priv->frame_faulted = FALSE;
    if (moved == FRAME_OK) {
      /* The same frame again, on the other device. */
      GST_INFO_OBJECT (self, "frame failed on %s (%s): running it again on "
          "%s", failed->device->name, what, priv->device->name);
      g_clear_pointer (&what, g_free);
      result = run_frame (self, inbuf, outbuf, &what, &kind);
    } else if (moved == FRAME_ERROR) {
      result = FRAME_ERROR;
    }
    gst_object_unref (failed);
  }
  if (result == FRAME_FAULT && kind == FAULT_INPUT)
    GST_ELEMENT_ERROR (self, RESOURCE, READ,
        ("Could not access the input frame."), ("%s", what));
  else if (result == FRAME_FAULT && kind == FAULT_OUTPUT)
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not access the output frame."), ("%s", what));
  else if (result == FRAME_FAULT)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL failed to process a frame on \"%s\": %s.",
            priv->device->name, what),
        ("the device may be out of memory or resources; try device=cpu"));
  g_free (what);
  return result == FRAME_OK ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* GstBaseTransform leaves syncing controlled properties to subclasses:
 * values bound with gst_object_add_control_binding() are applied at each
 * frame's stream time, before the frame is processed. */
static void
gst_cl_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));

  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* ---- unblocking on stop and flush ------------------------------------ */

/* The output pool has a maximum: when downstream holds every buffer (an
 * appsink nobody reads, a paused sink) the streaming thread waits in
 * acquire. GstBaseTransform takes the stream lock before it deactivates the
 * pool, so stopping or flushing would wait forever: wake the thread first. */
static void
set_output_pool_flushing (GstCLFilter * self, gboolean flushing)
{
  GstBufferPool *pool =
      gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (self));

  if (pool) {
    GST_DEBUG_OBJECT (self, "output pool flushing %d", flushing);
    gst_buffer_pool_set_flushing (pool, flushing);
    gst_object_unref (pool);
  }
  /* device=auto: the output pools of the other device too. */
  GST_OBJECT_LOCK (self);
  for (guint s = 0; s < GST_CL_N_SLOTS; s++)
    if (PRIV (self)->slot_pools[s])
      gst_buffer_pool_set_flushing (PRIV (self)->slot_pools[s], flushing);
  GST_OBJECT_UNLOCK (self);
}

static GstStateChangeReturn
gst_cl_filter_change_state (GstElement * element, GstStateChange transition)
{
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_output_pool_flushing (GST_CL_FILTER (element), TRUE);
  return GST_ELEMENT_CLASS (gst_cl_filter_parent_class)->change_state (element,
      transition);
}

static gboolean
gst_cl_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START)
    set_output_pool_flushing (GST_CL_FILTER (trans), TRUE);
  else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    set_output_pool_flushing (GST_CL_FILTER (trans), FALSE);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_filter_parent_class)->sink_event
      (trans, event);
}

/* ---- GObject ----------------------------------------------------------- */

static void
gst_cl_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLFilterPrivate *priv = PRIV (GST_CL_FILTER (object));

  switch (prop_id) {
    case PROP_DEVICE:
      GST_OBJECT_LOCK (object);
      g_free (priv->device_request);
      priv->device_request = g_value_dup_string (value);
      GST_OBJECT_UNLOCK (object);
      if (priv->context)
        GST_WARNING_OBJECT (object, "device \"%s\" takes effect when the "
            "element next starts (it runs on %s now)",
            priv->device_request ? priv->device_request : "(default)",
            priv->context->device->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLFilter *self = GST_CL_FILTER (object);
  GstCLFilterPrivate *priv = PRIV (self);

  switch (prop_id) {
    case PROP_DEVICE:
      GST_OBJECT_LOCK (object);
      g_value_set_string (value, device_request (self));
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_CURRENT_DEVICE:
      GST_OBJECT_LOCK (object);
      g_value_take_string (value, priv->device ?
          gst_cl_device_info_label (priv->device) : NULL);
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_STATS:{
      /* The application may ask while the element stops. */
      GstCLContext *ctx = NULL;
      GstCLAuto *group = NULL;
      GstStructure *s = NULL;
      GST_OBJECT_LOCK (object);
      if (priv->context)
        ctx = gst_object_ref (priv->context);
      if (priv->group)
        group = gst_object_ref (priv->group);
      GST_OBJECT_UNLOCK (object);
      if (ctx) {
        s = gst_cl_context_get_stats (ctx);
        gst_structure_set (s, "device-switches", G_TYPE_INT64,
            priv->switches, NULL);
        if (group)
          gst_structure_set (s, "standby-warm-ups", G_TYPE_INT64,
              priv->warm_ups, "standby-warm-ms", G_TYPE_DOUBLE,
              priv->warm_ms, NULL);
        if (group)
          gst_cl_auto_add_stats (group, s);
      }
      g_value_take_boxed (value, s);
      gst_clear_object (&ctx);
      gst_clear_object (&group);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* A context or device=auto group handed over by set_context() to an element
 * that never started (or failed to) is only dropped here. */
static void
gst_cl_filter_dispose (GObject * object)
{
  GstCLFilterPrivate *priv = PRIV (GST_CL_FILTER (object));

  clear_pool (&priv->import_pool);
  clear_pool (&priv->proposed_pool);
  clear_slot_pools (GST_CL_FILTER (object));
  gst_clear_object (&priv->context);
  /* a bin's device=auto group (its contexts and load thread) too */
  gst_clear_object (&priv->group);
  G_OBJECT_CLASS (gst_cl_filter_parent_class)->dispose (object);
}

static void
gst_cl_filter_finalize (GObject * object)
{
  GstCLFilterPrivate *priv = PRIV (GST_CL_FILTER (object));

  g_free (priv->device_request);
  gst_cl_va_free (priv->va);
  g_mutex_clear (&priv->wrap_lock);
  g_cond_clear (&priv->wrap_cond);
  G_OBJECT_CLASS (gst_cl_filter_parent_class)->finalize (object);
}

static void
gst_cl_filter_class_init (GstCLFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_filter_debug, "clfilter", 0,
      "OpenCL filter base class");
  gst_cl_debug_init ();

  gobject_class->set_property = gst_cl_filter_set_property;
  gobject_class->get_property = gst_cl_filter_get_property;
  gobject_class->dispose = gst_cl_filter_dispose;
  gobject_class->finalize = gst_cl_filter_finalize;

  /**
   * GstCLFilter:device:
   *
   * Which OpenCL device to run on: "auto" (a GPU if there is one, else the
   * CPU; with both a GPU and a CPU device, the chain moves to the CPU
   * device while the GPU is loaded and back when it frees up, between
   * two frames: docs/AUTO.md), "gpu", "cpu", "P.D" (platform and device
   * index, as `clinfo -l` lists them) or part of the device's name: these
   * pin the device. When left unset, the GST_CL_DEVICE environment
   * variable, if set, gives the default for all elements. Read when the
   * element starts.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto (GPU, moving to the CPU device while the GPU "
          "is loaded), gpu, cpu, P.D (platform.device index) or a substring "
          "of the device name (these pin it); unset: $" GST_CL_DEVICE_ENV
          " or auto", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_CURRENT_DEVICE,
      g_param_spec_string ("current-device", "Current device",
          "The OpenCL device in use (\"P.D name (type, platform)\"), NULL "
          "while stopped; notified when device=auto moves the element", NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Counters of the shared OpenCL context: host-waits, frame-copies, "
          "uploads, downloads, program-builds, program-cache-loads, "
          "buffers-allocated, wrapped-inputs; device-switches; with "
          "device=auto across two devices also auto-switches, auto-active, "
          "auto-frames, auto-busy, auto-ms-per-frame, auto-timed-frames, "
          "auto-sources",
          GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cl_filter_set_context);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_filter_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_filter_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_filter_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_filter_sink_event);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_filter_transform_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_filter_set_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_filter_decide_allocation);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_filter_transform);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_filter_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_filter_prepare_output_buffer);
  klass->migrate = GST_DEBUG_FUNCPTR (gst_cl_filter_real_migrate);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_CL_FILTER, 0);
}

static void
gst_cl_filter_init (GstCLFilter * self)
{
  GstCLFilterPrivate *priv = PRIV (self);

  g_mutex_init (&priv->wrap_lock);
  g_cond_init (&priv->wrap_cond);
  priv->va = gst_cl_va_new ();
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
