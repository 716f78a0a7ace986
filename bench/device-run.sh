#!/bin/bash
# What is measured on the GPU machine (see docs/PERFORMANCE.md), in parts
# so each stays within one 10-minute device call. From the checkout root
# there, after building here:
#   . .device/env.sh && bench/device-run.sh check "$OUT"    # floors, histeq
#        kernel times, the histeq, optflow and sobel kernel checkers
#   . .device/env.sh && bench/device-run.sh check-blur "$OUT" # the blur
#        kernel checker (about 40 variants, each a fresh NVIDIA build)
#        Both on KERNELCHECK_DEVICES, default gpu: PoCL's variants are
#        checked by the tests on any machine.
#   . .device/env.sh && bench/device-run.sh elements "$OUT" # the element
#        tests, device=auto (the GPU there) and device=cpu (PoCL)
#   . .device/env.sh && bench/device-run.sh peers "$OUT"    # blur pipelines, peers
#   . .device/env.sh && bench/device-run.sh bench "$OUT"    # bench/bench.py: every
#        element and chain against every peer on both devices, then PoCL
#        scaling 2..16 cores (at most 8 minutes: --budget and timeouts)
# .device/ as ../shared/device/README.md prepares it; `peers` also needs
#   cc -O2 -shared -fPIC -o .device/tools/cltrace.so ../shared/tools/cltrace.c -ldl
# Each step's log ends with "exit N" (124: its timeout, which keeps the part
# inside the call).
part=${1:?usage: device-run.sh check|check-blur|elements|peers|bench OUT}
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

# tests: build/tests/check_NAME with a timeout, for each NAME:TIMEOUT; a
# log each, and its verdict line
run_tests() {
  for t in "$@"; do
    { step "check_${t%:*}"; timeout "${t#*:}" "build/tests/check_${t%:*}"
      echo "exit $?"; step "end"; } > "$out/check_${t%:*}.log" 2>&1
    echo "check_${t%:*}: $(grep -E "passed|checks|^[0-9]+%: Checks|FAIL" \
      "$out/check_${t%:*}.log" | tail -1) $(grep "^exit" "$out/check_${t%:*}.log")"
  done
}

if [ "$part" = check ]; then
  {
  step "machine"; nproc; grep -m1 "model name" /proc/cpuinfo; nvidia-smi -L
  clinfo -l
  step "floors: 1080p and 4K GRAY8 and RGBA (bench_floor, as cllimits.c)"
  timeout 40 build/bench/bench_floor 50 2073600 8294400 33177600; echo "exit $?"
  step "histeq kernel times at 1080p"
  timeout 40 build/bench/bench_histeq 1920 1080 50 gpu; echo "exit $?"
  } > "$out/bench.log" 2>&1
  grep -h "^exit" "$out/bench.log" | tr '\n' ' '; echo "(bench.log)"
  # on a fresh H200 machine (session 42): histeq 56 s, optflow 4 s, sobel
  # about 240 s (24 of its 28 variants in 200 s); blur (check-blur) 286 s
  export KERNELCHECK_DEVICES=${KERNELCHECK_DEVICES:-gpu}
  run_tests histeq_kernels:120 optflow_kernels:40 sobel_kernels:330
elif [ "$part" = check-blur ]; then
  export KERNELCHECK_DEVICES=${KERNELCHECK_DEVICES:-gpu}
  run_tests blur_kernels:560
elif [ "$part" = elements ]; then
  # as the tests' environment (tests/meson.build): device=auto stays on one
  # device, the GPU here
  export GST_CL_AUTO=switching=false GST_DEBUG='cl*:2' \
    GST_REGISTRY=/tmp/device-run-registry.bin
  run_tests clblur:100 clhisteq:100 clsobel:150 cloptflow:100 robustness:100
elif [ "$part" = peers ]; then
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
  cat "$out/chain.log"
  grep -vE "^#" "$out/peers.log" | tail -25
else
  echo "unknown part $part: check, check-blur, elements, peers or bench" >&2
  exit 2
fi
