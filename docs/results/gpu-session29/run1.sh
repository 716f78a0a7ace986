#!/bin/bash
# Session 29, device run 1: CLAHE in one launch (histeq_clahe_one_c1).
# The histeq checker on the GPU (every path: `one` is now the one-launch
# CLAHE, `fused` the two launches; path one with every waiter giving up),
# then bench.py clhisteq-clahe and clhisteq with GST_CL_HISTEQ_CLAHE_ONE
# 0 (two launches) and 1 in turns, three passes, and bench_histeq's CLAHE
# spans; kernel ms from the CSVs.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 240 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m6 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, one (0/1), items, sizes
  echo "=== bench.py $1 CLAHE_ONE=$2 pass $pass ($(date +%T))"
  GST_CL_HISTEQ_CLAHE_ONE=$2 GST_CL_CACHE_DIR=/tmp/clcache-$2 timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes $4 --items $3 --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s %s kernel_ms %s\n", $1, $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  for pass in 1 2 3; do
    for one in 0 1; do
      bp clahe $one clhisteq-clahe 480p,1080p,4K
    done
  done
  for one in 0 1; do
    echo "=== bench_histeq CLAHE_ONE=$one"
    for sz in "1920 1080" "3840 2160"; do
      GST_CL_HISTEQ_CLAHE_ONE=$one GST_CL_CACHE_DIR=/tmp/clcache-$one timeout 100 build-dev/bench/bench_histeq $sz 200 gpu 2>&1 | grep -i "clahe\|floor" | head -12
    done
  done
} > "$out/run1.out" 2>&1
