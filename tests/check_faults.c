/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs under the clshim LD_PRELOAD shim (tests/clshim.c, set by
 * tests/meson.build): every OpenCL object our code creates is released by
 * the time a pipeline is back in NULL and unreferenced, and an OpenCL call
 * made to fail becomes an element error naming the failure, or is absorbed
 * with identical output, never a crash, a hang or a wrong frame. Each case
 * compares what reached the sink with a clean run of the same pipeline. */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <dlfcn.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "clfilters/gstclflowmeta.h"
#include "clcheck.h"

enum { K_MEM, K_KERNEL, K_PROGRAM, K_QUEUE, K_CONTEXT, K_EVENT };

static int (*shim_fail) (const char *);
static long (*shim_live) (int);
static long (*shim_injected) (void);
static void (*shim_describe) (char *, size_t);
static void (*shim_set_max_alloc) (unsigned long long);
static long (*shim_seen) (int);
static long (*shim_created) (int);
static long (*shim_timed_queues) (void);

static void
load_shim (void)
{
  shim_fail = dlsym (RTLD_DEFAULT, "clshim_fail");
  shim_live = dlsym (RTLD_DEFAULT, "clshim_live");
  shim_injected = dlsym (RTLD_DEFAULT, "clshim_injected");
  shim_describe = dlsym (RTLD_DEFAULT, "clshim_describe");
  shim_set_max_alloc = dlsym (RTLD_DEFAULT, "clshim_set_max_alloc");
  shim_seen = dlsym (RTLD_DEFAULT, "clshim_seen");
  shim_created = dlsym (RTLD_DEFAULT, "clshim_created");
  shim_timed_queues = dlsym (RTLD_DEFAULT, "clshim_timed_queues");
  fail_unless (shim_fail && shim_live && shim_injected && shim_describe &&
      shim_set_max_alloc && shim_seen && shim_created && shim_timed_queues,
      "run with LD_PRELOAD=libclshim.so (meson test does)");
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

/* Queues created while @desc runs, and how many of them time their
 * commands. */
static void
count_queues (const gchar * desc, long *queues, long *timed)
{
  long queues_before = shim_created (K_QUEUE);
  long timed_before = shim_timed_queues ();
  Run r = run_pipeline (desc);

  fail_unless (r.eos && !r.error, "%s: %s", desc,
      r.error ? r.error->message : "no EOS");
  run_clear (&r);
  *queues = shim_created (K_QUEUE) - queues_before;
  *timed = shim_timed_queues () - timed_before;
}

/* The elements' shared context leaves its queues untimed: on NVIDIA the
 * queued 1080p chain took 0.12 ms a frame timed against 0.08 untimed
 * (docs/PERFORMANCE.md, "Session 37"). GST_CL_PROFILING=1 times them. */
GST_START_TEST (test_queues_untimed)
{
  long queues, timed;

  load_shim ();
  g_unsetenv ("GST_CL_PROFILING");
  count_queues (chain, &queues, &timed);
  g_print ("by default: %ld queues created, %ld timed\n", queues, timed);
  fail_unless (queues > 0, "no queue created: the test proves nothing");
  fail_unless_equals_int (timed, 0);

  g_setenv ("GST_CL_PROFILING", "1", TRUE);
  count_queues (chain, &queues, &timed);
  g_print ("GST_CL_PROFILING=1: %ld queues created, %ld timed\n", queues,
      timed);
  fail_unless (queues > 0);
  fail_unless_equals_int (timed, queues);
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

/* The transfers, made only where frames are staged: on a discrete GPU
 * (tools/faults-gpu.sh) or with GST_CL_STAGING=1 (test faults-staged),
 * where uploads go to a queue of their own behind a barrier on the main
 * one. A failed upload or barrier is an element error. A failed download
 * fails the consumer's map, and GStreamer then maps a copy of the memory
 * (gst_memory_make_mapped: a device copy, then its own download): one
 * failure is absorbed, the right frame read; with every later download
 * failing too, the frames are refused. Never a wrong frame. */
GST_START_TEST (test_faults_transfers)
{
  gboolean upload_queue =
      g_strcmp0 (g_getenv ("GST_CL_TRANSFER_QUEUES"), "0") != 0;
  /* An upload queued at the writer's unmap that fails is made again when
   * the kernel maps the frame: one failure is absorbed. */
  gboolean early_uploads = upload_queue &&
      g_strcmp0 (g_getenv ("GST_CL_EARLY_UPLOADS"), "0") != 0;
  const Fault faults[] = {
    {"clEnqueueWriteBuffer:2", early_uploads ? EXPECT_CLEAN : EXPECT_ERROR,
        "input frame", FALSE},
    {"clEnqueueWriteBuffer:5+", EXPECT_ERROR, "input frame", FALSE},
    {"clEnqueueReadBuffer:2", EXPECT_CLEAN, NULL, FALSE},
    {"clEnqueueReadBuffer:4+", EXPECT_REFUSED, NULL, FALSE},
    /* last: only where uploads have a queue of their own */
    {"clEnqueueBarrierWithWaitList:3", EXPECT_ERROR, "input frame", FALSE},
  };

  if (!clcheck_staged ()) {
    g_print ("transfers: frames not staged here (GST_CL_STAGING unset), "
        "no transfer to fail\n");
    return;
  }
  run_faults (faults, G_N_ELEMENTS (faults) - (upload_queue ? 0 : 1));
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


/* ---- device=auto: a fault moves the chain, the frame is not lost -------- */

/* Run by the "auto-faults" test: PoCL makes two CPU devices
 * (POCL_DEVICES="pthread pthread") and GST_CL_AUTO_DEVICES=0.0,0.1 makes
 * the first one play the GPU; no load source, so without a fault the
 * chain stays on 0.0. Faults are aimed at 0.0 with the shim's @0.0
 * filter. Frames are GRAY8 with a drifting brightness, so clhisteq's
 * temporal smoothing matters (a lost or doubled state shows). */
#define AW 96
#define AH 64
#define A_FRAMES 40

typedef struct
{
  guint8 *frames[A_FRAMES];
  gfloat *flows[A_FRAMES];
  guint n;
  GError *error;
  gchar *error_src;
  GPtrArray *switches;          /* "gst-cl-device-switch" structures */
  guint warnings;
  guint injected;
  long seen;                    /* calls the spec's first rule counted */
  long seen2;                   /* ... its second rule */
  gdouble auto_ms;              /* the element "blur"'s auto-ms-per-frame
                                 * at the end (-1: none) */
  gint64 timed_frames;          /* ... and auto-timed-frames */
} ARun;

static void
arun_clear (ARun * r)
{
  for (guint i = 0; i < r->n; i++) {
    g_free (r->frames[i]);
    g_free (r->flows[i]);
  }
  g_clear_error (&r->error);
  g_free (r->error_src);
  if (r->switches)
    g_ptr_array_unref (r->switches);
  memset (r, 0, sizeof (*r));
}

static void
auto_frame (guint k, guint8 * data, gboolean moving)
{
  guint32 seed = 12345 + k * 7919;
  gint base = 60 + (gint) (40 * sin (k / 9.0));
  for (gint i = 0; i < AW * AH; i++) {
    gint x = i % AW, y = i / AW;
    if (moving) {
      gdouble u = x - (gdouble) k;
      data[i] = (guint8) (128 + 50 * sin (u * 0.31) * cos (y * 0.23) +
          30 * sin ((u + y) * 0.13));
      continue;
    }
    seed = seed * 1664525u + 1013904223u;
    data[i] = CLAMP (base + (gint) ((seed >> 24) % 90) - 20 + x / 3, 0, 255);
  }
}

/* Keeps what @msg says in @r; TRUE for an error. Takes @msg. */
static gboolean
take_message (ARun * r, GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  gboolean error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

  if (error && !r->error) {
    gst_message_parse_error (msg, &r->error, NULL);
    r->error_src = g_strdup (G_OBJECT_TYPE_NAME (GST_MESSAGE_SRC (msg)));
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    r->warnings++;
  } else if (s && gst_structure_has_name (s, "gst-cl-device-switch")) {
    GstStructure *c = gst_structure_copy (s);
    gst_structure_set (c, "element", G_TYPE_STRING,
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), NULL);
    g_ptr_array_add (r->switches, c);
  }
  gst_message_unref (msg);
  return error;
}

/* Set by a test that needs auto-timed-frames read after the callbacks. */
static gboolean wait_for_timed_frames;

/* appsrc ! @chain ! appsink on frames @start.. (@n of them), the shim's
 * @spec set (NULL: none) for the run; every OpenCL object released after. */
static void
run_auto (const gchar * pipeline, const gchar * spec, gboolean moving,
    guint start, guint n, ARun * r)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps="
      "video/x-raw,format=GRAY8,width=%d,height=%d,framerate=30/1 ! %s ! "
      "appsink name=sink sync=false", AW, AH, pipeline);
  GstElement *pipe, *src, *sink, *blur;
  GstBus *bus;
  GstMessage *msg;
  GstSample *sample;
  long before = shim_injected ();

  memset (r, 0, sizeof (*r));
  r->switches = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  if (spec)
    fail_unless (shim_fail (spec), "bad spec %s", spec);
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL, "%s", desc);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (guint k = 0; k < n; k++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, AW * AH, NULL);
    GstMapInfo map;
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
    auto_frame (start + k, map.data, moving);
    gst_buffer_unmap (buf, &map);
    GST_BUFFER_PTS (buf) = k * GST_SECOND / 30;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    /* After an error the source refuses: the rest is not pushed. */
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  for (;;) {
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_MSECOND);
    if (sample) {
      GstBuffer *buf = gst_sample_get_buffer (sample);
      GstCLFlowMeta *m = gst_buffer_get_cl_flow_meta (buf);
      GstMapInfo map;
      fail_unless (r->n < A_FRAMES);
      fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
      r->frames[r->n] = g_memdup2 (map.data, AW * AH);
      gst_buffer_unmap (buf, &map);
      if (m && gst_buffer_map (m->field, &map, GST_MAP_READ)) {
        r->flows[r->n] = g_new (gfloat, 2 * AW * AH);
        for (gint y = 0; y < AH; y++)
          memcpy (r->flows[r->n] + 2 * AW * y, map.data + m->stride * y,
              sizeof (gfloat) * 2 * AW);
        gst_buffer_unmap (m->field, &map);
      }
      r->n++;
      gst_sample_unref (sample);
      continue;
    }
    /* (pop_filtered drops what does not match: take all three kinds.) */
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
                GST_MESSAGE_ELEMENT | GST_MESSAGE_WARNING))) {
      if (take_message (r, msg))
        break;
    }
    if (r->error || gst_app_sink_is_eos (GST_APP_SINK (sink)))
      break;
  }
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT |
              GST_MESSAGE_WARNING)))
    take_message (r, msg);
  r->auto_ms = -1;
  if ((blur = gst_bin_get_by_name (GST_BIN (pipe), "blur"))) {
    /* The latencies arrive in completion callbacks: give the last ones a
     * moment when a test waits for them. */
    for (gint tries = 0; tries < (wait_for_timed_frames ? 200 : 1); tries++) {
      GstStructure *stats = NULL;
      g_object_get (blur, "stats", &stats, NULL);
      if (!stats || !gst_structure_get_double (stats, "auto-ms-per-frame",
              &r->auto_ms))
        r->auto_ms = -1;
      if (!stats || !gst_structure_get_int64 (stats, "auto-timed-frames",
              &r->timed_frames))
        r->timed_frames = 0;
      if (stats)
        gst_structure_free (stats);
      if (r->timed_frames > 0)
        break;
      g_usleep (10000);
    }
    gst_object_unref (blur);
  }
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  r->injected = shim_injected () - before;
  r->seen = shim_seen (0);
  r->seen2 = shim_seen (1);
  if (spec)
    shim_fail ("");
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  assert_nothing_alive (desc);
  g_free (desc);
}

static gint
frame_diff (const guint8 * a, const guint8 * b)
{
  gint m = 0;
  for (gint i = 0; i < AW * AH; i++)
    m = MAX (m, ABS ((gint) a[i] - (gint) b[i]));
  return m;
}

/* Calls to @call (an OpenCL function) that the first @frames frames
 * through @pipeline make on device 0.0 (a rule that never fires counts
 * them). */
static guint
calls (const gchar * call, const gchar * pipeline, gboolean moving,
    guint frames)
{
  gchar *spec = g_strdup_printf ("%s@0.0:100000000", call);
  ARun r;
  long seen;

  run_auto (pipeline, spec, moving, 0, frames, &r);
  seen = r.seen;
  fail_unless_equals_int (r.n, frames);
  fail_unless (seen > 0, "no %s on 0.0", call);
  arun_clear (&r);
  g_free (spec);
  return (guint) seen;
}

/* ... a frame, when every frame makes the same. */
static guint
calls_per_frame (const gchar * call, const gchar * pipeline, gboolean moving)
{
  guint n = calls (call, pipeline, moving, 10);

  fail_unless (n % 10 == 0, "%u calls to %s in 10 frames", n, call);
  return n / 10;
}

/* Kernel launches. */
static guint
launches_per_frame (const gchar * pipeline, gboolean moving)
{
  return calls_per_frame ("clEnqueueNDRangeKernel", pipeline, moving);
}

/* Each frame of @r the single-device run's within @tol; the largest
 * difference. */
static gint
assert_frames_within (const ARun * r, const ARun * ref, gint tol,
    const gchar * what)
{
  gint worst = 0;

  for (guint k = 0; k < r->n; k++) {
    gint d = frame_diff (r->frames[k], ref->frames[k]);
    fail_unless (d <= tol, "%s: frame %u differs by %d from the "
        "single-device run", what, k, d);
    worst = MAX (worst, d);
  }
  return worst;
}

/* Every frame there, each the single-device run's within @tol; a switch
 * message of reason "fault" naming @words; no error. */
static void
assert_moved (const ARun * r, const ARun * ref, gint tol, const gchar * words,
    const gchar * what)
{
  gint worst;
  gboolean fault = FALSE;

  fail_unless (r->error == NULL, "%s: error from %s: %s", what,
      r->error_src, r->error ? r->error->message : "");
  fail_unless (r->injected > 0, "%s: no fault injected", what);
  fail_unless_equals_int (r->n, ref->n);
  worst = assert_frames_within (r, ref, tol, what);
  for (guint i = 0; i < r->switches->len; i++) {
    const GstStructure *s = g_ptr_array_index (r->switches, i);
    const gchar *detail = gst_structure_get_string (s, "detail");
    g_print ("%s: %s moved %s -> %s (%s, %s): %s\n", what,
        gst_structure_get_string (s, "element"),
        gst_structure_get_string (s, "element-from"),
        gst_structure_get_string (s, "element-to"),
        gst_structure_get_string (s, "reason"),
        gst_structure_get_string (s, "role"), detail);
    if (!g_strcmp0 (gst_structure_get_string (s, "reason"), "fault") &&
        detail && strstr (detail, words))
      fault = TRUE;
    /* Never back to the failed device. */
    fail_unless (g_str_has_prefix (gst_structure_get_string (s,
                "element-to"), "0.1"), "%s: moved to %s", what,
        gst_structure_get_string (s, "element-to"));
  }
  fail_unless (fault, "%s: no switch message of reason fault with \"%s\" "
      "(%u switch messages)", what, words, r->switches->len);
  fail_unless (r->warnings > 0, "%s: no warning", what);
  g_print ("%s: %u frames in, %u out, largest difference from the "
      "single-device run %d, %u switch messages\n", what, ref->n, r->n,
      worst, r->switches->len);
}

#define AUTO_CHAIN "clblur name=blur sigma=1.5 ! clhisteq name=histeq " \
    "smoothing=8"
#define PINNED_CHAIN "clblur sigma=1.5 device=0.0 ! clhisteq smoothing=8 " \
    "device=0.0"

/* Mid-stream: a kernel launch on the active device fails with
 * CL_OUT_OF_RESOURCES, in the first element (the leader) or in the
 * second (a follower; its last launch, after the smoothing state was
 * updated for the frame). */
GST_START_TEST (test_auto_fault_while_running)
{
  ARun ref, r, fresh;
  guint blur, both, histeq, f = 20;
  gchar *spec;

  load_shim ();
  blur = launches_per_frame ("clblur sigma=1.5", FALSE);
  both = launches_per_frame (AUTO_CHAIN, FALSE);
  histeq = both - blur;
  g_print ("launches per frame on 0.0: clblur %u, clhisteq %u\n", blur,
      histeq);
  fail_unless (histeq > 0);
  run_auto (PINNED_CHAIN, NULL, FALSE, 0, A_FRAMES, &ref);
  fail_unless_equals_int (ref.n, A_FRAMES);

  /* clhisteq's last launch of frame 20; from then on 0.0 fails every
   * launch (a broken device): nothing goes back to it. */
  spec = g_strdup_printf ("clEnqueueNDRangeKernel@0.0:%u+:"
      "CL_OUT_OF_RESOURCES", f * both + blur + histeq);
  run_auto (AUTO_CHAIN, spec, FALSE, 0, A_FRAMES, &r);
  assert_moved (&r, &ref, 1, "CL_OUT_OF_RESOURCES", spec);
  fail_unless_equals_string (gst_structure_get_string (g_ptr_array_index
          (r.switches, 0), "element"), "histeq");
  fail_unless_equals_string (gst_structure_get_string (g_ptr_array_index
          (r.switches, 0), "role"), "follower");
  arun_clear (&r);
  g_free (spec);

  /* The check can fail: clhisteq starting over at frame 20 (its state
   * lost in the move) gives another frame. */
  run_auto ("clblur sigma=1.5 device=0.0 ! clhisteq smoothing=8 device=0.0",
      NULL, FALSE, f, 1, &fresh);
  fail_unless (frame_diff (fresh.frames[0], ref.frames[f]) > 1,
      "a fresh state gives the same frame: the test proves nothing");
  g_print ("a fresh smoothing state at frame %u differs by %d\n", f,
      frame_diff (fresh.frames[0], ref.frames[f]));
  arun_clear (&fresh);

  /* clblur's first launch of frame 10, once: the leader moves, clhisteq
   * follows with its state. */
  spec = g_strdup_printf ("clEnqueueNDRangeKernel@0.0:%u:CL_OUT_OF_RESOURCES",
      10 * both + 1);
  run_auto (AUTO_CHAIN, spec, FALSE, 0, A_FRAMES, &r);
  assert_moved (&r, &ref, 1, "CL_OUT_OF_RESOURCES", spec);
  fail_unless_equals_string (gst_structure_get_string (g_ptr_array_index
          (r.switches, 0), "role"), "leader");
  arun_clear (&r);
  g_free (spec);

  /* A kernel argument that cannot be set (kernel set-up), in clhisteq. */
  run_auto (AUTO_CHAIN, "clSetKernelArg@0.0:300", FALSE, 0, A_FRAMES, &r);
  assert_moved (&r, &ref, 1, "CL_INVALID_KERNEL_ARGS", "clSetKernelArg@0.0:300");
  arun_clear (&r);
  arun_clear (&ref);
}
GST_END_TEST;

/* Where frames are staged (GST_CL_STAGING=1, the "auto-faults-staged"
 * test): frame 20's upload into clhisteq fails on 0.0, before its
 * process() ran. Nothing of the frame changed the smoothing state, so the
 * state goes to 0.1 as it is: the frames are the single-device run's,
 * byte for byte. (Carried as for a frame that failed half way, the copy
 * kept before frame 19 made frame 20 on from one frame behind.) */
GST_START_TEST (test_auto_fault_before_process)
{
  const gchar *pinned = "clhisteq smoothing=8 device=0.0";
  const gchar *auto_chain = "clhisteq name=histeq smoothing=8";
  ARun ref, r;
  guint per_frame, f = 20;
  gchar *spec;

  fail_unless (clcheck_staged (),
      "run with GST_CL_STAGING=1 (the auto-faults-staged test)");
  load_shim ();
  per_frame = calls_per_frame ("clEnqueueWriteBuffer", auto_chain, FALSE);
  run_auto (pinned, NULL, FALSE, 0, A_FRAMES, &ref);
  fail_unless_equals_int (ref.n, A_FRAMES);

  spec = g_strdup_printf ("clEnqueueWriteBuffer@0.0:%u+:CL_OUT_OF_RESOURCES",
      f * per_frame + 1);
  run_auto (auto_chain, spec, FALSE, 0, A_FRAMES, &r);
  assert_moved (&r, &ref, 0, "input frame", spec);
  arun_clear (&r);
  g_free (spec);
  arun_clear (&ref);
}
GST_END_TEST;

/* device=auto's contexts leave the queues that do the work untimed too
 * (as the elements' shared ones, above). Its load watch reads a frame's
 * latency from a 4-byte probe on a timed queue of its own, queueing no
 * marker, and the windows get a time per frame; with GST_CL_PROFILING=1
 * every queue is timed and the latency runs from a marker before the
 * work, with no probes. */
GST_START_TEST (test_auto_queues_untimed)
{
  gchar *knobs = g_strdup (g_getenv ("GST_CL_AUTO"));
  long every_frame = 0;

  load_shim ();
  wait_for_timed_frames = TRUE;
  /* The latency signal on (the suite's knobs turn it off), every frame
   * timed, windows of 5 frames; nothing but a fault could move the chain
   * off 0.0 this soon. */
  g_setenv ("GST_CL_AUTO", "window-frames=5,window-ms=0,up-windows=1000,"
      "latency-interval-ms=0", TRUE);
  for (gint timed = 0; timed <= 1; timed++) {
    ARun r;
    long queues_before = shim_created (K_QUEUE);
    long timed_before = shim_timed_queues ();
    long queues, timed_queues, markers, probes;

    if (timed)
      g_setenv ("GST_CL_PROFILING", "1", TRUE);
    else
      g_unsetenv ("GST_CL_PROFILING");
    /* Rules that never fire count the markers and the probes queued. */
    run_auto (AUTO_CHAIN, "clEnqueueMarkerWithWaitList:100000000,"
        "clEnqueueFillBuffer:100000000", FALSE, 0, 20, &r);
    queues = shim_created (K_QUEUE) - queues_before;
    timed_queues = shim_timed_queues () - timed_before;
    markers = r.seen;
    probes = r.seen2;
    g_print ("device=auto, GST_CL_PROFILING=%d: %ld queues created, %ld "
        "timed, %ld markers and %ld probes queued, %" G_GINT64_FORMAT
        " frames timed, %.3f ms a frame in the last window\n", timed, queues,
        timed_queues, markers, probes, r.timed_frames, r.auto_ms);
    fail_unless_equals_int (r.n, 20);
    fail_unless (r.error == NULL, "%s", r.error ? r.error->message : "");
    fail_unless (queues > 0, "no queue created: the test proves nothing");
    if (timed) {
      fail_unless_equals_int (timed_queues, queues);
      fail_unless (markers >= 20, "%ld markers for 20 frames", markers);
      fail_unless_equals_int (probes, 0);
    } else {
      /* Two devices: each a queue for the work and one for the probes. */
      fail_unless_equals_int (queues, 4);
      fail_unless_equals_int (timed_queues, 2);
      fail_unless_equals_int (markers, 0);
      /* One before and one after each element's work, every frame. */
      fail_unless (probes >= 80, "%ld probes for 20 frames of two "
          "elements", probes);
      every_frame = probes;
    }
    /* Each of the 40 element frames timed once its callback has run. */
    fail_unless (r.timed_frames > 0 && r.timed_frames <= 40,
        "%" G_GINT64_FORMAT " frames timed", r.timed_frames);
    arun_clear (&r);
  }

  /* An interval (1 ms by default) times fewer frames than run: at 60 s,
   * each element's first frame only. */
  g_unsetenv ("GST_CL_PROFILING");
  g_setenv ("GST_CL_AUTO", "window-frames=5,window-ms=0,up-windows=1000,"
      "latency-interval-ms=60000", TRUE);
  {
    ARun r;
    run_auto (AUTO_CHAIN, "clEnqueueFillBuffer:100000000", FALSE, 0, 20, &r);
    g_print ("latency-interval-ms=60000: %ld probes for 20 frames (%ld with "
        "every frame timed), %" G_GINT64_FORMAT " frames timed\n", r.seen,
        every_frame, r.timed_frames);
    fail_unless_equals_int (r.n, 20);
    /* The 80 frame probes become 4; the standby's warm-up launches are
     * timed either way. */
    fail_unless_equals_int (r.seen, every_frame - 80 + 4);
    fail_unless (r.timed_frames >= 1 && r.timed_frames <= 2);
    arun_clear (&r);
  }
  wait_for_timed_frames = FALSE;

  /* Every probe failing: the frames are the same and nothing is timed (the
   * load sources and faults still move the chain); no error, no leak
   * (run_auto checks that nothing is left alive). */
  g_setenv ("GST_CL_AUTO", "window-frames=5,window-ms=0,up-windows=1000,"
      "latency-interval-ms=0", TRUE);
  {
    ARun ref, r;
    run_auto (PINNED_CHAIN, NULL, FALSE, 0, 20, &ref);
    run_auto (AUTO_CHAIN, "clEnqueueFillBuffer:1+:CL_OUT_OF_RESOURCES", FALSE,
        0, 20, &r);
    g_print ("every probe failing: %u frames, %u probes refused, %"
        G_GINT64_FORMAT " frames timed\n", r.n, r.injected, r.timed_frames);
    fail_unless (r.error == NULL, "%s", r.error ? r.error->message : "");
    /* The probe before each element frame (40), and the warm-ups'. */
    fail_unless (r.injected >= 40, "%u probes refused", r.injected);
    fail_unless_equals_int (r.timed_frames, 0);
    fail_unless_equals_int (r.n, ref.n);
    assert_frames_within (&r, &ref, 1, "every probe failing");
    arun_clear (&ref);
    arun_clear (&r);
  }

  if (knobs)
    g_setenv ("GST_CL_AUTO", knobs, TRUE);
  else
    g_unsetenv ("GST_CL_AUTO");
  g_free (knobs);
}
GST_END_TEST;

/* Both devices fail, or the device is pinned: an element error, as
 * before, no crash, no hang, and the frames before it are right. */
GST_START_TEST (test_auto_fault_no_way_out)
{
  ARun ref, r;
  guint both;
  gchar *spec;

  load_shim ();
  both = launches_per_frame (AUTO_CHAIN, FALSE);
  run_auto (PINNED_CHAIN, NULL, FALSE, 0, A_FRAMES, &ref);

  /* Every launch from frame 10 on fails, on either device. */
  spec = g_strdup_printf ("clEnqueueNDRangeKernel:%u+:CL_OUT_OF_RESOURCES",
      10 * both + 1);
  run_auto (AUTO_CHAIN, spec, FALSE, 0, A_FRAMES, &r);
  fail_unless (r.error != NULL, "%s: no error", spec);
  fail_unless (g_str_has_prefix (r.error_src, "GstCL"), "%s", r.error_src);
  fail_unless (strstr (r.error->message, "CL_OUT_OF_RESOURCES") != NULL,
      "%s", r.error->message);
  fail_unless (r.n <= 10);
  assert_frames_within (&r, &ref, 1, spec);
  g_print ("%s -> %s: %s (after %u frames)\n", spec, r.error_src,
      r.error->message, r.n);
  arun_clear (&r);
  g_free (spec);

  /* Pinned to 0.0: the fault that auto survives is an error. */
  spec = g_strdup_printf ("clEnqueueNDRangeKernel@0.0:%u:CL_OUT_OF_RESOURCES",
      10 * both + 1);
  run_auto (PINNED_CHAIN, spec, FALSE, 0, A_FRAMES, &r);
  fail_unless (r.error != NULL, "pinned, %s: no error", spec);
  fail_unless (strstr (r.error->message, "CL_OUT_OF_RESOURCES") != NULL,
      "%s", r.error->message);
  fail_unless_equals_int (r.switches->len, 0);
  g_print ("pinned, %s -> %s: %s (after %u frames)\n", spec, r.error_src,
      r.error->message, r.n);
  arun_clear (&r);
  g_free (spec);
  arun_clear (&ref);
}
GST_END_TEST;

/* A program cache of our own (links to the shared one's entries): a
 * refused cached binary is deleted and rebuilt, which must not happen to
 * the cache other tests read. */
static gchar *
private_cache (void)
{
  const gchar *shared = g_getenv ("GST_CL_CACHE_DIR");
  gchar *dir = g_dir_make_tmp ("faults-cache-XXXXXX", NULL);
  GDir *d = shared ? g_dir_open (shared, 0, NULL) : NULL;
  const gchar *name;

  fail_unless (dir != NULL);
  while (d && (name = g_dir_read_name (d))) {
    gchar *from = g_build_filename (shared, name, NULL);
    gchar *to = g_build_filename (dir, name, NULL);
    fail_unless (symlink (from, to) == 0);
    g_free (from);
    g_free (to);
  }
  if (d)
    g_dir_close (d);
  g_setenv ("GST_CL_CACHE_DIR", dir, TRUE);
  return dir;
}

static void
remove_private_cache (gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);
    g_unlink (path);
    g_free (path);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  g_free (dir);
}

/* At start: the preferred device cannot build the programs, or cannot
 * make a context. device=auto runs on the other one (a warning and a
 * message), every frame right; pinned there, an error as before. */
GST_START_TEST (test_auto_fault_at_start)
{
  static const struct
  {
    const gchar *spec, *words;
  } faults[] = {
    {"clBuildProgram@0.0:1+", "CL_BUILD_PROGRAM_FAILURE"},
    {"clCreateKernel@0.0:1", "CL_INVALID_KERNEL_NAME"},
    {"clCreateContext@0.0:1+", "CL_DEVICE_NOT_AVAILABLE"},
  };
  ARun ref, r;
  gchar *cache;

  load_shim ();
  run_auto (PINNED_CHAIN, NULL, FALSE, 0, A_FRAMES, &ref);
  cache = private_cache ();
  for (guint i = 0; i < G_N_ELEMENTS (faults); i++) {
    run_auto (AUTO_CHAIN, faults[i].spec, FALSE, 0, A_FRAMES, &r);
    assert_moved (&r, &ref, 1, faults[i].words, faults[i].spec);
    arun_clear (&r);

    run_auto (PINNED_CHAIN, faults[i].spec, FALSE, 0, A_FRAMES, &r);
    fail_unless (r.error != NULL, "pinned, %s: no error", faults[i].spec);
    fail_unless_equals_int (r.n, 0);
    g_print ("pinned, %s -> %s: %s\n", faults[i].spec, r.error_src,
        r.error->message);
    arun_clear (&r);
  }

  /* The standby device cannot build (its programs are built in threads of
   * their own while the elements build for the active one): left out with
   * a warning, every frame the single-device run's, no move. */
  run_auto (AUTO_CHAIN, "clBuildProgram@0.1:1+", FALSE, 0, A_FRAMES, &r);
  fail_unless (r.error == NULL, "standby build refused: error from %s: %s",
      r.error_src, r.error ? r.error->message : "");
  fail_unless (r.injected > 0, "standby build refused: no fault injected");
  fail_unless (r.warnings > 0, "standby build refused: no warning");
  fail_unless_equals_int (r.n, ref.n);
  assert_frames_within (&r, &ref, 0, "standby build refused");
  fail_unless_equals_int (r.switches->len, 0);
  g_print ("standby build refused: %u frames as pinned, %u warnings\n", r.n,
      r.warnings);
  arun_clear (&r);
  remove_private_cache (cache);
  arun_clear (&ref);
}
GST_END_TEST;

/* cloptflow carries its previous frame; a launch failing after its flow
 * was computed (the picture's copy) must not leave it advanced: the flow
 * of the frame run again on the other device is the single-device run's. */
GST_START_TEST (test_auto_fault_optflow)
{
  const gchar *flow = "cloptflow name=flow output=passthrough levels=2";
  ARun ref, r;
  guint through, f = 12;
  gfloat worst = 0;
  gchar *spec;

  load_shim ();
  through = calls ("clEnqueueNDRangeKernel", flow, TRUE, f + 1);
  run_auto ("cloptflow output=passthrough levels=2 device=0.0", NULL, TRUE, 0,
      A_FRAMES, &ref);
  /* The last launch of frame 12: the picture's copy, after the flow. */
  spec = g_strdup_printf ("clEnqueueNDRangeKernel@0.0:%u:CL_OUT_OF_RESOURCES",
      through);
  run_auto (flow, spec, TRUE, 0, A_FRAMES, &r);
  assert_moved (&r, &ref, 0, "CL_OUT_OF_RESOURCES", spec);
  for (guint k = 0; k < r.n; k++) {
    fail_unless (r.flows[k] && ref.flows[k], "frame %u has no flow", k);
    for (gint i = 0; i < 2 * AW * AH; i++)
      worst = MAX (worst, fabsf (r.flows[k][i] - ref.flows[k][i]));
  }
  g_print ("%s: largest flow difference from the single-device run %g px\n",
      spec, worst);
  fail_unless (worst <= 0.01f, "flow differs by %g px", worst);
  /* The check can fail: the flow of frame 13 is not zero (1 px a frame). */
  {
    gfloat m = 0;
    for (gint i = 0; i < 2 * AW * AH; i += 2)
      m = MAX (m, fabsf (ref.flows[f + 1][i]));
    fail_unless (m > 0.5f, "no motion: the test proves nothing");
  }
  g_free (spec);
  arun_clear (&r);
  arun_clear (&ref);
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
  tcase_add_test (tc, test_queues_untimed);
  tcase_add_test (tc, test_faults_at_start);
  tcase_add_test (tc, test_build_faults);
  tcase_add_test (tc, test_faults_while_running);
  tcase_add_test (tc, test_frame_beyond_max_alloc);
  tcase_add_test (tc, test_faults_transfers);
  /* The "auto-faults" test runs these (two PoCL devices); "faults" does
   * not (GST_CHECKS and GST_CHECKS_IGNORE in tests/meson.build). */
  tcase_add_test (tc, test_auto_fault_while_running);
  tcase_add_test (tc, test_auto_queues_untimed);
  tcase_add_test (tc, test_auto_fault_no_way_out);
  tcase_add_test (tc, test_auto_fault_at_start);
  tcase_add_test (tc, test_auto_fault_optflow);
  tcase_add_test (tc, test_auto_fault_before_process);
  return s;
}

GST_CHECK_MAIN (faults);
