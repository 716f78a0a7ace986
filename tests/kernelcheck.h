/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the kernel checkers: one deterministic random
 * sequence per checker and the test frames. */
#pragma once

#include <glib.h>

static guint32 kernelcheck_rng = 0x12345678;

/* Next byte of a fixed linear congruential sequence (same every run). */
static inline guint8
rnd (void)
{
  kernelcheck_rng = kernelcheck_rng * 1664525u + 1013904223u;
  return kernelcheck_rng >> 24;
}

/* Random noise, or a structured frame: gradients and hard edges. */
static inline void
fill_noise_or_edges (guint8 * p, gint stride, gint wb, gint h,
    gboolean structured)
{
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < wb; x++)
      p[y * stride + x] = structured ?
          (((x / 7 + y / 5) & 1) ? 255 : (guint8) (x * 3 + y)) : rnd ();
}
