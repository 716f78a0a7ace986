#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs videotestsrc ! clblur ! clhisteq ! appsink (1080p NV12) with
device=DEVICE for SECONDS and writes a timeline CSV: every INTERVAL, the
time (monotonic seconds, the clock tools/gpu-load prints), frames/s over
the interval, the device the chain runs on, and the auto group's busy
signal and latency per frame. Switch messages go to EVENTS. The appsink
maps every frame for reading, as an encoder would (the one host wait per
frame). Used by bench/auto-timeline.sh."""
import argparse
import csv
import sys
import threading
import time

import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst, GLib  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="auto")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--interval", type=float, default=0.25)
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--events", required=True)
    a = ap.parse_args()

    Gst.init(None)
    desc = (f"videotestsrc is-live=false pattern=ball ! video/x-raw,format=NV12,"
            f"width={a.width},height={a.height},framerate=30/1 ! "
            f"clblur name=first sigma=2 device={a.device} ! "
            f"clhisteq device={a.device} ! "
            f"appsink name=sink sync=false emit-signals=true max-buffers=4")
    pipe = Gst.parse_launch(desc)
    first = pipe.get_by_name("first")
    sink = pipe.get_by_name("sink")
    lock = threading.Lock()
    state = {"frames": 0, "t0": None}

    def on_sample(s):
        sample = s.emit("pull-sample")
        buf = sample.get_buffer()
        ok, info = buf.map(Gst.MapFlags.READ)
        if ok:
            buf.unmap(info)
        with lock:
            state["frames"] += 1
            if state["t0"] is None:
                state["t0"] = time.monotonic()
        return Gst.FlowReturn.OK

    sink.connect("new-sample", on_sample)
    events = open(a.events, "w", newline="")
    ev = csv.writer(events)
    ev.writerow(["time", "element", "reason", "to", "busy", "ms_per_frame",
                 "detail"])
    bus = pipe.get_bus()

    def poll_bus():
        while True:
            msg = bus.pop_filtered(Gst.MessageType.ELEMENT |
                                   Gst.MessageType.ERROR)
            if not msg:
                return
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                sys.exit(f"error: {err.message} ({dbg})")
            s = msg.get_structure()
            if s and s.get_name() == "gst-cl-device-switch":
                ev.writerow([f"{time.monotonic():.3f}", msg.src.get_name(),
                             s.get_string("reason"), s.get_string("to-slot"),
                             s.get_value("busy"), s.get_value("ms-per-frame"),
                             s.get_string("detail")])
                events.flush()

    out = open(a.csv, "w", newline="")
    w = csv.writer(out)
    w.writerow(["time", "fps", "device", "index", "busy", "ms_per_frame",
                "switches"])
    pipe.set_state(Gst.State.PLAYING)
    while True:
        with lock:
            started = state["t0"] is not None
        if started:
            break
        poll_bus()
        time.sleep(0.01)
    last_t, last_f = time.monotonic(), 0
    end = last_t + a.seconds
    while last_t < end:
        time.sleep(a.interval)
        poll_bus()
        t = time.monotonic()
        with lock:
            f = state["frames"]
        dev = first.get_property("current-device") or ""
        kind = "gpu" if "GPU" in dev else "cpu" if "CPU" in dev else dev
        stats = first.get_property("stats")
        busy = ms = sw = ""
        if stats is not None:
            if stats.has_field("auto-busy"):
                busy = f"{stats.get_value('auto-busy'):.3f}"
                ms = f"{stats.get_value('auto-ms-per-frame'):.4f}"
                sw = stats.get_value("auto-switches")
        w.writerow([f"{t:.3f}", f"{(f - last_f) / (t - last_t):.1f}", kind,
                    dev.split(" ")[0], busy, ms, sw])
        out.flush()
        last_t, last_f = t, f
    pipe.set_state(Gst.State.NULL)
    poll_bus()
    out.close()
    events.close()


if __name__ == "__main__":
    main()
