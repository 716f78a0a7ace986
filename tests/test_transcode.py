#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""pipelines/transcode.sh as a user runs it: with no input (it makes its own
H.264 clip) and with a file given on the command line. Checked with ffprobe
and ffmpeg, outside GStreamer: every frame is kept, each frame keeps its
timestamp, the duration is the same, and the luma really went through
clhisteq and clblur (against cv2.equalizeHist + cv2.GaussianBlur).

Run: GST_PLUGIN_PATH=build /usr/bin/python3 tests/test_transcode.py
"""
import json
import os
import subprocess
import tempfile
import unittest

import cv2
import numpy as np

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'pipelines',
                      'transcode.sh')


def probe(path):
    """(frame timestamps in seconds, stream duration, format duration, size)."""
    out = subprocess.run(
        ['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_frames',
         '-show_entries', 'frame=best_effort_timestamp_time:stream=width,height,duration'
         ':format=duration', '-of', 'json', path],
        capture_output=True, text=True, check=True).stdout
    info = json.loads(out)
    pts = [float(f['best_effort_timestamp_time']) for f in info['frames']]
    stream = info['streams'][0]
    return pts, float(info['format']['duration']), (stream['width'], stream['height'])


def luma(path, width, height):
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-f', 'rawvideo',
                          '-pix_fmt', 'yuv420p', '-'],
                         capture_output=True, check=True).stdout
    frame = width * height * 3 // 2
    planes = np.frombuffer(raw, np.uint8).reshape(-1, frame)[:, :width * height]
    return planes.reshape(-1, height, width)


class Transcode(unittest.TestCase):
    def run_script(self, cwd, *args):
        env = dict(os.environ)
        # The tests' plugin path (meson's environment) wins over build/.
        env.setdefault('BUILD_DIR', os.environ.get('GST_PLUGIN_PATH', 'build'))
        proc = subprocess.run([SCRIPT, *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return proc

    def check_same_timing(self, src, dst):
        pts_in, dur_in, size_in = probe(src)
        pts_out, dur_out, size_out = probe(dst)
        self.assertEqual(size_in, size_out)
        self.assertGreater(len(pts_in), 10)
        self.assertEqual(len(pts_out), len(pts_in), 'frames lost or added')
        for i, (a, b) in enumerate(zip(pts_in, pts_out)):
            self.assertAlmostEqual(a, b, delta=0.0015, msg='frame %d timestamp' % i)
        self.assertAlmostEqual(dur_in, dur_out, delta=0.0025, msg='duration')
        return size_in, len(pts_in)

    def check_filtered(self, src, dst, size, sigma=1.0):
        """Output luma is equalizeHist + GaussianBlur of the input luma, and
        clearly not the input itself."""
        a = luma(src, *size)
        b = luma(dst, *size)
        self.assertEqual(a.shape, b.shape)
        k = int(round(sigma * 6 + 1)) | 1
        for i in (0, len(a) // 2, len(a) - 1):
            ref = cv2.GaussianBlur(cv2.equalizeHist(a[i]), (k, k), sigma,
                                   borderType=cv2.BORDER_REFLECT_101)
            to_ref, to_input = cv2.PSNR(b[i], ref), cv2.PSNR(b[i], a[i])
            self.assertGreater(to_ref, 40.0, 'frame %d: not histeq+blur of the input' % i)
            self.assertGreater(to_ref, to_input + 10.0, 'frame %d: looks unfiltered' % i)

    def test_own_input(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc = self.run_script(tmp)
            self.assertIn('making transcode-input.mp4', proc.stdout)
            src = os.path.join(tmp, 'transcode-input.mp4')
            dst = os.path.join(tmp, 'transcode-output.mp4')
            size, n = self.check_same_timing(src, dst)
            self.assertEqual(n, 250)
            self.check_filtered(src, dst, size)

    def test_user_file(self):
        """A file made elsewhere (ffmpeg, Matroska, 29.97 fps, odd size)."""
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, 'clip.mkv')
            subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i',
                            'testsrc2=size=222x130:rate=30000/1001:duration=2',
                            '-c:v', 'libx264', '-pix_fmt', 'yuv420p', src], check=True)
            self.run_script(tmp, src, 'out.mkv')
            dst = os.path.join(tmp, 'out.mkv')
            size, n = self.check_same_timing(src, dst)
            self.assertEqual(n, 60)
            self.check_filtered(src, dst, size)

    def test_file_with_audio(self):
        """Audio in the input is left out (documented); the video is whole."""
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, 'av.mp4')
            subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i',
                            'testsrc2=size=320x240:rate=25:duration=2', '-f', 'lavfi', '-i',
                            'sine=frequency=440:duration=2', '-c:v', 'libx264', '-pix_fmt',
                            'yuv420p', '-c:a', 'aac', '-shortest', src], check=True)
            self.run_script(tmp, src, 'out.mp4')
            dst = os.path.join(tmp, 'out.mp4')
            size, n = self.check_same_timing(src, dst)
            self.assertEqual(n, 50)
            self.check_filtered(src, dst, size)

    def test_missing_input(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run([SCRIPT, os.path.join(tmp, 'nope.mp4')], cwd=tmp,
                                  capture_output=True, text=True)
            self.assertNotEqual(proc.returncode, 0)
            self.assertIn('cannot read', proc.stderr)


if __name__ == '__main__':
    unittest.main(verbosity=2)
