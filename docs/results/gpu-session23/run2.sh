#!/bin/bash
# Session 23, device run 2: why run 1's dev was slower at 480p and 1080p
# (also without smoothing). One build (this tree), three build options:
# the new frame step (default), the old one (-DFRAME_LUT=0), and the new
# one with registers capped at 128 (-cl-nv-maxrregcount=128).
# - ptxas registers, spills and shared memory of each;
# - bench_histeq with each, in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
opts=("" "-DFRAME_LUT=0" "-cl-nv-maxrregcount=128")
{ echo "=== machine"; nvidia-smi -L
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
} > "$out/run2.out" 2>&1
