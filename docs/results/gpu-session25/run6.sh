#!/bin/bash
# Session 25, device run 6 (review): the cut's maker claims given-up tiles
# from the lowest one seen on, in one loop (there were two branches), and
# the waiting branch under `if (CUT_WAIT)`. No behaviour change: the
# histeq checker on the GPU (every path; path fused with every waiter
# giving up; path one at 8 groups a CU likewise), the planted error of
# run 1, ptxas, bench_histeq once.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all ""
  chk fused-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=fused
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one GST_CL_HISTEQ_EQ_GROUPS=8
  chk plant-no-wait "-DCUT_WAIT=0" HISTEQ_CHECK_PATHS=fused
  echo "=== ptxas dev"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_lut|histeq_hist_lut_c|histeq_equalize)" | grep -E "entry|registers|spill" | cut -c1-160
  for sz in "1920 1080 100" "3840 2160 60" "640 480 200"; do
    echo "=== dev bench_histeq $sz"
    timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*(global|clahe).*fused"
  done
} > "$out/run6.out" 2>&1
