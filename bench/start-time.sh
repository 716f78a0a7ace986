#!/bin/bash
# How long a pipeline takes to start: one frame through
# `clblur ! clsobel ! clhisteq` (1080p NV12) in each mode, first with every
# cache empty (the plugin's program cache, PoCL's kernel cache, NVIDIA's
# compute cache, each in a fresh folder), then ROUNDS times with the caches
# that run filled. Each plugin folder in turns, so two builds compare in
# one run. Prints one line per start and the caches' sizes.
#   bench/start-time.sh [MODES] [PLUGIN_DIR...]
#   e.g. bench/start-time.sh "cpu auto gpu" build /tmp/oldgst
set -u
modes=${1:-cpu}
shift || true
[ $# -gt 0 ] || set -- build
rounds=${ROUNDS:-3}
TIMEFORMAT=%R
one_frame() {
  timeout 300 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! clblur "device=$1" ! \
    clsobel "device=$1" ! clhisteq "device=$1" ! fakesink
}
for mode in $modes; do
  for plugin in "$@"; do
    dir=$(cd "$plugin" && pwd) || { echo "no folder $plugin" >&2; exit 1; }
    caches=$(mktemp -d)
    export GST_PLUGIN_PATH=$dir GST_REGISTRY=$caches/registry.bin
    gst-inspect-1.0 clblur > /dev/null 2>&1
    export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl \
      CUDA_CACHE_PATH=$caches/cuda
    mkdir -p "$GST_CL_CACHE_DIR" "$POCL_CACHE_DIR" "$CUDA_CACHE_PATH"
    for run in $(seq 0 "$rounds"); do
      [ "$run" = 0 ] && what=empty || what=filled
      s=$( { time one_frame "$mode" > "$caches/out.txt" 2>&1; } 2>&1 )
      echo "$mode $plugin caches $what: $s s, output: $(tail -c 160 "$caches/out.txt" | tr '\n' ' ')"
    done
    echo "$mode $plugin: $(ls "$GST_CL_CACHE_DIR" | wc -l) entries in the plugin's cache, PoCL's $(du -sh "$POCL_CACHE_DIR" | cut -f1)"
    rm -rf "$caches"
  done
done
