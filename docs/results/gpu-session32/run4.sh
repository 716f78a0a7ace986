#!/bin/bash
# Session 32, device run 4: run 3 was faster than run 2 up to 1080p (one
# launch) but slower at 4K (two launches). The two changes of run 3 in
# the fused kernel, each by a -D of the dev build (knobs since removed):
# XST_EARLY 1 reads the tile's state before the frame's histogram add (run
# 2), 0 before the wait or the cut (run 3); XFLAG_LATE 1 checks the cut
# flag's old value after the maker's own LUT (run 3), 0 at once (run 2).
# Checker (paths one and fused) for A and C; ptxas; bench.py
# clhisteq-clahe, base and the four variants in turns, two passes.
# . .device/env.sh && bash THIS "$OUT/r4"
out=${1:-/tmp/run4}; mkdir -p "$out"
declare -A opt=([A]="-DXST_EARLY=1 -DXFLAG_LATE=0" [B]="-DXST_EARLY=0 -DXFLAG_LATE=1" [C]="-DXST_EARLY=1 -DXFLAG_LATE=1" [D]="-DXST_EARLY=0 -DXFLAG_LATE=0")
{ echo "=== machine"; nvidia-smi -L
  for v in A C; do
    echo "=== check $v ($(date +%T))"
    GST_CL_CACHE_DIR=/tmp/clcache-chk-$v GST_CL_BUILD_OPTIONS="${opt[$v]}" KERNELCHECK_DEVICES=gpu HISTEQ_CHECK_PATHS=one,fused timeout 100 build-dev/tests/check_histeq_kernels > /tmp/check-$v.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-$v.txt
  done
  for v in A B C D; do
    echo "=== ptxas $v"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${opt[$v]}" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A6 "Compiling entry function '(histeq_clahe_one_c1|histeq_hist_lut_c1)'" | grep -E "entry|registers|spill" | cut -c1-120
  done
  for pass in 1 2; do
    for v in base A B C D; do
      echo "=== bench.py $v pass $pass ($(date +%T))"
      if [ $v = base ]; then b=base; o=""; else b=dev; o="${opt[$v]}"; fi
      GST_CL_BUILD_OPTIONS="$o" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 100 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours --reps 2 --out "$out/bench-$v-$pass" > /dev/null 2>&1
      awk -F, '$7=="ours"{printf "%s/%s %.4f  ", $3,$6,$13}' "$out/bench-$v-$pass/bench.csv"; echo
      rm -rf "$out/bench-$v-$pass"  # at most 8 files come back: the line above is the record
    done
  done
  echo "=== end ($(date +%T))"
} > "$out/run4.out" 2>&1
