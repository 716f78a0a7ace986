#!/bin/bash
# Session 26, device run 5: the GRAY8 CLAHE apply reading one word a pixel
# from the quad table (each cell's four tile LUTs interleaved, stored by
# lut_body ()), against c77f514 (build-base). The histeq checker on the GPU
# (every path; path fused with the waiters giving up; the table
# off), ptxas, bench_histeq's CLAHE lines and bench.py clhisteq-clahe,
# base in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-dev GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk fused-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=fused
  chk noquad "" HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_QUAD=0
  for b in base dev; do
    echo "=== ptxas $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_apply_clahe|histeq_hist_lut_c|histeq_lut)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2; do
    for b in base dev; do
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass $b bench_histeq $sz ($(date +%T))"
        GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 90 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8 .*clahe.*fused"
      done
    done
  done
  for pass in 1 2; do
    for b in base dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe,clhisteq --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "^[0-9].*(GRAY8|NV12) |^  ours |GPU: kernel"
    done
  done
} > "$out/run5.out" 2>&1
