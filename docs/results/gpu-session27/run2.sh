#!/bin/bash
# Session 27, device run 2: histeq_equalize_c1's LUT to the waiters in
# tagged words (EQ_TAGGED) and the maker's state reads before the copies'
# sum (EQ_PREFETCH), against 32b4288 (build-base). The histeq checker on
# the GPU (every path; path one with every waiter giving up, and with 8
# groups a CU); bench_histeq GRAY8 global in turns: base, dev (both on),
# dev tagged off, dev prefetch off; bench.py clhisteq base/dev, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-8 "" HISTEQ_CHECK_PATHS=one GST_CL_HISTEQ_EQ_GROUPS=8
  chk one-untagged "" HISTEQ_CHECK_PATHS=one GST_CL_HISTEQ_EQ_TAGGED=0
  for pass in 1 2 3; do
    for v in base dev dev-untagged dev-noprefetch; do
      b=${v%%-*}; envs=(); o=""
      [ $v = dev-untagged ] && envs=(GST_CL_HISTEQ_EQ_TAGGED=0)
      [ $v = dev-noprefetch ] && o="-DEQ_PREFETCH=0"
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass [$v] bench_histeq $sz ($(date +%T))"
        env "${envs[@]}" GST_CL_CACHE_DIR="/tmp/clcache-$v" GST_CL_BUILD_OPTIONS="$o" timeout 90 \
          build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8 .*global.*fused"
      done
    done
  done
  for pass in 1 2; do
    for b in base dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "^[0-9].*(GRAY8|NV12) |^  ours |GPU: kernel|floor"
    done
  done
} > "$out/run2.out" 2>&1
