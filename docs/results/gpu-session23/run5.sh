#!/bin/bash
# Session 23, device run 5: this tree (build-dev) against e41d69f
# (build-base). Since run 4: a waiter that saw the flag reads the LUT
# without an atomic read of the flag as well, and the maker's flag
# exchange comes back while it applies its slice.
# - the histeq checker on the GPU (every path), path one with 1 and 8
#   groups a CU, with every waiter giving up, and with -DFRAME_LUT=0;
# - ptxas registers and spills of this tree;
# - bench_histeq base and dev in turns, three times (dev also prints
#   RGBA global with smoothing 8: frame_lut_group () in histeq_hist_lut_c4);
# - bench_histeq dev with -DFRAME_LUT=0 (the old frame step), once;
# - bench_histeq two launches (GST_CL_HISTEQ_ONE_LAUNCH=0), dev with and
#   without -DFRAME_LUT=0, 1080p;
# - bench.py clhisteq and the 3-element chain, ours and the floor, base
#   and dev twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  for v in "1|" "8|" "8|-DEQG_MAX_POLLS=0" "2|-DFRAME_LUT=0"; do
    g=${v%%|*}; o=${v#*|}
    echo "=== check path one, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="$o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  done
  echo "=== ptxas, dev"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill" | cut -c1-160
  for pass in 1 2 3; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      for b in base dev; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|(GRAY8|RGBA).*global.*fused"
      done
      if [ $pass = 1 ]; then
        echo "=== pass $pass dev -DFRAME_LUT=0 bench_histeq $sz"
        GST_CL_BUILD_OPTIONS=-DFRAME_LUT=0 timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "(GRAY8|RGBA).*global.*smooth=8.*fused"
      fi
    done
  done
  for o in "" "-DFRAME_LUT=0"; do
    echo "=== two launches, dev '$o' bench_histeq 1920 1080 100"
    GST_CL_HISTEQ_ONE_LAUNCH=0 GST_CL_BUILD_OPTIONS="$o" timeout 60 build-dev/bench/bench_histeq 1920 1080 100 gpu 2>&1 | grep -E "GRAY8.*global.*fused"
  done
  for b in base dev base dev; do
    echo "=== bench.py GPU, $b ($(date +%T))"
    GST_PLUGIN_PATH=$PWD/build-$b timeout 200 python3 bench/bench.py --build-dir build-$b \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
      --kinds ours,floor --reps 2 --out /tmp/bench-$b 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run5.out" 2>&1
