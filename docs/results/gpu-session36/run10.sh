#!/bin/bash
# Session 36, device run 10: does the download's wait across queues cost
# the 1080p chain? The queued chain with the defaults (2 transfer queues,
# early uploads and downloads), with downloads on the main queue
# (GST_CL_TRANSFER_QUEUES=1: early uploads only, each download behind the
# kernels in the one queue), and with early downloads off, in turns,
# three rounds, 1080p GRAY8 and NV12, 4K GRAY8.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run10}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2 3; do
      for m in "2 1" "1 1" "2 0"; do
        set -- $m
        r=$(GST_CL_TRANSFER_QUEUES=$1 GST_CL_EARLY_DOWNLOADS=$2 \
          bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "queue ! $CHAIN ! queue")
        echo "$size $fmt round=$round queues=$1 early-downloads=$2 $r"
      done
    done
  done
  echo "=== done $(date +%T)"
} > "$out/run10.log" 2>&1
cat "$out/run10.log"
