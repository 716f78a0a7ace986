#!/bin/bash
# Session 36, device run 5: tools/faults-gpu.sh as fixed after run 4 (an
# early upload's single failure is absorbed under device=auto too, with
# or without a move), its own exit status; then the queued chain once
# more, early transfers on (1:1) and off (0:0) in turns, three rounds,
# 1080p GRAY8 and NV12, 4K GRAY8 and NV12.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  echo "=== 1. faults $(date +%T)"
  AUTO_GPU=0.0 timeout 300 tools/faults-gpu.sh gpu > "$out/faults.txt" 2>&1
  echo "faults-gpu.sh exit $?"
  grep -v 'GStreamer-WARNING\|^$' "$out/faults.txt" | cut -c1-160
  echo "=== 2. queued chain $(date +%T)"
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8 3840x2160:NV12; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2 3; do
      for m in 1 0; do
        r=$(GST_CL_EARLY_UPLOADS=$m GST_CL_EARLY_DOWNLOADS=$m \
          bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.5 "queue ! $CHAIN ! queue")
        echo "$size $fmt round=$round early=$m $r"
      done
    done
  done
  echo "=== done $(date +%T)"
} > "$out/run5.log" 2>&1
cat "$out/run5.log"
