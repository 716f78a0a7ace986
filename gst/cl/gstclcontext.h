/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>
#include "gstcldevice.h"

G_BEGIN_DECLS

#define GST_CL_CONTEXT_TYPE_NAME "gst.cl.context"

#define GST_TYPE_CL_CONTEXT (gst_cl_context_get_type ())
G_DECLARE_FINAL_TYPE (GstCLContext, gst_cl_context, GST, CL_CONTEXT, GstObject)

/* What the runtime counts, per context, so tests can assert on it. */
typedef enum
{
  GST_CL_COUNTER_HOST_WAITS,    /* clWaitForEvents / clFinish from our code */
  GST_CL_COUNTER_FRAME_COPIES,  /* whole frames copied by the CPU or with
                                 * read/write/copy commands on a device that
                                 * shares host memory */
  GST_CL_COUNTER_UPLOADS,       /* host -> device transfers (discrete GPU) */
  GST_CL_COUNTER_DOWNLOADS,     /* device -> host transfers (discrete GPU) */
  GST_CL_COUNTER_PROGRAM_BUILDS,        /* programs compiled from source */
  GST_CL_COUNTER_PROGRAM_CACHE_LOADS,   /* programs loaded from the disk cache */
  GST_CL_COUNTER_BUFFERS_ALLOCATED,     /* GstCLMemory objects created */
  GST_CL_COUNTER_WRAPPED_INPUTS,        /* foreign frames used without a copy */
  GST_CL_N_COUNTERS
} GstCLCounter;

struct _GstCLContext
{
  GstObject parent;

  const GstCLDeviceInfo *device;
  cl_context context;
  /* The one in-order queue every element of this context enqueues on. */
  cl_command_queue queue;
  /* Discrete GPUs only (NULL elsewhere, or as GST_CL_TRANSFER_QUEUES
   * says): the frames' uploads and downloads, each on an in-order queue of
   * its own, so that the next frame crosses the bus one way and the last
   * one the other way while this one's kernels run (a GPU has a copy
   * engine each way). A transfer waits for the memory's last command, and
   * the next kernel map of the memory puts a barrier on its event on
   * @queue, so what elements enqueue there stays in order with it. */
  cl_command_queue upload_queue;
  cl_command_queue download_queue;
  /* GST_CL_TIMING_PROBE: a timed queue of its own for latency probes
   * (gst_cl_context_latency_start/_end), so device=auto reads a frame's
   * latency on the device's clock while the queues that do the work stay
   * untimed. NULL otherwise. */
  cl_command_queue probe_queue;
  cl_mem probe_buffer;          /* what the probes write: 4 bytes */
  /* With an upload queue (unless GST_CL_EARLY_UPLOADS=0): a frame the CPU
   * wrote is uploaded when the writer unmaps it, in the writer's thread,
   * and @queue waits for that upload when a kernel maps the frame. */
  gboolean early_uploads;
  /* With a download queue (unless GST_CL_EARLY_DOWNLOADS=0): an element
   * whose output goes to a CPU consumer queues the download right after
   * its kernel, and the consumer's map only waits for it. */
  gboolean early_downloads;
  /* Whether the queues time their commands (CL_QUEUE_PROFILING_ENABLE):
   * the benchmarks and checkers read kernel times. Off for the elements'
   * contexts, device=auto's included (unless GST_CL_PROFILING=1): on
   * NVIDIA the queued 1080p chain took 0.12 ms a frame timed against 0.08
   * untimed, its uploads and downloads kept from running at the same time
   * (docs/PERFORMANCE.md, "Session 37"). */
  gboolean profiling;

  /*< private >*/
  gint64 counters[GST_CL_N_COUNTERS];
  GMutex lock;
  GHashTable *programs;         /* cache key -> cl_program */
};

/* A context whose queues time their commands (the benchmarks, the
 * checkers); gst_cl_context_new_full () lets the caller choose. The
 * elements' contexts, device=auto's included, time theirs only when
 * gst_cl_timing_requested () (GST_CL_PROFILING=1). */
GstCLContext *gst_cl_context_new (const GstCLDeviceInfo * device,
    GError ** error);
typedef enum
{
  GST_CL_TIMING_NONE,
  GST_CL_TIMING_PROBE,          /* untimed, with a timed probe queue */
  GST_CL_TIMING_ALL,
} GstCLTiming;

GstCLContext *gst_cl_context_new_full (const GstCLDeviceInfo * device,
    GstCLTiming timing, GError ** error);
/* GST_CL_TIMING_ALL with GST_CL_PROFILING=1, else @otherwise. */
GstCLTiming gst_cl_timing_requested (GstCLTiming otherwise);
/* A frame's latency on the device's clock, waiting for a time slice
 * included: gst_cl_context_latency_start () before the work is queued (a
 * probe, or on a timed @queue a marker), gst_cl_context_latency_end ()
 * after it with the work's last event @done (a probe that waits for it,
 * with the work's queue and the probe queue flushed; or @done itself,
 * retained). Each returns a reference, or NULL where the context cannot
 * time (no probe queue, untimed) or on failure. gst_cl_latency_ns ():
 * QUEUED(@start) to END(@end) once @end has completed, -1 when the device
 * gives no times. */
cl_event gst_cl_context_latency_start (GstCLContext * context);
cl_event gst_cl_context_latency_end (GstCLContext * context, cl_event done);
gint64 gst_cl_latency_ns (cl_event start, cl_event end);

void gst_cl_context_count (GstCLContext * context, GstCLCounter counter,
    gint64 n);
gint64 gst_cl_context_get_counter (GstCLContext * context,
    GstCLCounter counter);
/* Snapshot of the counters as a "gst-cl-stats" structure. */
GstStructure *gst_cl_context_get_stats (GstCLContext * context);

/* Waits on the host for @event (counted as a host wait). */
gboolean gst_cl_context_wait (GstCLContext * context, cl_event event);
/* 0: every transfer on the main queue; 1: uploads on their own; 2 (the
 * default): uploads and downloads each on their own. */
#define GST_CL_TRANSFER_QUEUES_ENV "GST_CL_TRANSFER_QUEUES"
/* 1: the elements' shared contexts time their commands too, as before
 * session 37 (0, the default: they do not). */
#define GST_CL_PROFILING_ENV "GST_CL_PROFILING"
/* 1 (the default): uploads at the writer's unmap where there is an upload
 * queue; 0: when a kernel first maps the frame, in the reader's thread. */
#define GST_CL_EARLY_UPLOADS_ENV "GST_CL_EARLY_UPLOADS"
/* 1 (the default): downloads right after the kernel where there is a
 * download queue and the consumer is not an OpenCL element of this
 * context; 0: when the consumer maps the frame, in its thread. */
#define GST_CL_EARLY_DOWNLOADS_ENV "GST_CL_EARLY_DOWNLOADS"

/* Waits for everything queued so far (counted as a host wait). */
gboolean gst_cl_context_finish (GstCLContext * context);

/* Which devices' programs the disk cache keeps: unset, every device but
 * PoCL's (which keeps its own, see gstclprogram.c); 1: every device; 0:
 * none (as GST_CL_CACHE_DIR=""). */
#define GST_CL_CACHE_BINARIES_ENV "GST_CL_CACHE_BINARIES"
/* Builds (or fetches from the in-memory or disk cache) the embedded kernel
 * source @source_name compiled with @options. Returns a new reference. */
cl_program gst_cl_context_get_program (GstCLContext * context,
    const gchar * source_name, const gchar * options, GError ** error);

/* The text a program named @source_name is built from (kernels/common.cl,
 * then kernels/@source_name.cl), or NULL for an unknown name. Free it. */
gchar *gst_cl_program_source (const gchar * source_name);

/* @program's binary for its one device (NVIDIA: PTX text), what the
 * program cache stores; NULL if the driver gives none. */
GBytes *gst_cl_program_binary (cl_program program);

/* Appends to build @options the flags that keep only @kernels (a NULL-
 * terminated list of kernel names) in the program: kernels/common.cl's
 * WANT (). NVIDIA compiles every kernel of a program when it builds it, so
 * an element names the kernels its device's paths launch. */
void gst_cl_program_options_want (GString * options,
    const gchar * const *kernels);

/* The binary in a program cache entry (the file's bytes), or NULL when the
 * entry is short, truncated or corrupt (gstclprogram.c gives the layout).
 * Exposed for the fuzzer. */
GBytes *gst_cl_program_cache_parse (const guint8 * data, gsize len);

/* GstContext plumbing, the gst_cuda_ensure_element_context pattern: reuse a
 * neighbour's context for the same device (query downstream, upstream, then
 * need-context), otherwise create one and post have-context. Answers reach
 * @context through the element's set_context, which must call
 * gst_cl_handle_set_context() on that same @context pointer. */
gboolean gst_cl_ensure_element_context (GstElement * element,
    const GstCLDeviceInfo * device, GstCLContext ** context, GError ** error);
/* Asks the peers of @element's pads in @direction for a "gst.cl.context",
 * hands every answer to gst_element_set_context() and stops at the first
 * after which @wanted (@user_data) holds. Returns whether it did. */
gboolean gst_cl_query_peers_context (GstElement * element,
    GstPadDirection direction, gboolean (*wanted) (gpointer user_data),
    gpointer user_data);
/* Takes @gst_context's GstCLContext when it is for @device. */
gboolean gst_cl_handle_set_context (GstElement * element,
    GstContext * gst_context, const GstCLDeviceInfo * device,
    GstCLContext ** context);
/* Answers a context query with @context. */
gboolean gst_cl_handle_context_query (GstElement * element, GstQuery * query,
    GstCLContext * context);

GstContext *gst_context_new_cl_context (GstCLContext * context);
gboolean gst_context_get_cl_context (GstContext * gst_context,
    GstCLContext ** context);

G_END_DECLS
