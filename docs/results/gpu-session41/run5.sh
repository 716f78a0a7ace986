#!/bin/bash
# Session 41, run 5: the final build (clblur's half-plane program no longer
# built where the full program's NV12/I420 kernels blur every plane) against
# session 40's plugin (build/oldgst, b32aac6), in turns. 1. Twice each, a
# fresh start of `clblur ! clsobel ! clhisteq` (one 1080p NV12 frame,
# device=gpu, every cache in a fresh folder) with each program's build
# time (GST_DEBUG=cl:4). 2. The default mode, bench/start-time.sh.
# 3. clblur's output byte for byte, every format, on the GPU.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run5.log") 2>&1
TIMEFORMAT=%R
for round in 1 2; do
  for plugin in build/gst build/oldgst; do
    caches=$(mktemp -d)
    export GST_PLUGIN_PATH=$PWD/$plugin GST_REGISTRY=$caches/registry.bin
    gst-inspect-1.0 clblur > /dev/null 2>&1
    export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl \
      CUDA_CACHE_PATH=$caches/cuda
    s=$( { time GST_DEBUG=cl:4 timeout 200 gst-launch-1.0 -q videotestsrc \
      num-buffers=1 ! video/x-raw,format=NV12,width=1920,height=1080 ! \
      clblur device=gpu ! clsobel device=gpu ! clhisteq device=gpu ! \
      fakesink > $caches/log.txt 2>&1; } 2>&1 )
    echo "round $round $plugin: empty caches $s s"
    sed 's/\x1b\[[0-9;]*m//g' $caches/log.txt | grep -o "built .*" | sed 's/^/    /'
    rm -rf "$caches"
  done
done
ROUNDS=1 bench/start-time.sh auto build/gst build/oldgst
echo "=== clblur's output, md5 of 8 frames, GPU"
for plugin in build/gst build/oldgst; do
  export GST_PLUGIN_PATH=$PWD/$plugin GST_REGISTRY=/tmp/reg-${plugin//\//_}.bin
  unset GST_CL_CACHE_DIR POCL_CACHE_DIR CUDA_CACHE_PATH
  for f in GRAY8 NV12 I420 RGBA BGRx; do
    sum=$(timeout 120 gst-launch-1.0 -q videotestsrc num-buffers=8 \
      pattern=smpte ! video/x-raw,format=$f,width=1280,height=720 ! \
      clblur device=gpu sigma=2 ! fdsink fd=1 2>/tmp/err.txt | md5sum | cut -c1-12)
    echo "$f $plugin: $sum $(grep -v plugin-scanner /tmp/err.txt | grep -v "^$" | grep -v Failed | head -c 200)"
  done
done
echo "=== done $(date +%T)"
