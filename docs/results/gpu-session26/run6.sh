#!/bin/bash
# Session 26, device run 6 (review): clahe_pixel () and clahe_pixel_quad ()
# share clahe_column () and clahe_blend (), lut_body () takes the tile
# count, bench.py's wait floor found by a field. No behaviour change: the
# histeq checker on the GPU (every path; path fused with every waiter
# giving up; the quad table off), ptxas, bench_histeq once, bench.py once
# (its wait-floor lines).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
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
  echo "=== ptxas dev"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_apply_clahe|histeq_hist_lut_c|histeq_lut)" | grep -E "entry|registers|spill" | cut -c1-160
  for sz in "1920 1080 200" "3840 2160 100"; do
    echo "=== bench_histeq $sz ($(date +%T))"
    GST_CL_CACHE_DIR=/tmp/clcache-dev timeout 90 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8 .*(clahe|global).*fused"
  done
  echo "=== bench.py ($(date +%T))"
  GST_CL_CACHE_DIR=/tmp/clcache-dev timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes 1080p,4K --items clhisteq-clahe,clhisteq --kinds ours,floor --reps 2 --out "$out/bench" 2>&1 | \
    grep -E "^[0-9].*(GRAY8|NV12) |^  (ours|floor) |GPU: kernel"
} > "$out/run6.out" 2>&1
