/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A stand-in hardware encoder for the device=auto tests: only its element
 * class ("Codec/Encoder/Video/Hardware") matters to the encoder source. */
#pragma once

#include <gst/gst.h>

typedef GstElement FakeHwEnc;
typedef GstElementClass FakeHwEncClass;
GType fake_hw_enc_get_type (void);
G_DEFINE_TYPE (FakeHwEnc, fake_hw_enc, GST_TYPE_ELEMENT);

static void
fake_hw_enc_class_init (FakeHwEncClass * klass)
{
  gst_element_class_set_static_metadata (klass, "Fake hardware encoder",
      "Codec/Encoder/Video/Hardware", "test", "test");
}

static void
fake_hw_enc_init (FakeHwEnc * self)
{
}
