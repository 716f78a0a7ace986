#!/bin/bash
# Session 21, device run 3: histeq_equalize_c1 keeping its slice in
# registers (build-dev; the maker lists the slices given up instead of
# looping over 256 flags, run 2) against c3cc142 (build-base).
# - NVIDIA's register counts of the one-launch kernel, both builds
#   (-cl-nv-verbose);
# - the histeq checker on the GPU (every path; path `one` with 1 and 8
#   groups a compute unit);
# - planted errors (plant-bin/, built from this tree, not kept):
#     check_keep_xor            the kept chunks' output ^ 1: must fail
#     check_steal_none          the maker applies no slice given up
#     check_give_up             every waiter gives up at once (no polls):
#                               the maker or the waiter itself (flag seen
#                               on its last look) applies each slice:
#                               must pass
#     check_give_up_steal_none  both: must fail where a slice was given up
#                               before the flag
# - bench_histeq: base, dev, and dev with -cl-nv-maxrregcount=128 (two
#   groups of 256 a compute unit fit), in turns; give_up's cost.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for b in base dev; do
    echo "=== registers, $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS=-cl-nv-verbose \
      timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -A2 "Compiling entry function 'histeq_equalize_c1'" | grep -E "registers|Compiling|spill"
  done
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  for g in 1 8; do
    echo "=== check path one, EQ_GROUPS=$g"
    GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m3 FAIL /tmp/check-g.txt
  done
  for p in keep_xor steal_none give_up give_up_steal_none; do
    for g in 2 8; do
      echo "=== planted: $p, EQ_GROUPS=$g ($(date +%T))"
      GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 plant-bin/check_$p > /tmp/check-$p.txt 2>&1
      echo "exit $?"; tail -1 /tmp/check-$p.txt; grep -m2 FAIL /tmp/check-$p.txt
    done
  done
  for pass in 1 2; do
    for b in base dev dev128; do
      for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass $b bench_histeq $sz"
        if [ $b = dev128 ]; then
          GST_CL_BUILD_OPTIONS=-cl-nv-maxrregcount=128 timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
        else
          timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
        fi
      done
    done
  done
  for sz in "640 480 100" "3840 2160 30"; do
    echo "=== give_up bench_histeq $sz"
    timeout 60 plant-bin/bench_give_up $sz gpu 2>&1 | grep -E "GRAY8.*global smooth=0.*fused"
  done
} > "$out/run3.out" 2>&1
