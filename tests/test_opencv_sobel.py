#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clsobel in real GStreamer pipelines against cv2.Sobel / cv2.Scharr on real
photographs (python3-skimage's samples): every format, GRAY8 and same-format
output, every operator size and mode, within 1 LSB of
sat(round(|g| * scale + delta)) computed from the CV_32F gradients of the
luma cv2.cvtColor gives, at sizes from 1x1 up.

Run: GST_PLUGIN_PATH=build /usr/bin/python3 tests/test_opencv_sobel.py FRAMES_DIR
"""
import os
import sys
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The blur test's helpers (photos, plane packing); it takes FRAMES_DIR from
# argv on import.
import test_opencv_blur as common  # noqa: E402
from gi.repository import Gst, GstVideo  # noqa: E402

FORMATS = ['GRAY8', 'NV12', 'I420', 'RGBA', 'BGRA', 'RGBx', 'BGRx']
MODES = ['magnitude', 'x', 'y']


def luma_of(planes, fmt):
    if fmt in ('RGBA', 'RGBx'):
        return cv2.cvtColor(np.ascontiguousarray(planes[0][:, :, :3]), cv2.COLOR_RGB2GRAY)
    if fmt in ('BGRA', 'BGRx'):
        return cv2.cvtColor(np.ascontiguousarray(planes[0][:, :, :3]), cv2.COLOR_BGR2GRAY)
    return np.ascontiguousarray(planes[0][:, :, 0])


def opencv_edges(luma, ksize, mode, scale, delta, threshold):
    b = cv2.BORDER_REFLECT_101
    if ksize == -1:
        gx = cv2.Scharr(luma, cv2.CV_32F, 1, 0, borderType=b)
        gy = cv2.Scharr(luma, cv2.CV_32F, 0, 1, borderType=b)
    else:
        gx = cv2.Sobel(luma, cv2.CV_32F, 1, 0, ksize=ksize, borderType=b)
        gy = cv2.Sobel(luma, cv2.CV_32F, 0, 1, ksize=ksize, borderType=b)
    gx, gy = gx.astype(np.float64), gy.astype(np.float64)
    g = {'magnitude': np.sqrt(gx * gx + gy * gy), 'x': np.abs(gx), 'y': np.abs(gy)}[mode]
    v = np.clip(np.rint(g * scale + delta), 0, 255)
    if threshold > 0:
        v = np.where(v >= threshold, 255, 0)
    return v.astype(np.uint8)


def run_sobel(frames_planes, fmt, out_fmt, width, height, props, device='cpu'):
    caps = 'video/x-raw,format=%s,width=%d,height=%d,framerate=30/1' % (fmt, width, height)
    pipe = Gst.parse_launch(
        'appsrc name=src caps="%s" format=time ! clsobel device=%s %s ! '
        'appsink name=sink sync=false caps="video/x-raw,format=%s"'
        % (caps, device, props, out_fmt))
    vinfo = GstVideo.VideoInfo.new_from_caps(Gst.Caps.from_string(caps))
    src = pipe.get_by_name('src')
    sink = pipe.get_by_name('sink')
    pipe.set_state(Gst.State.PLAYING)
    for i, planes in enumerate(frames_planes):
        buf = Gst.Buffer.new_wrapped(common.pack(planes, vinfo))
        buf.pts = i * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        assert src.emit('push-buffer', buf) == Gst.FlowReturn.OK
    src.emit('end-of-stream')
    outputs = []
    for planes in frames_planes:
        sample = sink.emit('pull-sample')
        assert sample is not None, 'pipeline ended early'
        out_info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
        assert out_info.finfo.name == out_fmt, out_info.finfo.name
        b = sample.get_buffer()
        meta = GstVideo.buffer_get_video_meta(b)
        if meta:
            for p in range(meta.n_planes):
                out_info.stride[p] = meta.stride[p]
                out_info.offset[p] = meta.offset[p]
        like = [np.zeros((height, width, 1), np.uint8)] if out_fmt == 'GRAY8' else planes
        ok, m = b.map(Gst.MapFlags.READ)
        assert ok
        outputs.append(common.unpack(bytes(m.data), out_info, like))
        b.unmap(m)
    msg = pipe.get_bus().timed_pop_filtered(10 * Gst.SECOND,
                                            Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipe.set_state(Gst.State.NULL)
    assert msg is not None and msg.type == Gst.MessageType.EOS, msg and msg.parse_error()
    return outputs


class SobelAgainstOpenCV(unittest.TestCase):
    def check(self, fmt, width, height, ksize=3, mode='magnitude', scale=1.0,
              delta=0.0, threshold=0, same=False, names=('astronaut.png',)):
        frames = [common.to_planes(common.photo(n, width, height), fmt) for n in names]
        props = 'kernel-size=%d mode=%s scale=%r delta=%r threshold=%d' % (
            ksize, mode, scale, delta, threshold)
        out_fmt = fmt if same else 'GRAY8'
        outputs = run_sobel(frames, fmt, out_fmt, width, height, props)
        what = '%s->%s %dx%d %s' % (fmt, out_fmt, width, height, props)
        for planes, out in zip(frames, outputs):
            luma = luma_of(planes, fmt)
            want = opencv_edges(luma, ksize, mode, scale, delta, threshold)
            got = out[0][:, :, 0].astype(int)
            if threshold > 0:
                # 1 LSB before the threshold may flip a pixel: accept what
                # threshold - 1 or + 1 gives.
                lo = opencv_edges(luma, ksize, mode, scale, delta, threshold + 1)
                hi = opencv_edges(luma, ksize, mode, scale, delta, max(threshold - 1, 1))
                bad = (got != want) & (got != lo) & (got != hi)
                self.assertEqual(int(bad.sum()), 0, '%s: %d pixels differ' % (what, bad.sum()))
            else:
                diff = np.abs(want.astype(int) - got)
                self.assertLessEqual(int(diff.max()), 1, '%s: max diff %d, %d pixels differ'
                                     % (what, diff.max(), (diff > 0).sum()))
            if same and out[0].shape[2] == 4:
                self.assertTrue((out[0][:, :, 1] == out[0][:, :, 0]).all(), what)
                self.assertTrue((out[0][:, :, 2] == out[0][:, :, 0]).all(), what)
                self.assertTrue((out[0][:, :, 3] == 255).all(), what + ': alpha')
            if same:
                for p in out[1:]:
                    self.assertTrue((p == 128).all(), what + ': chroma not neutral')

    def test_every_format_gray_output(self):
        for fmt in FORMATS:
            with self.subTest(fmt=fmt):
                self.check(fmt, 341, 233, names=('astronaut.png', 'coffee.png'))

    def test_every_format_same_output(self):
        for fmt in FORMATS:
            with self.subTest(fmt=fmt):
                self.check(fmt, 341, 233, same=True, names=('chelsea.png',))

    def test_operators_and_modes(self):
        scales = {3: 0.25, 5: 1 / 32, 7: 1 / 512, -1: 1 / 16}
        for ksize in (3, 5, 7, -1):
            for mode in MODES:
                with self.subTest(ksize=ksize, mode=mode):
                    self.check('GRAY8', 320, 241, ksize, mode, scale=scales[ksize],
                               names=('camera.png',))

    def test_scale_delta_threshold(self):
        self.check('NV12', 200, 150, 3, 'x', scale=0.5, delta=20.0, names=('coffee.png',))
        self.check('BGRx', 200, 150, -1, 'magnitude', scale=0.1, threshold=60,
                   names=('chelsea.png',))

    def test_full_hd_awkward(self):
        for fmt in ('GRAY8', 'NV12'):
            with self.subTest(fmt=fmt):
                self.check(fmt, 1921, 1081, names=('coffee.png',))

    def test_tiny(self):
        for w, h in ((1, 1), (2, 2), (3, 7), (17, 5), (1, 9), (9, 1)):
            for fmt in ('GRAY8', 'RGBA', 'NV12'):
                for ksize in (3, 7):
                    with self.subTest(size=(w, h), fmt=fmt, ksize=ksize):
                        self.check(fmt, w, h, ksize, scale=0.2)


if __name__ == '__main__':
    unittest.main(verbosity=2)
