#!/bin/sh
# Transcoding preprocessing: decode any video file, tone-map (clhisteq) and
# denoise (clblur) it on the OpenCL device, re-encode with x264 and mux.
# Every frame is kept with its timestamp (no videorate, no dropping).
#
# Usage: pipelines/transcode.sh [INPUT] [OUTPUT]
#   INPUT   a video file GStreamer can decode; left out: a 10 s H.264 test
#           clip is made first with x264enc (transcode-input.mp4)
#   OUTPUT  .mp4 (default transcode-output.mp4), .mkv or .mov
# Environment:
#   FILTERS   the filter chain (default "clhisteq ! clblur sigma=1.0")
#   X264      x264enc settings (default "speed-preset=faster bitrate=4000")
#   BUILD_DIR where the plugin was built (default: build/ beside pipelines/)
# Only the video is written; audio tracks are left out.
set -eu

build=${BUILD_DIR:-$(dirname "$0")/../build}
if [ -d "$build" ]; then
  GST_PLUGIN_PATH="$(cd "$build" && pwd)${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
  export GST_PLUGIN_PATH
fi
filters=${FILTERS:-"clhisteq ! clblur sigma=1.0"}
x264=${X264:-"speed-preset=faster bitrate=4000"}

for e in clhisteq clblur x264enc h264parse; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 || {
    echo "transcode.sh: GStreamer element $e is missing." >&2
    case $e in
      x264enc) echo "  install it: apt-get install gstreamer1.0-plugins-ugly" >&2 ;;
      h264parse) echo "  install it: apt-get install gstreamer1.0-plugins-bad" >&2 ;;
      *) echo "  build the plugin (meson setup build && ninja -C build) or set BUILD_DIR" >&2 ;;
    esac
    exit 1
  }
done

input=${1:-}
output=${2:-transcode-output.mp4}
if [ -z "$input" ]; then
  input=transcode-input.mp4
  echo "No input given: making $input (10 s, 320x240, 25 fps, H.264)"
  gst-launch-1.0 -q -e videotestsrc pattern=smpte horizontal-speed=3 num-buffers=250 \
    ! video/x-raw,format=I420,width=320,height=240,framerate=25/1 \
    ! x264enc speed-preset=faster ! h264parse ! mp4mux ! filesink location="$input"
fi
[ -r "$input" ] || { echo "transcode.sh: cannot read $input" >&2; exit 1; }

case $output in
  *.mkv) mux=matroskamux ;;
  *.mov) mux=qtmux ;;
  *) mux=mp4mux ;;
esac

# decodebin picks the decoder; videoconvert is a passthrough when the
# decoder already gives a format the cl elements take (I420, NV12).
# shellcheck disable=SC2086  # $filters and $x264 are pipeline fragments
gst-launch-1.0 -e filesrc location="$input" ! decodebin ! videoconvert \
  ! $filters ! videoconvert ! x264enc $x264 ! h264parse ! $mux \
  ! filesink location="$output"
echo "Wrote $output"
