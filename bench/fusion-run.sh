#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# GPU launch fusion on the GPU machine, in parts so each stays within one
# 10-minute device call (a report, never a test):
#   . .device/env.sh && bench/fusion-run.sh check "$OUT"
#       kernel checkers (every variant and path on every device, the one-
#       launch YUV blur and the fused clhisteq included)
#   . .device/env.sh && bench/fusion-run.sh elements "$OUT"
#       element tests of clblur and clhisteq
#   . .device/env.sh && bench/fusion-run.sh bench "$OUT"
#       clblur NV12/I420 one launch against per-plane launches, the tile
#       sweep (blur and sobel), clhisteq old (separate launches) against
#       fused, kernel time per frame
part=${1:?usage: fusion-run.sh check|elements|bench OUT [BUILD_DIR]}
out=${2:?usage: fusion-run.sh check|elements|bench OUT [BUILD_DIR]}
build=${3:-build}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/$build GST_CL_CACHE_DIR=${GST_CL_CACHE_DIR:-/tmp/clcache}
step () { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }

if [ "$part" = check ]; then
  { step "kernel checkers"
    timeout 300 "$build/tests/check_blur_kernels" > "$out/check-blur.txt" 2>&1
    echo "check_blur_kernels exit $?"
    grep -E "tiled|passed|FAIL" "$out/check-blur.txt"
    timeout 150 "$build/tests/check_histeq_kernels" > "$out/check-histeq.txt" 2>&1
    echo "check_histeq_kernels exit $?"
    grep -E "fused|passed|FAIL" "$out/check-histeq.txt"
    timeout 120 "$build/tests/check_sobel_kernels" > "$out/check-sobel.txt" 2>&1
    echo "check_sobel_kernels exit $?"; tail -1 "$out/check-sobel.txt"
  } > "$out/check.log" 2>&1
  grep -hE "exit|passed|FAIL" "$out/check.log"
  exit 0
fi

if [ "$part" = elements ]; then
  { step "element tests"
    timeout 360 "$build/tests/check_clblur" > "$out/clblur.txt" 2>&1
    echo "check_clblur exit $?"; tail -2 "$out/clblur.txt"
    timeout 200 "$build/tests/check_clhisteq" > "$out/clhisteq.txt" 2>&1
    echo "check_clhisteq exit $?"; tail -2 "$out/clhisteq.txt"
  } > "$out/elements.log" 2>&1
  grep -hE "exit|Checks|FAIL" "$out/elements.log"
  exit 0
fi

{ step "clblur frames: per plane vs one launch, 5x5 sigma 1.1"
  for s in "1920 1080" "3840 2160"; do
    timeout 60 "$build/bench/bench_blur_frames" $s 1.1 5 100 gpu
  done
  step "clblur frames, 9x9 (sigma 1.1, size derived)"
  timeout 60 "$build/bench/bench_blur_frames" 1920 1080 1.1 0 100 gpu
} > "$out/blur-frames.log" 2>&1
{ step "clhisteq old vs fused, 1080p and 4K"
  timeout 120 "$build/bench/bench_histeq" 1920 1080 100
  timeout 120 "$build/bench/bench_histeq" 3840 2160 50
} > "$out/histeq.log" 2>&1
timeout 300 bench/tile-sweep.sh "$build" 50 gpu > "$out/tile-sweep.log" 2>&1
cat "$out/blur-frames.log"
grep -E "^NVIDIA|fused / old" "$out/histeq.log"
awk '/fastest/ { p = 1 } p && (/fastest/ || /^  /)' "$out/tile-sweep.log"
