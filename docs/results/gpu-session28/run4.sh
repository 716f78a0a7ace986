#!/bin/bash
# Session 28, device run 4: the Newton steps' sums by every warp (one
# barrier a step, the terms alternating between two buffers) against
# af36648 (build-base): the histeq checker on the GPU (every path; path
# one with every waiter giving up, and with the portable sums), bench.py
# clhisteq base/dev in turns, twice; kernel ms from the CSVs.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, build, sizes
  echo "=== bench.py $1 pass $pass ($(date +%T))"
  GST_CL_CACHE_DIR=/tmp/clcache-$1 timeout 200 python3 bench/bench.py --build-dir $2 --devices gpu \
    --sizes $3 --items clhisteq --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s kernel_ms %s\n", $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-nowarp "" HISTEQ_CHECK_PATHS=one GST_CL_WARP_XCHG=0
  for pass in 1 2 3; do
    for b in base dev; do
      bp $b build-$b 480p,1080p,4K
    done
  done
} > "$out/run4.out" 2>&1
