#!/bin/bash
# Session 23, device run 6: the tree to commit (build-dev) against e41d69f
# (build-base). Since run 5: histeq_hist_lut_cN keep cut_body () and
# lut_body () (frame_lut_group () there took histeq_hist_lut_c1 from 48
# registers to 64, and the two-launch path without smoothing from 0.020
# to 0.024 ms at 1080p).
# - the histeq checker on the GPU (every path), path one with 1 and 8
#   groups a CU, with every waiter giving up;
# - ptxas registers and spills of both builds;
# - bench_histeq base and dev in turns, twice, global and CLAHE rows;
# - bench_histeq two launches (GST_CL_HISTEQ_ONE_LAUNCH=0), 1080p, both;
# - bench.py clhisteq, ours and the floor, base then dev, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for v in "1|" "8|" "8|-DEQG_MAX_POLLS=0"; do
    g=${v%%|*}; o=${v#*|}
    echo "=== check path one, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  for b in base dev; do
    echo "=== ptxas, $b"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      for b in base dev; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|(GRAY8|RGBA).*(global|clahe).*fused"
      done
    done
  done
  for b in base dev; do
    echo "=== two launches, $b bench_histeq 1920 1080 100"
    GST_CL_HISTEQ_ONE_LAUNCH=0 timeout 60 build-$b/bench/bench_histeq 1920 1080 100 gpu 2>&1 | grep -E "GRAY8.*global.*fused"
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run6.out" 2>&1
