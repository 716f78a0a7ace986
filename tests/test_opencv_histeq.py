#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhisteq in real GStreamer pipelines against OpenCV on real photographs
(python3-skimage's samples): mode=global is cv2.equalizeHist bit for bit,
mode=clahe is cv2.createCLAHE within 1 LSB (also for sizes that are not a
multiple of the tile grid), chroma is untouched, colour keeps its hue; and
the temporal smoothing in numbers: flicker on a static scene with sensor
noise and brightness jitter in both modes, settling after a hard cut.

Run: GST_PLUGIN_PATH=build /usr/bin/python3 tests/test_opencv_histeq.py FRAMES_DIR
"""
import os
import sys
import unittest

import cv2
import gi
import numpy as np

gi.require_version('Gst', '1.0')
gi.require_version('GstVideo', '1.0')
from gi.repository import Gst, GstVideo  # noqa: E402

FRAMES = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get('FRAMES_DIR', 'frames')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_argv, sys.argv = sys.argv, sys.argv[:1]  # it reads its own FRAMES_DIR
import test_opencv_blur as tb  # noqa: E402  (photo, planes, packing)
sys.argv = _argv

tb.FRAMES = FRAMES
Gst.init(None)


def run_histeq(frames_planes, fmt, width, height, props, device='cpu'):
    """Pushes frames through appsrc ! clhisteq ! appsink; returns output planes."""
    caps = 'video/x-raw,format=%s,width=%d,height=%d,framerate=30/1' % (fmt, width, height)
    pipe = Gst.parse_launch(
        'appsrc name=src caps="%s" format=time ! clhisteq name=eq device=%s %s ! '
        'appsink name=sink sync=false caps="video/x-raw,format=%s"'
        % (caps, device, props, fmt))
    vinfo = GstVideo.VideoInfo.new_from_caps(Gst.Caps.from_string(caps))
    src = pipe.get_by_name('src')
    sink = pipe.get_by_name('sink')
    pipe.set_state(Gst.State.PLAYING)
    outputs = []
    for i, planes in enumerate(frames_planes):
        buf = Gst.Buffer.new_wrapped(tb.pack(planes, vinfo))
        buf.pts = i * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        assert src.emit('push-buffer', buf) == Gst.FlowReturn.OK
        sample = sink.emit('pull-sample')
        assert sample is not None, 'pipeline ended early'
        out_info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
        b = sample.get_buffer()
        meta = GstVideo.buffer_get_video_meta(b)
        if meta:
            for p in range(meta.n_planes):
                out_info.stride[p] = meta.stride[p]
                out_info.offset[p] = meta.offset[p]
        ok, m = b.map(Gst.MapFlags.READ)
        assert ok
        outputs.append(tb.unpack(bytes(m.data), out_info, planes))
        b.unmap(m)
    src.emit('end-of-stream')
    msg = pipe.get_bus().timed_pop_filtered(10 * Gst.SECOND,
                                            Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipe.set_state(Gst.State.NULL)
    assert msg is not None and msg.type == Gst.MessageType.EOS, msg and msg.parse_error()
    return outputs


def luma(rgb):
    """BT.601 luma as clhisteq computes it for packed RGB (R, G, B order)."""
    r, g, b = (rgb[:, :, i].astype(np.int32) for i in range(3))
    return ((77 * r + 150 * g + 29 * b + 128) >> 8).astype(np.uint8)


def scale_colour(rgb, y, ynew):
    """The element's colour rule: gain ynew/y, clamped so no channel clips."""
    c = rgb[:, :, :3].astype(np.float32)
    m = np.maximum(c.max(axis=2), 1).astype(np.float32)
    with np.errstate(divide='ignore', invalid='ignore'):
        gain = np.minimum(ynew.astype(np.float32) / np.maximum(y, 1).astype(np.float32),
                          np.float32(255) / m)
    out = np.clip(np.rint(c * gain[:, :, None]), 0, 255).astype(np.uint8)
    dark = y == 0
    out[dark] = ynew[dark][:, None]
    return out


def clahe(plane, clip, tiles):
    return cv2.createCLAHE(clipLimit=clip, tileGridSize=tiles).apply(plane)


class GlobalAgainstOpenCV(unittest.TestCase):
    def check_gray(self, width, height, names):
        frames = [tb.to_planes(tb.photo(n, width, height), 'GRAY8') for n in names]
        outs = run_histeq(frames, 'GRAY8', width, height, 'mode=global smoothing=0')
        for name, planes, out in zip(names, frames, outs):
            want = cv2.equalizeHist(planes[0][:, :, 0])
            got = out[0][:, :, 0]
            self.assertEqual(int((want != got).sum()), 0,
                             '%s %dx%d: %d pixels differ from cv2.equalizeHist'
                             % (name, width, height, (want != got).sum()))

    def test_exact_real_photos(self):
        self.check_gray(341, 233, ('astronaut.png', 'coffee.png', 'camera.png', 'chelsea.png'))

    def test_exact_full_hd_awkward(self):
        self.check_gray(1921, 1081, ('coffee.png', 'camera.png'))

    def test_exact_tiny(self):
        for w, h in ((1, 1), (3, 7), (17, 5)):
            with self.subTest(size=(w, h)):
                self.check_gray(w, h, ('chelsea.png',))

    def test_flat_frame_unchanged(self):
        for v in (0, 77, 255):
            plane = np.full((48, 64, 1), v, np.uint8)
            out = run_histeq([[plane]], 'GRAY8', 64, 48, 'smoothing=0')
            self.assertTrue(np.array_equal(cv2.equalizeHist(plane[:, :, 0]), plane[:, :, 0]))
            self.assertTrue(np.array_equal(out[0][0], plane), 'flat %d changed' % v)

    def test_yuv_luma_exact_chroma_untouched(self):
        for fmt in ('NV12', 'I420'):
            with self.subTest(fmt=fmt):
                frames = [tb.to_planes(tb.photo('astronaut.png', 320, 241), fmt)]
                out = run_histeq(frames, fmt, 320, 241, 'smoothing=0')[0]
                self.assertTrue(np.array_equal(out[0][:, :, 0],
                                               cv2.equalizeHist(frames[0][0][:, :, 0])))
                for p in range(1, len(out)):
                    self.assertTrue(np.array_equal(out[p], frames[0][p]), 'plane %d' % p)

    def test_rgb_luma_and_hue(self):
        bgr = tb.photo('coffee.png', 200, 151)
        for fmt in ('RGBA', 'BGRA', 'RGBx', 'BGRx'):
            with self.subTest(fmt=fmt):
                planes = tb.to_planes(bgr, fmt)
                px = planes[0]
                rgb = px[:, :, [2, 1, 0]] if fmt.startswith('BGR') else px[:, :, :3]
                out = run_histeq([planes], fmt, 200, 151, 'smoothing=0')[0][0]
                y = luma(rgb)
                want = scale_colour(rgb, y, cv2.equalizeHist(y))
                got = out[:, :, [2, 1, 0]] if fmt.startswith('BGR') else out[:, :, :3]
                diff = np.abs(want.astype(int) - got.astype(int))
                self.assertLessEqual(int(diff.max()), 1, '%s: max diff %d' % (fmt, diff.max()))
                if fmt.endswith('A'):
                    self.assertTrue(np.array_equal(out[:, :, 3], px[:, :, 3]))
                # Where no channel clips the output luma is equalizeHist's
                # (up to the rounding of three channels); the clamp only
                # ever lowers it.
                ynew = cv2.equalizeHist(y).astype(int)
                m = rgb.max(axis=2).astype(np.float32)
                free = (y > 0) & (m * ynew <= 255 * y.astype(np.float32))
                dy = luma(got).astype(int) - ynew
                self.assertLessEqual(int(np.abs(dy[free]).max()), 2, fmt)
                self.assertLessEqual(int(dy.max()), 2, fmt)

    def test_strength_zero_is_identity(self):
        frames = [tb.to_planes(tb.photo('camera.png', 64, 48), 'GRAY8')]
        out = run_histeq(frames, 'GRAY8', 64, 48, 'strength=0 smoothing=0')
        self.assertTrue(np.array_equal(out[0][0], frames[0][0]))


class ClaheAgainstOpenCV(unittest.TestCase):
    def check(self, width, height, clip, tiles, names=('astronaut.png', 'camera.png')):
        frames = [tb.to_planes(tb.photo(n, width, height), 'GRAY8') for n in names]
        props = 'mode=clahe clip-limit=%g tiles-x=%d tiles-y=%d smoothing=0' % (clip, tiles[0], tiles[1])
        outs = run_histeq(frames, 'GRAY8', width, height, props)
        for name, planes, out in zip(names, frames, outs):
            want = clahe(planes[0][:, :, 0], clip, tiles)
            diff = np.abs(want.astype(int) - out[0][:, :, 0].astype(int))
            self.assertLessEqual(int(diff.max()), 1, '%s %dx%d clip %g tiles %s: max diff %d, %d differ'
                                 % (name, width, height, clip, tiles, diff.max(), (diff > 0).sum()))

    def test_default_grid_multiple(self):
        self.check(640, 480, 2.0, (8, 8))

    def test_not_multiple_of_grid(self):
        for size in ((341, 233), (640, 483), (643, 480), (1921, 1081)):
            with self.subTest(size=size):
                self.check(size[0], size[1], 2.0, (8, 8), names=('coffee.png',))

    def test_clip_and_grids(self):
        for clip, tiles in ((0.0, (8, 8)), (4.0, (3, 5)), (40.0, (2, 2)), (1.0, (16, 9))):
            with self.subTest(clip=clip, tiles=tiles):
                self.check(320, 241, clip, tiles, names=('chelsea.png',))

    def test_tiny(self):
        for w, h in ((1, 1), (3, 7), (17, 5)):
            with self.subTest(size=(w, h)):
                self.check(w, h, 2.0, (8, 8), names=('chelsea.png',))

    def test_nv12_luma(self):
        frames = [tb.to_planes(tb.photo('astronaut.png', 320, 240), 'NV12')]
        out = run_histeq(frames, 'NV12', 320, 240, 'mode=clahe smoothing=0')[0]
        diff = np.abs(clahe(frames[0][0][:, :, 0], 2.0, (8, 8)).astype(int) - out[0][:, :, 0])
        self.assertLessEqual(int(diff.max()), 1)
        self.assertTrue(np.array_equal(out[1], frames[0][1]))


# A static scene as a camera gives it: sensor noise (Gaussian, sigma 2
# levels, fresh every frame) and a small global brightness jitter (sigma
# 0.5 level per frame: auto-exposure and gain hunting, mains-frequency light
# flicker), on real photos.
SENSOR_NOISE = 2.0
BRIGHTNESS_JITTER = 0.5


def noisy_sequence(name, width, height, n, sigma, seed, jitter=0.0, gain=1.0):
    """A static scene (a real photo, its levels scaled by @gain: 0.3 is a dark
    picture) with fresh Gaussian noise and a global brightness offset of
    N(0, @jitter) every frame."""
    rng = np.random.default_rng(seed)
    base = tb.to_planes(tb.photo(name, width, height), 'GRAY8')[0].astype(np.float32) * gain
    frames = []
    for _ in range(n):
        offset = rng.normal(0, jitter) if jitter else 0.0
        frames.append([np.clip(np.rint(base + offset + rng.normal(0, sigma, base.shape)),
                               0, 255).astype(np.uint8)])
    return frames


def mean_luma_flicker(outs, skip):
    """Mean frame-to-frame change of the mean output luma, after @skip frames."""
    means = np.array([o[0].astype(np.float64).mean() for o in outs])
    return float(np.abs(np.diff(means[skip:])).mean())


def flicker_pair(mode, name, jitter, gain=1.0):
    """Mean-luma flicker of 50 frames (after 10) with smoothing=0 and with the
    element's defaults (smoothing 8) in @mode."""
    frames = noisy_sequence(name, 160, 120, 50, SENSOR_NOISE, 7, jitter, gain)
    off = mean_luma_flicker(run_histeq(frames, 'GRAY8', 160, 120,
                                       'mode=%s smoothing=0' % mode), 10)
    on = mean_luma_flicker(run_histeq(frames, 'GRAY8', 160, 120, 'mode=%s' % mode), 10)
    print('\n  %s %s%s, noise %.1f, jitter %.1f: mean-luma change per frame %.4f '
          '(smoothing=0) vs %.4f (default), %.1fx'
          % (mode, name, ' x%.1f' % gain if gain != 1.0 else '', SENSOR_NOISE, jitter,
             off, on, off / on), file=sys.stderr)
    return off, on


class TemporalSmoothing(unittest.TestCase):
    """The numbers: flicker of a static noisy scene with and without the
    default smoothing, in both modes, and how fast a hard cut settles."""

    def test_flicker_clahe(self):
        # CLAHE maps every small tile on its own, so per-frame noise moves
        # the tile mappings and the picture flickers: the default smoothing
        # must cut the frame-to-frame change of mean luma >= 5x, with and
        # without brightness jitter (which the smoothing used to pass on).
        for name, jitter, gain in (('astronaut.png', 0.0, 1.0), ('camera.png', 0.0, 1.0),
                                   ('coffee.png', BRIGHTNESS_JITTER, 1.0),
                                   ('chelsea.png', BRIGHTNESS_JITTER, 1.0),
                                   ('camera.png', BRIGHTNESS_JITTER, 0.3)):
            with self.subTest(name=name, jitter=jitter, gain=gain):
                off, on = flicker_pair('clahe', name, jitter, gain)
                self.assertGreaterEqual(off / on, 5.0, '%.4f vs %.4f' % (off, on))

    def test_flicker_global_where_it_flickers(self):
        # Equalising each frame on its own pins the output mean near
        # 127.5 * (1 + sum p^2), except where the lowest level holds many
        # pixels (black crushed to 0: 5-6% of astronaut.png and of a dark
        # picture):
        # equalizeHist maps that bin to 0 and spreads the rest, so the noise
        # and jitter moving pixels in and out of it make the whole picture
        # flicker. The default smoothing must cut that >= 5x.
        for name, jitter, gain in (('astronaut.png', 0.0, 1.0),
                                   ('astronaut.png', BRIGHTNESS_JITTER, 1.0),
                                   ('camera.png', BRIGHTNESS_JITTER, 0.3)):
            with self.subTest(name=name, jitter=jitter, gain=gain):
                off, on = flicker_pair('global', name, jitter, gain)
                self.assertGreaterEqual(off, 0.1, 'no flicker to remove: %.4f' % off)
                self.assertGreaterEqual(off / on, 5.0, '%.4f vs %.4f' % (off, on))

    def test_flicker_global_pinned(self):
        # Where each frame's own equalisation already keeps the mean still
        # (well under 0.1 level per frame) the default smoothing must stay as
        # still: a smoothed mapping on its own passed the jitter on,
        # amplified by its slope (1.2-1.4 levels per frame here).
        for name in ('coffee.png', 'chelsea.png', 'camera.png'):
            with self.subTest(name=name):
                off, on = flicker_pair('global', name, BRIGHTNESS_JITTER)
                self.assertLess(on, 0.05)
                self.assertLessEqual(on, off + 0.01)

    def test_clahe_object_moving_in(self):
        # A dark (or bright) object sliding into the left of a static noisy
        # scene: CLAHE is local, so the background on the right should stay
        # still. The brightness tracking must not take the object for a
        # global jitter (a frame-wide estimate brightened the far tiles:
        # 0.52 levels per frame); the median over the tiles ignores it.
        for name, value in (('coffee.png', 10), ('chelsea.png', 240)):
            rng = np.random.default_rng(5)
            base = tb.to_planes(tb.photo(name, 160, 120), 'GRAY8')[0].astype(np.float32)
            frames = []
            for t in range(45):
                f = base.copy()
                f[20:110, 0:min(60, max(0, (t - 10) * 3))] = value  # frames 10..30
                frames.append([np.clip(np.rint(f + rng.normal(0, SENSOR_NOISE, f.shape)),
                                       0, 255).astype(np.uint8)])
            res = []
            for props in ('mode=clahe smoothing=0', 'mode=clahe'):
                outs = run_histeq(frames, 'GRAY8', 160, 120, props)
                m = np.array([o[0][:, 100:].astype(np.float64).mean() for o in outs])
                res.append(float(np.abs(np.diff(m[9:36])).mean()))
            print('\n  clahe %s, object moving in: background mean change per frame %.3f '
                  '(smoothing=0) vs %.3f (default)' % (name, res[0], res[1]), file=sys.stderr)
            self.assertLess(res[1], res[0] / 3, name)

    def check_cut(self, mode):
        a = noisy_sequence('astronaut.png', 160, 120, 15, SENSOR_NOISE, 3, BRIGHTNESS_JITTER)
        b = noisy_sequence('coffee.png', 160, 120, 10, SENSOR_NOISE, 4, BRIGHTNESS_JITTER)
        frames = a + b
        cut = len(a)
        ref = run_histeq(frames, 'GRAY8', 160, 120, 'mode=%s smoothing=0' % mode)
        smooth = run_histeq(frames, 'GRAY8', 160, 120, 'mode=%s' % mode)
        blind = run_histeq(frames, 'GRAY8', 160, 120, 'mode=%s scene-cut-threshold=1' % mode)

        def err(outs, i):
            return float(np.abs(outs[i][0].astype(int) - ref[i][0].astype(int)).mean())

        errs = [err(smooth, cut + k) for k in range(len(b))]
        blind_errs = [err(blind, cut + k) for k in range(len(b))]
        print('\n  %s: mean |smoothed - unsmoothed| after the cut: %s; without '
              'the cut detector: %s' % (mode, ' '.join('%.2f' % e for e in errs[:5]),
                                        ' '.join('%.2f' % e for e in blind_errs[:5])),
              file=sys.stderr)
        # Settled from the second frame after the cut on: as close to the
        # unsmoothed mapping as smoothing ever stays on a static scene.
        steady = max(err(smooth, i) for i in range(cut - 5, cut))
        for k in range(2, len(b)):
            self.assertLessEqual(errs[k], max(steady, 1.0) + 0.5, 'frame %d after the cut' % k)
        # Without the detector the old scene's mapping lingers.
        self.assertGreater(blind_errs[2], 2 * max(errs[2], 1.0))

    def test_cut_settles_global(self):
        self.check_cut('global')

    def test_cut_settles_clahe(self):
        self.check_cut('clahe')

    def test_smoothing_first_frame_exact(self):
        # With nothing to smooth against, the first frame is equalizeHist's.
        frames = noisy_sequence('camera.png', 64, 48, 1, SENSOR_NOISE, 1)
        out = run_histeq(frames, 'GRAY8', 64, 48, 'smoothing=8')[0][0][:, :, 0]
        self.assertTrue(np.array_equal(out, cv2.equalizeHist(frames[0][0][:, :, 0])))


if __name__ == '__main__':
    unittest.main(verbosity=2)
