#!/bin/bash
# Session 25, device run 1: CLAHE with smoothing in two launches on GPUs
# (the tiles' LUTs made in histeq_hist_lut after the frame's cut, which the
# tiles' last groups wait for; histeq_lut no longer launched). build-dev is
# the change, build-base 6c6c871 (the session's start).
# - the histeq checker on the GPU (every path); path fused with every
#   waiter giving up (-DEQG_MAX_POLLS=0), and path one likewise (its wait
#   now in await_flag ());
# - a planted error: -DCUT_WAIT=0 in the kernel while the host skips
#   histeq_lut (the waiting tiles' LUTs never made): must fail;
# - ptxas of histeq_hist_lut and histeq_equalize, base and dev;
# - bench_histeq 1080p, 4K, 480p, base and dev in turns, twice;
# - bench.py clhisteq-clahe and clhisteq, base then dev, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
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
  for b in base dev; do
    echo "=== ptxas $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_lut|histeq_hist_lut_c|histeq_equalize)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "1920 1080 100" "3840 2160 60" "640 480 200"; do
      for b in base dev; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|(GRAY8|RGBA).*(global|clahe).*fused"
      done
    done
  done
} > "$out/run1.out" 2>&1
