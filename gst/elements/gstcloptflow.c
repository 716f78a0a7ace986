/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-cloptflow
 * @title: cloptflow
 *
 * Dense optical flow between consecutive frames on an OpenCL device:
 * pyramidal Lucas-Kanade with one vector per pixel, OpenCV's convention
 * prev(y, x) ~ next(y + dy, x + dx). docs/OPTFLOW.md describes the method
 * and its accuracy beside cv2.DISOpticalFlow and Farneback.
 *
 * Works on luma: the byte of GRAY8, the Y plane of NV12 and I420, the
 * BT.601 luma of RGBA, BGRA, RGBx and BGRx.
 *
 * `output=overlay` draws the flow onto the frame (colour by direction,
 * opacity by magnitude, or arrows on a 16-pixel grid: `overlay-style`);
 * `output=passthrough` leaves the picture unchanged.
 *
 * Every frame carries a #GstCLFlowMeta (gst/clfilters/gstclflowmeta.h,
 * installed with the plugin's headers) with the field in OpenCL memory:
 * nothing is read back unless the application maps it. With
 * `post-messages=true` an element message "cloptflow" per frame gives
 * `timestamp` (guint64), `mean-dx`, `mean-dy` (gdouble), `block-size`,
 * `grid-width`, `grid-height` (gint) and `dx`, `dy` (GValueArray of gfloat,
 * the mean flow of each block, row-major), computed on the device.
 *
 * The first frame, and the first after a flush, seek, discontinuity or
 * size change, has no predecessor: its flow is zero.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 pattern=ball ! video/x-raw,format=NV12,width=640,height=480 ! cloptflow overlay-style=arrows ! videoconvert ! pngenc snapshot=true ! filesink location=flow.png
 * ]|
 */
#include "gstcloptflow.h"
#include "gstcloptflowkernel.h"
#include "cl/gstclmemory.h"
#include "cl/gstclutils.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_optflow_debug);
#define GST_CAT_DEFAULT gst_cl_optflow_debug

#define FORMATS "{ GRAY8, NV12, I420, RGBA, BGRA, RGBx, BGRx }"

typedef enum
{
  GST_CL_OPTFLOW_OUTPUT_OVERLAY,
  GST_CL_OPTFLOW_OUTPUT_PASSTHROUGH,
} GstCLOptflowOutput;

enum
{
  PROP_0,
  PROP_LEVELS,
  PROP_WINDOW_SIZE,
  PROP_ITERATIONS,
  PROP_FINEST_LEVEL,
  PROP_EPSILON,
  PROP_SAMPLING,
  PROP_OUTPUT,
  PROP_OVERLAY_STYLE,
  PROP_OVERLAY_MAX_MOTION,
  PROP_POST_MESSAGES,
  PROP_MESSAGE_BLOCK_SIZE,
};

#define DEFAULT_LEVELS 5
#define DEFAULT_WINDOW_SIZE 15
#define DEFAULT_ITERATIONS 5
#define DEFAULT_FINEST_LEVEL 0
#define DEFAULT_EPSILON 0.01
#define DEFAULT_SAMPLING GST_CL_OPTFLOW_SAMPLING_AUTO
#define DEFAULT_OUTPUT GST_CL_OPTFLOW_OUTPUT_OVERLAY
#define DEFAULT_OVERLAY_STYLE GST_CL_OPTFLOW_STYLE_COLOUR
#define DEFAULT_OVERLAY_MAX_MOTION 8.0
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_MESSAGE_BLOCK_SIZE 16
#define MAX_ITERATIONS 100
#define MIN_WINDOW_SIZE 3
#define MAX_WINDOW_SIZE (2 * GST_CL_OPTFLOW_MAX_RADIUS + 1)
#define MAX_BLOCK_SIZE 4096

struct _GstCLOptflow
{
  GstCLFilter parent;

  /* properties, under the object lock */
  gint levels;
  gint window_size;
  gint iterations;
  gint finest_level;
  gdouble epsilon;
  GstCLOptflowSampling sampling;
  GstCLOptflowOutput output;
  GstCLOptflowStyle style;
  gdouble max_motion;
  gboolean post_messages;
  gint block_size;

  /* streaming thread */
  GstCLOptflowProgram prog;
  GstCLOptflowState state;      /* the temporal state, all of it */
  gfloat wts[4];
  gboolean reset;               /* forget the previous frame before the next */
  GstBufferPool *field_pool;
  gsize field_size;
  GstBuffer *pending_field;     /* this frame's field, for its meta */
  cl_mem means_mem;             /* block means for messages */
  gint means_gw, means_gh, means_bs;
  gfloat *means_host;
  cl_event means_event;         /* read-back of this frame's means */
};

G_DEFINE_TYPE (GstCLOptflow, gst_cl_optflow, GST_TYPE_CL_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cloptflow, "cloptflow", GST_RANK_NONE,
    GST_TYPE_CL_OPTFLOW);

#define GST_TYPE_CL_OPTFLOW_OUTPUT (gst_cl_optflow_output_get_type ())
static GType
gst_cl_optflow_output_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_OPTFLOW_OUTPUT_OVERLAY, "Draw the flow onto the video", "overlay"},
    {GST_CL_OPTFLOW_OUTPUT_PASSTHROUGH, "Leave the video unchanged",
        "passthrough"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLOptflowOutput", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CL_OPTFLOW_STYLE (gst_cl_optflow_style_get_type ())
static GType
gst_cl_optflow_style_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_OPTFLOW_STYLE_COLOUR, "Colour by direction, opacity by magnitude",
        "colour"},
    {GST_CL_OPTFLOW_STYLE_ARROWS, "Arrows on a 16-pixel grid", "arrows"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLOptflowStyle", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CL_OPTFLOW_SAMPLING (gst_cl_optflow_sampling_get_type ())
static GType
gst_cl_optflow_sampling_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_OPTFLOW_SAMPLING_AUTO, "The faster path measured for the "
          "device: buffers on NVIDIA GPUs and CPUs", "auto"},
    {GST_CL_OPTFLOW_SAMPLING_IMAGE, "OpenCL images with the linear sampler "
          "(buffers where the device has none)", "image"},
    {GST_CL_OPTFLOW_SAMPLING_BUFFER, "Buffers, bilinear by hand", "buffer"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLOptflowSampling", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static void
clear_means (GstCLOptflow * self)
{
  if (self->means_event) {
    clWaitForEvents (1, &self->means_event);
    clReleaseEvent (self->means_event);
    self->means_event = NULL;
  }
  if (self->means_mem)
    clReleaseMemObject (self->means_mem);
  self->means_mem = NULL;
  g_clear_pointer (&self->means_host, g_free);
  self->means_gw = self->means_gh = self->means_bs = 0;
}

static void
clear_field_pool (GstCLOptflow * self)
{
  if (self->pending_field)
    gst_buffer_unref (self->pending_field);
  self->pending_field = NULL;
  if (self->field_pool) {
    gst_buffer_pool_set_active (self->field_pool, FALSE);
    gst_clear_object (&self->field_pool);
  }
  self->field_size = 0;
}

static void
gst_cl_optflow_release (GstCLFilter * filter)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (filter);

  clear_means (self);
  clear_field_pool (self);
  gst_cl_optflow_state_clear (&self->state);
  gst_cl_optflow_program_clear (&self->prog);
}

static gboolean
gst_cl_optflow_build (GstCLFilter * filter, GError ** error)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (filter);
  gint radius;

  GST_OBJECT_LOCK (self);
  radius = self->window_size / 2;
  GST_OBJECT_UNLOCK (self);
  /* The window is baked into the program; everything else is an argument. */
  if (self->prog.program && self->prog.radius == radius)
    return TRUE;
  gst_cl_optflow_program_clear (&self->prog);
  return gst_cl_optflow_program_init (&self->prog,
      gst_cl_filter_get_context (filter), radius, error);
}

/* device=auto moved the element: the previous frame goes with it. Only
 * its level-0 luma is carried (one blocking read on the old device); the
 * new device rebuilds its pyramid, so the next flow is what it would have
 * been without the switch. */
static gboolean
gst_cl_optflow_migrate (GstCLFilter * filter, GstCLContext * from,
    GstCLContext * to, GError ** error)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (filter);
  cl_mem prev = gst_cl_optflow_state_prev_luma (&self->state);
  const gint w = self->state.width, h = self->state.height;
  gfloat *luma = NULL;

  if (prev && !self->reset) {
    luma = g_new (gfloat, (gsize) w * h);
    gst_cl_context_count (from, GST_CL_COUNTER_HOST_WAITS, 1);
    if (clEnqueueReadBuffer (from->queue, prev, CL_TRUE, 0,
            sizeof (gfloat) * w * h, luma, 0, NULL, NULL) != CL_SUCCESS) {
      GST_WARNING_OBJECT (self, "could not read the previous frame: the "
          "flow starts over on %s", to->device->name);
      g_clear_pointer (&luma, g_free);
    }
  }
  if (!GST_CL_FILTER_CLASS (gst_cl_optflow_parent_class)->migrate (filter,
          from, to, error)) {
    g_free (luma);
    return FALSE;
  }
  if (luma) {
    GstCLOptflowSampling sampling;
    gint levels;
    cl_event ev = NULL;
    gboolean images;

    GST_OBJECT_LOCK (self);
    levels = self->levels;
    sampling = self->sampling;
    GST_OBJECT_UNLOCK (self);
    images = gst_cl_optflow_use_images (&self->prog, to->device, sampling, w,
        h);
    if (gst_cl_optflow_state_ensure (&self->state, to, w, h, levels,
            self->prog.radius, images, error) &&
        gst_cl_optflow_state_restore_prev (&self->prog, &self->state,
            to->queue, luma, &ev) == CL_SUCCESS)
      gst_cl_context_count (to, GST_CL_COUNTER_HOST_WAITS, 1);
    else
      GST_WARNING_OBJECT (self, "the flow starts over on %s",
          to->device->name);
    if (ev)
      clReleaseEvent (ev);
    g_clear_error (error);
    g_free (luma);
  }
  return TRUE;
}

static gboolean
gst_cl_optflow_set_info (GstCLFilter * filter, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (filter);
  gfloat *w = self->wts;

  memset (w, 0, sizeof (self->wts));
  switch (GST_VIDEO_INFO_FORMAT (in_info)) {
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBx:
      w[0] = 77, w[1] = 150, w[2] = 29;
      break;
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_BGRx:
      w[2] = 77, w[1] = 150, w[0] = 29;
      break;
    default:
      break;
  }
  /* A new stream or size: the previous frame no longer applies. */
  self->reset = TRUE;
  return TRUE;
}

/* A pool of field buffers in OpenCL memory, so the field is never copied
 * and a frame's meta keeps its own field while later frames are computed. */
static gboolean
ensure_field_pool (GstCLOptflow * self, GstCLContext * ctx, gsize size)
{
  GstAllocationParams params;
  GstAllocator *allocator;
  GstStructure *config;

  if (self->field_pool && self->field_size == size)
    return TRUE;
  clear_field_pool (self);
  self->field_pool = gst_buffer_pool_new ();
  config = gst_buffer_pool_get_config (self->field_pool);
  gst_buffer_pool_config_set_params (config, NULL, size, 0, 0);
  allocator = gst_cl_allocator_new (ctx);
  gst_allocation_params_init (&params);
  params.align = GST_CL_HOST_ALIGN - 1;
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (self->field_pool, config) ||
      !gst_buffer_pool_set_active (self->field_pool, TRUE)) {
    clear_field_pool (self);
    return FALSE;
  }
  self->field_size = size;
  return TRUE;
}

static gboolean
ensure_means (GstCLOptflow * self, GstCLContext * ctx, gint w, gint h,
    gint bs)
{
  const gint gw = (w + bs - 1) / bs, gh = (h + bs - 1) / bs;
  cl_int status;

  if (self->means_mem && self->means_gw == gw && self->means_gh == gh &&
      self->means_bs == bs)
    return TRUE;
  clear_means (self);
  self->means_mem = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE,
      sizeof (cl_float2) * gw * gh, NULL, &status);
  if (!gst_cl_result (status, "clCreateBuffer(block means)"))
    return FALSE;
  self->means_host = g_new (gfloat, 2 * gw * gh);
  self->means_gw = gw;
  self->means_gh = gh;
  self->means_bs = bs;
  return TRUE;
}

/* Overlay of plane @p of @in's format: see gst_cl_ref_optflow_overlay. */
static void
overlay_kind (GstVideoFormat fmt, guint p, gint * kind, gint abc[3])
{
  abc[0] = 0, abc[1] = 1, abc[2] = 2;
  *kind = 0;
  switch (fmt) {
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBx:
      *kind = 1;
      break;
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_BGRx:
      *kind = 1;
      abc[0] = 2, abc[2] = 0;
      break;
    case GST_VIDEO_FORMAT_NV12:
      *kind = p ? 2 : 0;
      break;
    case GST_VIDEO_FORMAT_I420:
      *kind = p ? 2 : 0;
      abc[0] = p == 1 ? 0 : -1;
      abc[1] = p == 2 ? 0 : -1;
      break;
    default:
      break;
  }
}

static cl_int
gst_cl_optflow_process (GstCLFilter * filter, const GstCLFrame * in,
    const GstCLFrame * out, cl_event * done)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (filter);
  GstCLContext *ctx = gst_cl_filter_get_context (filter);
  const GstCLPlane *yp = &in->planes[0];
  const gint w = yp->width, h = yp->height;
  const GstVideoFormat fmt = GST_VIDEO_INFO_FORMAT (&in->info);
  GstCLOptflowParams params;
  GstCLOptflowSampling sampling;
  GstCLOptflowOutput output;
  GstCLOptflowStyle style;
  gfloat max_motion;
  gboolean post;
  gint levels, bs;
  GstBuffer *field = NULL;
  GstMemory *fmem;
  GstMapInfo fmap;
  cl_mem flow;
  cl_event flow_done = NULL;
  GError *err = NULL;
  cl_int status;
  gint prev_slot;
  gboolean had_prev;

  GST_OBJECT_LOCK (self);
  levels = self->levels;
  params.iterations = self->iterations;
  params.finest = self->finest_level;
  params.epsilon = self->epsilon;
  sampling = self->sampling;
  output = self->output;
  style = self->style;
  max_motion = self->max_motion;
  post = self->post_messages;
  bs = self->block_size;
  GST_OBJECT_UNLOCK (self);

  {
    const gboolean images = gst_cl_optflow_use_images (&self->prog,
        ctx->device, sampling, w, h);
    const gboolean fresh = !self->state.tmp;
    if (!gst_cl_optflow_state_ensure (&self->state, ctx, w, h, levels,
            self->prog.radius, images, &err)) {
      GST_ERROR_OBJECT (self, "%s", err->message);
      g_clear_error (&err);
      return CL_OUT_OF_RESOURCES;
    }
    if (fresh)
      GST_INFO_OBJECT (self, "%dx%d, %d levels, window %d, sampling with %s",
          w, h, self->state.levels, 2 * self->prog.radius + 1,
          images ? "images" : "buffers");
  }
  if (self->reset) {
    gst_cl_optflow_state_reset (&self->state);
    self->reset = FALSE;
  }

  /* The field: a buffer of OpenCL memory the meta carries. */
  if (!ensure_field_pool (self, ctx, sizeof (cl_float2) * w * h) ||
      gst_buffer_pool_acquire_buffer (self->field_pool, &field,
          NULL) != GST_FLOW_OK) {
    GST_ERROR_OBJECT (self, "no field buffer");
    return CL_OUT_OF_RESOURCES;
  }
  fmem = gst_buffer_peek_memory (field, 0);
  if (!gst_memory_map (fmem, &fmap, GST_MAP_WRITE | GST_MAP_CL)) {
    gst_buffer_unref (field);
    return CL_OUT_OF_RESOURCES;
  }
  flow = (cl_mem) fmap.data;

  /* The previous frame before this one: restored if a later step fails,
   * so the frame can run again (device=auto on another device) from the
   * same state. enqueue_frame () writes the other pyramid. */
  prev_slot = self->state.prev;
  had_prev = self->state.have_prev;
  status = gst_cl_optflow_enqueue_frame (&self->prog, &self->state,
      ctx->queue, &params, in->mem, yp, self->wts, flow, &flow_done, NULL);
  if (status == CL_SUCCESS && flow_done)
    gst_cl_memory_set_event ((GstCLMemory *) fmem, flow_done, TRUE);
  gst_memory_unmap (fmem, &fmap);
  if (status != CL_SUCCESS) {
    if (flow_done)
      clReleaseEvent (flow_done);
    gst_buffer_unref (field);
    return status;
  }

  /* The picture. */
  *done = NULL;
  for (guint p = 0; p < in->n_planes && status == CL_SUCCESS; p++) {
    cl_event ev = NULL;
    gint kind, abc[3];

    if (output == GST_CL_OPTFLOW_OUTPUT_PASSTHROUGH) {
      status = gst_cl_optflow_enqueue_copy (&self->prog, ctx->queue, in->mem,
          &in->planes[p], out->mem, &out->planes[p], &ev);
    } else {
      overlay_kind (fmt, p, &kind, abc);
      status = gst_cl_optflow_enqueue_overlay (&self->prog, ctx->queue,
          in->mem, &in->planes[p], out->mem, &out->planes[p], kind, abc[0],
          abc[1], abc[2], flow, w, h, style, max_motion, &ev);
    }
    if (ev) {
      if (*done)
        clReleaseEvent (*done);
      *done = ev;
    }
  }

  /* Block means for the message: a small read-back, waited for after the
   * frame is handed on. */
  if (status == CL_SUCCESS && post) {
    if (!ensure_means (self, ctx, w, h, bs)) {
      status = CL_OUT_OF_RESOURCES;
    } else {
      status = gst_cl_optflow_enqueue_block_means (&self->prog, ctx->queue,
          flow, w, h, bs, self->means_mem, NULL);
      if (status == CL_SUCCESS)
        status = clEnqueueReadBuffer (ctx->queue, self->means_mem, CL_FALSE,
            0, sizeof (cl_float2) * self->means_gw * self->means_gh,
            self->means_host, 0, NULL, &self->means_event);
    }
  }
  if (flow_done)
    clReleaseEvent (flow_done);

  if (status != CL_SUCCESS) {
    self->state.prev = prev_slot;
    self->state.have_prev = had_prev;
    gst_buffer_unref (field);
    return status;
  }
  if (self->pending_field)
    gst_buffer_unref (self->pending_field);
  self->pending_field = field;
  return CL_SUCCESS;
}

static void
post_message (GstCLOptflow * self, GstBuffer * outbuf)
{
  GstCLContext *ctx = gst_cl_filter_get_context (GST_CL_FILTER (self));
  const gint gw = self->means_gw, gh = self->means_gh, bs = self->means_bs;
  const gint w = self->state.width, h = self->state.height;
  GValueArray *dx, *dy;
  GValue v = G_VALUE_INIT;
  gdouble sx = 0, sy = 0;
  GstStructure *s;

  if (!gst_cl_context_wait (ctx, self->means_event)) {
    GST_WARNING_OBJECT (self, "block means not read back; no message");
    clReleaseEvent (self->means_event);
    self->means_event = NULL;
    return;
  }
  clReleaseEvent (self->means_event);
  self->means_event = NULL;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  dx = g_value_array_new (gw * gh);
  dy = g_value_array_new (gw * gh);
  g_value_init (&v, G_TYPE_FLOAT);
  for (gint by = 0; by < gh; by++)
    for (gint bx = 0; bx < gw; bx++) {
      const gint i = by * gw + bx;
      /* The means weighted by their blocks' pixels (the last are clipped). */
      const gdouble n = (gdouble) (MIN (bs, w - bx * bs)) *
          MIN (bs, h - by * bs);
      sx += self->means_host[2 * i] * n;
      sy += self->means_host[2 * i + 1] * n;
      g_value_set_float (&v, self->means_host[2 * i]);
      g_value_array_append (dx, &v);
      g_value_set_float (&v, self->means_host[2 * i + 1]);
      g_value_array_append (dy, &v);
    }
  g_value_unset (&v);
  s = gst_structure_new ("cloptflow",
      "timestamp", G_TYPE_UINT64, GST_BUFFER_PTS (outbuf),
      "mean-dx", G_TYPE_DOUBLE, sx / ((gdouble) w * h),
      "mean-dy", G_TYPE_DOUBLE, sy / ((gdouble) w * h),
      "block-size", G_TYPE_INT, bs,
      "grid-width", G_TYPE_INT, gw, "grid-height", G_TYPE_INT, gh, NULL);
  {
    GValue a = G_VALUE_INIT;
    g_value_init (&a, g_value_array_get_type ());
    g_value_take_boxed (&a, dx);
    gst_structure_take_value (s, "dx", &a);
    g_value_init (&a, g_value_array_get_type ());
    g_value_take_boxed (&a, dy);
    gst_structure_take_value (s, "dy", &a);
  }
  G_GNUC_END_IGNORE_DEPRECATIONS;
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static GstFlowReturn
gst_cl_optflow_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (trans);
  GstFlowReturn ret;

  /* A gap in the input: the previous frame is not this one's predecessor. */
  if (GST_BUFFER_IS_DISCONT (inbuf))
    self->reset = TRUE;
  ret = GST_BASE_TRANSFORM_CLASS (gst_cl_optflow_parent_class)->transform
      (trans, inbuf, outbuf);
  /* Plain pointer moves: gst_clear_buffer() on the field next to a plain
   * store lets GCC reorder them (the macro reads it as a GstMiniObject *). */
  if (self->pending_field) {
    GstBuffer *field = self->pending_field;
    const GstCLOptflowState *st = &self->state;
    self->pending_field = NULL;
    if (ret == GST_FLOW_OK)
      gst_buffer_add_cl_flow_meta (outbuf, field, st->width, st->height, 1,
          sizeof (cl_float2) * st->width);
    else
      gst_buffer_unref (field);
  }
  if (self->means_event) {
    if (ret == GST_FLOW_OK)
      post_message (self, outbuf);
    else {
      clWaitForEvents (1, &self->means_event);
      clReleaseEvent (self->means_event);
      self->means_event = NULL;
    }
  }
  return ret;
}

/* A frame GstBaseTransform drops for QoS (late downstream) is a gap too:
 * the next frame's predecessor would be the one before it, and its flow
 * the motion of two frames. GstBaseTransform marks only the next output
 * DISCONT, after transform (), so the drop is caught here. */
static GstFlowReturn
gst_cl_optflow_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (trans);
  GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS
      (gst_cl_optflow_parent_class)->submit_input_buffer (trans, is_discont,
      input);

  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED) {
    GST_DEBUG_OBJECT (self, "a frame dropped for QoS: the next starts over");
    self->reset = TRUE;
  }
  return ret;
}

static gboolean
gst_cl_optflow_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_SEGMENT:
      /* Flush, seek or a new segment: start over without a previous frame.
       * Serialized with the frames, so no lock is needed. */
      self->reset = TRUE;
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_optflow_parent_class)->sink_event
      (trans, event);
}

static void
gst_cl_optflow_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (object);
  gboolean rebuild = FALSE;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LEVELS:
      self->levels = g_value_get_int (value);
      break;
    case PROP_WINDOW_SIZE:{
      gint v = g_value_get_int (value);
      if (v % 2 == 0) {
        GST_WARNING_OBJECT (self, "window-size %d is even; using %d", v,
            v + 1);
        v++;
      }
      rebuild = v != self->window_size;
      self->window_size = v;
      break;
    }
    case PROP_ITERATIONS:
      self->iterations = g_value_get_int (value);
      break;
    case PROP_FINEST_LEVEL:
      self->finest_level = g_value_get_int (value);
      break;
    case PROP_EPSILON:
      self->epsilon = g_value_get_double (value);
      break;
    case PROP_SAMPLING:
      self->sampling = g_value_get_enum (value);
      break;
    case PROP_OUTPUT:
      self->output = g_value_get_enum (value);
      break;
    case PROP_OVERLAY_STYLE:
      self->style = g_value_get_enum (value);
      break;
    case PROP_OVERLAY_MAX_MOTION:
      self->max_motion = g_value_get_double (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_MESSAGE_BLOCK_SIZE:
      self->block_size = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  /* A new window is a new program (and a new start for the flow). */
  if (rebuild)
    gst_cl_filter_invalidate (GST_CL_FILTER (self));
}

static void
gst_cl_optflow_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLOptflow *self = GST_CL_OPTFLOW (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LEVELS:
      g_value_set_int (value, self->levels);
      break;
    case PROP_WINDOW_SIZE:
      g_value_set_int (value, self->window_size);
      break;
    case PROP_ITERATIONS:
      g_value_set_int (value, self->iterations);
      break;
    case PROP_FINEST_LEVEL:
      g_value_set_int (value, self->finest_level);
      break;
    case PROP_EPSILON:
      g_value_set_double (value, self->epsilon);
      break;
    case PROP_SAMPLING:
      g_value_set_enum (value, self->sampling);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->output);
      break;
    case PROP_OVERLAY_STYLE:
      g_value_set_enum (value, self->style);
      break;
    case PROP_OVERLAY_MAX_MOTION:
      g_value_set_double (value, self->max_motion);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_MESSAGE_BLOCK_SIZE:
      g_value_set_int (value, self->block_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_optflow_class_init (GstCLOptflowClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCLFilterClass *filter_class = GST_CL_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_cl_optflow_debug, "cloptflow", 0,
      "OpenCL optical flow");

  gobject_class->set_property = gst_cl_optflow_set_property;
  gobject_class->get_property = gst_cl_optflow_get_property;

  g_object_class_install_property (gobject_class, PROP_LEVELS,
      g_param_spec_int ("levels", "Levels",
          "Pyramid levels; each halves the size and doubles the motion "
          "that can be found (about 2^levels pixels); fewer are used where "
          "a level would be smaller than 8 pixels", 1,
          GST_CL_OPTFLOW_MAX_LEVELS, DEFAULT_LEVELS, flags));
  g_object_class_install_property (gobject_class, PROP_WINDOW_SIZE,
      g_param_spec_int ("window-size", "Window size",
          "Side of the Lucas-Kanade window in pixels (odd; even values are "
          "rounded up): larger is steadier, smaller follows finer motion; "
          "changing it restarts the flow", MIN_WINDOW_SIZE, MAX_WINDOW_SIZE,
          DEFAULT_WINDOW_SIZE, flags));
  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_int ("iterations", "Iterations",
          "Refinement iterations per pyramid level", 1, MAX_ITERATIONS,
          DEFAULT_ITERATIONS, flags));
  g_object_class_install_property (gobject_class, PROP_FINEST_LEVEL,
      g_param_spec_int ("finest-level", "Finest level",
          "Finest pyramid level refined; the field is that level's, "
          "upsampled: 0 refines every pixel, 1 works at half resolution "
          "(about 3x faster), 2 at a quarter (about 6x, the scale of "
          "cv2.DISOpticalFlow's fast preset); at most the coarsest level",
          0, GST_CL_OPTFLOW_MAX_LEVELS - 1, DEFAULT_FINEST_LEVEL, flags));
  g_object_class_install_property (gobject_class, PROP_EPSILON,
      g_param_spec_double ("epsilon", "Epsilon",
          "A pixel stops refining on a level once its update is below this "
          "many pixels", 0.0, 10.0, DEFAULT_EPSILON, flags));
  g_object_class_install_property (gobject_class, PROP_SAMPLING,
      g_param_spec_enum ("sampling", "Sampling",
          "How the next frame is sampled between pixels: auto (images with "
          "the linear sampler on GPUs, buffers on CPUs), image or buffer",
          GST_TYPE_CL_OPTFLOW_SAMPLING, DEFAULT_SAMPLING, flags));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "overlay: draw the flow onto the video; passthrough: video "
          "unchanged (the flow is in the meta and messages)",
          GST_TYPE_CL_OPTFLOW_OUTPUT, DEFAULT_OUTPUT, flags));
  g_object_class_install_property (gobject_class, PROP_OVERLAY_STYLE,
      g_param_spec_enum ("overlay-style", "Overlay style",
          "colour: hue by direction, opacity by magnitude; arrows: one per "
          "16-pixel cell", GST_TYPE_CL_OPTFLOW_STYLE, DEFAULT_OVERLAY_STYLE,
          flags));
  g_object_class_install_property (gobject_class, PROP_OVERLAY_MAX_MOTION,
      g_param_spec_double ("overlay-max-motion", "Overlay max motion",
          "Motion in pixels per frame drawn fully opaque (colour) or as an "
          "arrow one cell long (arrows)", 0.1, 1000.0,
          DEFAULT_OVERLAY_MAX_MOTION, flags));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message \"cloptflow\" per frame with the mean "
          "flow and the mean of each block (one small read-back per frame)",
          DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property (gobject_class, PROP_MESSAGE_BLOCK_SIZE,
      g_param_spec_int ("message-block-size", "Message block size",
          "Side in pixels of the blocks whose mean flow the messages carry",
          1, MAX_BLOCK_SIZE, DEFAULT_MESSAGE_BLOCK_SIZE, flags));

  gst_cl_filter_class_add_pad_templates (element_class, FORMATS);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL optical flow", "Filter/Analyzer/Video",
      "Dense pyramidal Lucas-Kanade optical flow on an OpenCL device: "
      "draws it, attaches it as a GstCLFlowMeta, posts it as messages. "
      "Example: gst-launch-1.0 videotestsrc num-buffers=60 pattern=ball ! "
      "video/x-raw,format=NV12 ! cloptflow overlay-style=arrows ! "
      "videoconvert ! pngenc snapshot=true ! filesink location=flow.png",
      "gst-opencl-filters developers");

  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_optflow_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_optflow_sink_event);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_optflow_submit_input_buffer);

  filter_class->build = GST_DEBUG_FUNCPTR (gst_cl_optflow_build);
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cl_optflow_release);
  filter_class->migrate = GST_DEBUG_FUNCPTR (gst_cl_optflow_migrate);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_optflow_set_info);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cl_optflow_process);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_OPTFLOW_OUTPUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_OPTFLOW_STYLE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_OPTFLOW_SAMPLING, 0);
  /* Registers the meta's API type with the plugin, before any frame. */
  gst_cl_flow_meta_get_info ();
}

static void
gst_cl_optflow_init (GstCLOptflow * self)
{
  self->levels = DEFAULT_LEVELS;
  self->window_size = DEFAULT_WINDOW_SIZE;
  self->iterations = DEFAULT_ITERATIONS;
  self->finest_level = DEFAULT_FINEST_LEVEL;
  self->epsilon = DEFAULT_EPSILON;
  self->sampling = DEFAULT_SAMPLING;
  self->output = DEFAULT_OUTPUT;
  self->style = DEFAULT_OVERLAY_STYLE;
  self->max_motion = DEFAULT_OVERLAY_MAX_MOTION;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->block_size = DEFAULT_MESSAGE_BLOCK_SIZE;
}
