#!/bin/bash
# Session 11, device run 1: the edge-only exchange across (EDGES=1, the new
# default) against whole float4s (EDGES=0), Sobel and blur, on the GPU,
# alternating; the GPU checkers of both; the PoCL 5.0 serial-fused histeq
# check. From the checkout root: . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }
{
step machine; nvidia-smi -L; clinfo -l
for pass in 1 2; do
  for e in 1 0; do
    step "sobel EDGES=$e pass $pass"
    GST_CL_SOBEL_EDGES=$e timeout 60 build/bench/bench_sobel_kernels 3840 2160 200 tiled gpu
    GST_CL_SOBEL_EDGES=$e timeout 60 build/bench/bench_sobel_kernels 1920 1080 200 tiled gpu
  done
done
for pass in 1 2; do
  for e in 1 0; do
    step "blur EDGES=$e pass $pass"
    GST_CL_BLUR_EDGES=$e timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu
    GST_CL_BLUR_EDGES=$e timeout 60 build/bench/bench_blur_frames 1920 1080 1.1 5 200 gpu
  done
done
} > "$out/ab.log" 2>&1
{
step "sobel checker, GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_sobel_kernels tiled | tail -3; echo "exit $?"
step "blur checker, GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_blur_kernels tiled | tail -3; echo "exit $?"
step "histeq serial-fused, PoCL 5.0"; HISTEQ_CHECK_PATHS=serial-fused KERNELCHECK_DEVICES=cpu timeout 120 build/tests/check_histeq_kernels | tail -5; echo "exit $?"
} > "$out/check.log" 2>&1
grep -cE "tiled|b2b" "$out/ab.log"
cat "$out/check.log"
