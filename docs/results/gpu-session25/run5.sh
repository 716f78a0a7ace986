#!/bin/bash
# Session 25, device run 5: the block CLAHE apply (run 4) with its first
# row's pixels loaded before the LUT copy, and 1, 2 or 4 rows an item
# (GST_CL_HISTEQ_CLAHE_ROWS, an option of this build only). build-base is
# 0219d44 (run 3's tree).
# - the histeq checker on the GPU (every path) at 4 rows, path fused at 1
#   and 2 rows, and with every block reading global memory;
# - bench_histeq 1080p, 4K, 480p: base, rows 1, 2, 4, twice;
# - bench.py clhisteq-clahe: base, rows 1, 2, 4, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk rows1 "" HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_ROWS=1
  chk rows2 "" HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_ROWS=2
  chk global "-DCLAHE_LOCAL_TILES=1" HISTEQ_CHECK_PATHS=fused
  for pass in 1 2; do
    for sz in "1920 1080 100" "3840 2160 60" "640 480 200"; do
      for v in base 1 2 4; do
        b=dev; [ $v = base ] && b=base
        echo "=== pass $pass $v bench_histeq $sz"
        GST_CL_HISTEQ_CLAHE_ROWS=${v/base/4} timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8.*clahe.*fused"
      done
    done
  done
  for pass in 1 2; do
    for v in base 1 2 4; do
      b=dev; [ $v = base ] && b=base
      echo "=== bench.py GPU, $v ($(date +%T))"
      GST_CL_HISTEQ_CLAHE_ROWS=${v/base/4} timeout 100 python3 bench/bench.py --build-dir build-$b \
        --devices gpu --sizes 480p,1080p,4K --items clhisteq-clahe \
        --kinds ours,floor --reps 2 --out /tmp/bench-$v 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
      echo "exit ${PIPESTATUS[0]}"
    done
  done
} > "$out/run5.out" 2>&1
