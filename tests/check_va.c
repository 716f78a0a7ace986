/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* VA-API (gst/cl/gstclva.c) without an Intel GPU. The probe against stub
 * devices: each missing piece (build option, extension, entry points,
 * libgstva, VA display, shared context) sends frames through system memory
 * with its own reason; only all of them together choose sharing; the real
 * devices present must fall back. Then the whole zero-copy import in clblur
 * with stub VA display, surfaces and extension entry points (installed
 * through the element's test hook) making real images on the devices
 * present: result equal to the system-memory path, call order, plane
 * mapping, no host copy, errors, and VAMemory caps offered only when the
 * probe allows it. */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "cl/gstclva.h"
#include "cl/gstcldevice.h"
#include "clcheck.h"

static gint stub_calls;
static const gchar *stub_missing;       /* entry point the stub lacks */

static void *
stub_get_function (cl_platform_id platform, const char *name)
{
  static int token;
  stub_calls++;
  if (stub_missing && strcmp (name, stub_missing) == 0)
    return NULL;
  return &token;
}

static guint
no_surface (GstBuffer * buffer)
{
  return GST_CL_VA_INVALID_SURFACE;
}

static GstCLVaProbe
intel_like (void)
{
  GstCLVaProbe p = {
    .built_with_va = TRUE,
    .extensions = "cl_khr_fp16 cl_intel_va_api_media_sharing cl_khr_3d_image",
    .platform = NULL,
    .get_function = stub_get_function,
    .create_context = clCreateContext,
    .buffer_get_surface = no_surface,
    .have_va_display = TRUE,
    .context_shares_va = TRUE,
  };
  stub_missing = NULL;
  stub_calls = 0;
  return p;
}

static void
assert_system (const GstCLVaProbe * p, const gchar * reason_part)
{
  const gchar *why = NULL;
  GstCLVaFunctions fns;
  memset (&fns, 0xff, sizeof (fns));
  fail_unless_equals_int (gst_cl_va_probe (p, &fns, &why),
      GST_CL_VA_PATH_SYSTEM_MEMORY);
  fail_unless (why != NULL);
  fail_unless (strstr (why, reason_part) != NULL, "reason \"%s\" lacks \"%s\"",
      why, reason_part);
  fail_unless (fns.create_from_va_surface == NULL && fns.enqueue_acquire == NULL);
}

GST_START_TEST (test_extension_words)
{
  fail_unless (gst_cl_va_has_extension ("cl_intel_va_api_media_sharing",
          GST_CL_VA_EXTENSION));
  fail_unless (gst_cl_va_has_extension ("a cl_intel_va_api_media_sharing b",
          GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension ("cl_intel_va_api_media_sharing_2",
          GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension ("xcl_intel_va_api_media_sharing",
          GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension ("", GST_CL_VA_EXTENSION));
  fail_if (gst_cl_va_has_extension (NULL, GST_CL_VA_EXTENSION));
}

GST_END_TEST;

GST_START_TEST (test_everything_present_shares)
{
  GstCLVaProbe p = intel_like ();
  GstCLVaFunctions fns = { 0 };
  const gchar *why = "unset";

  fail_unless_equals_int (gst_cl_va_probe (&p, &fns, &why),
      GST_CL_VA_PATH_SHARED);
  fail_unless (why == NULL);
  fail_unless (fns.get_device_ids_from_va && fns.create_from_va_surface &&
      fns.enqueue_acquire && fns.enqueue_release && fns.create_context &&
      fns.buffer_get_surface);
  fail_unless_equals_int (stub_calls, 4);
}

GST_END_TEST;

GST_START_TEST (test_each_missing_piece_falls_back)
{
  GstCLVaProbe p;
  const gchar *entry_points[] = {
    "clGetDeviceIDsFromVA_APIMediaAdapterINTEL",
    "clCreateFromVA_APIMediaSurfaceINTEL",
    "clEnqueueAcquireVA_APIMediaSurfacesINTEL",
    "clEnqueueReleaseVA_APIMediaSurfacesINTEL",
  };

  p = intel_like ();
  p.built_with_va = FALSE;
  assert_system (&p, "built without VA-API");
  fail_unless_equals_int (stub_calls, 0);

  p = intel_like ();
  p.extensions = "cl_khr_fp16 cl_khr_3d_image";
  assert_system (&p, "lacks cl_intel_va_api_media_sharing");
  fail_unless_equals_int (stub_calls, 0);

  p = intel_like ();
  p.extensions = NULL;
  assert_system (&p, "lacks");

  p = intel_like ();
  p.get_function = NULL;
  assert_system (&p, "resolves no extension functions");

  for (guint i = 0; i < G_N_ELEMENTS (entry_points); i++) {
    p = intel_like ();
    stub_missing = entry_points[i];
    assert_system (&p, "does not export its functions");
  }

  p = intel_like ();
  p.buffer_get_surface = NULL;
  assert_system (&p, "libgstva-1.0");

  p = intel_like ();
  p.create_context = NULL;
  assert_system (&p, "clCreateContext");

  p = intel_like ();
  p.have_va_display = FALSE;
  assert_system (&p, "no VA display");

  p = intel_like ();
  p.context_shares_va = FALSE;
  assert_system (&p, "context was not created for the VA display");
}

GST_END_TEST;

GST_START_TEST (test_real_devices_fall_back)
{
  const GPtrArray *devices = gst_cl_device_list (NULL);

  if (!devices || devices->len == 0) {
    GST_INFO ("no OpenCL device: nothing to probe");
    return;
  }
  for (guint i = 0; i < devices->len; i++) {
    const GstCLDeviceInfo *d = g_ptr_array_index (devices, i);
    GstCLVaProbe p;
    gchar *ext = NULL;
    const gchar *why = NULL;

    gst_cl_va_probe_init (&p, d->platform, d->device, &ext);
    fail_unless (ext != NULL && *ext, "no extension list for %s", d->name);
    fail_unless (p.get_function != NULL);
    /* No VA display from upstream here, so every real device ends in
     * system memory, with a reason. */
    fail_unless_equals_int (gst_cl_va_probe (&p, NULL, &why),
        GST_CL_VA_PATH_SYSTEM_MEMORY);
    fail_unless (why != NULL);
    GST_INFO ("%s: %s", d->name, why);
    if (!gst_cl_va_has_extension (ext, GST_CL_VA_EXTENSION))
      fail_unless (strstr (why, "lacks") || strstr (why, "built without"));
    g_free (ext);
  }
}

GST_END_TEST;

GST_START_TEST (test_caps_per_path)
{
  GstCaps *sys = gst_caps_from_string ("video/x-raw, format=NV12, width=64, "
      "height=48; video/x-raw(memory:OpenCL), format=NV12, width=64, "
      "height=48");
  GstCaps *va = gst_caps_from_string ("video/x-raw(memory:VAMemory), "
      "format=NV12");
  GstCaps *any = gst_caps_new_any ();
  GstCaps *out;

  fail_if (gst_cl_va_caps_have_va_memory (sys));
  fail_unless (gst_cl_va_caps_have_va_memory (va));
  fail_if (gst_cl_va_caps_have_va_memory (any));

  out = gst_cl_va_sink_caps (sys, GST_CL_VA_PATH_SYSTEM_MEMORY);
  fail_unless (gst_caps_is_equal (out, sys));
  fail_if (gst_cl_va_caps_have_va_memory (out));
  gst_caps_unref (out);

  out = gst_cl_va_sink_caps (sys, GST_CL_VA_PATH_SHARED);
  fail_unless (gst_cl_va_caps_have_va_memory (out));
  /* VA first, and everything offered before is still offered */
  fail_unless (gst_caps_features_contains (gst_caps_get_features (out, 0),
          GST_CAPS_FEATURE_MEMORY_VA));
  fail_unless (gst_caps_is_subset (sys, out));
  gst_caps_unref (out);

  gst_caps_unref (any);
  gst_caps_unref (va);
  gst_caps_unref (sys);
}

GST_END_TEST;

/* clblur started on a real device: its sink pad offers no VAMemory, so a
 * VA decoder upstream hands over system memory. */
GST_START_TEST (test_element_offers_no_va_memory)
{
  GstElement *pipe, *blur;
  GstPad *sink;
  GstCaps *caps, *va;

  if (!gst_cl_device_list (NULL) || gst_cl_device_list (NULL)->len == 0)
    return;
  pipe = gst_parse_launch ("fakesrc ! clblur name=b ! fakesink", NULL);
  fail_unless (pipe != NULL);
  blur = gst_bin_get_by_name (GST_BIN (pipe), "b");
  fail_unless_equals_int (gst_element_set_state (blur, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  sink = gst_element_get_static_pad (blur, "sink");
  caps = gst_pad_query_caps (sink, NULL);
  fail_unless (caps && !gst_caps_is_empty (caps));
  fail_if (gst_cl_va_caps_have_va_memory (caps), "offers VAMemory: %"
      GST_PTR_FORMAT, caps);
  va = gst_caps_from_string ("video/x-raw(memory:VAMemory), format=NV12, "
      "width=64, height=48, framerate=30/1");
  fail_if (gst_pad_query_accept_caps (sink, va));
  gst_caps_unref (va);
  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_element_set_state (blur, GST_STATE_NULL);
  gst_object_unref (blur);
  gst_object_unref (pipe);
}

GST_END_TEST;


/* ---- the import path with stub VA and stub extension entry points ----
 *
 * A fake VA display (an address) and fake surfaces (a surface id carried as
 * qdata on a buffer whose own bytes are zero, so reading it as system
 * memory gives a wrong frame). The stub entry points record each call in
 * `calls` and make real images on the device under test: created holding
 * 0xAA, filled with the surface's known data when acquired, overwritten with
 * 0x55 when released. On the one in-order queue a frame comes out right
 * only if the copy kernel ran after the acquire and before the release. */

static int fake_display_storage;
#define FAKE_DISPLAY ((void *) &fake_display_storage)
#define SURFACE_ID 7u
#define VA_W 70
#define VA_H 46

static GString *calls;
static cl_device_id stub_device;        /* what the "VA display" drives */
static cl_int stub_acquire_status, stub_create_status;
static guchar y_data[VA_W * VA_H], uv_data[VA_W * VA_H / 2];
static cl_mem stub_images[2];
static cl_command_queue stub_queue;
static GQuark surface_quark;

static void
record (const gchar * fmt, ...) G_GNUC_PRINTF (1, 2);
static void
record (const gchar * fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  if (calls->len)
    g_string_append_c (calls, ' ');
  g_string_append_vprintf (calls, fmt, ap);
  va_end (ap);
}

static cl_int CL_API_CALL
stub_get_device_ids (cl_platform_id platform, cl_uint adapter_type,
    void *adapter, cl_uint adapter_set, cl_uint num_entries,
    cl_device_id * devices, cl_uint * num_devices)
{
  record ("devices");
  fail_unless (adapter == FAKE_DISPLAY, "not the VA display");
  fail_unless_equals_int (adapter_type, 0x4094);        /* CL_VA_API_DISPLAY_INTEL */
  fail_unless_equals_int (adapter_set, 0x4095); /* ..._PREFERRED_DEVICES_... */
  if (num_entries > 0 && devices)
    devices[0] = stub_device;
  if (num_devices)
    *num_devices = 1;
  return CL_SUCCESS;
}

/* Checks the VA properties, then makes a plain context: the device under
 * test knows nothing of CL_CONTEXT_VA_API_DISPLAY_INTEL. */
static cl_context CL_API_CALL
stub_create_context (const cl_context_properties * props, cl_uint n,
    const cl_device_id * devices, void (CL_CALLBACK * notify) (const char *,
        const void *, size_t, void *), void *user_data, cl_int * status)
{
  cl_context_properties plain[8];
  guint k = 0;
  gboolean va = FALSE;

  for (guint i = 0; props[i]; i += 2) {
    if (props[i] == 0x4097) {   /* CL_CONTEXT_VA_API_DISPLAY_INTEL */
      fail_unless (props[i + 1] == (cl_context_properties) FAKE_DISPLAY);
      va = TRUE;
    } else if (props[i] == CL_CONTEXT_PLATFORM) {
      plain[k++] = props[i];
      plain[k++] = props[i + 1];
    }
  }
  plain[k] = 0;
  fail_unless (va, "context not made for the VA display");
  record ("context");
  return clCreateContext (plain, n, devices, notify, user_data, status);
}

/* Intel's driver gives the UV plane as CL_RG; PoCL has no CL_RG images,
 * so there the stub uses CL_RGBA with (u, v, 0, 0): the kernel reads .xy
 * only, as it would from CL_RG. */
static gboolean uv_as_rgba;

static cl_mem CL_API_CALL
stub_create_from_surface (cl_context context, cl_mem_flags flags,
    guint * surface, cl_uint plane, cl_int * status)
{
  cl_image_format fmt = { plane ? CL_RG : CL_R, CL_UNORM_INT8 };
  size_t w = plane ? VA_W / 2 : VA_W, h = plane ? VA_H / 2 : VA_H;
  cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
    .image_width = w, .image_height = h
  };
  guchar *garbage = g_malloc (w * h * 4);
  cl_mem img;

  record ("create(%u,%u)", *surface, plane);
  fail_unless (flags == CL_MEM_READ_ONLY);
  if (stub_create_status != CL_SUCCESS && plane == 1) {
    *status = stub_create_status;
    g_free (garbage);
    return NULL;
  }
  memset (garbage, 0xaa, w * h * 4);
  img = clCreateImage (context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      &fmt, &desc, garbage, status);
  uv_as_rgba = FALSE;
  if (plane == 1 && !img) {
    fmt.image_channel_order = CL_RGBA;
    uv_as_rgba = TRUE;
    img = clCreateImage (context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        &fmt, &desc, garbage, status);
  }
  g_free (garbage);
  fail_unless (*status == CL_SUCCESS, "stub image: %d", *status);
  stub_images[plane] = img;
  return img;
}

static void
fill_images (cl_command_queue q, guint n, const cl_mem * objs, gboolean known)
{
  static guchar junk[VA_W * VA_H * 4], rgba[VA_W * VA_H * 2];

  memset (junk, 0x55, sizeof (junk));
  for (guint i = 0; i < VA_W * VA_H / 4; i++) {
    rgba[4 * i] = uv_data[2 * i];
    rgba[4 * i + 1] = uv_data[2 * i + 1];
    rgba[4 * i + 2] = rgba[4 * i + 3] = 0;
  }
  for (guint i = 0; i < n; i++) {
    size_t origin[3] = { 0, 0, 0 };
    size_t region[3] = { VA_W, VA_H, 1 };
    const guchar *src = junk;
    /* which plane the element passed is known from create(): the mapping
     * is checked, not assumed */
    if (objs[i] == stub_images[1]) {
      region[0] = VA_W / 2;
      region[1] = VA_H / 2;
      src = known ? (uv_as_rgba ? rgba : uv_data) : junk;
    } else {
      fail_unless (objs[i] == stub_images[0], "not an image of the surface");
      src = known ? y_data : junk;
    }
    fail_unless_equals_int (clEnqueueWriteImage (q, objs[i], CL_TRUE, origin,
            region, 0, 0, src, 0, NULL, NULL), CL_SUCCESS);
  }
}

static cl_int CL_API_CALL
stub_acquire (cl_command_queue q, cl_uint n, const cl_mem * objs,
    cl_uint n_wait, const cl_event * wait, cl_event * event)
{
  record ("acquire(%u)", n);
  stub_queue = q;
  if (stub_acquire_status != CL_SUCCESS)
    return stub_acquire_status;
  fill_images (q, n, objs, TRUE);
  return event ? clEnqueueMarkerWithWaitList (q, n_wait, wait, event) :
      CL_SUCCESS;
}

static cl_int CL_API_CALL
stub_release (cl_command_queue q, cl_uint n, const cl_mem * objs,
    cl_uint n_wait, const cl_event * wait, cl_event * event)
{
  record ("release(%u)", n);
  fail_unless (q == stub_queue, "released on another queue");
  fill_images (q, n, objs, FALSE);
  return event ? clEnqueueMarkerWithWaitList (q, n_wait, wait, event) :
      CL_SUCCESS;
}

static void *
stub_va_function (cl_platform_id platform, const char *name)
{
  if (!strcmp (name, "clGetDeviceIDsFromVA_APIMediaAdapterINTEL"))
    return (void *) (guintptr) stub_get_device_ids;
  if (!strcmp (name, "clCreateFromVA_APIMediaSurfaceINTEL"))
    return (void *) (guintptr) stub_create_from_surface;
  if (!strcmp (name, "clEnqueueAcquireVA_APIMediaSurfacesINTEL"))
    return (void *) (guintptr) stub_acquire;
  if (!strcmp (name, "clEnqueueReleaseVA_APIMediaSurfacesINTEL"))
    return (void *) (guintptr) stub_release;
  return NULL;
}

static guint
stub_get_surface (GstBuffer * buffer)
{
  gpointer id = gst_mini_object_get_qdata (GST_MINI_OBJECT (buffer),
      surface_quark);
  return id ? GPOINTER_TO_UINT (id) : GST_CL_VA_INVALID_SURFACE;
}

static const gchar *hook_extensions;

static void
adjust_probe (GstCLVaProbe * probe, gpointer user_data)
{
  probe->built_with_va = TRUE;  /* the stubs stand in for libva too */
  probe->extensions = hook_extensions;
  probe->get_function = stub_va_function;
  probe->create_context = stub_create_context;
  probe->buffer_get_surface = stub_get_surface;
}

static GstCLVaTestHook hook = { adjust_probe, NULL };

static void
reset_stubs (const GstCLDeviceInfo * d)
{
  GRand *rand = g_rand_new_with_seed (42);

  if (!calls)
    calls = g_string_new (NULL);
  g_string_truncate (calls, 0);
  surface_quark = g_quark_from_static_string ("check-va-surface");
  stub_device = d->device;
  stub_acquire_status = stub_create_status = CL_SUCCESS;
  stub_images[0] = stub_images[1] = NULL;
  stub_queue = NULL;
  hook_extensions = "cl_khr_byte_addressable_store "
      "cl_intel_va_api_media_sharing";
  for (guint i = 0; i < sizeof (y_data); i++)
    y_data[i] = g_rand_int_range (rand, 0, 256);
  for (guint i = 0; i < sizeof (uv_data); i++)
    uv_data[i] = g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
}

/* clblur on @d, told (through the test hook) that it runs on an Intel GPU
 * with a VA display, not yet started. */
static GstElement *
va_element (const GstCLDeviceInfo * d, const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstContext *ctx = gst_context_new (GST_CL_VA_DISPLAY_CONTEXT_TYPE, TRUE);
  gchar *label = g_strdup_printf ("%u.%u", d->platform_index,
      d->device_index);

  fail_unless (e != NULL);
  g_object_set (e, "device", label, NULL);
  g_free (label);
  g_object_set_data (G_OBJECT (e), GST_CL_VA_TEST_HOOK, &hook);
  gst_structure_set (gst_context_writable_structure (ctx), "va-display",
      G_TYPE_POINTER, FAKE_DISPLAY, NULL);
  gst_element_set_context (e, ctx);
  gst_context_unref (ctx);
  return e;
}

#define VA_CAPS "video/x-raw(memory:VAMemory), format=NV12, width=70, " \
  "height=46, framerate=30/1"
#define SYS_CAPS "video/x-raw, format=NV12, width=70, height=46, " \
  "framerate=30/1"

/* A VA "frame": zeros in system memory, the surface id on the side. */
static GstBuffer *
va_buffer (void)
{
  GstVideoInfo info;
  GstBuffer *b;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, VA_W, VA_H);
  b = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (b, 0, 0, info.size);
  gst_mini_object_set_qdata (GST_MINI_OBJECT (b), surface_quark,
      GUINT_TO_POINTER (SURFACE_ID), NULL);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  return b;
}

/* The same frame as the stub surface holds, in system memory. */
static GstBuffer *
system_buffer (void)
{
  GstVideoInfo info;
  GstVideoFrame f;
  GstBuffer *b;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, VA_W, VA_H);
  b = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&f, &info, b, GST_MAP_WRITE));
  for (guint y = 0; y < VA_H; y++)
    memcpy ((guchar *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), y_data + y * VA_W, VA_W);
  for (guint y = 0; y < VA_H / 2; y++)
    memcpy ((guchar *) GST_VIDEO_FRAME_PLANE_DATA (&f, 1) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 1), uv_data + y * VA_W, VA_W);
  gst_video_frame_unmap (&f);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = GST_SECOND / 30;
  return b;
}

static void
assert_same_frame (GstBuffer * a, GstBuffer * b, const gchar * what)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, VA_W, VA_H);
  fail_unless (gst_video_frame_map (&fa, &info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &info, b, GST_MAP_READ));
  for (guint p = 0; p < 2; p++)
    for (guint y = 0; y < (p ? VA_H / 2 : VA_H); y++) {
      const guchar *ra = (guchar *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guchar *rb = (guchar *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);
      for (guint x = 0; x < VA_W; x++)
        fail_unless (ra[x] == rb[x], "%s: plane %u (%u,%u): %u != %u", what,
            p, x, y, ra[x], rb[x]);
    }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
}

static gboolean
offers_va (GstElement * e)
{
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_pad_query_caps (sink, NULL);
  GstCaps *va = gst_caps_from_string (VA_CAPS);
  gboolean offered = gst_cl_va_caps_have_va_memory (caps);
  gboolean accepted = gst_pad_query_accept_caps (sink, va);

  fail_unless_equals_int (offered, accepted);
  /* VA surfaces as NV12 only */
  for (guint i = 0; i < gst_caps_get_size (caps); i++)
    if (gst_caps_features_contains (gst_caps_get_features (caps, i),
            GST_CAPS_FEATURE_MEMORY_VA))
      fail_unless_equals_string (gst_structure_get_string
          (gst_caps_get_structure (caps, i), "format"), "NV12");
  gst_caps_unref (va);
  gst_caps_unref (caps);
  gst_object_unref (sink);
  return offered;
}

static const GstCLDeviceInfo *
image_device (guint i)
{
  const GPtrArray *devices = gst_cl_device_list (NULL);
  const GstCLDeviceInfo *d;

  if (!devices || i >= devices->len)
    return NULL;
  d = g_ptr_array_index (devices, i);
  return d;
}

/* Every device present: a VA frame imported through the stubs, blurred,
 * equals the same frame blurred from system memory. */
GST_START_TEST (test_import_through_stubs)
{
  const GstCLDeviceInfo *d;

  for (guint i = 0; (d = image_device (i)); i++) {
    GstElement *e;
    GstHarness *h, *ref;
    GstBuffer *out, *expected;
    gchar *props;

    if (!d->image_support) {
      GST_WARNING ("%s has no images: VA import not checked there", d->name);
      continue;
    }
    reset_stubs (d);
    e = va_element (d, "clblur");
    h = gst_harness_new_with_element (e, "sink", "src");
    fail_unless (offers_va (e), "VAMemory not offered on %s", d->name);
    fail_unless_equals_string (calls->str, "devices context");
    g_string_truncate (calls, 0);
    gst_harness_set_caps_str (h, VA_CAPS, SYS_CAPS);
    {
      /* the decoder keeps its own surfaces: no OpenCL pool proposed */
      GstCaps *va = gst_caps_from_string (VA_CAPS);
      GstQuery *q = gst_query_new_allocation (va, TRUE);
      fail_unless (gst_pad_peer_query (h->srcpad, q));
      fail_unless_equals_int (gst_query_get_n_allocation_pools (q), 0);
      fail_unless (gst_query_find_allocation_meta (q, GST_VIDEO_META_API_TYPE,
              NULL));
      gst_query_unref (q);
      gst_caps_unref (va);
    }
    fail_unless_equals_int (gst_harness_push (h, va_buffer ()), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    /* both planes, Y first, one acquire before and one release after */
    fail_unless_equals_string (calls->str,
        "create(7,0) create(7,1) acquire(2) release(2)");

    props = g_strdup_printf ("device=%u.%u", d->platform_index,
        d->device_index);
    ref = clcheck_new_harness ("clblur", props);
    g_free (props);
    gst_harness_set_caps_str (ref, SYS_CAPS, SYS_CAPS);
    fail_unless_equals_int (gst_harness_push (ref, system_buffer ()),
        GST_FLOW_OK);
    expected = gst_harness_pull (ref);
    assert_same_frame (out, expected, d->name);

    /* a second frame: the surface's images are made again, in order */
    g_string_truncate (calls, 0);
    fail_unless_equals_int (gst_harness_push (h, va_buffer ()), GST_FLOW_OK);
    gst_buffer_unref (out);
    out = gst_harness_pull (h);
    fail_unless_equals_string (calls->str,
        "create(7,0) create(7,1) acquire(2) release(2)");
    assert_same_frame (out, expected, d->name);
    /* on the device all the way: no host copy, no upload of the frame */
    fail_unless_equals_int64 (clcheck_stat (e, "frame-copies"), 0);
    fail_unless_equals_int64 (clcheck_stat (e, "uploads"), 0);

    gst_buffer_unref (expected);
    gst_buffer_unref (out);
    gst_harness_teardown (ref);
    gst_harness_teardown (h);
    gst_object_unref (e);
  }
}

GST_END_TEST;

static void
assert_import_error (const GstCLDeviceInfo * d, const gchar * expect_calls)
{
  GstElement *e = va_element (d, "clblur");
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  gst_element_set_bus (e, bus);
  gst_harness_set_caps_str (h, VA_CAPS, SYS_CAPS);
  g_string_truncate (calls, 0);
  fail_unless_equals_int (gst_harness_push (h, va_buffer ()), GST_FLOW_ERROR);
  fail_unless_equals_string (calls->str, expect_calls);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless (strstr (err->message, "Could not import a VA surface"),
      "message: %s", err->message);
  fail_unless (dbg && strstr (dbg, "GST_CL_VA=0"), "debug: %s", dbg);
  GST_INFO ("%s (%s)", err->message, dbg);
  g_clear_error (&err);
  g_free (dbg);
  gst_message_unref (msg);
  /* no second error for the same frame */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_START_TEST (test_import_errors)
{
  const GstCLDeviceInfo *d = image_device (0);

  if (!d || !d->image_support)
    return;
  reset_stubs (d);
  stub_acquire_status = -1100;  /* CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL */
  /* not acquired: nothing to release, nothing run */
  assert_import_error (d, "create(7,0) create(7,1) acquire(2)");

  reset_stubs (d);
  stub_create_status = -1099  /* CL_INVALID_VA_API_MEDIA_SURFACE_INTEL */;
  assert_import_error (d, "create(7,0) create(7,1)");
}

GST_END_TEST;

/* Without the extension (or with a display on another GPU) the element
 * never offers VAMemory, so a VA decoder hands over system memory. */
GST_START_TEST (test_caps_follow_probe)
{
  const GstCLDeviceInfo *d = image_device (0);
  GstElement *e;
  GstHarness *h;

  if (!d)
    return;
  reset_stubs (d);
  hook_extensions = "cl_khr_byte_addressable_store cl_khr_3d_image_writes";
  e = va_element (d, "clblur");
  h = gst_harness_new_with_element (e, "sink", "src");
  fail_if (offers_va (e), "VAMemory offered without the extension");
  fail_unless_equals_string (calls->str, "");
  gst_harness_teardown (h);
  gst_object_unref (e);

  reset_stubs (d);
  stub_device = (cl_device_id) & fake_display_storage;  /* another GPU */
  e = va_element (d, "clblur");
  h = gst_harness_new_with_element (e, "sink", "src");
  fail_if (offers_va (e), "VAMemory offered for another GPU's display");
  fail_unless_equals_string (calls->str, "devices");
  gst_harness_teardown (h);
  gst_object_unref (e);

  /* and GST_CL_VA=0 turns sharing off */
  reset_stubs (d);
  g_setenv ("GST_CL_VA", "0", TRUE);
  e = va_element (d, "clblur");
  h = gst_harness_new_with_element (e, "sink", "src");
  fail_if (offers_va (e), "VAMemory offered with GST_CL_VA=0");
  g_unsetenv ("GST_CL_VA");
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* What GStreamer's va plugin puts in its context: a GstVaDisplay in
 * "gst-display", whose "va-display" property is the VADisplay. A minimal
 * GstObject with that property stands in for it. */
typedef struct
{
  GstObject parent;
} FakeVaDisplay;
typedef struct
{
  GstObjectClass parent_class;
} FakeVaDisplayClass;
GType fake_va_display_get_type (void);
G_DEFINE_TYPE (FakeVaDisplay, fake_va_display, GST_TYPE_OBJECT);

static void
fake_va_display_get_property (GObject * object, guint id, GValue * value,
    GParamSpec * pspec)
{
  g_value_set_pointer (value, FAKE_DISPLAY);
}

static void
fake_va_display_class_init (FakeVaDisplayClass * klass)
{
  G_OBJECT_CLASS (klass)->get_property = fake_va_display_get_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
      g_param_spec_pointer ("va-display", "VADisplay", "VADisplay",
          G_PARAM_READABLE));
}

static void
fake_va_display_init (FakeVaDisplay * self)
{
}

static gboolean
answer_va_context (GstPad * pad, GstObject * parent, GstQuery * query)
{
  const gchar *type = NULL;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_query_parse_context_type (query, &type) &&
      !g_strcmp0 (type, GST_CL_VA_DISPLAY_CONTEXT_TYPE)) {
    GstContext *ctx = gst_context_new (GST_CL_VA_DISPLAY_CONTEXT_TYPE, TRUE);
    GstObject *display = g_object_new (fake_va_display_get_type (), NULL);
    gst_object_ref_sink (display);
    gst_structure_set (gst_context_writable_structure (ctx), "gst-display",
        GST_TYPE_OBJECT, display, NULL);
    gst_object_unref (display);
    gst_query_set_context (query, ctx);
    gst_context_unref (ctx);
    record ("query");
    return TRUE;
  }
  return gst_pad_query_default (pad, parent, query);
}

/* A VA decoder's way: no context set beforehand; the element asks
 * upstream at start and gets a GstVaDisplay-like object. */
GST_START_TEST (test_display_from_upstream_query)
{
  const GstCLDeviceInfo *d = image_device (0);
  GstElement *e;
  GstPad *src, *sink;
  gchar *label;

  if (!d || !d->image_support)
    return;
  reset_stubs (d);
  e = gst_element_factory_make ("clblur", NULL);
  label = g_strdup_printf ("%u.%u", d->platform_index, d->device_index);
  g_object_set (e, "device", label, NULL);
  g_free (label);
  g_object_set_data (G_OBJECT (e), GST_CL_VA_TEST_HOOK, &hook);
  src = gst_pad_new ("src", GST_PAD_SRC);
  gst_pad_set_query_function (src, answer_va_context);
  sink = gst_element_get_static_pad (e, "sink");
  fail_unless_equals_int (gst_pad_link (src, sink), GST_PAD_LINK_OK);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_string (calls->str, "query devices context");
  fail_unless (offers_va (e));
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
va_suite (void)
{
  Suite *s = suite_create ("clva");
  TCase *tc = tcase_create ("probe");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_extension_words);
  tcase_add_test (tc, test_everything_present_shares);
  tcase_add_test (tc, test_each_missing_piece_falls_back);
  tcase_add_test (tc, test_real_devices_fall_back);
  tcase_add_test (tc, test_caps_per_path);
  tcase_add_test (tc, test_element_offers_no_va_memory);
  tcase_add_test (tc, test_caps_follow_probe);
  tcase_add_test (tc, test_import_through_stubs);
  tcase_add_test (tc, test_import_errors);
  tcase_add_test (tc, test_display_from_upstream_query);
  return s;
}

GST_CHECK_MAIN (va);
