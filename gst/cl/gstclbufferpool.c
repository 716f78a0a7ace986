/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclbufferpool.h"
#include "gstclmemory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

struct _GstCLBufferPool
{
  GstVideoBufferPool parent;
  GstCLContext *context;
  GWeakRef owner;               /* element that reports failed allocations */
};

G_DEFINE_TYPE (GstCLBufferPool, gst_cl_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static guint
bounded_max (guint min, guint max)
{
  guint bound = MAX (min, GST_CL_BUFFER_POOL_DEFAULT_MAX);
  if (max == 0 || max > bound)
    return bound;
  return max;
}

void
gst_cl_buffer_pool_config_prepare (GstCLContext * context,
    GstStructure * config, GstCaps * caps, guint size, guint min, guint max)
{
  GstAllocator *allocator = gst_cl_allocator_new (context);
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  params.align = GST_CL_HOST_ALIGN - 1;
  gst_buffer_pool_config_set_params (config, caps, size, min,
      bounded_max (min, max));
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);
}

static gboolean
gst_cl_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstCLBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstAllocator *allocator = NULL;
  GstAllocationParams params;
  GstCaps *caps = NULL;
  guint size, min, max;
  gboolean acceptable = TRUE;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps) {
    GST_WARNING_OBJECT (pool, "config without caps");
    return FALSE;
  }
  if (!gst_buffer_pool_config_get_allocator (config, &allocator, &params))
    gst_allocation_params_init (&params);

  if (gst_cl_allocator_get_context (allocator) != self->context ||
      params.align < GST_CL_HOST_ALIGN - 1 || bounded_max (min, max) != max ||
      !gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META)) {
    GST_DEBUG_OBJECT (pool, "rewriting config: allocator %" GST_PTR_FORMAT
        ", align %" G_GSIZE_FORMAT ", max %u", allocator, params.align, max);
    gst_cl_buffer_pool_config_prepare (self->context, config, caps, size, min,
        max);
    acceptable = FALSE;
  }

  if (!GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->set_config
      (pool, config))
    return FALSE;
  return acceptable;
}

/* A failed allocation would otherwise only reach the application as the
 * source's "Internal data stream error": say what failed, from the element
 * that made the pool. */
static GstFlowReturn
gst_cl_buffer_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstCLBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstFlowReturn ret =
      GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->alloc_buffer
      (pool, buffer, params);

  if (ret == GST_FLOW_ERROR) {
    GstElement *owner = g_weak_ref_get (&self->owner);
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint size = 0;

    gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
    gst_structure_free (config);
    if (owner) {
      GST_ELEMENT_ERROR (owner, RESOURCE, NO_SPACE_LEFT,
          ("Could not allocate a %u-byte OpenCL frame on \"%s\".", size,
              self->context->device->name),
          ("clCreateBuffer failed (see the \"cl\" debug category); the "
              "device may be out of memory"));
      gst_object_unref (owner);
    }
  }
  return ret;
}

void
gst_cl_buffer_pool_set_owner (GstBufferPool * pool, GstElement * owner)
{
  if (GST_IS_CL_BUFFER_POOL (pool))
    g_weak_ref_set (&GST_CL_BUFFER_POOL (pool)->owner, owner);
}

static void
gst_cl_buffer_pool_finalize (GObject * object)
{
  g_weak_ref_clear (&GST_CL_BUFFER_POOL (object)->owner);
  gst_clear_object (&GST_CL_BUFFER_POOL (object)->context);
  G_OBJECT_CLASS (gst_cl_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cl_buffer_pool_class_init (GstCLBufferPoolClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_buffer_pool_finalize;
  GST_BUFFER_POOL_CLASS (klass)->set_config = gst_cl_buffer_pool_set_config;
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer =
      gst_cl_buffer_pool_alloc_buffer;
}

static void
gst_cl_buffer_pool_init (GstCLBufferPool * self)
{
  g_weak_ref_init (&self->owner, NULL);
}

GstBufferPool *
gst_cl_buffer_pool_new (GstCLContext * context)
{
  GstCLBufferPool *self = g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_BUFFER_POOL_CAST (self);
}

GstCLContext *
gst_cl_buffer_pool_get_context (GstBufferPool * pool)
{
  return GST_IS_CL_BUFFER_POOL (pool) ? GST_CL_BUFFER_POOL (pool)->context :
      NULL;
}
