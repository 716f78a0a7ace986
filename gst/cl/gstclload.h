/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU load signals for device=auto, behind one interface: each source
 * gives the fraction of the GPU's time others keep it busy, or says it
 * cannot tell. Sources: DRM fdinfo, NVML (dlopen'ed at run time), a
 * hardware encoder in the same pipeline, and a scripted fake for tests.
 * The elements' own kernel times are measured by the auto group itself
 * (gstclauto.c) from profiling events. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* What a source knows about the GPU it watches. */
typedef struct
{
  gboolean has_pci;             /* from cl_khr_pci_bus_info */
  guint pci_domain, pci_bus, pci_device, pci_function;
  guint vendor_id;              /* CL_DEVICE_VENDOR_ID (0x10de, 0x8086...) */
} GstCLLoadTarget;

typedef struct
{
  gint64 now_ns;                /* monotonic */
  guint64 frame;                /* frames the chain has run so far */
  gboolean self_on_gpu;         /* our own kernels run on the GPU now */
  GstElement *element;          /* an element of the pipeline, or NULL */
} GstCLLoadQuery;

typedef struct _GstCLLoadSource GstCLLoadSource;

struct _GstCLLoadSource
{
  const gchar *name;
  /* Busy fraction 0..1 of the GPU caused by others, < 0 when this source
   * cannot tell now. Appends its figures ("key=value ") to @detail. */
  gdouble (*sample) (GstCLLoadSource * src, const GstCLLoadQuery * q,
      GString * detail);
  void (*free) (GstCLLoadSource * src);
  /* A hint, not a measurement: used only when no measuring source has a
   * value (the hardware encoder source). */
  gboolean is_hint;
};

void gst_cl_load_source_free (GstCLLoadSource * src);

/* ---- scripted fake (tests) ------------------------------------------- */

/* "FRAMES:BUSY,FRAMES:BUSY,...": busy BUSY for the next FRAMES frames of
 * the chain; the last segment holds for ever; a trailing ",loop" repeats
 * the script. NULL on a malformed script. */
GstCLLoadSource *gst_cl_load_fake_new (const gchar * script);

/* ---- DRM fdinfo ------------------------------------------------------ */

#define GST_CL_FDINFO_MAX_ENGINES 16

typedef struct
{
  gchar name[32];
  guint64 busy;                 /* ns, or cycles when is_cycles */
  guint64 total;                /* drm-total-cycles (cycles only) */
  guint capacity;               /* engines of the class, >= 1 */
  gboolean is_cycles;
} GstCLFdinfoEngine;

typedef struct
{
  gchar driver[32];
  gchar pdev[32];               /* "0000:00:02.0", or "" */
  guint64 client_id;
  gboolean has_client_id;
  guint n_engines;
  GstCLFdinfoEngine engines[GST_CL_FDINFO_MAX_ENGINES];
} GstCLFdinfo;

/* Parses one /proc/<pid>/fdinfo/<fd> text as the kernel documents it
 * (Documentation/gpu/drm-usage-stats.rst): drm-driver, drm-pdev,
 * drm-client-id, drm-engine-<name> "<n> ns", drm-engine-capacity-<name>,
 * drm-cycles-<name>, drm-total-cycles-<name>. FALSE when the text is not a
 * DRM client (no drm-driver key). */
gboolean gst_cl_fdinfo_parse (const gchar * text, GstCLFdinfo * out);

/* TRUE for engines our own OpenCL work runs on (render, rcs, ccs, gfx,
 * compute, copy...), which the own-process reading must not count. */
gboolean gst_cl_fdinfo_engine_is_compute (const gchar * name);

/* Busy of the busiest engine between two readings of the same client,
 * @dt_ns apart: ns engines as delta / (dt x capacity), cycle engines as
 * delta cycles / delta total cycles. @skip_compute leaves out
 * gst_cl_fdinfo_engine_is_compute() engines. Writes the engine's name to
 * @engine (32 bytes) when not NULL. < 0 when nothing is comparable. */
gdouble gst_cl_fdinfo_busy (const GstCLFdinfo * before,
    const GstCLFdinfo * after, gint64 dt_ns, gboolean skip_compute,
    gchar * engine);

/* Reads /proc/self/fdinfo (and with @all_processes every readable
 * /proc/<pid>/fdinfo); @proc_root replaces "/proc" (tests). Clients on
 * another device than @target are skipped when both PCI addresses are
 * known. */
GstCLLoadSource *gst_cl_load_fdinfo_new (const GstCLLoadTarget * target,
    const gchar * proc_root, gboolean all_processes);

/* ---- NVML ------------------------------------------------------------ */

/* NVIDIA utilisation through NVML, dlopen'ed from @library (NULL:
 * "libnvidia-ml.so.1"). Prefers the per-process utilisation of other
 * processes; the device-wide utilisation (which includes ours) only while
 * our kernels are not on the GPU. NULL when NVML cannot be loaded or
 * finds no device, with the reason in @why. */
GstCLLoadSource *gst_cl_load_nvml_new (const GstCLLoadTarget * target,
    const gchar * library, gchar ** why);

/* ---- hardware encoder in the pipeline -------------------------------- */

/* Looks for a running element whose class has "Encoder" and "Hardware"
 * in the pipeline of the query's element, on the same GPU as @target when
 * that can be told (VA: the render node's PCI address; vendor otherwise).
 * A hint: busy @busy while one is found. */
GstCLLoadSource *gst_cl_load_encoder_new (const GstCLLoadTarget * target,
    gdouble busy);

/* The GPU's render node (a /dev/dri/renderD* name) a VA element's
 * factory name implies: "vah264enc" -> renderD128, "varenderD129h264enc"
 * -> renderD129. NULL for other factories. */
gchar *gst_cl_va_render_node (const gchar * factory_name);

G_END_DECLS
