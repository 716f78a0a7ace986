#!/bin/bash
# cloptflow on the GPU machine, within one 10-minute device call. From the
# checkout root there, after building here:
#   . .device/env.sh && bench/device-optflow.sh "$OUT"
out=${1:-/tmp/device-optflow}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }
{
  step "kernel checker"; timeout 150 build/tests/check_optflow_kernels; echo "exit $?"
  step "element tests"; timeout 100 build/tests/check_cloptflow; echo "exit $?"
  step "accuracy (CPU device and GPU)"
  for dev in gpu cpu; do
    GST_CL_DEVICE=$dev timeout 100 python3 tests/test_opencv_optflow.py \
        build/tests/optflow_run; echo "exit $?"
  done
} > "$out/check.log" 2>&1
{
  step "kernel times: defaults (5 levels, 5 iterations, window 15)"
  build/bench/bench_optflow 1920 1080 50
  build/bench/bench_optflow 640 480 50
  step "1080p: 3 iterations; window 11; 7 iterations"
  build/bench/bench_optflow 1920 1080 50 5 3 15
  build/bench/bench_optflow 1920 1080 50 5 5 11
  build/bench/bench_optflow 1920 1080 50 5 7 15
  step "element, NV12 1080p, 300 frames, passthrough and overlay"
  for o in passthrough overlay; do
    /usr/bin/time -f "%e s wall" gst-launch-1.0 -q videotestsrc num-buffers=300 \
        ! video/x-raw,format=NV12,width=1920,height=1080 \
        ! cloptflow device=gpu output=$o ! fakesink; echo "exit $?"
  done
  step "peers"
  timeout 200 python3 bench/bench_optflow.py build/bench/bench_optflow 20
} > "$out/bench.log" 2>&1
grep -E "exit|checks|Checks|PASS|FAIL" "$out/check.log"
cat "$out/bench.log"
