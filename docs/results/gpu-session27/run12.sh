#!/bin/bash
# Session 27, device run 12: the review (shifted_slope () and newton_term () shared by
# every Newton path and shifted ()) against 7008f77 (build-base): the checker on the
# GPU (every path; path one with every waiter giving up, and with the
# old sums), bench.py
# clhisteq base/dev in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run12}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-nowarp "" HISTEQ_CHECK_PATHS=one GST_CL_WARP_XCHG=0
  for pass in 1 2; do
    for b in base dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "^  ours |GPU: kernel"
    done
  done
} > "$out/run12.out" 2>&1
