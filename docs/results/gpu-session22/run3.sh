#!/bin/bash
# Session 22, device run 3: the committed candidate. histeq_equalize_c1 and
# _keep_c1: the histogram added into copies (one for 32 groups, up to 8),
# every group applies its own slice (no bands), and the LUT published as
# 128 words tagged with the frame (no read back, no flag).
# build-base: ee9f458; build-dev: this tree.
# - NVIDIA's register counts of the one-launch kernels, both builds;
# - the histeq checker on the GPU (every path), path one with 1 and 8
#   groups a CU, and with every waiter giving up (-DEQG_MAX_POLLS=0);
# - planted errors (plant-bin/, this tree with one change, not kept):
#     check_steal_none  the maker applies no slice given up: must pass
#                       normally, must fail where every waiter gives up
#     check_word_xor    one entry of the waiters' table ^ 1: must fail
# - bench_histeq base and dev in turns, twice;
# - the traced build (plant-bin/bench_trace, stamps as run 1);
# - bench.py clhisteq and the 3-element chain, ours and the floor, base
#   and dev in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
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
  for v in "1|" "8|" "2|-DEQG_MAX_POLLS=0" "8|-DEQG_MAX_POLLS=0"; do
    g=${v%%|*}; o=${v#*|}
    for bin in build-dev/tests/check_histeq_kernels plant-bin/check_steal_none plant-bin/check_word_xor; do
      echo "=== check path one, EQ_GROUPS=$g $o: $bin"
      GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 $bin > /tmp/check-g.txt 2>&1
      echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-200
    done
  done
  for pass in 1 2; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      for b in base dev; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
  for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
    echo "=== trace, $sz"
    EQ_TRACE=1 timeout 90 plant-bin/bench_trace $sz gpu 2>&1 | grep -E -A2 "GRAY8.*global.*fused|rror" | grep -v "^  -> "
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run3.out" 2>&1
