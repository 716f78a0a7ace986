#!/bin/bash
# Session 27, device run 10 (the committed tree): run 9's Newton steps plus
# the scene cut's sum by the first warp under the scan (warp_tree_sum (),
# read by all after the scan's barrier). The histeq checker on the GPU
# (every path; path one with every waiter giving up; GST_CL_WARP_XCHG=0;
# the planted reordering of the shuffle sums: must fail); ptxas;
# bench_histeq GRAY8 global in turns: run 9's tree (build-run9: 32b4288
# with run 9's change) and this tree, three passes; bench.py clhisteq
# run9/dev, three times.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run10}; mkdir -p "$out"
chk () {  # name, binary, options, env...
  local n=$1 bin=$2 o=$3; shift 3
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/$bin > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all check_histeq_kernels ""
  chk one-giveup check_histeq_kernels "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-nowarp check_histeq_kernels "" HISTEQ_CHECK_PATHS=one GST_CL_WARP_XCHG=0
  chk plant-reorder plant_reorder_check_histeq_kernels "" HISTEQ_CHECK_PATHS=one
  for b in run9 dev; do
    echo "=== ptxas $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2 3; do
    for v in run9 dev; do
      bin=build-$v/bench/bench_histeq
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass $v bench_histeq $sz ($(date +%T))"
        GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 90 $bin $sz gpu 2>&1 | grep -E "GRAY8 .*global.*fused"
      done
    done
  done
  for pass in 1 2 3; do
    for b in run9 dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "^  ours |GPU: kernel"
    done
  done
} > "$out/run10.out" 2>&1
