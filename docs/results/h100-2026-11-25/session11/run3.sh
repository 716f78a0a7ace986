#!/bin/bash
# Session 11, device run 3: the committed kernels (edge-only exchange in
# clblur and clsobel, clsobel's loads decided once per work-item): GPU
# checkers, kernel times, and clhisteq's element tests now that PoCL 5.0
# takes the one-launch histogram. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }
{
step machine; nvidia-smi -L
for pass in 1 2; do
  step "sobel pass $pass"
  timeout 60 build/bench/bench_sobel_kernels 3840 2160 200 tiled gpu
  timeout 60 build/bench/bench_sobel_kernels 1920 1080 200 tiled gpu
  step "blur pass $pass"
  timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu
  timeout 60 build/bench/bench_blur_frames 1920 1080 1.1 5 200 gpu
done
} > "$out/kernels.log" 2>&1
{
step "sobel checker, GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_sobel_kernels | tail -2; echo "exit $?"
step "blur checker, GPU"; KERNELCHECK_DEVICES=gpu timeout 120 build/tests/check_blur_kernels | tail -2; echo "exit $?"
step "clhisteq element tests (both devices)"; timeout 120 build/tests/check_clhisteq 2>&1 | grep -E "Checks|:F:|:E:"; echo "exit $?"
step "clsobel element tests"; timeout 100 build/tests/check_clsobel 2>&1 | grep -E "Checks|:F:|:E:"; echo "exit $?"
} > "$out/check.log" 2>&1
cat "$out/check.log"
grep -E "^===|y +tiled +3 magn|GRAY8 +plane|NV12 +one-launch" "$out/kernels.log" | cut -c1-120
