#!/bin/bash
# What is measured on the GPU machine (see docs/PERFORMANCE.md), in two
# parts so each stays within one 10-minute device call. From the checkout
# root there, after building here:
#   . .device/env.sh && bench/device-run.sh check "$OUT"   # correctness, kernels
#   . .device/env.sh && bench/device-run.sh peers "$OUT"   # pipelines, peers
part=${1:?usage: device-run.sh check|peers OUT}
out=${2:-/tmp/device-run}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }

if [ "$part" = check ]; then
  {
  step "machine"; nproc; grep -m1 "model name" /proc/cpuinfo; nvidia-smi -L
  clinfo -l
  step "floors (cllimits)"
  .device/tools/cllimits 1920 1080 1; .device/tools/cllimits 3840 2160 1
  step "kernel times: 1080p 5x5, 1080p 9x9, 4K 5x5"
  build/bench/bench_kernels 1920 1080 1.1 50 "" 5
  build/bench/bench_kernels 1920 1080 1.1 50
  build/bench/bench_kernels 3840 2160 1.1 50 "" 5
  step "histeq kernel times: 1080p, 4K"
  build/bench/bench_histeq 1920 1080 50
  build/bench/bench_histeq 3840 2160 30
  } > "$out/bench.log" 2>&1
  { step "kernel checker"; timeout 280 build/tests/check_blur_kernels; echo "exit $?"
    timeout 150 build/tests/check_histeq_kernels; echo "exit $?"; } \
      > "$out/check.log" 2>&1
  { step "element tests"; timeout 200 build/tests/check_clblur; echo "exit $?"
    timeout 100 build/tests/check_clhisteq; echo "exit $?"; } \
      > "$out/elements.log" 2>&1
  tail -2 "$out/check.log"; grep -E "exit|Checks|:F:" "$out/elements.log"
else
  { step "kernel checker"; timeout 200 build/tests/check_blur_kernels; echo "exit $?"; } \
      > "$out/check.log" 2>&1
  {
  for dev in gpu cpu; do
    step "clblur ! clblur on $dev, NV12 1080p, 300 frames (cltrace)"
    CLTRACE_OUT=$out/trace-$dev.txt LD_PRELOAD=".device/tools/cltrace.so libOpenCL.so.1" \
      gst-launch-1.0 -q videotestsrc num-buffers=300 \
      ! video/x-raw,format=NV12,width=1920,height=1080 \
      ! clblur device=$dev ! clblur device=$dev ! filesink location=/dev/null
    echo "exit $?"; grep -v ' 0$' "$out/trace-$dev.txt" | tr '\n' ' '; echo
  done
  } > "$out/chain.log" 2>&1
  timeout 330 python3 bench/bench_blur.py --build-dir build --devices gpu,cpu \
      > "$out/peers.log" 2>&1
  echo "exit $?" >> "$out/peers.log"
  tail -2 "$out/check.log"; cat "$out/chain.log"
  grep -vE "^#" "$out/peers.log" | tail -25
fi
