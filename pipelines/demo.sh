#!/bin/sh
# Demo: a built-in test source through clblur into a PNG snapshot and a short
# video a person can look at. Usage: pipelines/demo.sh [BUILD_DIR] [OUT_DIR]
set -eu
build=$(cd "${1:-build}" && pwd)
out=${2:-demo-output}
mkdir -p "$out"
export GST_PLUGIN_PATH="$build${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

gst-inspect-1.0 clblur >/dev/null || { echo "clblur not found in $build"; exit 1; }

# Side by side: left the source, right the blur, so the effect is visible.
gst-launch-1.0 -q videotestsrc pattern=smpte num-buffers=1 \
  ! video/x-raw,format=NV12,width=640,height=360 ! tee name=t \
  t. ! queue ! comp.sink_0 \
  t. ! queue ! clblur sigma=4 ! comp.sink_1 \
  compositor name=comp sink_1::xpos=640 ! videoconvert \
  ! pngenc ! filesink location="$out/clblur-demo.png"

gst-launch-1.0 -v videotestsrc pattern=ball num-buffers=90 \
  ! video/x-raw,format=NV12,width=640,height=360,framerate=30/1 \
  ! clblur sigma=3 ! videoconvert ! theoraenc ! oggmux \
  ! filesink location="$out/clblur-demo.ogv" \
  | sed -n 's/.*clblur0: current-device = /clblur ran on OpenCL device /p'

echo "Wrote $out/clblur-demo.png (left: source, right: clblur sigma=4)"
echo "Wrote $out/clblur-demo.ogv (90 frames, clblur sigma=3)"
