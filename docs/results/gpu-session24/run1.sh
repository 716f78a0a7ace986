#!/bin/bash
# Session 24, device run 1: histeq_equalize_c1 keeping a 4K slice's chunks
# in local memory (EQ_LKEEP 9: 36 KB a group), so the frame is read once
# at 4K too. One build (build-dev); the variants by GST_CL_BUILD_OPTIONS:
#   lk9     the default (local chunks)
#   lk0     -DEQ_LKEEP=0: the kernel as at 6d6d5d0 (the frame read twice)
#   hyb     -DEQ_C1_KEEP=4 -DEQ_LKEEP=5: 4 chunks in registers, 5 local
#   k0l4    -DEQ_KEEP=0 -DEQ_KEEP_LOCAL=4: 1080p's kept chunks local only
# - the histeq checker on the GPU (every path); path one with 1 group a CU
#   (1920x1088: the local chunks), 8, 8 with every waiter giving up; a
#   planted error in the local apply (-DPLANT=1) at 1 group a CU;
# - ptxas registers, spills and local memory of each variant;
# - bench_histeq, the variants in turns, twice;
# - bench.py clhisteq, ours and the floor, lk0 then lk9, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
declare -A V=([lk9]="" [lk0]="-DEQ_LKEEP=0" [hyb]="-DEQ_C1_KEEP=4 -DEQ_LKEEP=5" [k0l4]="-DEQ_KEEP=0 -DEQ_KEEP_LOCAL=4")
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for v in "1|" "8|" "8|-DEQG_MAX_POLLS=0" "1|-DPLANT=1" "1|-DEQ_C1_KEEP=4 -DEQ_LKEEP=5" "2|-DEQ_KEEP=0 -DEQ_KEEP_LOCAL=4"; do
    g=${v%%|*}; o=${v#*|}
    echo "=== check path one, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  for n in lk9 lk0 hyb k0l4; do
    echo "=== ptxas, $n"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${V[$n]}" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize)" | grep -E "entry|registers|spill|smem" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "3840 2160 60" "1920 1080 100"; do
      for n in lk0 lk9 hyb k0l4; do
        echo "=== pass $pass $n bench_histeq $sz"
        GST_CL_BUILD_OPTIONS="${V[$n]}" timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
  for n in lk0 lk9 lk0 lk9; do
    echo "=== bench.py GPU, $n ($(date +%T))"
    GST_CL_BUILD_OPTIONS="${V[$n]}" GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 1080p,4K --items clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$n 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run1.out" 2>&1
