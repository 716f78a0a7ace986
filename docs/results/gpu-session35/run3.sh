#!/bin/bash
# Session 35, device run 3: the fault paths of the transfer queues on the
# H200 (tools/faults-gpu.sh, now with the upload's barrier; with AUTO_GPU
# the faults aimed at the GPU must move device=auto to PoCL), then the
# queued chain at 4K NV12 (missing from run 2), modes 2 and 0 in turns.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
{
  echo "=== 1. faults ($(date +%T))"
  clinfo -l
  AUTO_GPU=0.0 timeout 150 tools/faults-gpu.sh gpu; echo "faults-gpu.sh exit $?"
  echo "=== 2. 4K NV12 --touch, modes in turns ($(date +%T))"
  for round in 1 2; do
    for q in 2 0; do
      GST_CL_TRANSFER_QUEUES=$q LD_PRELOAD=build/bench/libclprof.so timeout 30 \
        build/bench/bench_pipeline --touch --format NV12 --width 3840 --height 2160 \
        --frames 3000 --warmup 20 --seconds 0.5 \
        identity "queue ! identity ! queue" "$CHAIN" "queue ! $CHAIN ! queue" |
        sed "s/^/3840x2160 NV12 round=$round queues=$q /"
    done
  done
  echo "=== done ($(date +%T))"
} 2>&1 | grep -v "gst-plugin-scanner\|^$" > "$out/run3.log"
grep -vE "^3840x2160" "$out/run3.log" | cut -c1-250
