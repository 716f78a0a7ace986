#!/bin/bash
# Session 33, device run 4: the CLAHE apply (two launches: 4K, and 1080p
# where GST_CL_HISTEQ_CLAHE_ONE=0) from the quad table's cells copied into
# local memory (histeq_apply_clahe_lq_c1, 16 x 16 items a group, 4 rows an
# item) against the global quad table (GST_CL_HISTEQ_CLAHE_LQ=0), same
# build. Checker (every path); ptxas; bench_histeq 1080p and 4K; bench.py
# clhisteq-clahe in turns, two passes, and 1080p in two launches.
# . .device/env.sh && bash THIS "$OUT/r4"
out=${1:-/tmp/run4}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  echo "=== check ($(date +%T))"
  GST_CL_CACHE_DIR=/tmp/clcache-chk KERNELCHECK_DEVICES=gpu timeout 150 build-dev/tests/check_histeq_kernels > /tmp/check.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check.txt; grep -m4 FAIL /tmp/check.txt | cut -c1-250
  echo "=== ptxas"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A6 "Compiling entry function '(histeq_apply_clahe_c1|histeq_apply_clahe_lq_c1)'" | grep -E "entry|registers|spill" | cut -c1-120
  for lq in 0 1; do
    for sz in "1920 1080 200" "3840 2160 100"; do
      echo "=== bench_histeq LQ=$lq $sz ($(date +%T))"
      GST_CL_HISTEQ_CLAHE_LQ=$lq GST_CL_CACHE_DIR=/tmp/clcache timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8  noise clahe"
    done
  done
  for pass in 1 2; do
    for lq in 0 1; do
      echo "=== bench.py LQ=$lq pass $pass ($(date +%T))"
      GST_CL_HISTEQ_CLAHE_LQ=$lq GST_CL_CACHE_DIR=/tmp/clcache timeout 100 python3 bench/bench.py --build-dir build-dev --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours --reps 2 --out "$out/bench-lq$lq-$pass" > /dev/null 2>&1
      awk -F, '$7=="ours"{printf "%s/%s %.4f  ", $3,$6,$13}' "$out/bench-lq$lq-$pass/bench.csv"; echo
      rm -f "$out/bench-lq$lq-$pass/bench.json"
    done
  done
  for lq in 0 1 0 1; do
    echo "=== bench.py two launches LQ=$lq ($(date +%T))"
    GST_CL_HISTEQ_CLAHE_ONE=0 GST_CL_HISTEQ_CLAHE_LQ=$lq GST_CL_CACHE_DIR=/tmp/clcache timeout 60 python3 bench/bench.py --build-dir build-dev --devices gpu \
      --sizes 1080p --items clhisteq-clahe --kinds ours --reps 2 --out "/tmp/bench-two-$lq" > /dev/null 2>&1
    awk -F, '$7=="ours"{printf "%s/%s %.4f  ", $3,$6,$13}' "/tmp/bench-two-$lq/bench.csv"; echo
    rm -rf "/tmp/bench-two-$lq"
  done
  echo "=== end ($(date +%T))"
} > "$out/run4.out" 2>&1
