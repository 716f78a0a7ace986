/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the program cache reader (gst_cl_program_cache_parse).
 * Any bytes: never read out of bounds, accept only a whole, intact entry.
 * The same bytes wrapped as a valid entry (header + SHA-256): accepted,
 * and the binary comes back unchanged. */
#include <glib.h>
#include <string.h>
#include "cl/gstclcontext.h"

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GBytes *bytes = gst_cl_program_cache_parse (data, size);
  if (bytes) {
    /* Only possible with a correct digest: the fuzzer will not find one. */
    g_assert (g_bytes_get_size (bytes) + 52 == size);
    g_bytes_unref (bytes);
  }

  if (size > 0) {
    guint8 *entry = g_malloc (52 + size);
    guint32 version = 1;
    guint64 size64 = size;
    gsize len = 32;
    GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);

    memcpy (entry, "GSTCLBIN", 8);
    memcpy (entry + 8, &version, 4);
    memcpy (entry + 12, &size64, 8);
    g_checksum_update (sum, data, size);
    g_checksum_get_digest (sum, entry + 20, &len);
    g_checksum_free (sum);
    memcpy (entry + 52, data, size);
    bytes = gst_cl_program_cache_parse (entry, 52 + size);
    g_assert (bytes != NULL);
    g_assert (g_bytes_get_size (bytes) == size);
    g_assert (memcmp (g_bytes_get_data (bytes, NULL), data, size) == 0);
    g_bytes_unref (bytes);
    /* Truncated by one byte: refused. */
    g_assert (gst_cl_program_cache_parse (entry, 51 + size) == NULL);
    g_free (entry);
  }
  return 0;
}
