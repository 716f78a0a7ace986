/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clhisteq
 * @title: clhisteq
 *
 * Histogram-equalisation tone mapper on an OpenCL device, entirely on the
 * device (histogram, LUT and apply are kernels; nothing is read back).
 *
 * `mode=global` is `cv2.equalizeHist` bit for bit (with `strength=1` and
 * `smoothing=0`); `mode=clahe` is `cv2.createCLAHE (clip-limit, (tiles-x,
 * tiles-y)).apply` within 1 LSB, also for sizes that are not a multiple of
 * the tile grid. Only luma is equalised: the Y plane of NV12 and I420 (the
 * chroma planes are copied unchanged), and for RGBA, BGRA, RGBx and BGRx
 * the BT.601 luma, with the colour scaled by the luma gain (clamped so no
 * channel clips, so the hue is kept).
 *
 * `strength` blends the mapping with the identity. `smoothing` averages the
 * mapping over about that many frames (an exponential moving average kept
 * on the device) so noise does not make the picture flicker. A smoothed
 * mapping alone would pass a camera's frame-to-frame brightness jitter on
 * (amplified by the mapping's slope), which equalising each frame on its
 * own cancels; so the smoothed mapping is read at (level - d), d being the
 * frame's brightness shift (at most 4 levels): in global mode the shift
 * that gives the frame the smoothed mean of its own equalised output, in
 * CLAHE mode the median over the tiles of each tile's mean level against
 * its smoothed mean (an object moving through a few tiles does not move
 * it). A scene cut (the histogram moving further than
 * `scene-cut-threshold` from the smoothed one, in total-variation
 * distance) restarts the average, so a cut adapts at once; so do new caps,
 * a flush, a new segment (a seek) and a new stream. In CLAHE mode each
 * tile's mapping is smoothed on its own; the cut is decided on the whole
 * frame's histogram (small tiles have noisy histograms and would "cut"
 * every frame).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=NV12,width=640,height=480 ! clhisteq mode=clahe clip-limit=3 ! videoconvert ! pngenc snapshot=true ! filesink location=histeq.png
 * ]|
 */
#include "gstclhisteq.h"
#include "gstclhisteqkernel.h"
#include "cl/gstclutils.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_histeq_debug);
#define GST_CAT_DEFAULT gst_cl_histeq_debug

#define FORMATS "{ GRAY8, NV12, I420, RGBA, BGRA, RGBx, BGRx }"

enum
{
  PROP_0,
  PROP_MODE,
  PROP_STRENGTH,
  PROP_SMOOTHING,
  PROP_SCENE_CUT_THRESHOLD,
  PROP_CLIP_LIMIT,
  PROP_TILES_X,
  PROP_TILES_Y,
};

#define DEFAULT_MODE GST_CL_HISTEQ_GLOBAL
#define DEFAULT_STRENGTH 1.0
#define DEFAULT_SMOOTHING 8
#define DEFAULT_SCENE_CUT_THRESHOLD 0.3
#define DEFAULT_CLIP_LIMIT 2.0  /* cv2.createCLAHE's default */
#define DEFAULT_TILES 8
#define MAX_TILES 64
#define MAX_SMOOTHING 1000
#define MAX_CLIP_LIMIT 256.0    /* at 256 no bin is ever clipped */

struct _GstCLHisteq
{
  GstCLFilter parent;

  /* properties, under the object lock */
  GstCLHisteqMode mode;
  gdouble strength;
  guint smoothing;
  gdouble cut_threshold;
  gdouble clip_limit;
  gint tiles_x, tiles_y;

  /* streaming thread */
  GstCLHisteqProgram prog;
  GstCLHisteqBuffers bufs;
  gint weights[4];
  gint reset;                   /* atomic: the temporal state starts over */

  /* device=auto with a second device: how the frame started, for its run
   * on the other device when it fails (the kernels update the state in
   * place, so the state itself is then in bufs.state_before) */
  gboolean frame_fresh;         /* the frame started from no state */
  gboolean frame_smoothing_on;  /* bufs.smoothing_on before the frame */
};

G_DEFINE_TYPE (GstCLHisteq, gst_cl_histeq, GST_TYPE_CL_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clhisteq, "clhisteq", GST_RANK_NONE,
    GST_TYPE_CL_HISTEQ);

#define GST_TYPE_CL_HISTEQ_MODE (gst_cl_histeq_mode_get_type ())
static GType
gst_cl_histeq_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_HISTEQ_GLOBAL, "One mapping for the frame (cv2.equalizeHist)",
        "global"},
    {GST_CL_HISTEQ_CLAHE, "Contrast-limited adaptive, per tile "
          "(cv2.createCLAHE)", "clahe"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLHisteqMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static void
gst_cl_histeq_release (GstCLFilter * filter)
{
  GstCLHisteq *self = GST_CL_HISTEQ (filter);

  gst_cl_histeq_buffers_clear (&self->bufs);
  gst_cl_histeq_program_clear (&self->prog);
}

static gboolean
gst_cl_histeq_build (GstCLFilter * filter, GError ** error)
{
  GstCLHisteq *self = GST_CL_HISTEQ (filter);

  /* One program for every mode, format and property value: nothing is
   * compiled after start. */
  if (self->prog.program)
    return TRUE;
  return gst_cl_histeq_program_init (&self->prog,
      gst_cl_filter_get_context (filter), FALSE, error);
}

/* device=auto moved the element: the smoothed mappings go with it (read
 * from the old device once, written to the new one), so the picture does
 * not jump at the switch. After a fault (the frame runs again on @to),
 * the state as it was before that frame. */
static gboolean
gst_cl_histeq_migrate (GstCLFilter * filter, GstCLContext * from,
    GstCLContext * to, GError ** error)
{
  GstCLHisteq *self = GST_CL_HISTEQ (filter);
  GstCLHisteqBuffers old = self->bufs;
  gpointer state = NULL;
  gsize size = 0;
  cl_mem src = old.state;
  gboolean carry = old.state && !old.state_fresh &&
      !g_atomic_int_get (&self->reset);

  if (gst_cl_filter_frame_faulted (filter)) {
    old.smoothing_on = self->frame_smoothing_on;
    src = old.state_before;
    /* A frame that started fresh starts fresh again; smoothing off keeps
     * no state. */
    carry = carry && !self->frame_fresh && self->frame_smoothing_on;
    if (carry && !src) {
      GST_WARNING_OBJECT (self, "no copy of the smoothing state from before "
          "the failed frame: it starts over on %s", to->device->name);
      carry = FALSE;
    }
  }
  if (carry) {
    size = gst_cl_histeq_buffers_state_size (&old);
    state = g_malloc (size);
    gst_cl_context_count (from, GST_CL_COUNTER_HOST_WAITS, 1);
    if (clEnqueueReadBuffer (from->queue, src, CL_TRUE, 0, size, state,
            0, NULL, NULL) != CL_SUCCESS) {
      GST_WARNING_OBJECT (self, "could not read the smoothing state: it "
          "starts over on %s", to->device->name);
      g_clear_pointer (&state, g_free);
    }
  }
  if (!GST_CL_FILTER_CLASS (gst_cl_histeq_parent_class)->migrate (filter,
          from, to, error)) {
    g_free (state);
    return FALSE;
  }
  if (state) {
    GstCLHisteqMode mode;
    gdouble clip;
    gint tx, ty;

    GST_OBJECT_LOCK (self);
    mode = self->mode;
    clip = self->clip_limit;
    tx = self->tiles_x;
    ty = self->tiles_y;
    GST_OBJECT_UNLOCK (self);
    /* Same geometry (no property changed meanwhile): the state fits. */
    if (gst_cl_histeq_buffers_ensure (&self->bufs, to, old.width, old.height,
            mode, tx, ty, clip, error) &&
        !memcmp (&self->bufs.geom, &old.geom, sizeof (old.geom)) &&
        clEnqueueWriteBuffer (to->queue, self->bufs.state, CL_TRUE, 0, size,
            state, 0, NULL, NULL) == CL_SUCCESS) {
      gst_cl_context_count (to, GST_CL_COUNTER_HOST_WAITS, 1);
      self->bufs.state_fresh = FALSE;
      self->bufs.smoothing_on = old.smoothing_on;
    }
    g_clear_error (error);
    g_free (state);
  }
  return TRUE;
}

static gboolean
gst_cl_histeq_set_info (GstCLFilter * filter, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstCLHisteq *self = GST_CL_HISTEQ (filter);

  switch (GST_VIDEO_INFO_FORMAT (in_info)) {
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBx:
      gst_cl_histeq_luma_weights (0, 1, 2, self->weights);
      break;
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_BGRx:
      gst_cl_histeq_luma_weights (2, 1, 0, self->weights);
      break;
    default:
      memset (self->weights, 0, sizeof (self->weights));
      break;
  }
  /* New caps: the temporal state starts over. */
  g_atomic_int_set (&self->reset, TRUE);
  return TRUE;
}

static gboolean
gst_cl_histeq_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCLHisteq *self = GST_CL_HISTEQ (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_STREAM_START:
      /* A flush, a seek (a new segment, flushing or not) or a new stream:
       * the next frame does not follow the last one, so nothing is
       * smoothed across. (FLUSH_STOP may come from another thread, hence
       * the atomic flag.) */
      GST_DEBUG_OBJECT (self, "%s: temporal state reset",
          GST_EVENT_TYPE_NAME (event));
      g_atomic_int_set (&self->reset, TRUE);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_histeq_parent_class)->sink_event
      (trans, event);
}

static cl_int
gst_cl_histeq_process (GstCLFilter * filter, const GstCLFrame * in,
    const GstCLFrame * out, cl_event * done)
{
  GstCLHisteq *self = GST_CL_HISTEQ (filter);
  GstCLContext *ctx = gst_cl_filter_get_context (filter);
  GstCLHisteqParams params;
  GstCLHisteqMode mode;
  gdouble clip;
  gint tx, ty;
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  clip = self->clip_limit;
  tx = self->tiles_x;
  ty = self->tiles_y;
  params.strength = self->strength;
  params.smoothing = self->smoothing;
  params.cut_threshold = self->cut_threshold;
  GST_OBJECT_UNLOCK (self);

  if (!gst_cl_histeq_buffers_ensure (&self->bufs, ctx, in->planes[0].width,
          in->planes[0].height, mode, tx, ty, clip, &err)) {
    GST_ERROR_OBJECT (self, "%s", err->message);
    g_clear_error (&err);
    return CL_OUT_OF_RESOURCES;
  }
  if (g_atomic_int_compare_and_exchange (&self->reset, TRUE, FALSE))
    self->bufs.state_fresh = TRUE;
  self->frame_fresh = self->bufs.state_fresh;
  self->frame_smoothing_on = self->bufs.smoothing_on;
  /* A frame that fails may run again on the other device, from the state
   * as it was before it. */
  params.checkpoint = gst_cl_filter_can_fail_over (filter);

  /* luma equalised, chroma copied (on GPUs inside the fused launch) */
  return gst_cl_histeq_enqueue_planes (&self->prog, &self->bufs, ctx->queue,
      &params, self->weights, in->mem, in->planes, out->mem, out->planes,
      in->n_planes, done, NULL);
}

static void
gst_cl_histeq_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLHisteq *self = GST_CL_HISTEQ (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_STRENGTH:
      self->strength = g_value_get_double (value);
      break;
    case PROP_SMOOTHING:
      self->smoothing = g_value_get_uint (value);
      break;
    case PROP_SCENE_CUT_THRESHOLD:
      self->cut_threshold = g_value_get_double (value);
      break;
    case PROP_CLIP_LIMIT:
      self->clip_limit = g_value_get_double (value);
      break;
    case PROP_TILES_X:
      self->tiles_x = g_value_get_int (value);
      break;
    case PROP_TILES_Y:
      self->tiles_y = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histeq_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLHisteq *self = GST_CL_HISTEQ (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_STRENGTH:
      g_value_set_double (value, self->strength);
      break;
    case PROP_SMOOTHING:
      g_value_set_uint (value, self->smoothing);
      break;
    case PROP_SCENE_CUT_THRESHOLD:
      g_value_set_double (value, self->cut_threshold);
      break;
    case PROP_CLIP_LIMIT:
      g_value_set_double (value, self->clip_limit);
      break;
    case PROP_TILES_X:
      g_value_set_int (value, self->tiles_x);
      break;
    case PROP_TILES_Y:
      g_value_set_int (value, self->tiles_y);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histeq_class_init (GstCLHisteqClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCLFilterClass *filter_class = GST_CL_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_cl_histeq_debug, "clhisteq", 0,
      "OpenCL histogram equalisation");

  gobject_class->set_property = gst_cl_histeq_set_property;
  gobject_class->get_property = gst_cl_histeq_get_property;

  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "global: one mapping for the frame (cv2.equalizeHist); clahe: "
          "contrast-limited, per tile (cv2.createCLAHE)",
          GST_TYPE_CL_HISTEQ_MODE, DEFAULT_MODE, flags));
  g_object_class_install_property (gobject_class, PROP_STRENGTH,
      g_param_spec_double ("strength", "Strength",
          "Blend of the mapping with the identity: 0 leaves the picture as "
          "it is, 1 equalises fully", 0.0, 1.0, DEFAULT_STRENGTH, flags));
  g_object_class_install_property (gobject_class, PROP_SMOOTHING,
      g_param_spec_uint ("smoothing", "Smoothing",
          "Frames over which the mapping is averaged (exponential moving "
          "average on the device, following the frame's brightness jitter) "
          "against flicker; restarted on a scene cut, a seek or new caps; 0 "
          "or 1: off, every frame is mapped on its own", 0, MAX_SMOOTHING,
          DEFAULT_SMOOTHING, flags));
  g_object_class_install_property (gobject_class, PROP_SCENE_CUT_THRESHOLD,
      g_param_spec_double ("scene-cut-threshold", "Scene-cut threshold",
          "Total-variation distance (0..1) between the frame's histogram and "
          "the smoothed one above which the smoothing restarts (a scene "
          "cut); 1: never", 0.0, 1.0, DEFAULT_SCENE_CUT_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_CLIP_LIMIT,
      g_param_spec_double ("clip-limit", "Clip limit",
          "CLAHE contrast limit as in cv2.createCLAHE (a histogram bin may "
          "hold clip-limit times the mean); 0: no limit", 0.0,
          MAX_CLIP_LIMIT, DEFAULT_CLIP_LIMIT, flags));
  g_object_class_install_property (gobject_class, PROP_TILES_X,
      g_param_spec_int ("tiles-x", "Tiles across",
          "CLAHE tile grid columns", 1, MAX_TILES, DEFAULT_TILES, flags));
  g_object_class_install_property (gobject_class, PROP_TILES_Y,
      g_param_spec_int ("tiles-y", "Tiles down",
          "CLAHE tile grid rows", 1, MAX_TILES, DEFAULT_TILES, flags));

  gst_cl_filter_class_add_pad_templates (element_class, FORMATS);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL histogram equalisation", "Filter/Effect/Video",
      "Histogram-equalisation tone mapper (global as cv2.equalizeHist, or "
      "CLAHE) on an OpenCL device, stable over time. Example: "
      "gst-launch-1.0 videotestsrc num-buffers=60 ! video/x-raw,format=NV12 "
      "! clhisteq mode=clahe ! videoconvert ! pngenc snapshot=true ! "
      "filesink location=histeq.png",
      "gst-opencl-filters developers");

  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_histeq_sink_event);
  filter_class->build = GST_DEBUG_FUNCPTR (gst_cl_histeq_build);
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cl_histeq_release);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_histeq_set_info);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cl_histeq_process);
  filter_class->migrate = GST_DEBUG_FUNCPTR (gst_cl_histeq_migrate);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_HISTEQ_MODE, 0);
}

static void
gst_cl_histeq_init (GstCLHisteq * self)
{
  self->mode = DEFAULT_MODE;
  self->strength = DEFAULT_STRENGTH;
  self->smoothing = DEFAULT_SMOOTHING;
  self->cut_threshold = DEFAULT_SCENE_CUT_THRESHOLD;
  self->clip_limit = DEFAULT_CLIP_LIMIT;
  self->tiles_x = DEFAULT_TILES;
  self->tiles_y = DEFAULT_TILES;
}
