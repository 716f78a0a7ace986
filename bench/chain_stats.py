#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Per-frame change of the shared context's `stats` counters (host waits,
frame copies, program builds, buffers allocated, ...) over a chain's
steady state: the frames after --warmup, read from the first element
named `first`. A report, never a test.

  GST_PLUGIN_PATH=build /usr/bin/python3 bench/chain_stats.py \\
      [--warmup 10] [--frames 60] [PIPELINE]

PIPELINE (default: NV12 720p through clblur ! clsobel ! clhisteq, a queue
after the source so it does not reuse a buffer still in flight) must name
one of our elements `first` and end in a sink named `sink`.
"""
import argparse

import gi

gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402

DEFAULT = ('videotestsrc num-buffers={n} pattern=ball '
           '! video/x-raw,format=NV12,width=1280,height=720 ! queue '
           '! clblur name=first ! clsobel ! clhisteq ! fakesink name=sink sync=false')


def counters(element):
    s = element.get_property('stats')
    return {s.nth_field_name(i): s.get_value(s.nth_field_name(i)) for i in range(s.n_fields())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--warmup', type=int, default=10)
    ap.add_argument('--frames', type=int, default=60)
    ap.add_argument('pipeline', nargs='?')
    a = ap.parse_args()
    Gst.init(None)
    p = Gst.parse_launch(a.pipeline or DEFAULT.format(n=a.warmup + a.frames))
    first, seen, start = p.get_by_name('first'), [0], {}

    def on_buffer(_pad, _info):
        seen[0] += 1
        if seen[0] == a.warmup:
            start.update(counters(first))
        return Gst.PadProbeReturn.OK
    p.get_by_name('sink').get_static_pad('sink').add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    p.set_state(Gst.State.PLAYING)
    msg = p.get_bus().timed_pop_filtered(300 * Gst.SECOND,
                                         Gst.MessageType.EOS | Gst.MessageType.ERROR)
    end = counters(first)
    p.set_state(Gst.State.NULL)
    if msg is None or msg.type != Gst.MessageType.EOS or not start:
        raise SystemExit('chain_stats.py: no EOS after the warm-up: %s' %
                         (msg.parse_error()[0].message if msg else 'timeout'))
    n = seen[0] - a.warmup
    print('%d frames after %d of warm-up' % (n, a.warmup))
    for k in sorted(end):
        if isinstance(end[k], int):
            print('  %-20s %.2f per frame' % (k, (end[k] - start[k]) / n))


if __name__ == '__main__':
    main()
