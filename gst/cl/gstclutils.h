/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

#define GST_CL_ERROR (gst_cl_error_quark ())
GQuark gst_cl_error_quark (void);

/* Name of an OpenCL status code ("CL_OUT_OF_RESOURCES"), never NULL. */
const gchar *gst_cl_error_name (cl_int status);

gboolean _gst_cl_result (cl_int status, GstDebugCategory * cat,
    const gchar * file, const gchar * function, gint line, const gchar * what);

/* Checks an OpenCL status and logs name and call site when it failed.
 * Returns TRUE on CL_SUCCESS. */
#define gst_cl_result(status, what) \
    _gst_cl_result ((status), GST_CAT_DEFAULT, __FILE__, GST_FUNCTION, __LINE__, (what))

/* Sets @error to "@what failed: CL_NAME (code)" unless @status is CL_SUCCESS. */
gboolean gst_cl_set_error (cl_int status, const gchar * what, GError ** error);

void gst_cl_debug_init (void);

/* The value of the environment variable @name when it is @a or @b,
 * @fallback when it is unset or empty; anything else is ignored with a
 * warning (a tuning or testing knob must not stop a pipeline). */
gint gst_cl_env_choice (const gchar * name, gint a, gint b, gint fallback);
/* The same for a value from @min to @max. */
gint gst_cl_env_int (const gchar * name, gint min, gint max, gint fallback);

G_END_DECLS
