/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frame memory that the CPU and OpenCL kernels share.
 *
 * Devices that share host memory (CPU devices, integrated GPUs): the host
 * storage is 4096-byte aligned and wrapped with CL_MEM_USE_HOST_PTR, a CPU
 * map is clEnqueueMapBuffer plus one wait on its event, an unmap is queued
 * without waiting. No frame is ever copied.
 *
 * CPU devices: the wrapped host storage is the buffer itself (the kernels
 * run on this CPU, on these bytes), so a CPU map only waits until the last
 * command that used the memory has completed, and queues nothing. Queued
 * map/unmap commands cost four commands per frame on PoCL and, worse, put
 * the producer's map of the next frame behind the current kernel in the
 * in-order queue, so source and filter could never overlap. Every pixel
 * test would fail if a driver kept a shadow copy.
 *
 * Discrete GPUs: kernels work on device memory; the host side is a pinned
 * CL_MEM_ALLOC_HOST_PTR staging buffer, mapped once for the memory's life.
 * A flag says which copy is newer; GST_MAP_CL uploads (non-blocking) when
 * the host copy is newer, a CPU map downloads and waits when the device
 * copy is. Uploads and downloads go on the context's transfer queues when
 * it has them, so the frames cross the bus while the kernels run; there,
 * a frame the CPU wrote is uploaded when its writer unmaps it, and the
 * output of a chain's last element is downloaded right after its kernel.
 * GST_CL_STAGING=1 gives every device these frames (a test hook). */
#include "gstclmemory.h"
#include "gstclutils.h"

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

enum
{
  STATE_SYNCED,
  STATE_HOST_NEWER,
  STATE_DEVICE_NEWER,
};

struct _GstCLAllocator
{
  GstAllocator parent;
  GstCLContext *context;
};

G_DEFINE_TYPE (GstCLAllocator, gst_cl_allocator, GST_TYPE_ALLOCATOR);

static void
replace (cl_event * slot, cl_event event)
{
  if (event)
    clRetainEvent (event);
  if (*slot)
    clReleaseEvent (*slot);
  *slot = event;
}

static void
replace_event (GstCLMemory * mem, cl_event event)
{
  replace (&mem->last_event, event);
}

static gboolean
is_unified (GstCLMemory * mem)
{
  return mem->staging == NULL;
}

static gboolean
is_direct (GstCLMemory * mem)
{
  return (mem->context->device->type & CL_DEVICE_TYPE_CPU) != 0 &&
      is_unified (mem);
}

/* The execution status of @event's command; CL_QUEUED where it cannot be
 * read (the caller then treats it as not yet run). */
static cl_int
command_status (cl_event event)
{
  cl_int exec;

  if (clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (exec), &exec, NULL) != CL_SUCCESS)
    return CL_QUEUED;
  return exec;
}

/* Waits until the command of *@slot has completed. FALSE when that
 * command failed or the wait did: the contents are then undefined and the
 * event is kept, so every later CPU map fails too until a new command
 * writes the memory (no half-written frame reaches the CPU). */
static gboolean
wait_for (GstCLMemory * mem, cl_event * slot)
{
  cl_int exec;

  if (!*slot)
    return TRUE;
  exec = command_status (*slot);
  if (exec > CL_COMPLETE && !gst_cl_context_wait (mem->context, *slot))
    return FALSE;
  if (exec < 0) {
    GST_WARNING ("the last command on this memory failed: %s (%d)",
        gst_cl_error_name (exec), exec);
    return FALSE;
  }
  replace (slot, NULL);
  return TRUE;
}

/* Waits until the last command that used @mem has completed. */
static gboolean
wait_idle (GstCLMemory * mem)
{
  return wait_for (mem, &mem->last_event);
}

static GstMemory *
cl_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstCLAllocator *self = GST_CL_ALLOCATOR (allocator);
  GstCLContext *ctx = self->context;
  GstCLMemory *mem = g_new0 (GstCLMemory, 1);
  gsize prefix = params ? params->prefix : 0;
  gsize padding = params ? params->padding : 0;
  gsize alloc_size = GST_ROUND_UP_N (prefix + size + padding,
      GST_CL_SIZE_ALIGN);
  cl_int status;

  g_mutex_init (&mem->lock);
  mem->context = gst_object_ref (ctx);
  mem->alloc_size = alloc_size;

  if (ctx->device->host_unified_memory) {
    mem->host_alloc = g_aligned_alloc (1, alloc_size, GST_CL_HOST_ALIGN);
    mem->host_ptr = mem->host_alloc;
    mem->buffer = clCreateBuffer (ctx->context,
        CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, alloc_size, mem->host_ptr,
        &status);
    if (!gst_cl_result (status, "clCreateBuffer(USE_HOST_PTR)"))
      goto failed;
  } else {
    cl_event map_event = NULL;
    mem->staging = clCreateBuffer (ctx->context,
        CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, alloc_size, NULL, &status);
    if (!gst_cl_result (status, "clCreateBuffer(ALLOC_HOST_PTR)"))
      goto failed;
    mem->host_ptr = clEnqueueMapBuffer (ctx->queue, mem->staging, CL_FALSE,
        CL_MAP_READ | CL_MAP_WRITE, 0, alloc_size, 0, NULL, &map_event,
        &status);
    if (!gst_cl_result (status, "clEnqueueMapBuffer(staging)"))
      goto failed;
    if (!gst_cl_context_wait (ctx, map_event)) {
      clReleaseEvent (map_event);
      goto failed;
    }
    clReleaseEvent (map_event);
    mem->buffer = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE,
        alloc_size, NULL, &status);
    if (!gst_cl_result (status, "clCreateBuffer(device)"))
      goto failed;
    mem->state = STATE_HOST_NEWER;
  }

  gst_memory_init (GST_MEMORY_CAST (mem), GST_MEMORY_FLAG_NO_SHARE,
      allocator, NULL, alloc_size, GST_CL_HOST_ALIGN - 1, prefix, size);
  gst_cl_context_count (ctx, GST_CL_COUNTER_BUFFERS_ALLOCATED, 1);
  return GST_MEMORY_CAST (mem);

failed:
  if (mem->buffer)
    clReleaseMemObject (mem->buffer);
  /* A staging buffer released while mapped keeps its mapping alive in the
   * driver (PoCL: its host memory, never freed). */
  if (mem->staging && mem->host_ptr)
    clEnqueueUnmapMemObject (ctx->queue, mem->staging, mem->host_ptr, 0,
        NULL, NULL);
  if (mem->staging)
    clReleaseMemObject (mem->staging);
  g_aligned_free (mem->host_alloc);
  gst_object_unref (mem->context);
  g_mutex_clear (&mem->lock);
  g_free (mem);
  return NULL;
}

static void
cl_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCLMemory *mem = (GstCLMemory *) memory;
  GstCLContext *ctx = mem->context;

  /* Host storage must outlive every queued command that uses it. */
  if (!wait_for (mem, &mem->transfer_event) || !wait_idle (mem))
    gst_cl_context_finish (ctx);
  replace (&mem->transfer_event, NULL);
  replace_event (mem, NULL);
  if (mem->staging) {
    clEnqueueUnmapMemObject (ctx->queue, mem->staging, mem->host_ptr, 0, NULL,
        NULL);
    clReleaseMemObject (mem->staging);
  }
  clReleaseMemObject (mem->buffer);
  g_aligned_free (mem->host_alloc);
  gst_object_unref (ctx);
  g_mutex_clear (&mem->lock);
  g_free (mem);
}

/* Before a command on a transfer queue waits for the memory's last
 * command. One that has ended is forgotten: there is nothing to wait for,
 * and the thread (a writer's, for an early upload) leaves alone the main
 * queue that another thread fills; on NVIDIA a flush of it from there costs
 * the queued chain (docs/PERFORMANCE.md, "Session 37"). One still queued is
 * submitted first, as a command may only wait on events of commands that
 * have been submitted. */
static gboolean
submit_last_command (GstCLMemory * mem)
{
  cl_int exec;

  if (!mem->last_event)
    return TRUE;
  exec = command_status (mem->last_event);
  if (exec == CL_COMPLETE) {
    replace_event (mem, NULL);
    return TRUE;
  }
  return exec != CL_QUEUED ||
      gst_cl_result (clFlush (mem->context->queue), "clFlush");
}

/* Submits the transfer *@event just queued on @queue: a command on
 * another queue may come to wait for it, and only a host wait submits
 * what it waits for. Where the flush fails, the transfer may never run:
 * the host waits for it, so nothing depends on it, and drops *@event. */
static gboolean
submit_transfer (GstCLContext * ctx, cl_command_queue queue,
    cl_event * event, const gchar * what)
{
  if (gst_cl_result (clFlush (queue), what))
    return TRUE;
  gst_cl_context_wait (ctx, *event);
  clReleaseEvent (*event);
  *event = NULL;
  return FALSE;
}

/* Queues the host copy's upload on the upload queue, after the memory's
 * last command, and submits it; @event: its end. The main queue does not
 * wait for it yet (order_after_transfer). */
static gboolean
queue_upload (GstCLMemory * mem, cl_event * event)
{
  GstCLContext *ctx = mem->context;
  cl_uint n_wait;
  cl_int status;

  if (!submit_last_command (mem))
    return FALSE;
  n_wait = mem->last_event ? 1 : 0;
  status = clEnqueueWriteBuffer (ctx->upload_queue, mem->buffer, CL_FALSE,
      0, mem->alloc_size, mem->host_ptr, n_wait,
      n_wait ? &mem->last_event : NULL, event);
  return gst_cl_result (status, "clEnqueueWriteBuffer(upload)") &&
      submit_transfer (ctx, ctx->upload_queue, event, "clFlush(uploads)");
}

/* Kernels queued on the main queue from now on use the frame: they wait
 * for its transfer @event behind a barrier, and only they do. Where the
 * barrier cannot be queued, the host waits for the transfer, so that
 * nothing on the main queue runs ahead of it, and returns FALSE. */
static gboolean
order_after_transfer (GstCLContext * ctx, cl_event event)
{
  cl_event barrier = NULL;
  cl_int status = clEnqueueBarrierWithWaitList (ctx->queue, 1, &event,
      &barrier);

  if (!gst_cl_result (status, "clEnqueueBarrierWithWaitList(transfer)")) {
    gst_cl_context_wait (ctx, event);
    return FALSE;
  }
  clReleaseEvent (barrier);
  return TRUE;
}

/* Queues the host copy's upload without waiting; @event: its end. */
static gboolean
upload (GstCLMemory * mem, cl_event * event)
{
  GstCLContext *ctx = mem->context;
  cl_int status;

  if (!ctx->upload_queue) {
    status = clEnqueueWriteBuffer (ctx->queue, mem->buffer, CL_FALSE, 0,
        mem->alloc_size, mem->host_ptr, 0, NULL, event);
    return gst_cl_result (status, "clEnqueueWriteBuffer(upload)");
  }
  if (!queue_upload (mem, event))
    return FALSE;
  if (!order_after_transfer (ctx, *event)) {
    clReleaseEvent (*event);
    *event = NULL;
    return FALSE;
  }
  return TRUE;
}

/* @event (its reference taken over), a transfer just queued, is the
 * memory's last command and the last one on its staging copy. */
static void
take_transfer (GstCLMemory * mem, cl_event event, GstCLCounter counter)
{
  replace_event (mem, event);
  replace (&mem->transfer_event, event);
  clReleaseEvent (event);
  gst_cl_context_count (mem->context, counter, 1);
}

/* An early transfer, queued on its own queue, makes both copies the same
 * once it ends: CPU maps wait for it, the next kernel map orders the main
 * queue after it. */
static void
take_early_transfer (GstCLMemory * mem, cl_event event, GstCLCounter counter)
{
  take_transfer (mem, event, counter);
  mem->state = STATE_SYNCED;
  mem->transfer_unordered = TRUE;
}

/* On a discrete GPU, the thread that wrote the frame (a decoder's, a
 * source's) queues its upload as it lets go of it, so that the thread of
 * the element that reads it does not: with threads around a chain, that
 * thread's work per frame sets the pace. If this fails, the frame stays
 * newer on the host, and the first kernel map uploads it (or reports). */
static void
upload_early (GstCLMemory * mem)
{
  cl_event ev = NULL;

  if (queue_upload (mem, &ev))
    take_early_transfer (mem, ev, GST_CL_COUNTER_UPLOADS);
}

/* Queues the device copy's download without waiting; @event: its end. */
static gboolean
download (GstCLMemory * mem, cl_event * event)
{
  GstCLContext *ctx = mem->context;
  cl_uint n_wait;
  cl_int status;

  /* Without the event of the command that wrote the memory, only the main
   * queue's order puts the download after it. */
  if (!ctx->download_queue || !mem->last_event) {
    status = clEnqueueReadBuffer (ctx->queue, mem->buffer, CL_FALSE, 0,
        mem->alloc_size, mem->host_ptr, 0, NULL, event);
    return gst_cl_result (status, "clEnqueueReadBuffer(download)");
  }
  /* The last command that used the memory wrote it or came after the one
   * that did. */
  if (!submit_last_command (mem))
    return FALSE;
  n_wait = mem->last_event ? 1 : 0;
  status = clEnqueueReadBuffer (ctx->download_queue, mem->buffer, CL_FALSE,
      0, mem->alloc_size, mem->host_ptr, n_wait,
      n_wait ? &mem->last_event : NULL, event);
  return gst_cl_result (status, "clEnqueueReadBuffer(download)");
}

static gpointer
map_for_cl (GstCLMemory * mem, GstMapFlags flags)
{
  GstCLContext *ctx = mem->context;

  /* Kernels must not write the memory while a download reads it, nor
   * read it before an upload wrote it. (No event: the host saw it end.) */
  if (mem->transfer_unordered) {
    mem->transfer_unordered = FALSE;
    if (mem->transfer_event && !order_after_transfer (ctx,
            mem->transfer_event))
      return NULL;
  }
  if (!is_unified (mem) && mem->state == STATE_HOST_NEWER &&
      (flags & GST_MAP_READ)) {
    cl_event ev = NULL;
    if (!upload (mem, &ev))
      return NULL;
    take_transfer (mem, ev, GST_CL_COUNTER_UPLOADS);
  }
  if (!is_unified (mem)) {
    if (flags & GST_MAP_WRITE)
      mem->state = STATE_DEVICE_NEWER;
    else if (mem->state == STATE_HOST_NEWER)
      mem->state = STATE_SYNCED;
  }
  return mem->buffer;
}

static gpointer
map_for_cpu (GstCLMemory * mem, GstMapFlags flags)
{
  GstCLContext *ctx = mem->context;
  cl_event ev = NULL;
  cl_int status;

  if (mem->cpu_maps++ > 0)
    goto done;

  if (is_direct (mem)) {
    if (!wait_idle (mem))
      goto failed;
  } else if (is_unified (mem)) {
    gpointer ptr = clEnqueueMapBuffer (ctx->queue, mem->buffer, CL_FALSE,
        CL_MAP_READ | CL_MAP_WRITE, 0, mem->alloc_size, 0, NULL, &ev,
        &status);
    if (!gst_cl_result (status, "clEnqueueMapBuffer"))
      goto failed;
    if (!gst_cl_context_wait (ctx, ev)) {
      clReleaseEvent (ev);
      clEnqueueUnmapMemObject (ctx->queue, mem->buffer, ptr, 0, NULL, NULL);
      goto failed;
    }
    clReleaseEvent (ev);
    if (ptr != mem->host_ptr) {
      /* USE_HOST_PTR maps must return the host pointer (spec 5.4.2). */
      GST_ERROR ("driver mapped %p, not the host pointer %p", ptr,
          mem->host_ptr);
      clEnqueueUnmapMemObject (ctx->queue, mem->buffer, ptr, 0, NULL, NULL);
      goto failed;
    }
  } else if (mem->state == STATE_DEVICE_NEWER) {
    if (!download (mem, &ev))
      goto failed;
    gst_cl_context_count (ctx, GST_CL_COUNTER_DOWNLOADS, 1);
    if (!gst_cl_context_wait (ctx, ev)) {
      clReleaseEvent (ev);
      goto failed;
    }
    replace_event (mem, NULL);
    replace (&mem->transfer_event, NULL);
    clReleaseEvent (ev);
    mem->state = STATE_SYNCED;
  } else {
    /* An upload may still be reading the staging memory; kernels do not
     * touch it, so the CPU need not wait for them. */
    if (!wait_for (mem, &mem->transfer_event))
      goto failed;
  }

done:
  if (flags & GST_MAP_WRITE) {
    mem->cpu_written = TRUE;
    mem->kernel_written = FALSE;
  }
  return mem->host_ptr;

failed:
  mem->cpu_maps--;
  return NULL;
}

static gpointer
cl_map_full (GstMemory * memory, GstMapInfo * info, gsize maxsize)
{
  GstCLMemory *mem = (GstCLMemory *) memory;
  gpointer ptr;

  g_mutex_lock (&mem->lock);
  if (info->flags & GST_MAP_CL)
    ptr = map_for_cl (mem, info->flags);
  else
    ptr = map_for_cpu (mem, info->flags);
  g_mutex_unlock (&mem->lock);
  return ptr;
}

static void
cl_unmap_full (GstMemory * memory, GstMapInfo * info)
{
  GstCLMemory *mem = (GstCLMemory *) memory;
  GstCLContext *ctx = mem->context;

  if (info->flags & GST_MAP_CL)
    return;

  g_mutex_lock (&mem->lock);
  if (--mem->cpu_maps == 0) {
    if (is_direct (mem)) {
      /* Nothing to queue: kernels read these very bytes. */
    } else if (is_unified (mem)) {
      cl_event ev = NULL;
      if (gst_cl_result (clEnqueueUnmapMemObject (ctx->queue, mem->buffer,
                  mem->host_ptr, 0, NULL, &ev), "clEnqueueUnmapMemObject")) {
        replace_event (mem, ev);
        clReleaseEvent (ev);
      }
    } else if (mem->cpu_written) {
      mem->state = STATE_HOST_NEWER;
      if (ctx->early_uploads)
        upload_early (mem);
    }
    mem->cpu_written = FALSE;
  }
  g_mutex_unlock (&mem->lock);
}

/* A copy made on the device, queued without waiting. */
static GstMemory *
cl_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstCLMemory *src = (GstCLMemory *) memory;
  GstAllocationParams params;
  GstCLMemory *dst;
  GstMapInfo sinfo, dinfo;
  cl_event ev = NULL;
  cl_int status;

  gst_allocation_params_init (&params);
  params.align = GST_CL_HOST_ALIGN - 1;
  if (size == -1)
    size = memory->size > (gsize) offset ? (gssize) (memory->size - offset) : 0;
  dst = (GstCLMemory *) cl_alloc (memory->allocator, size, &params);
  if (!dst)
    return NULL;
  if (!gst_memory_map (memory, &sinfo, GST_MAP_READ | GST_MAP_CL))
    goto failed;
  if (!gst_memory_map (GST_MEMORY_CAST (dst), &dinfo,
          GST_MAP_WRITE | GST_MAP_CL)) {
    gst_memory_unmap (memory, &sinfo);
    goto failed;
  }
  status = clEnqueueCopyBuffer (src->context->queue, src->buffer, dst->buffer,
      memory->offset + offset, 0, size, 0, NULL, &ev);
  gst_memory_unmap (GST_MEMORY_CAST (dst), &dinfo);
  gst_memory_unmap (memory, &sinfo);
  if (!gst_cl_result (status, "clEnqueueCopyBuffer"))
    goto failed;
  gst_cl_context_count (src->context, GST_CL_COUNTER_FRAME_COPIES, 1);
  gst_cl_memory_set_event (src, ev, FALSE);
  gst_cl_memory_set_event (dst, ev, TRUE);
  clReleaseEvent (ev);
  return GST_MEMORY_CAST (dst);

failed:
  gst_memory_unref (GST_MEMORY_CAST (dst));
  return NULL;
}

static GstMemory *
cl_share (GstMemory * memory, gssize offset, gssize size)
{
  return NULL;                  /* GST_MEMORY_FLAG_NO_SHARE */
}

static void
gst_cl_allocator_finalize (GObject * object)
{
  gst_clear_object (&GST_CL_ALLOCATOR (object)->context);
  G_OBJECT_CLASS (gst_cl_allocator_parent_class)->finalize (object);
}

static void
gst_cl_allocator_class_init (GstCLAllocatorClass * klass)
{
  GstAllocatorClass *alloc_class = GST_ALLOCATOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cl_allocator_finalize;  alloc_class->alloc = cl_alloc;
  alloc_class->free = cl_free;
}

static void
gst_cl_allocator_init (GstCLAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CL_MEMORY_TYPE_NAME;
  alloc->mem_map_full = cl_map_full;
  alloc->mem_unmap_full = cl_unmap_full;
  alloc->mem_copy = cl_copy;
  alloc->mem_share = cl_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cl_allocator_new (GstCLContext * context)
{
  GstCLAllocator *self = g_object_new (GST_TYPE_CL_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_ALLOCATOR_CAST (self);
}

GstCLContext *
gst_cl_allocator_get_context (GstAllocator * allocator)
{
  return GST_IS_CL_ALLOCATOR (allocator) ?
      GST_CL_ALLOCATOR (allocator)->context : NULL;
}

gboolean
gst_is_cl_memory (GstMemory * mem)
{
  return mem && mem->allocator && GST_IS_CL_ALLOCATOR (mem->allocator);
}

gboolean
gst_cl_memory_is_of_context (GstMemory * mem, GstCLContext * context)
{
  return gst_is_cl_memory (mem) && ((GstCLMemory *) mem)->context == context;
}

void
gst_cl_memory_set_event (GstCLMemory * mem, cl_event event,
    gboolean device_written)
{
  g_mutex_lock (&mem->lock);
  replace_event (mem, event);
  if (device_written)
    mem->kernel_written = TRUE;
  if (device_written && !is_unified (mem))
    mem->state = STATE_DEVICE_NEWER;
  g_mutex_unlock (&mem->lock);
}

void
gst_cl_memory_download_early (GstCLMemory * mem)
{
  cl_event ev = NULL;

  g_mutex_lock (&mem->lock);
  /* If this fails, the consumer's map downloads (or reports). */
  if (mem->context->early_downloads && mem->state == STATE_DEVICE_NEWER &&
      mem->last_event && download (mem, &ev) &&
      submit_transfer (mem->context, mem->context->download_queue, &ev,
          "clFlush(downloads)"))
    take_early_transfer (mem, ev, GST_CL_COUNTER_DOWNLOADS);
  g_mutex_unlock (&mem->lock);
}

gboolean
gst_cl_memory_is_kernel_written (GstMemory * memory)
{
  GstCLMemory *mem = (GstCLMemory *) memory;
  gboolean written;

  if (!gst_is_cl_memory (memory))
    return FALSE;
  g_mutex_lock (&mem->lock);
  written = mem->kernel_written;
  g_mutex_unlock (&mem->lock);
  return written;
}
