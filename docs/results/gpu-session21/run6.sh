#!/bin/bash
# Session 21, device run 6: as run 5, with the kept chunks in a kernel of
# their own (histeq_equalize_keep_c1, chosen by the host where the slices
# fit), so 4K frames run the kernel without them (run 5: 0.001 ms slower
# at 4K with the one kernel's 128 registers).
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
# - bench_histeq: base and dev in turns; give_up's cost;
# - bench.py (clhisteq and the 3-element chain, ours and the floor), base
#   and dev in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for b in base dev; do
    echo "=== registers, $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS=-cl-nv-verbose \
      timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function 'histeq_equalize_(keep_)?c1'" | grep -E "Used|Compiling|spill"
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
    for b in base dev; do
      for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
      done
    done
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
  for sz in "640 480 100" "3840 2160 30"; do
    echo "=== give_up bench_histeq $sz"
    timeout 60 plant-bin/bench_give_up $sz gpu 2>&1 | grep -E "GRAY8.*global smooth=0.*fused"
  done
} > "$out/run6.out" 2>&1
