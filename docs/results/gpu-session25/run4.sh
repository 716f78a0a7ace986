#!/bin/bash
# Session 25, device run 4: the CLAHE apply of one byte a pixel in blocks
# of 256 x 64 pixels whose tiles' LUTs are copied into local memory
# (histeq_apply_clahe_block_c1), where each pixel's four lookups read
# global memory. build-dev is the change, build-base 0219d44 (CLAHE in two
# launches, run 3's tree).
# - the histeq checker on the GPU (every path), and path fused with every
#   block but those of one tile reading global memory
#   (-DCLAHE_LOCAL_TILES=1);
# - ptxas of the apply kernels;
# - bench_histeq 1080p, 4K, 480p, base and dev in turns, twice;
# - bench.py clhisteq-clahe, base then dev, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check all ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-all.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-all.txt; grep -m4 FAIL /tmp/check-all.txt | cut -c1-250
  echo "=== check fused, every block's LUTs from global memory ($(date +%T))"
  GST_CL_BUILD_OPTIONS=-DCLAHE_LOCAL_TILES=1 HISTEQ_CHECK_PATHS=fused KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m4 FAIL /tmp/check-g.txt | cut -c1-250
  echo "=== ptxas dev"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_apply_clahe)" | grep -E "entry|registers|spill" | cut -c1-160
  for pass in 1 2; do
    for sz in "1920 1080 100" "3840 2160 60" "640 480 200"; do
      for b in base dev; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*clahe.*fused"
      done
    done
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    timeout 100 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq-clahe \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run4.out" 2>&1
