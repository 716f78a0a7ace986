#!/bin/bash
# Session 31, device run 1: the brightness shift solved from the mean at the
# 9 whole shifts (linear between them) instead of 3 Newton steps; on NVIDIA
# each warp's 9 block sums by butterfly shuffles, one barrier. Against
# 3c1f53d (build-base). The histeq checker on the GPU (every path; path one
# with every waiter giving up; path one without shuffles,
# GST_CL_WARP_XCHG=0); ptxas of the one-launch kernels; bench_histeq GRAY8
# global in turns (base, dev), three passes; bench.py clhisteq in turns,
# three passes.
# . .device/env.sh && bash THIS "$OUT/r1"
out=${1:-/tmp/run1}; mkdir -p "$out"
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
  for b in base dev; do
    echo "=== ptxas $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_cut)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2 3; do
    for b in base dev; do
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass $b bench_histeq $sz ($(date +%T))"
        GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 90 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8 .*global.*fused"
      done
    done
  done
  for pass in 1 2 3; do
    for b in base dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "^  ours |^  floor|GPU: kernel"
    done
  done
  echo "=== end ($(date +%T))"
} > "$out/run1.out" 2>&1
