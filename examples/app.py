#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""An application using the cl elements from Python (PyGObject): builds a
pipeline, changes properties while it plays, reads cloptflow's messages on
the bus and the flow field (GstCLFlowMeta) attached to each buffer, and
checks that the two agree. Exits non-zero if something it expects does not
happen.

  GST_PLUGIN_PATH=build /usr/bin/python3 examples/app.py [FRAMES]

GstCLFlowMeta is a C struct without introspection data; read_flow_meta()
below reads it with ctypes (the layout of gst/clfilters/gstclflowmeta.h).
Most applications need only the messages.
"""
import ctypes
import ctypes.util
import sys
import threading

import gi

gi.require_version('Gst', '1.0')
from gi.repository import GLib, Gst  # noqa: E402

import numpy as np  # noqa: E402

FRAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 90

# ---- the flow meta, through ctypes -----------------------------------------
libgst = ctypes.CDLL(ctypes.util.find_library('gstreamer-1.0') or 'libgstreamer-1.0.so.0')
libgst.gst_buffer_get_meta.restype = ctypes.c_void_p
libgst.gst_buffer_get_meta.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libgst.gst_buffer_map.restype = ctypes.c_int
libgst.gst_buffer_unmap.restype = None
libgobject = ctypes.CDLL(ctypes.util.find_library('gobject-2.0') or 'libgobject-2.0.so.0')
libgobject.g_type_from_name.restype = ctypes.c_size_t
libgobject.g_type_from_name.argtypes = [ctypes.c_char_p]


class GstMeta(ctypes.Structure):
    _fields_ = [('flags', ctypes.c_uint), ('info', ctypes.c_void_p)]


class GstCLFlowMeta(ctypes.Structure):
    _fields_ = [('meta', GstMeta), ('width', ctypes.c_uint), ('height', ctypes.c_uint),
                ('cell_size', ctypes.c_uint), ('stride', ctypes.c_size_t),
                ('field', ctypes.c_void_p)]


class GstMapInfo(ctypes.Structure):
    _fields_ = [('memory', ctypes.c_void_p), ('flags', ctypes.c_int),
                ('data', ctypes.POINTER(ctypes.c_uint8)), ('size', ctypes.c_size_t),
                ('maxsize', ctypes.c_size_t), ('user_data', ctypes.c_void_p * 4),
                ('_gst_reserved', ctypes.c_void_p * 4)]


libgst.gst_buffer_map.argtypes = [ctypes.c_void_p, ctypes.POINTER(GstMapInfo), ctypes.c_int]
libgst.gst_buffer_unmap.argtypes = [ctypes.c_void_p, ctypes.POINTER(GstMapInfo)]


def buffer_pointer(buf):
    """The GstBuffer* behind a PyGObject Gst.Buffer (PyGBoxed: head, then the pointer)."""
    return ctypes.c_void_p.from_address(id(buf) + object.__basicsize__).value


def read_flow_meta(buf):
    """(dx, dy) arrays of the buffer's flow field, or None. Mapping the field
    is where the application waits for the device."""
    api = libgobject.g_type_from_name(b'GstCLFlowMetaAPI')
    if not api:
        return None
    ptr = libgst.gst_buffer_get_meta(buffer_pointer(buf), api)
    if not ptr:
        return None
    meta = GstCLFlowMeta.from_address(ptr)
    info = GstMapInfo()
    if not libgst.gst_buffer_map(meta.field, ctypes.byref(info), int(Gst.MapFlags.READ)):
        return None
    try:
        raw = np.ctypeslib.as_array(info.data, shape=(meta.height * meta.stride,))
        rows = raw.reshape(meta.height, meta.stride)[:, :meta.width * 8]
        flow = rows.copy().view(np.float32).reshape(meta.height, meta.width, 2)
    finally:
        libgst.gst_buffer_unmap(meta.field, ctypes.byref(info))
    return flow[..., 0], flow[..., 1]


# ---- the application ----------------------------------------------------------
def main():
    Gst.init(None)
    try:
        pipeline = Gst.parse_launch(
            'videotestsrc pattern=ball num-buffers=%d '
            '! video/x-raw,format=NV12,width=320,height=240,framerate=30/1 '
            '! clblur name=blur sigma=1.0 '
            '! cloptflow name=flow post-messages=true output=passthrough '
            '! fakesink name=sink sync=false' % FRAMES)
    except GLib.Error as e:
        sys.exit('cannot build the pipeline: %s (is GST_PLUGIN_PATH set to the build '
                 'folder?)' % e.message)
    blur, flow = pipeline.get_by_name('blur'), pipeline.get_by_name('flow')
    lock = threading.Lock()
    field_means, message_means, grids = {}, {}, []
    failed = []

    def on_buffer(pad, info):
        buf = info.get_buffer()
        f = read_flow_meta(buf)
        if f is not None:
            with lock:
                field_means[buf.pts] = (float(f[0].mean()), float(f[1].mean()))
        return Gst.PadProbeReturn.OK

    pipeline.get_by_name('sink').get_static_pad('sink').add_probe(
        Gst.PadProbeType.BUFFER, on_buffer)

    loop = GLib.MainLoop()

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ELEMENT and msg.src == flow:
            s = msg.get_structure()
            if s.get_name() != 'cloptflow':
                return
            ts = s.get_value('timestamp')
            mdx, mdy = s.get_value('mean-dx'), s.get_value('mean-dy')
            gw, gh = s.get_value('grid-width'), s.get_value('grid-height')
            dx = s.get_value('dx')
            if len(dx) != gw * gh:
                failed.append('%d x %d blocks but %d values' % (gw, gh, len(dx)))
            message_means[ts] = (mdx, mdy)
            grids.append(gw)
            n = len(message_means)
            if n % 30 == 0:
                print('frame %d at %.3f s: mean flow (%.3f, %.3f) px, %d x %d blocks'
                      % (n, ts / Gst.SECOND, mdx, mdy, gw, gh))
            if n == 30:
                # while playing: applies from the next frame
                print('setting clblur sigma=3 and cloptflow message-block-size=32')
                blur.set_property('sigma', 3.0)
                flow.set_property('message-block-size', 32)
        elif msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            failed.append('%s: %s' % (msg.src.get_name(), err.message))
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect('message', on_message)
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_signal_watch()

    # The message's mean and the mean of the meta's field are the same flow.
    compared = [ts for ts in message_means if ts in field_means]
    disagree = [ts for ts in compared
                if max(abs(a - b) for a, b in zip(message_means[ts], field_means[ts])) > 1e-3]
    motion = max((abs(complex(*m)) for m in message_means.values()), default=0)
    print('%d frames with flow meta, %d cloptflow messages, %d compared with the field, '
          '%d disagreeing, grid %s -> %s blocks across, largest mean motion %.2f px'
          % (len(field_means), len(message_means), len(compared), len(disagree),
             grids[0] if grids else None, grids[-1] if grids else None, motion))
    ok = (not failed and len(message_means) == FRAMES and len(field_means) == FRAMES
          and len(compared) == FRAMES and not disagree and grids[0] == 320 // 16
          and grids[-1] == 320 // 32 and motion > 0.1)
    for f in failed:
        print('error:', f)
    print('OK' if ok else 'FAILED')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
