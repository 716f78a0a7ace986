#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhisteq's flicker figures (docs/HISTEQ.md): mean frame-to-frame change of
the mean output luma on static real photos with sensor noise (sigma 2) and
brightness jitter (sigma 0.5 level per frame), smoothing=0 against the
defaults, both modes; and the background of a CLAHE scene with an object
moving in. A report, not a test (tests/test_opencv_histeq.py asserts).
Point GST_PLUGIN_PATH at another build to compare versions.

Run: GST_PLUGIN_PATH=build /usr/bin/python3 bench/histeq_flicker.py build/test-frames
"""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests'))
import test_opencv_histeq as th  # noqa: E402  (reads FRAMES_DIR from argv)

ROWS = [('clahe', 'astronaut.png', 0.0, 1.0), ('clahe', 'camera.png', 0.0, 1.0),
        ('clahe', 'coffee.png', 0.5, 1.0), ('clahe', 'chelsea.png', 0.5, 1.0),
        ('clahe', 'camera.png', 0.5, 0.3),
        ('global', 'astronaut.png', 0.0, 1.0), ('global', 'astronaut.png', 0.5, 1.0),
        ('global', 'camera.png', 0.5, 0.3), ('global', 'camera.png', 0.5, 1.0),
        ('global', 'coffee.png', 0.5, 1.0), ('global', 'chelsea.png', 0.5, 1.0),
        ('global', 'camera.png', 0.0, 1.0), ('global', 'coffee.png', 0.0, 1.0)]

print('| mode | photo | jitter | smoothing=0 | default | ratio |')
print('|---|---|---|---|---|---|')
for mode, name, jitter, gain in ROWS:
    with contextlib.redirect_stderr(io.StringIO()):
        off, on = th.flicker_pair(mode, name, jitter, gain)
    print('| %s | %s%s | %.1f | %.3f | %.3f | %.1fx |'
          % (mode, name, ' x%.1f' % gain if gain != 1.0 else '', jitter, off, on, off / on),
          flush=True)

# An object sliding into the left third of a static noisy scene (frames
# 10..30): mean change per frame of the untouched background (right part).
print('\n| mode | photo, object | background, smoothing=0 | background, default |')
print('|---|---|---|---|')
np = th.np
for name, value in (('coffee.png', 10), ('chelsea.png', 240)):
    rng = np.random.default_rng(5)
    base = th.tb.to_planes(th.tb.photo(name, 160, 120), 'GRAY8')[0].astype(np.float32)
    frames = []
    for t in range(45):
        f = base.copy()
        f[20:110, 0:min(60, max(0, (t - 10) * 3))] = value
        frames.append([np.clip(np.rint(f + rng.normal(0, th.SENSOR_NOISE, f.shape)),
                               0, 255).astype(np.uint8)])
    for mode in ('global', 'clahe'):
        res = []
        for props in ('smoothing=0', ''):
            outs = th.run_histeq(frames, 'GRAY8', 160, 120, 'mode=%s %s' % (mode, props))
            m = np.array([o[0][:, 100:].astype(np.float64).mean() for o in outs])
            res.append(float(np.abs(np.diff(m[9:36])).mean()))
        print('| %s | %s, level %d | %.3f | %.3f |' % (mode, name, value, res[0], res[1]), flush=True)
