#!/bin/bash
# Session 24, device run 4: the tree to commit (build-dev): the host
# passes -DEQ_LKEEP from the device's local memory (9 on NVIDIA); lk0 is
# -DEQ_LKEEP=0 on the same build (the frame read twice at 4K, as 6d6d5d0).
# - the histeq checker on the GPU (every path); path one with 1, 2 and 8
#   groups a CU, 8 with every waiter giving up;
# - ptxas registers, spills and local memory;
# - bench_histeq 480p, 1080p, 4K, lk0 and new in turns, twice;
# - bench.py clhisteq and the 3-element chain, ours and the floor, lk0
#   then new, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
declare -A V=([new]="" [lk0]="-DEQ_LKEEP=0")
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for v in "1|" "2|" "8|" "8|-DEQG_MAX_POLLS=0"; do
    g=${v%%|*}; o=${v#*|}
    echo "=== check path one, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  for n in new lk0; do
    echo "=== ptxas, $n"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${V[$n]}" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill|smem" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "3840 2160 60" "1920 1080 100" "640 480 200"; do
      for n in lk0 new; do
        echo "=== pass $pass $n bench_histeq $sz"
        GST_CL_BUILD_OPTIONS="${V[$n]}" timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|(GRAY8|RGBA).*global.*fused"
      done
    done
  done
  for n in lk0 new lk0 new; do
    echo "=== bench.py GPU, $n ($(date +%T))"
    GST_CL_BUILD_OPTIONS="${V[$n]}" GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$n 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run4.out" 2>&1
