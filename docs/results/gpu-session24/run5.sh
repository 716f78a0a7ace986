#!/bin/bash
# Session 24, device run 5: lut_body ()'s CLAHE map (clip, redistribution,
# CDF) by the whole work-group on GPUs (clahe_map_group ()), where item 0
# looped over the bins ~800 times. One build (build-dev); cg0 is
# -DCLAHE_GROUP_MAP=0 (an option of this build only: item 0's loops, as
# at 296f24c).
# - the histeq checker on the GPU (every path), and with cg0;
# - ptxas registers of the kernels that run lut_body ();
# - bench_histeq 480p, 1080p, 4K, cg0 and new in turns, twice (CLAHE and
#   global rows);
# - bench.py clhisteq-clahe and clhisteq, ours and the floor, cg0 then
#   new, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
declare -A V=([new]="" [cg0]="-DCLAHE_GROUP_MAP=0")
{ echo "=== machine"; nvidia-smi -L
  for n in new cg0; do
    echo "=== check_histeq_kernels, GPU, $n ($(date +%T))"
    GST_CL_BUILD_OPTIONS="${V[$n]}" KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  done
  for n in new cg0; do
    echo "=== ptxas, $n"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${V[$n]}" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_lut|histeq_hist_lut_c|histeq_equalize)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "1920 1080 100" "3840 2160 60" "640 480 200"; do
      for n in cg0 new; do
        echo "=== pass $pass $n bench_histeq $sz"
        GST_CL_BUILD_OPTIONS="${V[$n]}" timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|(GRAY8|RGBA).*(global|clahe).*fused"
      done
    done
  done
  for n in cg0 new cg0 new; do
    echo "=== bench.py GPU, $n ($(date +%T))"
    GST_CL_BUILD_OPTIONS="${V[$n]}" GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq-clahe,clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$n 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run5.out" 2>&1
