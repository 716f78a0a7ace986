#!/bin/bash
# Session 36, device run 6: do more frames in flight help the queued 1080p
# chain? The plugin with pools of at most 16 buffers (build-dev/p16, made
# with GST_CL_BUFFER_POOL_DEFAULT_MAX 16) against the committed 8, in turns.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//; s/,"NVIDIA H200\|buffers-allocated":/ buffers=/; s/,"NVIDIA H200\|wrapped.*//'; }
{
  for sf in 1920x1080:GRAY8 1920x1080:NV12; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2 3; do
      for p in build build/p16; do
        r=$(GST_PLUGIN_PATH=$PWD/$p bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.5 "queue ! $CHAIN ! queue")
        echo "$size $fmt round=$round plugin=$p $r"
      done
    done
  done
  echo "=== done $(date +%T)"
} > "$out/run6.log" 2>&1
cat "$out/run6.log"
