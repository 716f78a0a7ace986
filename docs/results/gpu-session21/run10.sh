#!/bin/bash
# Session 21, device run 10: the review (kept_chunk () for the kept
# chunks' place, the keeping kernel's checks without tw/th) on the GPU:
# run 8's checks and bench_histeq, and plant-bin/check_keep_xor (the kept
# chunks' output XOR 1, built from this tree, not kept): must fail.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run10}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== registers"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS=-cl-nv-verbose \
    timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function 'histeq_equalize_(keep_)?c1'" | grep -E "Used|Compiling|spill"
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  for g in 1 8; do
    echo "=== check path one, EQ_GROUPS=$g"
    GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m3 FAIL /tmp/check-g.txt
  done
  echo "=== planted: keep_xor"
  HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 plant-bin/check_keep_xor > /tmp/check-x.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-x.txt
  for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
    echo "=== bench_histeq $sz"
    timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
  done
} > "$out/run10.out" 2>&1
