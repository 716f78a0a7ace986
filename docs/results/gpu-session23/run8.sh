#!/bin/bash
# Session 23, device run 8: the review's tree (the one-launch kernels with
# frame_lut_group () only, equalized_bin () shared with
# equalize_map_group ()), against d7f7dd6 (build-base). No behaviour may
# change: the GPU checker, registers, and bench_histeq once each.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run8}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  echo "=== check path one, EQ_GROUPS=8 -DEQG_MAX_POLLS=0"
  GST_CL_BUILD_OPTIONS="-DEQG_MAX_POLLS=0" GST_CL_HISTEQ_EQ_GROUPS=8 HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  for b in base dev; do
    echo "=== ptxas, $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
    for b in base dev; do
      echo "=== $b bench_histeq $sz"
      timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8.*global.*fused"
    done
  done
} > "$out/run8.out" 2>&1
