#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# GPU launch fusion on the GPU machine, one command (a report, never a test):
# kernel checkers (every variant and path on every device), clblur's
# NV12/I420 one-launch kernels against per-plane launches, the tile sweep,
# and clhisteq old (4 launches) against fused (2) kernel times.
# Usage: . .device/env.sh && bench/fusion-run.sh OUT [BUILD_DIR]
out=${1:?usage: fusion-run.sh OUT [BUILD_DIR]}
build=${2:-build}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/$build GST_CL_CACHE_DIR=${GST_CL_CACHE_DIR:-/tmp/clcache}
step () { printf '\n== %s\n' "$*"; }
{ step "kernel checkers"
  timeout 280 "$build/tests/check_blur_kernels" > "$out/check-blur.txt" 2>&1
  echo "blur kernels exit $?"; grep -E "tiled|passed|FAIL" "$out/check-blur.txt"
  timeout 200 "$build/tests/check_histeq_kernels" > "$out/check-histeq.txt" 2>&1
  echo "histeq kernels exit $?"; grep -E "fused|passed|FAIL" "$out/check-histeq.txt"
} > "$out/check.log" 2>&1
{ step "clblur frames: per plane vs one launch (5x5, sigma 1.1)"
  for s in "1920 1080" "3840 2160"; do
    "$build/bench/bench_blur_frames" $s 1.1 5 100 gpu
  done
  step "clblur frames, 9x9 (sigma 1.1 derived)"
  "$build/bench/bench_blur_frames" 1920 1080 1.1 0 100 gpu
} > "$out/blur-frames.log" 2>&1
timeout 400 bench/blur-tile-sweep.sh "$build" 50 gpu > "$out/blur-tile-sweep.log" 2>&1
{ step "clhisteq old vs fused, 1080p and 4K"
  timeout 200 "$build/bench/bench_histeq" 1920 1080 100
  timeout 200 "$build/bench/bench_histeq" 3840 2160 50
} > "$out/histeq.log" 2>&1
{ step "element tests"
  timeout 250 "$build/tests/check_clblur" > "$out/clblur.txt" 2>&1
  echo "check_clblur exit $?"; tail -3 "$out/clblur.txt"
  timeout 150 "$build/tests/check_clhisteq" > "$out/clhisteq.txt" 2>&1
  echo "check_clhisteq exit $?"; tail -3 "$out/clhisteq.txt"
} > "$out/elements.log" 2>&1
grep -hE "passed|exit|FAIL|Checks" "$out/check.log" "$out/elements.log"
cat "$out/blur-frames.log"
sed -n '/fastest/,$p' "$out/blur-tile-sweep.log"
grep -E "^NVIDIA|fused / old" "$out/histeq.log"
