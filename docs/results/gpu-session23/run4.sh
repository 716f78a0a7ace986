#!/bin/bash
# Session 23, device run 4: as run 3, with the maker's kept chunks
# overwritten at the end of its branch (dead there), and no FRAME_UNROLL
# option. One build (this tree): the new frame step (default) against the
# old one (-DFRAME_LUT=0, the code of e41d69f's maker).
# - the histeq checker on the GPU, every path, and path one with every
#   waiter giving up;
# - ptxas registers, spills and shared memory of each;
# - bench_histeq with each, in turns, three times;
# - bench.py clhisteq, ours and the floor, old then new.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
opts=("" "-DFRAME_LUT=0")
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt | cut -c1-250
  echo "=== check path one, EQ_GROUPS=8 -DEQG_MAX_POLLS=0"
  GST_CL_BUILD_OPTIONS="-DEQG_MAX_POLLS=0" GST_CL_HISTEQ_EQ_GROUPS=8 HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m2 FAIL /tmp/check-g.txt | cut -c1-250
  for o in "${opts[@]}"; do
    echo "=== ptxas, options '$o'"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose $o" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_equalize|histeq_hist_lut_c)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2 3; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      for o in "${opts[@]}"; do
        echo "=== pass $pass '$o' bench_histeq $sz"
        GST_CL_BUILD_OPTIONS="$o" timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
  for o in "-DFRAME_LUT=0" ""; do
    echo "=== bench.py GPU, options '$o' ($(date +%T))"
    GST_CL_BUILD_OPTIONS="$o" GST_PLUGIN_PATH=$PWD/build-dev timeout 200 python3 bench/bench.py --build-dir build-dev \
      --devices gpu --sizes 480p,1080p,4K --items clhisteq \
      --kinds ours,floor --reps 2 --out /tmp/bench-dev 2>&1 | grep -E "^[0-9].*(GRAY8|NV12) |^4K |^  (ours|floor) "
    echo "exit ${PIPESTATUS[0]}"
  done
} > "$out/run4.out" 2>&1
