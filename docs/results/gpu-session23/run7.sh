#!/bin/bash
# Session 23, device run 7: the LUT's maker reads the last frame's state
# before it takes the frame's histogram (frame_prev_load ()), so the reads'
# latency is under its exchanges. build-base: d7f7dd6 (run 6's tree);
# build-dev: this tree.
# - the histeq checker on the GPU (every path), path one with every waiter
#   giving up;
# - bench_histeq base and dev in turns, three times;
# - bench.py clhisteq, ours and the floor, base and dev, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  echo "=== check path one, EQ_GROUPS=8 -DEQG_MAX_POLLS=0"
  GST_CL_BUILD_OPTIONS="-DEQG_MAX_POLLS=0" GST_CL_HISTEQ_EQ_GROUPS=8 HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  echo "=== ptxas, dev"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function 'histeq_equalize" | grep -E "entry|registers|spill" | cut -c1-160
  for pass in 1 2 3; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      for b in base dev; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run7.out" 2>&1
