#!/bin/bash
# Session 24, device run 2: every chunk of a keeping group's histogram
# loaded before the first count (KEEP_LOADS_FIRST), and hist_rows16_c1
# (the two-launch path, CLAHE, frames not 16-byte aligned) loading
# HIST_LOADS chunks before their counts. One build (build-dev); variants
# by GST_CL_BUILD_OPTIONS:
#   new     the default (EQ_LKEEP 9, KEEP_LOADS_FIRST 1, HIST_LOADS 4)
#   old     -DEQ_LKEEP=0 -DKEEP_LOADS_FIRST=0 -DHIST_LOADS=1: as 6d6d5d0
#   lk9     -DKEEP_LOADS_FIRST=0 -DHIST_LOADS=1: run 1's default
#   hl1     -DHIST_LOADS=1
#   hl8     -DHIST_LOADS=8
# - the histeq checker on the GPU (every path); path one with 1 group a CU
#   (1920x1088: the local chunks), 8, 8 with every waiter giving up;
#   planted errors: -DPLANT=1 (local apply) at 1 group a CU, -DPLANT2=1
#   (a batch's last chunk not counted) on path fused;
# - ptxas registers, spills and local memory, new and old;
# - bench_histeq, the variants in turns, twice; two launches at 1080p;
# - bench.py clhisteq and clhisteq-clahe, ours and the floor, old then
#   new, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
declare -A V=([new]="" [old]="-DEQ_LKEEP=0 -DKEEP_LOADS_FIRST=0 -DHIST_LOADS=1" [lk9]="-DKEEP_LOADS_FIRST=0 -DHIST_LOADS=1" [hl1]="-DHIST_LOADS=1" [hl8]="-DHIST_LOADS=8")
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for v in "1|one|" "8|one|" "8|one|-DEQG_MAX_POLLS=0" "1|one|-DPLANT=1" "2|fused|-DPLANT2=1"; do
    g=${v%%|*}; r=${v#*|}; p=${r%%|*}; o=${r#*|}
    echo "=== check path $p, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=$p KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  for n in new old; do
    echo "=== ptxas, $n"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${V[$n]}" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill|smem" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "3840 2160 60" "1920 1080 100" "640 480 200"; do
      for n in old new lk9 hl1 hl8; do
        echo "=== pass $pass $n bench_histeq $sz"
        GST_CL_BUILD_OPTIONS="${V[$n]}" timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|(GRAY8|RGBA).*(global|clahe).*fused"
      done
    done
    for n in old new hl1 hl8; do
      echo "=== pass $pass two launches, $n bench_histeq 1920 1080 100"
      GST_CL_BUILD_OPTIONS="${V[$n]}" GST_CL_HISTEQ_ONE_LAUNCH=0 timeout 60 build-dev/bench/bench_histeq 1920 1080 100 gpu 2>&1 | grep -E "GRAY8.*global.*fused"
    done
  done
  for n in old new old new; do
    echo "=== bench.py GPU, $n ($(date +%T))"
    GST_CL_BUILD_OPTIONS="${V[$n]}" GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,clhisteq-clahe \
      --kinds ours,floor --reps 2 --out /tmp/bench-$n 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run2.out" 2>&1
