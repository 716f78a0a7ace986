#!/bin/bash
# Session 24, device run 7 (review): EQUALIZE_KERNEL's kept chunks in one
# loop each for the histogram and the apply (register or local place fixed
# per chunk by the unrolled index), where two loops a place were. No
# behaviour change: the histeq checker on the GPU (every path; path one at
# 1 group a CU, 8 with every waiter giving up), ptxas of the equalize
# kernels (as in runs 4 and 6), bench_histeq 1080p and 4K once.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for v in "1|" "8|-DEQG_MAX_POLLS=0"; do
    g=${v%%|*}; o=${v#*|}
    echo "=== check path one, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  echo "=== ptxas"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_lut|histeq_hist_lut_c|histeq_equalize)" | grep -E "entry|registers|spill" | cut -c1-160
  for sz in "1920 1080 100" "3840 2160 60"; do
    echo "=== bench_histeq $sz"
    timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
  done
} > "$out/run7.out" 2>&1
