#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""An RTSP server (gst-rtsp-server) streaming a live source filtered by the
cl elements, H.264 over RTP. All clients share one pipeline, so the filters
run once however many watch.

  pipelines/rtsp-server.py [--port 8554] [--mount /filtered]
                           [--source "videotestsrc is-live=true pattern=ball"]
                           [--filters "clhisteq ! clblur sigma=2"]

then, e.g.:
  gst-launch-1.0 rtspsrc location=rtsp://127.0.0.1:8554/filtered ! decodebin ! autovideosink
  ffplay rtsp://127.0.0.1:8554/filtered

--port 0 picks a free port. The server prints "READY rtsp://HOST:PORT/MOUNT"
once it listens. Needs python3-gst-1.0, gir1.2-gst-rtsp-server-1.0,
gstreamer1.0-plugins-ugly (x264enc) and gstreamer1.0-plugins-good.
"""
import argparse
import os
import signal
import sys

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstRtspServer', '1.0')
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

BUILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build')


def launch_line(args):
    return ('( {source} ! video/x-raw,format=NV12,width={w},height={h},framerate={fps}/1 '
            '! {filters} ! videoconvert '
            '! x264enc tune=zerolatency speed-preset=ultrafast key-int-max={fps} '
            '! rtph264pay name=pay0 pt=96 config-interval=1 )').format(
                source=args.source, w=args.width, h=args.height, fps=args.fps,
                filters=args.filters)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--address', default='127.0.0.1')
    ap.add_argument('--port', type=int, default=8554)
    ap.add_argument('--mount', default='/filtered')
    ap.add_argument('--source', default='videotestsrc is-live=true pattern=ball')
    ap.add_argument('--filters', default='clhisteq ! clblur sigma=2')
    ap.add_argument('--width', type=int, default=640)
    ap.add_argument('--height', type=int, default=360)
    ap.add_argument('--fps', type=int, default=25)
    args = ap.parse_args()

    if os.path.isdir(BUILD):
        os.environ['GST_PLUGIN_PATH'] = os.pathsep.join(
            p for p in (os.path.abspath(BUILD), os.environ.get('GST_PLUGIN_PATH')) if p)
    Gst.init(None)
    for name in ('clblur', 'x264enc', 'rtph264pay'):
        if not Gst.ElementFactory.find(name):
            sys.exit('rtsp-server.py: GStreamer element %s is missing (build the plugin, '
                     'or install gstreamer1.0-plugins-ugly / -good)' % name)

    server = GstRtspServer.RTSPServer()
    server.set_address(args.address)
    server.set_service(str(args.port))
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch_line(args))
    factory.set_shared(True)  # one pipeline, one set of filters, for every client
    server.get_mount_points().add_factory(args.mount, factory)

    loop = GLib.MainLoop()
    if server.attach(None) == 0:
        sys.exit('rtsp-server.py: cannot listen on %s:%d' % (args.address, args.port))

    def on_media(_factory, media):
        media.connect('new-state', lambda m, state: print(
            'media state %s' % Gst.Element.state_get_name(state), flush=True))
    factory.connect('media-configure', on_media)
    server.connect('client-connected', lambda _s, client: print(
        'client connected', flush=True))

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, loop.quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    print('READY rtsp://%s:%d%s' % (args.address, server.get_bound_port(), args.mount),
          flush=True)
    print('pipeline: %s' % launch_line(args), flush=True)
    loop.run()


if __name__ == '__main__':
    main()
