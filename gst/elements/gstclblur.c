/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clblur
 * @title: clblur
 *
 * Gaussian blur on an OpenCL device, the same as
 * `cv2.GaussianBlur (plane, (k, k), sigma, borderType=cv2.BORDER_REFLECT_101)`
 * on every plane (within 1 LSB). YUV chroma planes are blurred at their own
 * resolution with σ scaled by the subsampling, so the picture blurs
 * uniformly.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=60 ! video/x-raw,format=NV12,width=640,height=480 ! clblur sigma=2.5 ! videoconvert ! pngenc snapshot=true ! filesink location=blur.png
 * ]|
 */
#include "gstclblur.h"
#include "gstclblurkernel.h"
#include "cl/gstclutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_blur_debug);
#define GST_CAT_DEFAULT gst_cl_blur_debug

#define FORMATS "{ GRAY8, NV12, I420, RGBA, BGRA, RGBx, BGRx }"

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_SIGMA_Y,
  PROP_KERNEL_SIZE,
};

#define DEFAULT_SIGMA 1.0
#define DEFAULT_SIGMA_Y 0.0
#define DEFAULT_KERNEL_SIZE 0
#define MAX_SIGMA 42.0          /* derived kernel stays within 255 taps */
#define MAX_KERNEL_SIZE GST_CL_GAUSSIAN_MAX_TAPS

/* Programs per plane subsampling: full resolution, and 2x2 subsampled. */
enum
{
  PLANE_FULL,
  PLANE_HALF,
  N_PLANE_KINDS
};

struct _GstCLBlur
{
  GstCLFilter parent;

  /* properties, under the object lock */
  gdouble sigma;
  gdouble sigma_y;
  gint kernel_size;

  /* streaming thread */
  GstCLBlurProgram programs[N_PLANE_KINDS];
  gint plane_kind[GST_VIDEO_MAX_PLANES];
};

G_DEFINE_TYPE (GstCLBlur, gst_cl_blur, GST_TYPE_CL_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clblur, "clblur", GST_RANK_NONE,
    GST_TYPE_CL_BLUR);

/* Sigmas and size in effect; FALSE when the blur is the identity. */
static gboolean
effective_params (GstCLBlur * self, gdouble * sx, gdouble * sy, gint * ksize)
{
  GST_OBJECT_LOCK (self);
  *sx = self->sigma;
  *sy = self->sigma_y > 0 ? self->sigma_y : self->sigma;
  *ksize = self->kernel_size;
  GST_OBJECT_UNLOCK (self);
  if (*ksize == 1)
    return FALSE;
  return *ksize > 1 || *sx > 0 || *sy > 0;
}

static void
update_passthrough (GstCLBlur * self)
{
  gdouble sx, sy;
  gint k;
  gboolean identity = !effective_params (self, &sx, &sy, &k);

  if (identity != gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (self))) {
    GST_DEBUG_OBJECT (self, "passthrough %d", identity);
    gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), identity);
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  }
}

static void
gst_cl_blur_release (GstCLFilter * filter)
{
  GstCLBlur *self = GST_CL_BLUR (filter);

  for (gint i = 0; i < N_PLANE_KINDS; i++)
    gst_cl_blur_program_clear (&self->programs[i]);
}

static gboolean
gst_cl_blur_build (GstCLFilter * filter, GError ** error)
{
  GstCLBlur *self = GST_CL_BLUR (filter);
  GstCLContext *ctx = gst_cl_filter_get_context (filter);
  gdouble sx, sy;
  gint ksize;

  if (!effective_params (self, &sx, &sy, &ksize))
    return TRUE;                /* identity: passthrough, nothing to build */

  /* Both plane kinds at start, so a later caps change compiles nothing.
   * The full-resolution program also gets the chroma taps: on GPUs (tiled
   * variant) it then blurs every plane of an NV12 or I420 frame in one
   * launch, and the half-plane program, never launched there, is not built
   * (NVIDIA: 1.3-1.8 s of a fresh start, docs/PERFORMANCE.md, "Session
   * 41"). */
  GstCLBlurTaps taps[N_PLANE_KINDS];
  for (gint kind = 0; kind < N_PLANE_KINDS; kind++)
    gst_cl_blur_taps_compute (&taps[kind], sx, sy, ksize, kind, kind);
  for (gint kind = 0; kind < N_PLANE_KINDS; kind++) {
    const GstCLBlurProgram *full = &self->programs[PLANE_FULL];
    if (kind == PLANE_HALF && full->nv12 && full->i420) {
      GST_DEBUG_OBJECT (self, "plane kind %d: in the full program's "
          "NV12/I420 kernels", kind);
      continue;
    }
    if (!gst_cl_blur_program_init_planes (&self->programs[kind], ctx,
            &taps[kind], kind == PLANE_FULL ? &taps[PLANE_HALF] : NULL,
            gst_cl_blur_preferred_variant (ctx->device, &taps[kind]), error))
      return FALSE;
    GST_DEBUG_OBJECT (self, "plane kind %d: %dx%d taps, %s%s%s", kind,
        taps[kind].kx, taps[kind].ky,
        gst_cl_blur_variant_name (self->programs[kind].variant),
        self->programs[kind].half ? " in packed halves" : "",
        self->programs[kind].nv12 ? ", NV12/I420 in one launch" : "");
  }
  return TRUE;
}

static gboolean
gst_cl_blur_set_info (GstCLFilter * filter, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstCLBlur *self = GST_CL_BLUR (filter);
  const GstVideoFormatInfo *finfo = in_info->finfo;

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (in_info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (finfo, p, comp);
    gint wsub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp[0]);
    gint hsub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp[0]);
    if (wsub != hsub || wsub > 1) {
      GST_ERROR_OBJECT (self, "unsupported subsampling %d/%d", wsub, hsub);
      return FALSE;
    }
    self->plane_kind[p] = wsub ? PLANE_HALF : PLANE_FULL;
  }
  update_passthrough (self);
  return TRUE;
}

/* @ev, the frame's newest command, becomes *@done */
static void
keep_last_event (cl_event * done, cl_event ev)
{
  if (!ev)
    return;
  if (*done)
    clReleaseEvent (*done);
  *done = ev;
}

/* Every plane of @in copied to @out, the last command's event in *@done */
static cl_int
copy_planes (cl_command_queue queue, const GstCLFrame * in,
    const GstCLFrame * out, cl_event * done)
{
  cl_int status = CL_SUCCESS;

  for (guint p = 0; p < in->n_planes && status == CL_SUCCESS; p++) {
    const GstCLPlane *s = &in->planes[p], *d = &out->planes[p];
    const size_t src_origin[3] = { s->offset, 0, 0 };
    const size_t dst_origin[3] = { d->offset, 0, 0 };
    const size_t region[3] = { (size_t) s->width * s->pixel_bytes,
      (size_t) s->height, 1
    };
    cl_event ev = NULL;

    status = clEnqueueCopyBufferRect (queue, in->mem, out->mem, src_origin,
        dst_origin, region, s->stride, 0, d->stride, 0, 0, NULL, &ev);
    keep_last_event (done, ev);
  }
  return status;
}

static cl_int
gst_cl_blur_process (GstCLFilter * filter, const GstCLFrame * in,
    const GstCLFrame * out, cl_event * done)
{
  GstCLBlur *self = GST_CL_BLUR (filter);
  cl_command_queue queue = gst_cl_filter_get_context (filter)->queue;
  cl_int status = CL_SUCCESS;
  GstCLBlurProgram *full = &self->programs[PLANE_FULL];

  /* The rebuild before this frame read sigma 0 (no program) while
   * passthrough was still off: both follow the property, set from another
   * thread. The blur is off, so the frame is its input (the next frame
   * passes through). */
  if (!full->program) {
    GST_LOG_OBJECT (self, "blur off since the rebuild: the frame copied");
    return copy_planes (queue, in, out, done);
  }

  /* YUV 4:2:0 on a GPU: every plane in one launch (kernels/blur.cl). */
  if (in->n_planes > 1 && self->plane_kind[0] == PLANE_FULL &&
      self->plane_kind[1] == PLANE_HALF &&
      gst_cl_blur_program_has_planes (full, in->planes, in->n_planes))
    return gst_cl_blur_program_enqueue_planes (full, queue, in->mem,
        in->planes, out->mem, out->planes, in->n_planes, done);

  for (guint p = 0; p < in->n_planes && status == CL_SUCCESS; p++) {
    cl_event ev = NULL;
    status = gst_cl_blur_program_enqueue (&self->programs[self->plane_kind[p]],
        queue, in->mem, &in->planes[p], out->mem, &out->planes[p], &ev);
    keep_last_event (done, ev);
  }
  return status;
}

static void
gst_cl_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLBlur *self = GST_CL_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    case PROP_SIGMA_Y:
      self->sigma_y = g_value_get_double (value);
      break;
    case PROP_KERNEL_SIZE:{
      gint k = g_value_get_int (value);
      if (k > 0 && k % 2 == 0) {
        GST_WARNING_OBJECT (self, "kernel-size must be odd: using %d, not %d",
            k + 1, k);
        k++;
      }
      self->kernel_size = k;
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      GST_OBJECT_UNLOCK (self);
      return;
  }
  GST_OBJECT_UNLOCK (self);
  /* passthrough follows at the next frame, on the streaming thread
   * (before_transform) */
  gst_cl_filter_invalidate (GST_CL_FILTER (self));
}

/* Passthrough switched here, between frames on the streaming thread, never
 * from set_property (): GstBaseTransform reads it twice per frame (to make
 * the output buffer, then to run the transform or not), so a switch from
 * another thread in between pushed the input as its own output into a
 * transform, or an untouched output buffer downstream, or gave a frame
 * system memory (docs/RELIABILITY.md, bug 8). */
static void
gst_cl_blur_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GST_BASE_TRANSFORM_CLASS (gst_cl_blur_parent_class)->before_transform
      (trans, buffer);
  update_passthrough (GST_CL_BLUR (trans));
}

static void
gst_cl_blur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLBlur *self = GST_CL_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    case PROP_SIGMA_Y:
      g_value_set_double (value, self->sigma_y);
      break;
    case PROP_KERNEL_SIZE:
      g_value_set_int (value, self->kernel_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_blur_class_init (GstCLBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCLFilterClass *filter_class = GST_CL_FILTER_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_cl_blur_debug, "clblur", 0,
      "OpenCL Gaussian blur");

  gobject_class->set_property = gst_cl_blur_set_property;
  gobject_class->get_property = gst_cl_blur_get_property;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian across, in pixels (0 with "
          "kernel-size 0: no blur)", 0.0, MAX_SIGMA, DEFAULT_SIGMA, flags));
  g_object_class_install_property (gobject_class, PROP_SIGMA_Y,
      g_param_spec_double ("sigma-y", "Sigma Y",
          "Standard deviation down, in pixels; 0 or negative: same as sigma",
          -1.0, MAX_SIGMA, DEFAULT_SIGMA_Y, flags));
  g_object_class_install_property (gobject_class, PROP_KERNEL_SIZE,
      g_param_spec_int ("kernel-size", "Kernel size",
          "Taps per axis, odd (an even value is raised by one); 0: derived "
          "from sigma as OpenCV does for 8 bits, round(6*sigma+1)|1; with "
          "sigma 0 the sigma is derived from the size", 0, MAX_KERNEL_SIZE,
          DEFAULT_KERNEL_SIZE, flags));

  gst_cl_filter_class_add_pad_templates (element_class, FORMATS);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL Gaussian blur", "Filter/Effect/Video",
      "Gaussian blur on an OpenCL device (GPU or CPU), reflect-101 border, "
      "as cv2.GaussianBlur. Example: gst-launch-1.0 videotestsrc "
      "num-buffers=60 ! video/x-raw,format=NV12 ! clblur sigma=2.5 ! "
      "videoconvert ! pngenc snapshot=true ! filesink location=blur.png",
      "gst-opencl-filters developers");

  filter_class->build = GST_DEBUG_FUNCPTR (gst_cl_blur_build);
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cl_blur_release);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_blur_set_info);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cl_blur_process);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_blur_before_transform);
}

static void
gst_cl_blur_init (GstCLBlur * self)
{
  self->sigma = DEFAULT_SIGMA;
  self->sigma_y = DEFAULT_SIGMA_Y;
  self->kernel_size = DEFAULT_KERNEL_SIZE;
}
