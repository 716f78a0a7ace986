#!/bin/bash
# Session 24, device run 6: the committed tree (f38aa47; run 5's kernel
# without its -DCLAHE_GROUP_MAP option): the histeq checker on the GPU
# (every path; path one at 1 group a CU), ptxas, bench.py clhisteq and
# clhisteq-clahe once.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  echo "=== check path one, EQ_GROUPS=1"
  GST_CL_HISTEQ_EQ_GROUPS=1 HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  echo "=== ptxas"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_lut|histeq_hist_lut_c|histeq_equalize)" | grep -E "entry|registers|spill" | cut -c1-160
  echo "=== bench.py GPU ($(date +%T))"
  GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
    --devices gpu --sizes 1080p,4K --items clhisteq,clhisteq-clahe \
    --kinds ours,floor --reps 2 --out /tmp/bench-6 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
  echo "exit ${PIPESTATUS[0]}"
} > "$out/run6.out" 2>&1
