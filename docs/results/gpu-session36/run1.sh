#!/bin/bash
# Session 36, device run 1: where the host's time goes in the 1080p chain.
# Session 35 found the queued chain (queue ! chain ! queue) paced by the
# host at 1080p: 0.146-0.154 ms a frame against 0.096 of device work. Here
# bench/hostprof.c samples every thread's CPU time with its stack:
#  1. the queued chain, GRAY8 and NV12, --touch: once plain, once sampled;
#  2. the chain alone (the goal line's single thread), sampled;
#  3. three identities between the same queues, sampled: GStreamer's own
#     hand-overs on this machine, with no OpenCL.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --width 1920 --height 1080 --warmup 200 "$@" 2>&1 | grep '^{' | sed -E "s/\"pipeline\":\"[^\"]*\",//" | cut -c1-160; }
# the largest of the files (the benchmark's, not a plugin scanner's) is kept
prof() {
  local name=$1; shift
  HOSTPROF_OUT=$out/$name.%p.txt LD_PRELOAD=build/bench/libhostprof.so bp "$@" | sed "s/^/$name /"
  local big; big=$(ls -S "$out"/$name.*.txt | head -1); mv "$big" "$out/$name.txt"; rm -f "$out"/$name.*.txt
}
{
  echo "=== $(date +%T) perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid) nproc=$(nproc)"
  for fmt in GRAY8 NV12; do
    bp --format $fmt --frames 20000 "queue ! $CHAIN ! queue" | sed "s/^/plain-$fmt /"
    prof q-$fmt --format $fmt --frames 20000 "queue ! $CHAIN ! queue"
    bp --format $fmt --frames 20000 "queue ! $CHAIN ! queue" | sed "s/^/plain-$fmt /"
    prof s-$fmt --format $fmt --frames 10000 "$CHAIN"
  done
  prof id-GRAY8 --format GRAY8 --frames 20000 "queue ! identity ! identity ! identity ! queue"
  echo "=== done $(date +%T)"
} > "$out/run1.log" 2>&1
cat "$out/run1.log"
