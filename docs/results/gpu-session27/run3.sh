#!/bin/bash
# Session 27, device run 3: where histeq_equalize's time goes, by
# globaltimer stamps. build-trace: 32b4288 with trace.diff (item 0 of
# every group stamps start, histogram done, counted, summed / flag seen,
# LUT made / table read, flag out, apply issued; bench_histeq reads them
# back under EQ_TRACE=1 and prints medians over frames, ns from the first
# group's start). The same build without -DEQ_TRACE=1 (no stamps) beside
# it, and bench_floor for the floors; ptxas of the equalize kernels.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  echo "=== ptxas"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-trace/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize)" | grep -E "entry|registers|spill|smem" | cut -c1-160
  for pass in 1 2; do
    for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
      echo "=== pass $pass no stamps bench_histeq $sz ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-plain timeout 90 build-trace/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8 .*global.*fused"
      echo "=== pass $pass stamps bench_histeq $sz ($(date +%T))"
      EQ_TRACE=1 GST_CL_CACHE_DIR=/tmp/clcache-trace GST_CL_BUILD_OPTIONS="-DEQ_TRACE=1" timeout 90 build-trace/bench/bench_histeq $sz gpu 2>&1 | grep -E -A1 "GRAY8 .*global.*fused|rror"
    done
  done
  echo "=== bench_floor"
  timeout 60 build-trace/bench/bench_floor 50 307200 2073600 8294400 2>&1 | grep '^{'
} > "$out/run3.out" 2>&1
