#!/bin/bash
# Session 41, run 4: programs that hold only the kernels their device's
# paths launch (this build) against session 40's plugin (build/oldgst,
# b32aac6), in turns. 1. The start of `clblur ! clsobel ! clhisteq` (one
# 1080p NV12 frame) in each mode, every cache empty, then twice filled
# (bench/start-time.sh). 2. The same output byte for byte: md5 of 8 frames
# through clblur ! clhisteq (both modes; GRAY8, NV12, I420, RGBA; 1080p,
# and 4K for CLAHE, whose 4K frame takes the fused histogram and a
# separate apply) on the GPU and on PoCL. 3. check_clblur and
# check_clhisteq (device=auto: the GPU here).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run4.log") 2>&1
ROUNDS=2 bench/start-time.sh "gpu auto cpu" build/gst build/oldgst
echo "=== outputs, md5 of 8 frames"
for dev in gpu cpu; do
  for plugin in build/gst build/oldgst; do
    export GST_PLUGIN_PATH=$PWD/$plugin GST_REGISTRY=/tmp/reg-${plugin//\//_}.bin
    for case in "GRAY8 1920 1080 global" "NV12 1920 1080 global" \
        "I420 1920 1080 global" "RGBA 1920 1080 global" \
        "GRAY8 1920 1080 clahe" "NV12 1920 1080 clahe" \
        "RGBA 1920 1080 clahe" "GRAY8 3840 2160 clahe"; do
      set -- $case
      sum=$(timeout 120 gst-launch-1.0 -q videotestsrc num-buffers=8 \
        pattern=ball ! video/x-raw,format=$1,width=$2,height=$3 ! \
        clblur device=$dev ! clhisteq device=$dev mode=$4 ! \
        fdsink fd=1 2>/tmp/err.txt | md5sum | cut -c1-12)
      echo "$dev $case $plugin: $sum $(head -c 200 /tmp/err.txt)"
    done
  done
done
echo "=== element tests"
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg-build.bin
for t in check_clblur check_clhisteq; do
  timeout 200 build/tests/$t 2>&1 | grep -E "^[0-9]+%|Checks|FAIL" | head -5
done
echo "=== done $(date +%T)"
