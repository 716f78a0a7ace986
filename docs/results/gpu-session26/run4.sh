#!/bin/bash
# Session 26, device run 4: the GRAY8 CLAHE apply with CLAHE_ROWS rows of
# 16 pixels an item (the columns' tiles and weights computed once for the
# rows), against c77f514 (build-base). The histeq checker on the GPU
# (every path at the default 4 rows; path fused at 3 and 8 rows), ptxas,
# bench_histeq's CLAHE lines and bench.py clhisteq-clahe at 1, 2, 4 and 8
# rows (GST_CL_HISTEQ_CLAHE_ROWS), base in turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
chk () {  # name, env...
  local n=$1; shift
  echo "=== check $n ($(date +%T)) $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-dev KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all
  chk rows3 HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_ROWS=3
  chk rows8 HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_ROWS=8
  for b in base dev; do
    echo "=== ptxas $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_apply_clahe)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2; do
    for v in base 1 2 4 8; do
      b=dev; [ $v = base ] && b=base
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass $v bench_histeq $sz ($(date +%T))"
        GST_CL_HISTEQ_CLAHE_ROWS=$v GST_CL_CACHE_DIR=/tmp/clcache-$b-$v timeout 90 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8 .*clahe.*fused"
      done
    done
  done
  for pass in 1 2; do
    for v in base 1 4 base 4; do
      b=dev; [ $v = base ] && b=base
      echo "=== bench.py $v pass $pass ($(date +%T))"
      GST_CL_HISTEQ_CLAHE_ROWS=$v GST_CL_CACHE_DIR=/tmp/clcache-$b-$v timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench-$v-$pass" 2>&1 | \
        grep -E "^[0-9].*(GRAY8|NV12) |^  ours "
    done
  done
} > "$out/run4.out" 2>&1
