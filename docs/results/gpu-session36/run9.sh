#!/bin/bash
# Session 36, device run 9: run 8's wall-clock profile had the chain's
# thread waiting for room in the queue after it (a queue holds at most
# 10 MB by default: five 1080p GRAY8 frames, one 4K frame) while the
# device idled between its kernels. The queued chain with the default
# queues and with queues limited only by buffers (max-size-bytes=0
# max-size-time=0; the pools still hold 8 frames), in turns, two rounds.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run9}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
Q="queue max-size-bytes=0 max-size-time=0"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8 3840x2160:NV12; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2; do
      for mid in "queue ! $CHAIN ! queue" "$Q ! $CHAIN ! $Q"; do
        r=$(bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "$mid")
        echo "$size $fmt round=$round ${mid:0:20} $r"
      done
    done
  done
  echo "=== done $(date +%T)"
} > "$out/run9.log" 2>&1
cat "$out/run9.log"
