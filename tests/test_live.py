#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cl elements in live pipelines: real-time playback with sync=true,
the latency query (they add none: no queueing beyond the pool), QoS (late
frames skipped when downstream asks, and only then), and properties driven
by a GstController while playing (the new value applies from the next
frame, no restart, no error).

Run: GST_PLUGIN_PATH=build /usr/bin/python3 tests/test_live.py
"""
import subprocess
import time
import unittest

import cv2
import gi
import numpy as np

gi.require_version('Gst', '1.0')
gi.require_version('GstApp', '1.0')
gi.require_version('GstController', '1.0')
from gi.repository import Gst, GstApp, GstController  # noqa: E402,F401

Gst.init(None)
W, H, FPS = 320, 240, 25
CAPS = 'video/x-raw,format=NV12,width=%d,height=%d,framerate=%d/1' % (W, H, FPS)
ELEMENTS = ('clblur', 'clhisteq', 'clsobel')


def run_to_eos(pipeline, timeout=120, on_eos=None):
    """Plays @pipeline to EOS; returns the messages seen. Fails on ERROR.
    @on_eos(pipeline) runs at EOS, before the pipeline stops."""
    bus = pipeline.get_bus()
    msgs = []
    pipeline.set_state(Gst.State.PLAYING)
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, 'no EOS within %d s' % timeout
            msg = bus.timed_pop(int(left * Gst.SECOND))
            if msg is None:
                continue
            msgs.append(msg)
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                raise AssertionError('%s: %s (%s)' % (msg.src.get_name(), err.message, dbg))
            if msg.type == Gst.MessageType.EOS:
                if on_eos:
                    on_eos(pipeline)
                return msgs
    finally:
        pipeline.set_state(Gst.State.NULL)


def wait_playing(pipeline):
    ret = pipeline.set_state(Gst.State.PLAYING)
    assert ret != Gst.StateChangeReturn.FAILURE
    ret, state, _ = pipeline.get_state(60 * Gst.SECOND)
    assert ret == Gst.StateChangeReturn.SUCCESS and state == Gst.State.PLAYING, ret


def nv12_luma(sample):
    buf = sample.get_buffer()
    info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
    ok, mapinfo = buf.map(Gst.MapFlags.READ)
    assert ok
    try:
        data = np.frombuffer(mapinfo.data, np.uint8)
        y = data[info.offset[0]:info.offset[0] + info.stride[0] * info.height]
        return y.reshape(info.height, info.stride[0])[:, :info.width].copy()
    finally:
        buf.unmap(mapinfo)


gi.require_version('GstVideo', '1.0')
from gi.repository import GstVideo  # noqa: E402


class RealTime(unittest.TestCase):
    def test_plays_in_real_time(self):
        """50 frames at 25 fps through every element take 2 s of wall time
        with sync=true, and the sink renders every one of them."""
        n = 50
        p = Gst.parse_launch(
            'videotestsrc is-live=true pattern=ball num-buffers=%d ! %s ! clblur ! clhisteq '
            '! clsobel ! fakesink name=sink sync=true' % (n, CAPS))
        t0 = time.monotonic()
        got = {}
        msgs = run_to_eos(p, on_eos=lambda pl: got.update(
            stats=pl.get_by_name('sink').get_property('stats')))
        wall = time.monotonic() - t0
        stats = got['stats']
        self.assertEqual(stats.get_value('rendered'), n, stats.to_string())
        self.assertEqual(stats.get_value('dropped'), 0, stats.to_string())
        # Less than 2 s would mean sync was not honoured.
        self.assertGreaterEqual(wall, (n - 1) / FPS - 0.05)
        self.assertFalse([m for m in msgs if m.type == Gst.MessageType.QOS],
                         'frames were late at 320x240 25 fps')


class Latency(unittest.TestCase):
    def latency(self, middle):
        p = Gst.parse_launch('videotestsrc is-live=true ! %s ! %s ! fakesink sync=true'
                             % (CAPS, middle))
        wait_playing(p)
        try:
            q = Gst.Query.new_latency()
            self.assertTrue(p.query(q))
            return q.parse_latency()
        finally:
            p.set_state(Gst.State.NULL)

    def test_elements_add_no_latency(self):
        live, lo, hi = self.latency('identity')
        self.assertTrue(live)
        # videotestsrc's frame and the sink's processing deadline
        self.assertGreaterEqual(lo, Gst.SECOND // FPS)
        for e in ELEMENTS:
            with self.subTest(element=e):
                self.assertEqual(self.latency(e), (live, lo, hi))
        self.assertEqual(self.latency(' ! '.join(ELEMENTS)), (live, lo, hi))

    def test_no_frame_held_back(self):
        """One frame in gives one frame out before the next goes in: the
        element keeps nothing queued (its pool only recycles buffers)."""
        for e in ELEMENTS:
            with self.subTest(element=e):
                p = Gst.parse_launch('appsrc name=src format=time caps=%s ! %s '
                                     '! appsink name=out sync=false' % (CAPS, e))
                src, out = p.get_by_name('src'), p.get_by_name('out')
                p.set_state(Gst.State.PLAYING)
                try:
                    size = W * H * 3 // 2
                    for i in range(5):
                        buf = Gst.Buffer.new_wrapped(bytes([(i * 40) % 256]) * size)
                        buf.pts = i * Gst.SECOND // FPS
                        buf.duration = Gst.SECOND // FPS
                        self.assertEqual(src.push_buffer(buf), Gst.FlowReturn.OK)
                        sample = out.try_pull_sample(30 * Gst.SECOND)
                        self.assertIsNotNone(sample, 'frame %d held back' % i)
                        self.assertEqual(sample.get_buffer().pts, buf.pts)
                finally:
                    p.set_state(Gst.State.NULL)


class Qos(unittest.TestCase):
    def test_qos_enabled(self):
        for e in ELEMENTS:
            self.assertTrue(Gst.ElementFactory.make(e).get_property('qos'), e)

    def test_skips_frame_downstream_says_is_late(self):
        """A QoS event from downstream saying it is 1 s behind makes the
        element skip the frames before that (posting a QOS message) and
        process those after; with qos=false it processes all."""
        for qos in (True, False):
            with self.subTest(qos=qos):
                p = Gst.parse_launch('appsrc name=src format=time caps=%s ! clblur name=f '
                                     'qos=%s ! appsink name=out sync=false'
                                     % (CAPS, 'true' if qos else 'false'))
                src, out, f = (p.get_by_name(n) for n in ('src', 'out', 'f'))
                # not live: it prerolls on the first frame pushed below
                p.set_state(Gst.State.PLAYING)
                try:
                    size = W * H * 3 // 2

                    def push(i):
                        buf = Gst.Buffer.new_wrapped(bytes(size))
                        buf.pts = i * Gst.SECOND // FPS
                        buf.duration = Gst.SECOND // FPS
                        self.assertEqual(src.push_buffer(buf), Gst.FlowReturn.OK)
                    push(0)
                    self.assertIsNotNone(out.try_pull_sample(30 * Gst.SECOND))
                    # Downstream: the frame at 40 ms was rendered 1 s late.
                    ev = Gst.Event.new_qos(Gst.QOSType.UNDERFLOW, 2.0, Gst.SECOND,
                                           Gst.SECOND // FPS)
                    self.assertTrue(f.get_static_pad('src').send_event(ev))
                    for i in range(1, 2 * FPS + 10):
                        push(i)
                    src.end_of_stream()
                    got = []
                    while True:
                        s = out.try_pull_sample(30 * Gst.SECOND)
                        if s is None:
                            break
                        got.append(s.get_buffer().pts)
                    bus_qos = []
                    while True:
                        m = p.get_bus().pop_filtered(Gst.MessageType.QOS)
                        if m is None:
                            break
                        if m.src == f:
                            bus_qos.append(m)
                finally:
                    p.set_state(Gst.State.NULL)
                # GstBaseTransform skips frames up to timestamp + diff of the
                # QoS event: 40 ms + 1 s, i.e. frames 1 to 26.
                last = 2 * FPS + 9
                if qos:
                    first_kept = Gst.SECOND // FPS + Gst.SECOND
                    self.assertEqual(got, [i * Gst.SECOND // FPS for i in range(1, last + 1)
                                           if i * Gst.SECOND // FPS > first_kept])
                    self.assertTrue(bus_qos, 'no QOS message from the element')
                    _, processed, dropped = bus_qos[-1].parse_qos_stats()
                    self.assertEqual(dropped, 26)
                else:
                    self.assertEqual(got, [i * Gst.SECOND // FPS for i in range(1, last + 1)])
                    self.assertFalse(bus_qos)

    def test_slow_downstream(self):
        """A real sink falling behind (60 ms per frame at 25 fps): with QoS
        the element skips frames and says so; the stream keeps its pace."""
        p = Gst.parse_launch(
            'videotestsrc is-live=true num-buffers=75 ! %s ! clblur name=f '
            '! identity sleep-time=60000 ! fakesink name=sink sync=true qos=true' % CAPS)
        msgs = run_to_eos(p, timeout=60)
        from_f = [m for m in msgs if m.type == Gst.MessageType.QOS and m.src.get_name() == 'f']
        self.assertTrue(from_f, 'clblur never skipped a late frame')
        fmt, processed, dropped = from_f[-1].parse_qos_stats()
        self.assertGreater(dropped, 0)
        self.assertGreater(processed, 0)


STOP_SCRIPT = r"""
import sys, time, gi
gi.require_version('Gst', '1.0')
gi.require_version('GstApp', '1.0')
from gi.repository import Gst, GstApp
Gst.init(None)
p = Gst.parse_launch('videotestsrc ! %s ! %s ! appsink name=out sync=false' % (sys.argv[1], sys.argv[2]))
out = p.get_by_name('out')
p.set_state(Gst.State.PLAYING)
time.sleep(1.5)  # nobody reads: the appsink holds every buffer of the pool
assert p.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH, 0), 'flushing seek refused'
s = out.try_pull_sample(30 * Gst.SECOND)
assert s is not None and s.get_buffer().pts == 0, 'no frame after the seek'
time.sleep(1.5)
p.set_state(Gst.State.NULL)
print('stopped')
"""


class Stopping(unittest.TestCase):
    def test_stop_and_flush_while_downstream_holds_the_pool(self):
        """The output pool has a maximum; when downstream keeps every buffer
        the element waits for one. A flushing seek and a stop must still
        return (they used to hang: GstBaseTransform waits for the stream
        lock before it releases the pool)."""
        for chain in ('clblur', 'clblur ! clhisteq'):
            with self.subTest(chain=chain):
                proc = subprocess.run(['/usr/bin/python3', '-c', STOP_SCRIPT, CAPS, chain],
                                      capture_output=True, text=True, timeout=120)
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                self.assertIn('stopped', proc.stdout)


class Controller(unittest.TestCase):
    def test_sigma_controlled_while_playing(self):
        """A step control source on clblur's sigma: 1.0 for the first
        second, then 4.0. Every output frame matches cv2.GaussianBlur with
        the sigma in force at its timestamp; the pipeline never restarts."""
        n = 2 * FPS
        src_desc = 'videotestsrc pattern=smpte num-buffers=%d ! %s' % (n, CAPS)
        # videotestsrc is deterministic: the same frames again, unfiltered.
        ref = Gst.parse_launch(src_desc + ' ! appsink name=out sync=false')
        ref.set_state(Gst.State.PLAYING)
        sources = [nv12_luma(ref.get_by_name('out').try_pull_sample(30 * Gst.SECOND))
                   for _ in range(n)]
        ref.set_state(Gst.State.NULL)

        p = Gst.parse_launch(src_desc + ' ! clblur name=f ! appsink name=out sync=false')
        f, out = p.get_by_name('f'), p.get_by_name('out')
        cs = GstController.InterpolationControlSource()
        cs.set_property('mode', GstController.InterpolationMode.NONE)
        # Direct binding: the control value is the property value.
        f.add_control_binding(GstController.DirectControlBinding.new_absolute(f, 'sigma', cs))
        cs.set(0, 1.0)
        cs.set(Gst.SECOND, 4.0)
        states = []
        p.get_bus().add_signal_watch()
        wait_playing(p)
        try:
            seen = {1.0: 0, 4.0: 0}
            for i in range(n):
                s = out.try_pull_sample(60 * Gst.SECOND)
                self.assertIsNotNone(s, 'frame %d missing' % i)
                pts = s.get_buffer().pts
                sigma = 1.0 if pts < Gst.SECOND else 4.0
                k = int(round(sigma * 6 + 1)) | 1
                want = cv2.GaussianBlur(sources[i], (k, k), sigma, borderType=cv2.BORDER_REFLECT_101)
                diff = np.abs(nv12_luma(s).astype(int) - want.astype(int)).max()
                self.assertLessEqual(diff, 1, 'frame %d (pts %d ms): not sigma %.1f'
                                     % (i, pts // Gst.MSECOND, sigma))
                seen[sigma] += 1
            self.assertEqual(seen, {1.0: FPS, 4.0: FPS})
            self.assertAlmostEqual(f.get_property('sigma'), 4.0)
            bus = p.get_bus()
            while True:
                m = bus.pop()
                if m is None:
                    break
                self.assertNotEqual(m.type, Gst.MessageType.ERROR,
                                    m.parse_error()[0].message if m.type ==
                                    Gst.MessageType.ERROR else '')
                if m.type == Gst.MessageType.STATE_CHANGED and m.src == f:
                    states.append(m.parse_state_changed()[1])
        finally:
            p.set_state(Gst.State.NULL)
        # the element went up to PLAYING once and never back down meanwhile
        self.assertNotIn(Gst.State.READY, states[states.index(Gst.State.PLAYING):]
                         if Gst.State.PLAYING in states else [])


if __name__ == '__main__':
    unittest.main(verbosity=2)
