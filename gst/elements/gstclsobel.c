/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clsobel
 * @title: clsobel
 *
 * Sobel or Scharr edges of the luma on an OpenCL device. gx and gy are what
 * `cv2.Sobel (luma, cv2.CV_32F, 1, 0, ksize=k)` and
 * `cv2.Sobel (luma, cv2.CV_32F, 0, 1, ksize=k)` give (`kernel-size=-1`:
 * `cv2.Scharr`), reflect-101 border; the output is
 * sat (round (v * scale + delta)) with v = sqrt (gx² + gy²) (mode
 * magnitude), |gx| (x) or |gy| (y), within 1 LSB; with a threshold, 255
 * where that value reaches it and 0 elsewhere. The luma of RGB input is
 * `cv2.cvtColor (COLOR_RGB2GRAY)`'s.
 *
 * The output is GRAY8 when downstream accepts it, otherwise the input
 * format with the edges in luma and neutral chroma (grey RGB, alpha 255).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 pattern=ball ! video/x-raw,format=NV12,width=640,height=480 ! clsobel kernel-size=5 scale=0.0625 ! videoconvert ! pngenc snapshot=true ! filesink location=edges.png
 * ]|
 */
#include "gstclsobel.h"
#include "gstclsobelkernel.h"
#include "cl/gstclutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_sobel_debug);
#define GST_CAT_DEFAULT gst_cl_sobel_debug

#define FORMATS "{ GRAY8, NV12, I420, RGBA, BGRA, RGBx, BGRx }"

enum
{
  PROP_0,
  PROP_KERNEL_SIZE,
  PROP_MODE,
  PROP_SCALE,
  PROP_DELTA,
  PROP_THRESHOLD,
};

#define DEFAULT_KERNEL_SIZE 3
#define DEFAULT_MODE GST_CL_SOBEL_MAGNITUDE
#define DEFAULT_SCALE 1.0
#define DEFAULT_DELTA 0.0
#define DEFAULT_THRESHOLD 0
#define MAX_SCALE 1000.0

struct _GstCLSobel
{
  GstCLFilter parent;

  /* properties, under the object lock */
  GstCLSobelParams params;

  /* streaming thread */
  GstCLSobelProgram program;
  GstCLSobelIn in_kind;
  GstCLSobelOut out_kind;
  gboolean neutral_chroma;      /* YUV output: planes 1.. filled with 128 */
};

G_DEFINE_TYPE (GstCLSobel, gst_cl_sobel, GST_TYPE_CL_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clsobel, "clsobel", GST_RANK_NONE,
    GST_TYPE_CL_SOBEL);

#define GST_TYPE_CL_SOBEL_MODE (gst_cl_sobel_mode_get_type ())
static GType
gst_cl_sobel_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_SOBEL_MAGNITUDE, "sqrt (gx^2 + gy^2)", "magnitude"},
    {GST_CL_SOBEL_X, "|gx|: vertical edges", "x"},
    {GST_CL_SOBEL_Y, "|gy|: horizontal edges", "y"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLSobelMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static void
gst_cl_sobel_release (GstCLFilter * filter)
{
  gst_cl_sobel_program_clear (&GST_CL_SOBEL (filter)->program);
}

static gboolean
gst_cl_sobel_build (GstCLFilter * filter, GError ** error)
{
  GstCLSobel *self = GST_CL_SOBEL (filter);
  GstCLContext *ctx = gst_cl_filter_get_context (filter);
  GstCLSobelVariant variant = gst_cl_sobel_preferred_variant (ctx->device);
  GstCLSobelParams params;

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);

  GST_DEBUG_OBJECT (self, "ksize %d mode %d scale %g delta %g threshold %d, "
      "%s", params.ksize, params.mode, params.scale, params.delta,
      params.threshold, gst_cl_sobel_variant_name (variant));
  return gst_cl_sobel_program_init (&self->program, ctx, &params, variant,
      error);
}

static GstCLSobelIn
in_kind (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBx:
      return GST_CL_SOBEL_IN_RGB;
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_BGRx:
      return GST_CL_SOBEL_IN_BGR;
    default:
      return GST_CL_SOBEL_IN_Y;
  }
}

static gboolean
gst_cl_sobel_set_info (GstCLFilter * filter, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstCLSobel *self = GST_CL_SOBEL (filter);
  GstVideoFormat in = GST_VIDEO_INFO_FORMAT (in_info);
  GstVideoFormat out = GST_VIDEO_INFO_FORMAT (out_info);

  if (out != GST_VIDEO_FORMAT_GRAY8 && out != in) {
    GST_ERROR_OBJECT (self, "cannot convert %s to %s",
        gst_video_format_to_string (in), gst_video_format_to_string (out));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (in_info) != GST_VIDEO_INFO_WIDTH (out_info) ||
      GST_VIDEO_INFO_HEIGHT (in_info) != GST_VIDEO_INFO_HEIGHT (out_info)) {
    GST_ERROR_OBJECT (self, "input and output sizes differ");
    return FALSE;
  }
  self->in_kind = in_kind (in);
  self->out_kind = GST_VIDEO_INFO_N_PLANES (out_info) == 1 &&
      GST_VIDEO_INFO_COMP_PSTRIDE (out_info, 0) == 4 ? GST_CL_SOBEL_OUT_4 :
      GST_CL_SOBEL_OUT_1;
  self->neutral_chroma = GST_VIDEO_INFO_N_PLANES (out_info) > 1;
  GST_DEBUG_OBJECT (self, "%s -> %s", gst_video_format_to_string (in),
      gst_video_format_to_string (out));
  return TRUE;
}

static cl_int
gst_cl_sobel_process (GstCLFilter * filter, const GstCLFrame * in,
    const GstCLFrame * out, cl_event * done)
{
  GstCLSobel *self = GST_CL_SOBEL (filter);
  cl_command_queue queue = gst_cl_filter_get_context (filter)->queue;
  cl_int status;

  /* In-order queue: the last command's event covers them all. */
  if (self->neutral_chroma) {
    for (guint p = 1; p < out->n_planes; p++) {
      status = gst_cl_sobel_program_fill (&self->program, queue, out->mem,
          &out->planes[p], 128, NULL);
      if (status != CL_SUCCESS)
        return status;
    }
  }
  return gst_cl_sobel_program_enqueue (&self->program, queue, in->mem,
      &in->planes[0], self->in_kind, out->mem, &out->planes[0],
      self->out_kind, done);
}

/* ---- caps: GRAY8 first, or the input format ------------------------- */

static gboolean
can_be_gray (const GstStructure * s)
{
  const GValue *format = gst_structure_get_value (s, "format");
  GValue gray = G_VALUE_INIT;
  gboolean ok;

  if (!format)
    return TRUE;
  g_value_init (&gray, G_TYPE_STRING);
  g_value_set_static_string (&gray, "GRAY8");
  /* gst_value_can_intersect () is TRUE for any two strings. */
  ok = gst_value_intersect (NULL, format, &gray);
  g_value_unset (&gray);
  return ok;
}

static GstCaps *
gst_cl_sobel_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *converted = gst_caps_new_empty (), *same, *result;

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    GstStructure *c;

    if (f && gst_caps_features_is_any (f))
      continue;
    if (direction == GST_PAD_SRC && !can_be_gray (s))
      continue;
    c = gst_structure_copy (s);
    /* Colorimetry and siting belong to the other format. */
    gst_structure_remove_fields (c, "colorimetry", "chroma-site", NULL);
    if (direction == GST_PAD_SINK) {
      gst_structure_set (c, "format", G_TYPE_STRING, "GRAY8", NULL);
    } else {
      GValue list = G_VALUE_INIT;
      g_value_init (&list, GST_TYPE_LIST);
      gst_value_deserialize (&list, FORMATS);
      gst_structure_take_value (c, "format", &list);
    }
    gst_caps_append_structure (converted, c);
  }

  /* GRAY8 first (for a sink pad), then the same format. */
  result = gst_cl_filter_caps_with_features (converted);
  same = gst_cl_filter_caps_with_features (caps);
  if (direction == GST_PAD_SINK) {
    gst_caps_append (result, same);
  } else {
    gst_caps_append (same, result);
    result = same;
  }
  gst_caps_unref (converted);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

/* ---- properties ------------------------------------------------------- */

static void
gst_cl_sobel_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLSobel *self = GST_CL_SOBEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL_SIZE:{
      gint k = g_value_get_int (value);
      if (k != GST_CL_SCHARR && k != 3 && k != 5 && k != 7) {
        GST_WARNING_OBJECT (self, "kernel-size must be 3, 5, 7 or -1 "
            "(Scharr), not %d: keeping %d", k, self->params.ksize);
        GST_OBJECT_UNLOCK (self);
        return;
      }
      self->params.ksize = k;
      break;
    }
    case PROP_MODE:
      self->params.mode = g_value_get_enum (value);
      break;
    case PROP_SCALE:
      self->params.scale = g_value_get_double (value);
      break;
    case PROP_DELTA:
      self->params.delta = g_value_get_double (value);
      break;
    case PROP_THRESHOLD:
      self->params.threshold = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      GST_OBJECT_UNLOCK (self);
      return;
  }
  GST_OBJECT_UNLOCK (self);
  gst_cl_filter_invalidate (GST_CL_FILTER (self));
}

static void
gst_cl_sobel_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLSobel *self = GST_CL_SOBEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL_SIZE:
      g_value_set_int (value, self->params.ksize);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->params.mode);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->params.scale);
      break;
    case PROP_DELTA:
      g_value_set_double (value, self->params.delta);
      break;
    case PROP_THRESHOLD:
      g_value_set_int (value, self->params.threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_sobel_class_init (GstCLSobelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCLFilterClass *filter_class = GST_CL_FILTER_CLASS (klass);
  GstCaps *caps = gst_cl_filter_make_caps (FORMATS);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_cl_sobel_debug, "clsobel", 0,
      "OpenCL Sobel edges");

  gobject_class->set_property = gst_cl_sobel_set_property;
  gobject_class->get_property = gst_cl_sobel_get_property;

  g_object_class_install_property (gobject_class, PROP_KERNEL_SIZE,
      g_param_spec_int ("kernel-size", "Kernel size",
          "Sobel taps per axis: 3, 5 or 7; -1: Scharr 3x3 (other values are "
          "refused with a warning)", GST_CL_SCHARR, GST_CL_SOBEL_MAX_TAPS,
          DEFAULT_KERNEL_SIZE, flags));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What is output: the gradient magnitude, |gx| or |gy|",
          GST_TYPE_CL_SOBEL_MODE, DEFAULT_MODE, flags));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          "Factor on the gradient before delta is added and the result "
          "rounded and saturated to 8 bits", -MAX_SCALE, MAX_SCALE,
          DEFAULT_SCALE, flags));
  g_object_class_install_property (gobject_class, PROP_DELTA,
      g_param_spec_double ("delta", "Delta",
          "Added to the scaled gradient", -255.0, 255.0, DEFAULT_DELTA,
          flags));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_int ("threshold", "Threshold",
          "0: off; otherwise 255 where the 8-bit result is >= threshold, "
          "else 0", 0, 255, DEFAULT_THRESHOLD, flags));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL Sobel edges", "Filter/Effect/Video",
      "Sobel or Scharr edge detection on an OpenCL device (GPU or CPU), "
      "reflect-101 border, as cv2.Sobel; GRAY8 output where downstream "
      "takes it. Example: gst-launch-1.0 videotestsrc num-buffers=60 "
      "pattern=ball ! video/x-raw,format=NV12 ! clsobel ! videoconvert ! "
      "pngenc snapshot=true ! filesink location=edges.png",
      "gst-opencl-filters developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_sobel_transform_caps);

  filter_class->build = GST_DEBUG_FUNCPTR (gst_cl_sobel_build);
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cl_sobel_release);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_sobel_set_info);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cl_sobel_process);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_SOBEL_MODE, 0);
}

static void
gst_cl_sobel_init (GstCLSobel * self)
{
  self->params.ksize = DEFAULT_KERNEL_SIZE;
  self->params.mode = DEFAULT_MODE;
  self->params.scale = DEFAULT_SCALE;
  self->params.delta = DEFAULT_DELTA;
  self->params.threshold = DEFAULT_THRESHOLD;
}
