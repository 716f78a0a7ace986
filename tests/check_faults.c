/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs under the clshim LD_PRELOAD shim (tests/clshim.c, set by
 * tests/meson.build): every OpenCL object our code creates is released by
 * the time a pipeline is back in NULL and unreferenced, and an OpenCL call
 * made to fail becomes an element error naming the failure, or is absorbed
 * with identical output, never a crash, a hang or a wrong frame. Each case
 * compares what reached the sink with a clean run of the same pipeline. */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <dlfcn.h>
#include <string.h>

enum { K_MEM, K_KERNEL, K_PROGRAM, K_QUEUE, K_CONTEXT, K_EVENT };

static int (*shim_fail) (const char *);
static long (*shim_live) (int);
static long (*shim_injected) (void);
static void (*shim_describe) (char *, size_t);
static void (*shim_set_max_alloc) (unsigned long long);

static void
load_shim (void)
{
  shim_fail = dlsym (RTLD_DEFAULT, "clshim_fail");
  shim_live = dlsym (RTLD_DEFAULT, "clshim_live");
  shim_injected = dlsym (RTLD_DEFAULT, "clshim_injected");
  shim_describe = dlsym (RTLD_DEFAULT, "clshim_describe");
  shim_set_max_alloc = dlsym (RTLD_DEFAULT, "clshim_set_max_alloc");
  fail_unless (shim_fail && shim_live && shim_injected && shim_describe &&
      shim_set_max_alloc, "run with LD_PRELOAD=libclshim.so (meson test does)");
}

static void
assert_nothing_alive (const gchar * what)
{
  gchar line[512];

  /* After an error the source's streaming thread may drop the last buffer
   * pool reference a few milliseconds after set_state (NULL) returned:
   * gst_task_join() cannot join a GThreadPool thread, which still runs the
   * tail of its task (seen: 10 ms). Give it a second. */
  for (gint i = 0; i < 100 && shim_live (-1); i++)
    g_usleep (10 * 1000);
  shim_describe (line, sizeof (line));
  g_print ("live after NULL: %s\n", line);
  fail_unless (shim_live (-1) == 0, "%s: OpenCL objects left alive: %s",
      what, line);
}

typedef struct
{
  GPtrArray *sums;              /* MD5 of each frame that reached the sink */
  GError *error;
  gchar *debug;
  gchar *error_src;             /* type name of the element that posted it */
  gboolean eos;
  guint map_refusals;
} Run;

static void
run_clear (Run * r)
{
  g_ptr_array_unref (r->sums);
  g_clear_error (&r->error);
  g_free (r->debug);
  g_free (r->error_src);
}

static void
take_sample (Run * r, GstSample * sample)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);

  GstVideoInfo info;
  GstVideoFrame frame;

  /* A frame whose kernels failed must not be readable: "" marks a refusal.
   * Only visible pixels count: row padding is never written. */
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
          (sample)));
  if (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ)) {
    GChecksum *sum = g_checksum_new (G_CHECKSUM_MD5);
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];
      gst_video_format_info_component (info.finfo, p, comp);
      for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp[0]); y++)
        g_checksum_update (sum, (const guchar *)
            GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
            GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp[0]) *
            GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp[0]));
    }
    g_ptr_array_add (r->sums, g_strdup (g_checksum_get_string (sum)));
    g_checksum_free (sum);
    gst_video_frame_unmap (&frame);
  } else {
    g_ptr_array_add (r->sums, g_strdup (""));
    r->map_refusals++;
  }
  gst_sample_unref (sample);
}

/* Runs @desc (ending in "appsink name=sink") to EOS or the first error,
 * 60 s at most (a hang fails), back to NULL, and checks that every OpenCL
 * object is released. */
static Run
run_pipeline (const gchar * desc)
{
  Run r = { g_ptr_array_new_with_free_func (g_free), NULL, NULL, NULL, FALSE,
    0
  };
  GError *perr = NULL;
  GstElement *pipe = gst_parse_launch (desc, &perr);
  GstElement *sink;
  GstBus *bus;
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  fail_unless (pipe != NULL, "%s: %s", desc, perr ? perr->message : "");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_MSECOND);
    GstMessage *msg;

    if (sample) {
      take_sample (&r, sample);
      continue;
    }
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
    if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &r.error, &r.debug);
      r.error_src = g_strdup_printf ("%s %s",
          G_OBJECT_TYPE_NAME (GST_MESSAGE_SRC (msg)),
          GST_MESSAGE_SRC_NAME (msg));
    } else if (msg)
      r.eos = TRUE;
    if (msg) {
      gst_message_unref (msg);
      break;
    }
    if (gst_app_sink_is_eos (GST_APP_SINK (sink))) {
      r.eos = TRUE;
      break;
    }
    fail_if (g_get_monotonic_time () > deadline, "%s: hangs", desc);
  }
  /* Frames queued in the sink before the error are results too. */
  {
    GstSample *sample;
    while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0)))
      take_sample (&r, sample);
  }
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  assert_nothing_alive (desc);
  return r;
}

#define CHAIN(upstream) "videotestsrc num-buffers=12 pattern=ball ! " \
    "video/x-raw,format=NV12,width=96,height=64,framerate=30/1 ! " upstream \
    "clblur device=cpu ! clsobel device=cpu ! clhisteq device=cpu ! " \
    "appsink name=sink sync=false"
static const gchar *chain = CHAIN ("");
/* videotestsrc ignores a failed map of its output and pushes the stale
 * frame: keep it out of our pool where CPU waits are faulted. */
static const gchar *chain_sysmem = CHAIN ("identity drop-allocation=true ! ");

/* ---- release counting -------------------------------------------------- */

/* Each element alone and all in a chain, with OpenCL input (the pool the
 * element proposes), foreign input (videotestsrc behind a tee allocates its
 * own), OpenCL output mapped by the sink, every format family. */
GST_START_TEST (test_everything_released)
{
  static const gchar *descs[] = {
    "videotestsrc num-buffers=5 ! video/x-raw,format=NV12,width=64,height=48 "
        "! clblur device=cpu ! appsink name=sink sync=false",
    "videotestsrc num-buffers=5 ! video/x-raw,format=RGBA,width=64,height=48 "
        "! clsobel device=cpu ! appsink name=sink sync=false",
    "videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=64,height=48 "
        "! clhisteq device=cpu mode=clahe ! appsink name=sink sync=false",
    "videotestsrc num-buffers=5 ! video/x-raw,format=GRAY8,width=64,height=48 "
        "! tee name=t ! queue ! clblur device=cpu ! appsink name=sink "
        "sync=false t. ! queue ! fakesink",
    "videotestsrc num-buffers=5 pattern=ball ! "
        "video/x-raw,format=NV12,width=64,height=48 ! cloptflow device=cpu ! "
        "appsink name=sink sync=false",
    NULL,
  };

  load_shim ();
  for (const gchar ** d = descs; *d; d++) {
    Run r = run_pipeline (*d);
    fail_unless (r.eos && !r.error, "%s: %s", *d,
        r.error ? r.error->message : "no EOS");
    fail_unless_equals_int (r.sums->len, 5);
    run_clear (&r);
  }
  {
    Run r = run_pipeline (chain);
    fail_unless (r.eos && !r.error);
    fail_unless_equals_int (r.sums->len, 12);
    run_clear (&r);
  }
}
GST_END_TEST;

/* 100 PLAYING <-> NULL cycles of the chain, each stopped while frames are
 * in flight: no error, no hang, and nothing left alive at the end (each
 * cycle makes and drops a whole context, programs from the disk cache). */
GST_START_TEST (test_100_state_cycles)
{
  GError *perr = NULL;
  GstElement *pipe = gst_parse_launch ("videotestsrc pattern=ball ! "
      "video/x-raw,format=NV12,width=96,height=64,framerate=30/1 ! "
      "clblur device=cpu ! clsobel device=cpu ! clhisteq device=cpu ! "
      "appsink name=sink sync=false max-buffers=2", &perr);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstBus *bus = gst_element_get_bus (pipe);
  guint frames = 0;
  GstMessage *err;

  load_shim ();
  fail_unless (pipe != NULL);
  for (gint cycle = 0; cycle < 100; cycle++) {
    GstSample *sample;
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        30 * GST_SECOND);
    fail_unless (sample != NULL, "cycle %d: no frame", cycle);
    frames++;
    gst_sample_unref (sample);
    fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    err = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_if (err != NULL, "cycle %d: error", cycle);
  }
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  assert_nothing_alive ("100 PLAYING/NULL cycles");
  g_print ("100 PLAYING/NULL cycles: %u frames pulled, 0 objects alive\n",
      frames);
}
GST_END_TEST;

/* ---- faults ----------------------------------------------------------- */

/* What a fault must give. */
typedef enum
{
  EXPECT_ERROR,                 /* an element error naming the CL status */
  EXPECT_CLEAN,                 /* absorbed: the same frames as a clean run */
  EXPECT_REFUSED,               /* an error, or the frame cannot be mapped */
  EXPECT_SAFE,                  /* no wrong frame, whatever else happens */
} Expect;

typedef struct
{
  const gchar *spec;
  Expect expect;
  const gchar *words;           /* in the error message or its details;
                                 * alternatives separated by '|' */
  gboolean sysmem;              /* system memory into the first element */
} Fault;

static void
assert_fault (const Fault * f, const Run * clean)
{
  long before = shim_injected ();
  Run r;

  fail_unless (shim_fail (f->spec), "bad spec %s", f->spec);
  r = run_pipeline (f->sysmem ? chain_sysmem : chain);
  shim_fail ("");
  fail_unless (shim_injected () > before, "%s: the call was never made",
      f->spec);

  /* Whatever came out before the failure is what a clean run gives. */
  fail_unless (r.sums->len <= clean->sums->len);
  for (guint i = 0; i < r.sums->len; i++)
    if (*(gchar *) g_ptr_array_index (r.sums, i))
      fail_unless_equals_string (g_ptr_array_index (r.sums, i),
          g_ptr_array_index (clean->sums, i));
  if (r.map_refusals)
    g_print ("%-44s -> %u frames refused to the CPU consumer\n", f->spec,
        r.map_refusals);

  if (f->expect == EXPECT_CLEAN) {
    fail_unless (r.eos && !r.error, "%s: %s", f->spec,
        r.error ? r.error->message : "no EOS");
    fail_unless_equals_int (r.sums->len, clean->sums->len);
    fail_unless_equals_int (r.map_refusals, 0);
  } else if (f->expect == EXPECT_SAFE) {
    g_print ("%-44s -> %u frames, %u refused, %s\n", f->spec, r.sums->len,
        r.map_refusals, r.error ? r.error->message : "EOS");
  } else if (f->expect == EXPECT_REFUSED) {
    fail_unless (r.map_refusals > 0 || r.error, "%s: frame delivered",
        f->spec);
  } else {
    gchar *all;
    fail_unless (r.error != NULL, "%s: no error, %u frames", f->spec,
        r.sums->len);
    fail_unless (r.sums->len < clean->sums->len);
    /* From one of our elements, not the source's "streaming stopped". */
    fail_unless (g_str_has_prefix (r.error_src, "GstCL"),
        "%s: error from %s: %s", f->spec, r.error_src, r.error->message);
    all = g_strdup_printf ("%s\n%s", r.error->message, r.debug);
    {
      gchar **alts = g_strsplit (f->words, "|", -1);
      gboolean found = FALSE;
      for (gchar ** a = alts; *a; a++)
        found |= strstr (all, *a) != NULL;
      g_strfreev (alts);
      fail_unless (found, "%s: \"%s\" not in \"%s\"", f->spec, f->words,
          all);
    }
    g_print ("%-44s -> %s: %s (after %u frames)\n", f->spec,
        r.error_src, r.error->message, r.sums->len);
    g_free (all);
  }
  run_clear (&r);
}

static void
run_faults (const Fault * faults, gsize n)
{
  Run clean;

  load_shim ();
  clean = run_pipeline (chain);
  fail_unless (clean.eos && clean.sums->len == 12);
  for (gsize i = 0; i < n; i++)
    assert_fault (&faults[i], &clean);
  run_clear (&clean);
}

/* Start-up: no context, no queue, a kernel missing. */
GST_START_TEST (test_faults_at_start)
{
  static const Fault faults[] = {
    {"clCreateContext:1", EXPECT_ERROR, "CL_DEVICE_NOT_AVAILABLE", FALSE},
    {"clCreateContext:1:CL_OUT_OF_HOST_MEMORY", EXPECT_ERROR,
        "CL_OUT_OF_HOST_MEMORY", FALSE},
    {"clCreateCommandQueue:1", EXPECT_ERROR, "CL_OUT_OF_RESOURCES", FALSE},
    {"clCreateKernel:1", EXPECT_ERROR, "CL_INVALID_KERNEL_NAME", FALSE},
    {"clCreateKernel:2+", EXPECT_ERROR, "CL_INVALID_KERNEL_NAME", FALSE},
  };
  run_faults (faults, G_N_ELEMENTS (faults));
}
GST_END_TEST;

/* Program builds, with the disk cache off so each build is a compile that
 * the fault stops before it starts (no 10-second PoCL compile). */
GST_START_TEST (test_build_faults)
{
  static const Fault faults[] = {
    {"clBuildProgram:1", EXPECT_ERROR, "CL_BUILD_PROGRAM_FAILURE", FALSE},
    {"clCreateProgramWithSource:1", EXPECT_ERROR, "CL_OUT_OF_RESOURCES", FALSE},
  };
  Run clean;

  load_shim ();
  clean = run_pipeline (chain);
  fail_unless (clean.eos && clean.sums->len == 12);
  g_setenv ("GST_CL_CACHE_DIR", "", TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (faults); i++)
    assert_fault (&faults[i], &clean);
  run_clear (&clean);
}
GST_END_TEST;

/* Mid-stream: kernels, arguments, buffers, waits, maps. */
GST_START_TEST (test_faults_while_running)
{
  static const Fault faults[] = {
    {"clEnqueueNDRangeKernel:5:CL_OUT_OF_RESOURCES", EXPECT_ERROR,
        "CL_OUT_OF_RESOURCES", FALSE},
    {"clEnqueueNDRangeKernel:1", EXPECT_ERROR, "CL_OUT_OF_RESOURCES", FALSE},
    {"clEnqueueNDRangeKernel:40:CL_INVALID_WORK_GROUP_SIZE", EXPECT_ERROR,
        "CL_INVALID_WORK_GROUP_SIZE", FALSE},
    {"clEnqueueNDRangeKernel:12+:CL_OUT_OF_HOST_MEMORY", EXPECT_ERROR,
        "CL_OUT_OF_HOST_MEMORY", FALSE},
    /* The elements report a failed argument as CL_INVALID_KERNEL_ARGS. */
    {"clSetKernelArg:30", EXPECT_ERROR, "CL_INVALID_KERNEL_ARGS", FALSE},
    {"clSetKernelArg:300", EXPECT_ERROR, "CL_INVALID_KERNEL_ARGS", FALSE},
    {"clCreateBuffer:1", EXPECT_ERROR, "allocate", FALSE},
    {"clCreateBuffer:6+", EXPECT_ERROR, "allocate|CL_OUT_OF_RESOURCES", FALSE},
    /* A wait that fails leaves the frame undefined: mapping it fails. */
    /* Status queries failing too make every map wait, so the waits happen
     * whatever the timing. */
    {"clGetEventInfo:1+,clWaitForEvents:1+:"
          "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", EXPECT_REFUSED, NULL,
        TRUE},
    {"clGetEventInfo:1+,clWaitForEvents:3", EXPECT_SAFE, NULL, TRUE},
    /* clEnqueueMapBuffer, clEnqueueRead/WriteBuffer are only called for
     * devices that do not share host memory (GPUs): tools/faults-gpu.sh. */
    {"clFinish:1", EXPECT_CLEAN, NULL, FALSE},
  };
  run_faults (faults, G_N_ELEMENTS (faults));
}
GST_END_TEST;

/* Frames larger than the device's largest allocation (made small by the
 * shim) are refused when the caps arrive, with sizes in the message. */
GST_START_TEST (test_frame_beyond_max_alloc)
{
  Run r;

  load_shim ();
  shim_set_max_alloc (64 * 1024);
  r = run_pipeline ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=256,height=256 ! clblur device=cpu ! "
      "appsink name=sink sync=false");
  fail_unless (r.error != NULL);
  fail_unless_equals_int (r.sums->len, 0);
  fail_unless (g_str_has_prefix (r.error_src, "GstCL"), "%s", r.error_src);
  fail_unless (strstr (r.error->message, "largest allocation") != NULL,
      "%s", r.error->message);
  g_print ("max alloc 64 KiB, RGBA 256x256 -> %s\n", r.error->message);
  run_clear (&r);
}
GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("faults");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_everything_released);
  tcase_add_test (tc, test_100_state_cycles);
  tcase_add_test (tc, test_faults_at_start);
  tcase_add_test (tc, test_build_faults);
  tcase_add_test (tc, test_faults_while_running);
  tcase_add_test (tc, test_frame_beyond_max_alloc);
  return s;
}

GST_CHECK_MAIN (faults);
