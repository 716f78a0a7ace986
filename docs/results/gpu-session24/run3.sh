#!/bin/bash
# Session 24, device run 3: run 1's kernel (histeq_equalize_c1 keeping up
# to 9 chunks an item in local memory; runs 2's loads-first variants
# removed) with 2, 3 and 4 groups a compute unit at 4K
# (GST_CL_HISTEQ_EQ_GROUPS; 480p to 1080p are held to a group per 8192
# pixels, so only 4K changes). lk0: -DEQ_LKEEP=0, the frame read twice.
# - checker path one at 3 and 4 groups a CU (GPU);
# - ptxas of histeq_equalize_c1 (occupancy: registers and local memory);
# - bench_histeq 4K, groups x (lk9, lk0) in turns, twice;
# - bench.py clhisteq 4K, ours and the floor, 2, 3, 4 groups, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
declare -A V=([lk9]="" [lk0]="-DEQ_LKEEP=0")
{ echo "=== machine"; nvidia-smi -L
  for g in 3 4; do
    echo "=== check path one, EQ_GROUPS=$g ($(date +%T))"
    GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  echo "=== ptxas"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize)" | grep -E "entry|registers|spill|smem" | cut -c1-160
  for pass in 1 2; do
    for g in 2 3 4; do
      for n in lk9 lk0; do
        echo "=== pass $pass groups $g $n bench_histeq 3840 2160 60"
        GST_CL_HISTEQ_EQ_GROUPS=$g GST_CL_BUILD_OPTIONS="${V[$n]}" timeout 60 build-dev/bench/bench_histeq 3840 2160 60 gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
  for g in 2 3 4 2 3 4; do
    echo "=== bench.py GPU, groups $g ($(date +%T))"
    GST_CL_HISTEQ_EQ_GROUPS=$g GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 4K --items clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$g 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run3.out" 2>&1
