/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclload.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_debug);
#define GST_CAT_DEFAULT gst_cl_debug

void
gst_cl_load_source_free (GstCLLoadSource * src)
{
  if (src && src->free)
    src->free (src);
}

/* ---- scripted fake ----------------------------------------------------- */

typedef struct
{
  GstCLLoadSource base;
  guint n;
  guint64 *frames;
  gdouble *busy;
  guint64 period;               /* 0: no loop */
} FakeSource;

static gdouble
fake_sample (GstCLLoadSource * src, const GstCLLoadQuery * q, GString * d)
{
  FakeSource *self = (FakeSource *) src;
  guint64 f = self->period ? q->frame % self->period : q->frame;
  gdouble busy = self->busy[self->n - 1];

  for (guint i = 0; i < self->n; i++) {
    if (f < self->frames[i]) {
      busy = self->busy[i];
      break;
    }
    f -= self->frames[i];
  }
  g_string_append_printf (d, "fake-busy=%.2f ", busy);
  return busy;
}

static void
fake_free (GstCLLoadSource * src)
{
  FakeSource *self = (FakeSource *) src;
  g_free (self->frames);
  g_free (self->busy);
  g_free (self);
}

GstCLLoadSource *
gst_cl_load_fake_new (const gchar * script)
{
  gchar **items = g_strsplit (script ? script : "", ",", -1);
  FakeSource *self = g_new0 (FakeSource, 1);
  guint n = g_strv_length (items);
  gboolean loop = FALSE;

  self->base.name = "fake";
  self->base.sample = fake_sample;
  self->base.free = fake_free;
  self->frames = g_new0 (guint64, n + 1);
  self->busy = g_new0 (gdouble, n + 1);
  for (guint i = 0; i < n; i++) {
    gchar *item = g_strstrip (items[i]);
    gchar *colon = strchr (item, ':'), *end = NULL;

    if (!strcmp (item, "loop") && i == n - 1) {
      loop = TRUE;
      break;
    }
    if (!colon)
      goto bad;
    self->frames[self->n] = g_ascii_strtoull (item, &end, 10);
    if (end != colon)
      goto bad;
    self->busy[self->n] = g_ascii_strtod (colon + 1, &end);
    if (!end || *end || end == colon + 1)
      goto bad;
    self->busy[self->n] = CLAMP (self->busy[self->n], 0.0, 1.0);
    self->period += self->frames[self->n];
    self->n++;
  }
  if (self->n == 0)
    goto bad;
  if (!loop || self->period == 0)
    self->period = 0;
  g_strfreev (items);
  return &self->base;

bad:
  g_strfreev (items);
  fake_free (&self->base);
  return NULL;
}

/* ---- DRM fdinfo ------------------------------------------------------- */

static GstCLFdinfoEngine *
engine_of (GstCLFdinfo * info, const gchar * name)
{
  for (guint i = 0; i < info->n_engines; i++)
    if (!strcmp (info->engines[i].name, name))
      return &info->engines[i];
  if (info->n_engines == GST_CL_FDINFO_MAX_ENGINES || !*name)
    return NULL;
  {
    GstCLFdinfoEngine *e = &info->engines[info->n_engines++];
    memset (e, 0, sizeof (*e));
    g_strlcpy (e->name, name, sizeof (e->name));
    e->capacity = 1;
    return e;
  }
}

gboolean
gst_cl_fdinfo_parse (const gchar * text, GstCLFdinfo * out)
{
  gchar **lines = g_strsplit (text ? text : "", "\n", -1);
  gboolean is_drm = FALSE;

  memset (out, 0, sizeof (*out));
  for (gchar ** l = lines; *l; l++) {
    gchar *colon = strchr (*l, ':'), *key, *value;
    GstCLFdinfoEngine *e;

    if (!colon)
      continue;
    *colon = '\0';
    key = g_strstrip (*l);
    value = g_strstrip (colon + 1);
    if (!strcmp (key, "drm-driver")) {
      g_strlcpy (out->driver, value, sizeof (out->driver));
      is_drm = TRUE;
    } else if (!strcmp (key, "drm-pdev")) {
      g_strlcpy (out->pdev, value, sizeof (out->pdev));
    } else if (!strcmp (key, "drm-client-id")) {
      out->client_id = g_ascii_strtoull (value, NULL, 10);
      out->has_client_id = TRUE;
    } else if (g_str_has_prefix (key, "drm-engine-capacity-")) {
      if ((e = engine_of (out, key + strlen ("drm-engine-capacity-"))))
        e->capacity = MAX (1, (guint) g_ascii_strtoull (value, NULL, 10));
    } else if (g_str_has_prefix (key, "drm-engine-")) {
      /* "<n> ns" */
      if ((e = engine_of (out, key + strlen ("drm-engine-"))))
        e->busy = g_ascii_strtoull (value, NULL, 10);
    } else if (g_str_has_prefix (key, "drm-total-cycles-")) {
      if ((e = engine_of (out, key + strlen ("drm-total-cycles-")))) {
        e->total = g_ascii_strtoull (value, NULL, 10);
        e->is_cycles = TRUE;
      }
    } else if (g_str_has_prefix (key, "drm-cycles-")) {
      if ((e = engine_of (out, key + strlen ("drm-cycles-")))) {
        e->busy = g_ascii_strtoull (value, NULL, 10);
        e->is_cycles = TRUE;
      }
    }
  }
  g_strfreev (lines);
  return is_drm;
}

gboolean
gst_cl_fdinfo_engine_is_compute (const gchar * name)
{
  static const gchar *compute[] = { "render", "rcs", "ccs", "compute", "gfx",
    "copy", "bcs", "blitter", "dma", "sdma"
  };
  for (guint i = 0; i < G_N_ELEMENTS (compute); i++)
    if (g_str_has_prefix (name, compute[i]))
      return TRUE;
  return FALSE;
}

/* Busy of engine @i of @after against the same engine in @before. */
static gdouble
engine_busy (const GstCLFdinfo * before, const GstCLFdinfo * after, guint i,
    gint64 dt_ns)
{
  const GstCLFdinfoEngine *a = &after->engines[i];

  for (guint j = 0; j < before->n_engines; j++) {
    const GstCLFdinfoEngine *b = &before->engines[j];
    if (strcmp (a->name, b->name))
      continue;
    if (a->busy < b->busy)
      return -1;                /* a new client reusing the fd */
    if (a->is_cycles) {
      if (a->total <= b->total)
        return -1;
      return CLAMP ((gdouble) (a->busy - b->busy) / (a->total - b->total),
          0.0, 1.0);
    }
    if (dt_ns <= 0)
      return -1;
    return CLAMP ((gdouble) (a->busy - b->busy) / ((gdouble) dt_ns *
            a->capacity), 0.0, 1.0);
  }
  return -1;
}

gdouble
gst_cl_fdinfo_busy (const GstCLFdinfo * before, const GstCLFdinfo * after,
    gint64 dt_ns, gboolean skip_compute, gchar * engine)
{
  gdouble best = -1;

  for (guint i = 0; i < after->n_engines; i++) {
    gdouble b;
    if (skip_compute && gst_cl_fdinfo_engine_is_compute (after->engines[i].name))
      continue;
    b = engine_busy (before, after, i, dt_ns);
    if (b > best) {
      best = b;
      if (engine)
        g_strlcpy (engine, after->engines[i].name, 32);
    }
  }
  return best;
}

typedef struct
{
  GstCLFdinfo info;
  gint64 time_ns;
  gboolean own;
  gboolean seen;
} FdClient;

typedef struct
{
  GstCLLoadSource base;
  gchar *proc_root;
  gboolean all;
  gchar pdev[32];               /* "" when unknown */
  GHashTable *clients;          /* "pid/client-id" -> FdClient */
} FdinfoSource;

static void
fdinfo_read_pid (FdinfoSource * self, const gchar * pid, gboolean own,
    gint64 now, GHashTable * engines, GString * d)
{
  gchar *dir_path = g_build_filename (self->proc_root, pid, "fdinfo", NULL);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const gchar *fd;

  while (dir && (fd = g_dir_read_name (dir))) {
    gchar *path = g_build_filename (dir_path, fd, NULL), *text = NULL;
    GstCLFdinfo info;
    gchar *key;
    FdClient *c;

    if (!g_file_get_contents (path, &text, NULL, NULL) ||
        !gst_cl_fdinfo_parse (text, &info) || info.n_engines == 0 ||
        (self->pdev[0] && info.pdev[0] && strcmp (self->pdev, info.pdev))) {
      g_free (text);
      g_free (path);
      continue;
    }
    g_free (text);
    g_free (path);
    /* dup'ed descriptors share one client: count it once. */
    key = info.has_client_id ?
        g_strdup_printf ("%s/%" G_GUINT64_FORMAT, pid, info.client_id) :
        g_strdup_printf ("%s/fd%s", pid, fd);
    c = g_hash_table_lookup (self->clients, key);
    if (c && c->seen) {
      g_free (key);
      continue;
    }
    if (c) {
      for (guint i = 0; i < info.n_engines; i++) {
        const gchar *name = info.engines[i].name;
        gdouble b;
        if (own && gst_cl_fdinfo_engine_is_compute (name))
          continue;
        b = engine_busy (&c->info, &info, i, now - c->time_ns);
        if (b > 0) {
          gdouble *sum = g_hash_table_lookup (engines, name);
          if (!sum) {
            sum = g_new0 (gdouble, 1);
            g_hash_table_insert (engines, g_strdup (name), sum);
          }
          *sum += b;
        } else if (b == 0 && !g_hash_table_contains (engines, name)) {
          g_hash_table_insert (engines, g_strdup (name), g_new0 (gdouble, 1));
        }
      }
      g_free (key);
    } else {
      c = g_new0 (FdClient, 1);
      g_hash_table_insert (self->clients, key, c);
    }
    c->info = info;
    c->time_ns = now;
    c->own = own;
    c->seen = TRUE;
  }
  if (dir)
    g_dir_close (dir);
  g_free (dir_path);
}

static gboolean
not_seen (gpointer key, gpointer value, gpointer user_data)
{
  FdClient *c = value;
  gboolean drop = !c->seen;
  c->seen = FALSE;
  return drop;
}

static gdouble
fdinfo_sample (GstCLLoadSource * src, const GstCLLoadQuery * q, GString * d)
{
  FdinfoSource *self = (FdinfoSource *) src;
  GHashTable *engines = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  gchar *self_pid = g_strdup_printf ("%d", (gint) getpid ());
  GHashTableIter it;
  gpointer k, v;
  gdouble busy = -1;
  const gchar *busiest = NULL;

  fdinfo_read_pid (self, self_pid, TRUE, q->now_ns, engines, d);
  if (self->all) {
    GDir *proc = g_dir_open (self->proc_root, 0, NULL);
    const gchar *pid;
    while (proc && (pid = g_dir_read_name (proc))) {
      if (!g_ascii_isdigit (pid[0]) || !strcmp (pid, self_pid))
        continue;
      fdinfo_read_pid (self, pid, FALSE, q->now_ns, engines, d);
    }
    if (proc)
      g_dir_close (proc);
  }
  g_hash_table_foreach_remove (self->clients, not_seen, NULL);

  g_hash_table_iter_init (&it, engines);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    gdouble b = MIN (*(gdouble *) v, 1.0);
    if (b > busy) {
      busy = b;
      busiest = k;
    }
  }
  if (busy >= 0)
    g_string_append_printf (d, "fdinfo-busy=%.2f fdinfo-engine=%s ", busy,
        busiest);
  g_hash_table_unref (engines);
  g_free (self_pid);
  return busy;
}

static void
fdinfo_free (GstCLLoadSource * src)
{
  FdinfoSource *self = (FdinfoSource *) src;
  g_hash_table_unref (self->clients);
  g_free (self->proc_root);
  g_free (self);
}

GstCLLoadSource *
gst_cl_load_fdinfo_new (const GstCLLoadTarget * target,
    const gchar * proc_root, gboolean all_processes)
{
  FdinfoSource *self = g_new0 (FdinfoSource, 1);

  self->base.name = "fdinfo";
  self->base.sample = fdinfo_sample;
  self->base.free = fdinfo_free;
  self->proc_root = g_strdup (proc_root ? proc_root : "/proc");
  self->all = all_processes;
  if (target && target->has_pci)
    g_snprintf (self->pdev, sizeof (self->pdev), "%04x:%02x:%02x.%u",
        target->pci_domain, target->pci_bus, target->pci_device,
        target->pci_function);
  self->clients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  return &self->base;
}

/* ---- NVML --------------------------------------------------------------- */

/* The few NVML declarations used (nvml.h is not needed at build time). */
typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef struct
{
  unsigned int gpu, memory;
} nvmlUtilization_t;
typedef struct
{
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;
#define NVML_SUCCESS 0
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7

typedef struct
{
  GstCLLoadSource base;
  gpointer lib;
  nvmlDevice_t device;
    nvmlReturn_t (*shutdown) (void);
    nvmlReturn_t (*get_util) (nvmlDevice_t, nvmlUtilization_t *);
    nvmlReturn_t (*get_proc_util) (nvmlDevice_t,
      nvmlProcessUtilizationSample_t *, unsigned int *, unsigned long long);
  unsigned long long last_seen;
  gboolean proc_util_works;
  gdouble last_others;
  gint64 last_sample_ns;
} NvmlSource;

/* Others' share of the SMs from the samples NVML took since the last call;
 * < 0 when it cannot tell them from ours. */
static gdouble
nvml_others (NvmlSource * self, const GstCLLoadQuery * q, GString * d)
{
  nvmlProcessUtilizationSample_t *samples;
  unsigned int count = 0;
  nvmlReturn_t r;
  guint own_pid = getpid ();
  gboolean own_seen = FALSE;
  GHashTable *latest;
  gdouble sum = 0;

  r = self->get_proc_util (self->device, NULL, &count, self->last_seen);
  if (r == NVML_ERROR_NOT_FOUND || (r == NVML_SUCCESS && count == 0)) {
    /* No new sample: NVML samples every 1/6 s to 1 s. */
    if (q->now_ns - self->last_sample_ns < 1500 * GST_MSECOND)
      return self->last_others;
    return 0.0;
  }
  if (r != NVML_ERROR_INSUFFICIENT_SIZE && r != NVML_SUCCESS)
    return -2;
  samples = g_new0 (nvmlProcessUtilizationSample_t, count + 8);
  count += 8;
  r = self->get_proc_util (self->device, samples, &count, self->last_seen);
  if (r != NVML_SUCCESS) {
    g_free (samples);
    return r == NVML_ERROR_NOT_FOUND ? 0.0 : -2;
  }
  latest = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < count; i++) {
    nvmlProcessUtilizationSample_t *s = &samples[i], *old;
    self->last_seen = MAX (self->last_seen, s->timeStamp);
    if (s->pid == own_pid) {
      own_seen = TRUE;
      continue;
    }
    old = g_hash_table_lookup (latest, GUINT_TO_POINTER (s->pid));
    if (!old || old->timeStamp < s->timeStamp)
      g_hash_table_insert (latest, GUINT_TO_POINTER (s->pid), s);
  }
  {
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init (&it, latest);
    while (g_hash_table_iter_next (&it, &k, &v))
      sum += ((nvmlProcessUtilizationSample_t *) v)->smUtil / 100.0;
  }
  g_hash_table_unref (latest);
  g_free (samples);
  /* In another PID namespace our kernels carry a PID we do not know: then
   * the others cannot be told from us while we run on the GPU. */
  if (q->self_on_gpu && !own_seen && sum > 0) {
    g_string_append (d, "nvml-own-pid-unseen ");
    return -1;
  }
  self->last_others = MIN (sum, 1.0);
  self->last_sample_ns = q->now_ns;
  return self->last_others;
}

static gdouble
nvml_sample (GstCLLoadSource * src, const GstCLLoadQuery * q, GString * d)
{
  NvmlSource *self = (NvmlSource *) src;
  gdouble busy = -1;

  if (self->proc_util_works) {
    busy = nvml_others (self, q, d);
    if (busy == -2) {
      self->proc_util_works = FALSE;
      busy = -1;
    }
  }
  /* Off the GPU the device's utilisation is all others' and NVML updates
   * it more reliably than the per-process samples: on the H200, with four
   * loading processes, those read 0 in most windows and the chain
   * returned to a GPU that was still loaded. */
  if (!q->self_on_gpu) {
    nvmlUtilization_t u;
    if (self->get_util (self->device, &u) == NVML_SUCCESS) {
      if (busy >= 0 && u.gpu / 100.0 > busy)
        g_string_append_printf (d, "nvml-others=%.2f ", busy);
      busy = MAX (busy, u.gpu / 100.0);
    }
  }
  if (busy >= 0)
    g_string_append_printf (d, "nvml-busy=%.2f ", busy);
  return busy;
}

static void
nvml_free (GstCLLoadSource * src)
{
  NvmlSource *self = (NvmlSource *) src;
  if (self->shutdown)
    self->shutdown ();
  if (self->lib)
    dlclose (self->lib);
  g_free (self);
}

GstCLLoadSource *
gst_cl_load_nvml_new (const GstCLLoadTarget * target, const gchar * library,
    gchar ** why)
{
  NvmlSource *self;
  nvmlReturn_t (*init) (void);
  nvmlReturn_t (*by_index) (unsigned int, nvmlDevice_t *);
  nvmlReturn_t (*by_pci) (const char *, nvmlDevice_t *);
  /* Containers often mount the driver's libraries outside the loader's
   * path (the OpenCL ICD file names its library by full path). */
  static const gchar *fallbacks[] = {
    "/usr/local/nvidia/lib64/libnvidia-ml.so.1",
    "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
    "/usr/lib64/libnvidia-ml.so.1",
  };
  gpointer lib = dlopen (library ? library : "libnvidia-ml.so.1",
      RTLD_NOW | RTLD_LOCAL);
  nvmlReturn_t r = -1;

  for (guint i = 0; !lib && !library && i < G_N_ELEMENTS (fallbacks); i++)
    lib = dlopen (fallbacks[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    if (why)
      *why = g_strdup_printf ("NVML not loaded: %s", dlerror ());
    return NULL;
  }
  self = g_new0 (NvmlSource, 1);
  self->base.name = "nvml";
  self->base.sample = nvml_sample;
  self->base.free = nvml_free;
  self->lib = lib;
  init = dlsym (lib, "nvmlInit_v2");
  self->shutdown = dlsym (lib, "nvmlShutdown");
  by_index = dlsym (lib, "nvmlDeviceGetHandleByIndex_v2");
  by_pci = dlsym (lib, "nvmlDeviceGetHandleByPciBusId_v2");
  self->get_util = dlsym (lib, "nvmlDeviceGetUtilizationRates");
  self->get_proc_util = dlsym (lib, "nvmlDeviceGetProcessUtilization");
  if (!init || !by_index || !self->get_util || init () != NVML_SUCCESS) {
    if (why)
      *why = g_strdup ("NVML found but did not initialise");
    self->shutdown = NULL;
    nvml_free (&self->base);
    return NULL;
  }
  if (target && target->has_pci && by_pci) {
    gchar *bus = g_strdup_printf ("%08x:%02x:%02x.%u", target->pci_domain,
        target->pci_bus, target->pci_device, target->pci_function);
    r = by_pci (bus, &self->device);
    g_free (bus);
  }
  if (r != NVML_SUCCESS) {
    /* Without the PCI address: NVML's first GPU, if the GPU is NVIDIA's. */
    if (target && target->vendor_id && target->vendor_id != 0x10de)
      r = -1;
    else
      r = by_index (0, &self->device);
  }
  if (r != NVML_SUCCESS) {
    if (why)
      *why = g_strdup ("NVML has no device for the OpenCL GPU");
    nvml_free (&self->base);
    return NULL;
  }
  self->proc_util_works = self->get_proc_util != NULL;
  return &self->base;
}

/* ---- hardware encoder in the pipeline ------------------------------------ */

typedef struct
{
  GstCLLoadSource base;
  GstCLLoadTarget target;
  gdouble busy;
} EncoderSource;

gchar *
gst_cl_va_render_node (const gchar * name)
{
  const gchar *p;
  if (!name || !g_str_has_prefix (name, "va"))
    return NULL;
  p = strstr (name, "renderD");
  if (p) {
    const gchar *end = p + strlen ("renderD");
    while (g_ascii_isdigit (*end))
      end++;
    return g_strndup (p, end - p);
  }
  return g_strdup ("renderD128");
}

/* TRUE when the encoder made by factory @name is on the target GPU, as far
 * as can be told (TRUE when it cannot). */
static gboolean
encoder_on_target (EncoderSource * self, const gchar * name)
{
  const GstCLLoadTarget *t = &self->target;
  gchar *node = gst_cl_va_render_node (name);
  guint vendor = 0;

  if (node) {
    gchar *link = g_strdup_printf ("/sys/class/drm/%s/device", node);
    gchar *path = g_file_read_link (link, NULL);
    gchar *vendor_path = g_strdup_printf ("%s/vendor", link), *text = NULL;
    gboolean same = TRUE;

    if (path && t->has_pci) {
      gchar *want = g_strdup_printf ("%04x:%02x:%02x.%u", t->pci_domain,
          t->pci_bus, t->pci_device, t->pci_function);
      gchar *base = g_path_get_basename (path);
      same = !g_ascii_strcasecmp (base, want);
      g_free (base);
      g_free (want);
    } else if (t->vendor_id && g_file_get_contents (vendor_path, &text, NULL,
            NULL)) {
      same = g_ascii_strtoull (text, NULL, 16) == t->vendor_id;
    }
    g_free (text);
    g_free (vendor_path);
    g_free (path);
    g_free (link);
    g_free (node);
    return same;
  }
  if (g_str_has_prefix (name, "qsv") || g_str_has_prefix (name, "msdk"))
    vendor = 0x8086;
  else if (g_str_has_prefix (name, "nv"))
    vendor = 0x10de;
  else if (g_str_has_prefix (name, "amf"))
    vendor = 0x1002;
  return !vendor || !t->vendor_id || vendor == t->vendor_id;
}

static gdouble
encoder_sample (GstCLLoadSource * src, const GstCLLoadQuery * q, GString * d)
{
  EncoderSource *self = (EncoderSource *) src;
  GstObject *top = NULL, *o;
  GstIterator *it;
  GValue item = G_VALUE_INIT;
  gchar *found = NULL;

  if (!q->element)
    return -1;
  for (o = gst_object_ref (GST_OBJECT (q->element)); o;) {
    GstObject *parent = gst_object_get_parent (o);
    if (!parent) {
      top = o;
      break;
    }
    gst_object_unref (o);
    o = parent;
  }
  if (!top || !GST_IS_BIN (top)) {
    gst_clear_object (&top);
    return -1;
  }
  it = gst_bin_iterate_recurse (GST_BIN (top));
  while (!found && gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&item);
    GstElementFactory *f = gst_element_get_factory (e);
    const gchar *klass = f ? gst_element_factory_get_metadata (f,
        GST_ELEMENT_METADATA_KLASS) : NULL;
    if (klass && strstr (klass, "Encoder") && strstr (klass, "Hardware") &&
        GST_STATE (e) >= GST_STATE_PAUSED &&
        encoder_on_target (self, GST_OBJECT_NAME (f)))
      found = g_strdup (GST_OBJECT_NAME (f));
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  gst_object_unref (top);
  if (!found)
    return -1;
  g_string_append_printf (d, "hw-encoder=%s ", found);
  g_free (found);
  return self->busy;
}

static void
encoder_free (GstCLLoadSource * src)
{
  g_free (src);
}

GstCLLoadSource *
gst_cl_load_encoder_new (const GstCLLoadTarget * target, gdouble busy)
{
  EncoderSource *self = g_new0 (EncoderSource, 1);

  self->base.name = "encoder";
  self->base.sample = encoder_sample;
  self->base.free = encoder_free;
  self->base.is_hint = TRUE;
  if (target)
    self->target = *target;
  self->busy = busy;
  return &self->base;
}
