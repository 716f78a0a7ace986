#!/bin/bash
# What is measured on the GPU machine (see docs/PERFORMANCE.md), in parts
# so each stays within one 10-minute device call. From the checkout root
# there, after building here:
#   . .device/env.sh && bench/device-run.sh check "$OUT"   # correctness, kernels
#   . .device/env.sh && bench/device-run.sh peers "$OUT"   # blur pipelines, peers
#   . .device/env.sh && bench/device-run.sh bench "$OUT"   # bench/bench.py: every
#        element and chain against every peer on both devices, then PoCL
#        scaling 2..16 cores (at most 8 minutes: --budget and timeouts)
part=${1:?usage: device-run.sh check|peers|bench OUT}
out=${2:-/tmp/device-run}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }

if [ "$part" = bench ]; then
  # One run of everything (3 sizes x GRAY8/NV12 x GPU and PoCL); hard limit so
  # the scaling below still fits in the 10-minute call.
  step "bench.py, all devices" > "$out/bench.log"
  timeout 330 python3 bench/bench.py --sizes 1080p,4K,480p --reps 2 --seconds 0.1 \
      --budget 240 --out "$out/full" >> "$out/bench.log" 2>&1
  echo "exit $?" >> "$out/bench.log"
  # PoCL on 2..16 cores, 1080p GRAY8, our elements beside the OpenCV peers
  # given the same cores. PoCL 3.x/4.x read POCL_MAX_PTHREAD_COUNT, 5.x
  # POCL_CPU_MAX_CU_COUNT; taskset pins everything (OpenCV's threads too).
  # The logged compute_units line says what PoCL took.
  for n in 2 4 8 16; do
    [ "$n" -le "$(nproc)" ] || continue
    step "PoCL on $n cores" >> "$out/bench.log"
    POCL_MAX_PTHREAD_COUNT=$n POCL_CPU_MAX_CU_COUNT=$n OPENCV_FOR_THREADS_NUM=$n \
      timeout 35 taskset -c 0-$((n - 1)) python3 bench/bench.py --devices cpu \
        --sizes 1080p --formats GRAY8 --kinds ours,gst,cv,floor --reps 2 --seconds 0.15 \
        --items clblur,clsobel,clhisteq,clhisteq-clahe,cloptflow-quarter,blur+sobel+histeq \
        --budget 28 \
        --tag cores=$n --out "$out/cores-$n" > "$out/cores-$n.log" 2>&1
    echo "exit $?" >> "$out/cores-$n.log"
    grep -h "OpenCL devices" "$out/cores-$n.log" >> "$out/bench.log"
  done
  sed -n '/^## Headline/,$p' "$out/bench.log"
  for n in 2 4 8 16; do
    [ -f "$out/cores-$n.log" ] && grep -E "^  (ours|cv|gst) " "$out/cores-$n.log" | sed "s/^/$n cores: /"
  done
  # plots where matplotlib exists (else: bench/plot.py on the fetched results)
  python3 bench/plot.py "$out/full" > /dev/null 2>&1 &&
    python3 bench/plot.py --scaling "$out"/cores-*/ --out "$out/full" > /dev/null 2>&1
  # one file: the device tool brings back few files and no names with '+'
  (cd "$out" && tar czf bench-results.tgz full cores-* && rm -rf full cores-*/)
  exit 0
fi

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
