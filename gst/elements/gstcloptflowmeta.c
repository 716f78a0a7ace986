/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCLFlowMeta (public layout in gst/clfilters/gstclflowmeta.h): the API
 * type and the implementation. Copies share the field (a reference). */
#include "gstcloptflow.h"

GType
gst_cl_flow_meta_api_get_type (void)
{
  static GType type = 0;
  /* No tags: elements that transform frames copy it, those that change
   * the geometry drop it only if they drop untagged metas. */
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register (GST_CL_FLOW_META_API_NAME, tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
flow_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCLFlowMeta *m = (GstCLFlowMeta *) meta;

  m->width = m->height = m->cell_size = 0;
  m->stride = 0;
  m->field = NULL;
  return TRUE;
}

static void
flow_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCLFlowMeta *m = (GstCLFlowMeta *) meta;

  if (m->field)
    gst_buffer_unref (m->field);
  m->field = NULL;
}

static gboolean
flow_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCLFlowMeta *m = (GstCLFlowMeta *) meta;

  /* Only whole copies: a scaled, cropped or partial frame no longer
   * matches the field. */
  if (!GST_META_TRANSFORM_IS_COPY (type) ||
      ((GstMetaTransformCopy *) data)->region)
    return FALSE;
  return gst_buffer_add_cl_flow_meta (dest, m->field ?
      gst_buffer_ref (m->field) : NULL, m->width, m->height, m->cell_size,
      m->stride) != NULL;
}

const GstMetaInfo *
gst_cl_flow_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_register (gst_cl_flow_meta_api_get_type (),
        "GstCLFlowMeta", sizeof (GstCLFlowMeta), flow_meta_init,
        flow_meta_free, flow_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

GstCLFlowMeta *
gst_buffer_add_cl_flow_meta (GstBuffer * buffer, GstBuffer * field,
    guint width, guint height, guint cell_size, gsize stride)
{
  GstCLFlowMeta *m = (GstCLFlowMeta *) gst_buffer_add_meta (buffer,
      gst_cl_flow_meta_get_info (), NULL);

  if (!m) {
    if (field)
      gst_buffer_unref (field);
    return NULL;
  }
  m->field = field;
  m->width = width;
  m->height = height;
  m->cell_size = cell_size;
  m->stride = stride;
  return m;
}
