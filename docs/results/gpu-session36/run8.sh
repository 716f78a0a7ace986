#!/bin/bash
# Session 36, device run 8: where the chain's thread waits. hostprof in
# wall-clock mode (HOSTPROF_WALL_US=1000: every thread signalled every
# millisecond, running or not) on the queued 1080p chain, GRAY8 and NV12,
# early transfers on (the defaults); each beside a plain run.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run8}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  for fmt in GRAY8 NV12; do
    bp --format $fmt --width 1920 --height 1080 --frames 20000 "queue ! $CHAIN ! queue" | sed "s/^/plain-$fmt /"
    HOSTPROF_WALL_US=1000 HOSTPROF_OUT=$out/w-$fmt.%p.txt LD_PRELOAD=build/bench/libhostprof.so \
      bp --format $fmt --width 1920 --height 1080 --frames 20000 "queue ! $CHAIN ! queue" | sed "s/^/wall-$fmt /"
    big=$(ls -S "$out"/w-$fmt.*.txt | head -1); mv "$big" "$out/w-$fmt.txt"; rm -f "$out"/w-$fmt.*.txt
  done
  echo "=== done $(date +%T)"
} > "$out/run8.log" 2>&1
cat "$out/run8.log"
