/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* VA surface plane (an image from clCreateFromVA_APIMediaSurfaceINTEL) into
 * the element's own frame buffer: the elements' kernels read buffers, so
 * this one device-side copy per plane is what importing costs (no host
 * copy). Intel's driver gives NV12 plane 0 as CL_R and plane 1 as CL_RG,
 * both CL_UNORM_INT8; read_imagef returns v / 255, written back as bytes.
 *
 * va_plane_to_buffer: global = (width, height) of the plane in pixels;
 * channels = 1 (Y) or 2 (UV). Reference: the identity on bytes
 * (tests/check_va.c compares with the data the images were filled from). */

__constant sampler_t va_sampler = CLK_NORMALIZED_COORDS_FALSE |
    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void
va_plane_to_buffer (__read_only image2d_t plane, __global uchar * dst,
    uint offset, int stride, int width, int height, int channels)
{
  int x = get_global_id (0), y = get_global_id (1);
  float4 v;
  __global uchar *p;

  if (x >= width || y >= height)
    return;
  v = read_imagef (plane, va_sampler, (int2) (x, y));
  p = dst + offset + (size_t) y * stride + (size_t) x * channels;
  p[0] = convert_uchar_sat_rte (v.x * 255.0f);
  if (channels == 2)
    p[1] = convert_uchar_sat_rte (v.y * 255.0f);
}
