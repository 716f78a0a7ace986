/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclcontext.h"
#include "gstclutils.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

G_DEFINE_TYPE (GstCLContext, gst_cl_context, GST_TYPE_OBJECT);

static const gchar *counter_names[GST_CL_N_COUNTERS] = {
  "host-waits", "frame-copies", "uploads", "downloads", "program-builds",
  "program-cache-loads", "buffers-allocated", "wrapped-inputs",
};

static void
release_queue (cl_command_queue queue)
{
  if (queue) {
    clFinish (queue);
    clReleaseCommandQueue (queue);
  }
}

static void
gst_cl_context_finalize (GObject * object)
{
  GstCLContext *self = GST_CL_CONTEXT (object);

  release_queue (self->upload_queue);
  release_queue (self->download_queue);
  release_queue (self->queue);
  /* After the queue whose events the probes wait for. */
  release_queue (self->probe_queue);
  if (self->probe_buffer)
    clReleaseMemObject (self->probe_buffer);
  g_clear_pointer (&self->programs, g_hash_table_unref);
  if (self->context)
    clReleaseContext (self->context);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gst_cl_context_parent_class)->finalize (object);
}

static void
gst_cl_context_class_init (GstCLContextClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_context_finalize;
}

static void
release_program (gpointer program)
{
  clReleaseProgram (program);
}

static void
gst_cl_context_init (GstCLContext * self)
{
  g_mutex_init (&self->lock);
  self->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      release_program);
}

/* An in-order queue, timing its commands if @timed. */
static cl_command_queue
create_queue (GstCLContext * self, gboolean timed, const gchar * what,
    GError ** error)
{
  cl_int status;
  cl_command_queue queue = clCreateCommandQueue (self->context,
      self->device->device, timed ? CL_QUEUE_PROFILING_ENABLE : 0, &status);

  return gst_cl_set_error (status, what, error) ? queue : NULL;
}

GstCLContext *
gst_cl_context_new (const GstCLDeviceInfo * device, GError ** error)
{
  return gst_cl_context_new_full (device, GST_CL_TIMING_ALL, error);
}

GstCLTiming
gst_cl_timing_requested (GstCLTiming otherwise)
{
  return gst_cl_env_int (GST_CL_PROFILING_ENV, 0, 1, 0) ? GST_CL_TIMING_ALL :
      otherwise;
}

GstCLContext *
gst_cl_context_new_full (const GstCLDeviceInfo * device, GstCLTiming timing,
    GError ** error)
{
  cl_int status;
  gint transfer_queues;
  cl_context_properties props[] = {
    CL_CONTEXT_PLATFORM, (cl_context_properties) device->platform, 0
  };
  GstCLContext *self;

  g_return_val_if_fail (device != NULL, NULL);

  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  self->device = device;
  self->profiling = timing == GST_CL_TIMING_ALL;
  self->context = clCreateContext (props, 1, &device->device, NULL, NULL,
      &status);
  if (!gst_cl_set_error (status, "clCreateContext", error))
    goto failed;

  self->queue = create_queue (self, self->profiling, "clCreateCommandQueue",
      error);
  if (!self->queue)
    goto failed;
  transfer_queues = device->host_unified_memory ? 0 :
      gst_cl_env_int (GST_CL_TRANSFER_QUEUES_ENV, 0, 2, 2);
  if (transfer_queues >= 1 && !(self->upload_queue = create_queue (self,
              self->profiling, "clCreateCommandQueue(uploads)", error)))
    goto failed;
  if (transfer_queues >= 2 && !(self->download_queue = create_queue (self,
              self->profiling, "clCreateCommandQueue(downloads)", error)))
    goto failed;
  if (timing == GST_CL_TIMING_PROBE) {
    self->probe_queue = create_queue (self, TRUE,
        "clCreateCommandQueue(probes)", error);
    if (!self->probe_queue)
      goto failed;
    self->probe_buffer = clCreateBuffer (self->context, CL_MEM_READ_WRITE,
        64, NULL, &status);
    if (!gst_cl_set_error (status, "clCreateBuffer(probes)", error))
      goto failed;
  }
  self->early_uploads = self->upload_queue != NULL &&
      gst_cl_env_int (GST_CL_EARLY_UPLOADS_ENV, 0, 1, 1);
  self->early_downloads = self->download_queue != NULL &&
      gst_cl_env_int (GST_CL_EARLY_DOWNLOADS_ENV, 0, 1, 1);

  GST_INFO_OBJECT (self, "created context on %s, %d transfer queues, "
      "early uploads %s, early downloads %s, profiling %s", device->name,
      transfer_queues, self->early_uploads ? "on" : "off",
      self->early_downloads ? "on" : "off", self->profiling ? "on" :
      self->probe_queue ? "on a probe queue only" : "off");
  return self;

failed:
  gst_object_unref (self);
  return NULL;
}

void
gst_cl_context_count (GstCLContext * context, GstCLCounter counter, gint64 n)
{
  __atomic_fetch_add (&context->counters[counter], n, __ATOMIC_RELAXED);
}

gint64
gst_cl_context_get_counter (GstCLContext * context, GstCLCounter counter)
{
  return __atomic_load_n (&context->counters[counter], __ATOMIC_RELAXED);
}

GstStructure *
gst_cl_context_get_stats (GstCLContext * context)
{
  GstStructure *s = gst_structure_new ("gst-cl-stats",
      "device", G_TYPE_STRING, context->device->name, NULL);

  for (guint i = 0; i < GST_CL_N_COUNTERS; i++)
    gst_structure_set (s, counter_names[i], G_TYPE_INT64,
        gst_cl_context_get_counter (context, i), NULL);
  return s;
}

gboolean
gst_cl_context_wait (GstCLContext * context, cl_event event)
{
  gst_cl_context_count (context, GST_CL_COUNTER_HOST_WAITS, 1);
  return gst_cl_result (clWaitForEvents (1, &event), "clWaitForEvents");
}

static gboolean
finish_queue (cl_command_queue queue, const gchar * what)
{
  return !queue || gst_cl_result (clFinish (queue), what);
}

/* A 4-byte write on the probe queue, waiting for @event if any. */
static cl_event
probe (GstCLContext * context, cl_event event)
{
  const cl_uint zero = 0;
  cl_command_queue queue = NULL;
  cl_event probe = NULL;

  /* Not a marker: NVIDIA gives a marker that waits on another queue's
   * event no usable END (docs/AUTO.md, "Timing the frames"). */
  if (clEnqueueFillBuffer (context->probe_queue, context->probe_buffer,
          &zero, sizeof (zero), 0, sizeof (zero), event ? 1 : 0,
          event ? &event : NULL, &probe) != CL_SUCCESS)
    return NULL;
  if (!event)
    return probe;
  /* The work is submitted now, so the probe ends when the work does, not
   * when something later flushes its queue. */
  if (clGetEventInfo (event, CL_EVENT_COMMAND_QUEUE, sizeof (queue), &queue,
          NULL) == CL_SUCCESS && queue)
    clFlush (queue);
  clFlush (context->probe_queue);
  return probe;
}

cl_event
gst_cl_context_latency_start (GstCLContext * context)
{
  cl_event marker = NULL;

  if (context->probe_queue)
    return probe (context, NULL);
  if (!context->profiling || clEnqueueMarkerWithWaitList (context->queue, 0,
          NULL, &marker) != CL_SUCCESS)
    return NULL;
  return marker;
}

cl_event
gst_cl_context_latency_end (GstCLContext * context, cl_event done)
{
  if (!done)
    return NULL;
  if (context->probe_queue)
    return probe (context, done);
  if (!context->profiling || clRetainEvent (done) != CL_SUCCESS)
    return NULL;
  return done;
}

gint64
gst_cl_latency_ns (cl_event start, cl_event end)
{
  cl_ulong queued = 0, ended = 0;

  if (clGetEventProfilingInfo (end, CL_PROFILING_COMMAND_END, sizeof (ended),
          &ended, NULL) != CL_SUCCESS)
    return -1;
  /* A driver without marker timestamps: the last command's QUEUED. */
  if (clGetEventProfilingInfo (start, CL_PROFILING_COMMAND_QUEUED,
          sizeof (queued), &queued, NULL) != CL_SUCCESS || queued == 0)
    clGetEventProfilingInfo (end, CL_PROFILING_COMMAND_QUEUED,
        sizeof (queued), &queued, NULL);
  return queued > 0 && ended >= queued ? (gint64) (ended - queued) : -1;
}

gboolean
gst_cl_context_finish (GstCLContext * context)
{
  gst_cl_context_count (context, GST_CL_COUNTER_HOST_WAITS, 1);
  /* Transfers run on queues of their own until a kernel map orders the
   * main queue after them, and some never are. */
  return finish_queue (context->upload_queue, "clFinish(uploads)") &&
      finish_queue (context->download_queue, "clFinish(downloads)") &&
      finish_queue (context->queue, "clFinish");
}

/* ---- GstContext sharing ------------------------------------------------ */

GstContext *
gst_context_new_cl_context (GstCLContext * context)
{
  GstContext *gst_context = gst_context_new (GST_CL_CONTEXT_TYPE_NAME, TRUE);
  GstStructure *s = gst_context_writable_structure (gst_context);

  gst_structure_set (s, "context", GST_TYPE_CL_CONTEXT, context,
      "device", G_TYPE_STRING, context->device->name, NULL);
  return gst_context;
}

gboolean
gst_context_get_cl_context (GstContext * gst_context, GstCLContext ** context)
{
  const GstStructure *s;

  if (g_strcmp0 (gst_context_get_context_type (gst_context),
          GST_CL_CONTEXT_TYPE_NAME))
    return FALSE;
  s = gst_context_get_structure (gst_context);
  return gst_structure_get (s, "context", GST_TYPE_CL_CONTEXT, context, NULL);
}

gboolean
gst_cl_handle_set_context (GstElement * element, GstContext * gst_context,
    const GstCLDeviceInfo * device, GstCLContext ** context)
{
  GstCLContext *other = NULL;

  if (!gst_context || !gst_context_get_cl_context (gst_context, &other))
    return FALSE;
  /* A context for another device is not ours to use: keep looking. */
  if (device && other->device != device) {
    GST_DEBUG_OBJECT (element, "ignoring context of %s (want %s)",
        other->device->name, device->name);
    gst_object_unref (other);
    return FALSE;
  }
  gst_clear_object (context);
  *context = other;
  GST_DEBUG_OBJECT (element, "using shared context %" GST_PTR_FORMAT, other);
  return TRUE;
}

gboolean
gst_cl_handle_context_query (GstElement * element, GstQuery * query,
    GstCLContext * context)
{
  const gchar *type;
  GstContext *old = NULL, *gst_context;

  if (!context || GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  if (!gst_query_parse_context_type (query, &type) ||
      g_strcmp0 (type, GST_CL_CONTEXT_TYPE_NAME))
    return FALSE;

  gst_query_parse_context (query, &old);
  if (old)
    gst_context = gst_context_copy (old);
  else
    gst_context = gst_context_new (GST_CL_CONTEXT_TYPE_NAME, TRUE);
  gst_structure_set (gst_context_writable_structure (gst_context),
      "context", GST_TYPE_CL_CONTEXT, context,
      "device", G_TYPE_STRING, context->device->name, NULL);
  gst_query_set_context (query, gst_context);
  gst_context_unref (gst_context);
  return TRUE;
}

gboolean
gst_cl_query_peers_context (GstElement * element, GstPadDirection direction,
    gboolean (*wanted) (gpointer user_data), gpointer user_data)
{
  GstIterator *it = direction == GST_PAD_SRC ?
      gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  GValue item = G_VALUE_INIT;
  gboolean found = FALSE;

  while (!found && gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GstPad *pad = g_value_get_object (&item);
    GstQuery *query = gst_query_new_context (GST_CL_CONTEXT_TYPE_NAME);
    GstContext *gst_context = NULL;

    /* The answer goes through GstElement::set_context, which takes it when
     * it is for the element's device and remembers it either way. */
    if (gst_pad_peer_query (pad, query)) {
      gst_query_parse_context (query, &gst_context);
      if (gst_context) {
        gst_element_set_context (element, gst_context);
        found = wanted (user_data);
      }
    }
    gst_query_unref (query);
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  return found;
}

typedef struct
{
  const GstCLDeviceInfo *device;
  GstCLContext **context;
} ContextWanted;

static gboolean
context_is_wanted (gpointer user_data)
{
  ContextWanted *w = user_data;
  return *w->context && (*w->context)->device == w->device;
}

gboolean
gst_cl_ensure_element_context (GstElement * element,
    const GstCLDeviceInfo * device, GstCLContext ** context, GError ** error)
{
  GstMessage *msg;

  g_return_val_if_fail (device != NULL, FALSE);

  if (*context && (*context)->device == device)
    return TRUE;
  gst_clear_object (context);

  ContextWanted wanted = { device, context };
  if (gst_cl_query_peers_context (element, GST_PAD_SRC, context_is_wanted,
          &wanted) || gst_cl_query_peers_context (element, GST_PAD_SINK,
          context_is_wanted, &wanted))
    return TRUE;

  /* Ask the application and the bins; an answer arrives through
   * GstElement::set_context, synchronously. */
  msg = gst_message_new_need_context (GST_OBJECT (element),
      GST_CL_CONTEXT_TYPE_NAME);
  gst_element_post_message (element, msg);
  if (*context && (*context)->device == device)
    return TRUE;
  gst_clear_object (context);

  *context = gst_cl_context_new_full (device,
      gst_cl_timing_requested (GST_CL_TIMING_NONE), error);
  if (!*context)
    return FALSE;

  {
    GstContext *gst_context = gst_context_new_cl_context (*context);
    gst_element_set_context (element, gst_context);
    msg = gst_message_new_have_context (GST_OBJECT (element), gst_context);
    gst_element_post_message (element, msg);
  }
  return TRUE;
}
