#!/bin/bash
# cloptflow on the GPU machine, within one 10-minute device call. From the
# checkout root there, after building here:
#   . .device/env.sh && bench/device-optflow.sh check "$OUT"
#   . .device/env.sh && bench/device-optflow.sh bench "$OUT"
# Checks on both devices (the GPU's per-pixel kernels, PoCL's band kernels
# and, with GST_CL_OPTFLOW_ROWS=0, the per-pixel kernels on PoCL too), the
# kernel times with finest-level 0, 1 and 2, bench.py's flow rows beside
# OpenCV, and the band kernels on 2..16 cores.
part=${1:?usage: device-optflow.sh check|bench OUT}
out=${2:-/tmp/device-optflow}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }
if [ "$part" = check ]; then
{
  step "machine"; nproc; grep -m1 "model name" /proc/cpuinfo; clinfo -l
  step "kernel checker"; timeout 150 build/tests/check_optflow_kernels; echo "exit $?"
  step "kernel checker, per-pixel kernels on the CPU device"
  GST_CL_OPTFLOW_ROWS=0 KERNELCHECK_DEVICES=cpu timeout 100 \
      build/tests/check_optflow_kernels | tail -3; echo "exit $?"
  step "element tests"; timeout 100 build/tests/check_cloptflow; echo "exit $?"
  step "accuracy (GPU and CPU device)"
  for dev in gpu cpu; do
    GST_CL_DEVICE=$dev timeout 100 python3 tests/test_opencv_optflow.py \
        build/tests/optflow_run; echo "exit $?"
  done
} > "$out/check.log" 2>&1
grep -E "exit|checks|Checks|PASS|FAIL" "$out/check.log"
exit 0
fi
{
  step "kernel times: defaults (5 levels, 5 iterations, window 15), finest-level 0, 1, 2"
  for f in 0 1 2; do build/bench/bench_optflow 1920 1080 30 5 5 15 $f; done
  build/bench/bench_optflow 3840 2160 10 5 5 15 0
  step "band kernels on 2..16 cores (POCL_CPU_MAX_CU_COUNT, pinned), 1080p"
  for n in 2 4 8 16; do
    [ "$n" -le "$(nproc)" ] || continue
    for f in 0 2; do
      echo "--- $n cores, finest-level $f"
      POCL_MAX_PTHREAD_COUNT=$n POCL_CPU_MAX_CU_COUNT=$n KERNELCHECK_DEVICES=cpu \
        taskset -c 0-$((n - 1)) timeout 60 build/bench/bench_optflow 1920 1080 10 5 5 15 $f \
        | grep -A1 "buffer"
    done
  done
  step "bench.py: flow rows beside OpenCV, 1080p and 4K, GRAY8"
  timeout 200 python3 bench/bench.py --items cloptflow,cloptflow-half,cloptflow-quarter \
      --sizes 1080p,4K --formats GRAY8 --kinds ours,cv --reps 2 --out "$out/bench"
  echo "exit $?"
} > "$out/bench.log" 2>&1
cat "$out/bench.log"
