#!/bin/bash
# Session 23, device run 3: tree_low () on 8 float4 loads (was 32 scalar
# loads and a private array) and the scan on int4 loads. Three options:
# the new frame step (default), the old one (-DFRAME_LUT=0), the new
# one with its loops not unrolled (-DFRAME_UNROLL=0); the GPU checker.
# - ptxas registers, spills and shared memory of each;
# - bench_histeq with each, in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
opts=("" "-DFRAME_LUT=0" "-DFRAME_UNROLL=0")
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for o in "${opts[@]}"; do
    echo "=== ptxas, options '$o'"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose $o" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      for o in "${opts[@]}"; do
        echo "=== pass $pass '$o' bench_histeq $sz"
        GST_CL_BUILD_OPTIONS="$o" timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
} > "$out/run3.out" 2>&1
