#!/bin/bash
# Session 11, device run 4: the Sobel checker's tiled variant on the GPU
# with the committed loads, then bench/device-run.sh bench (every element
# and chain, both devices; PoCL scaling). . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== sobel checker, tiled, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 90 build/tests/check_sobel_kernels tiled > "$out/sobel-check.txt" 2>&1
  echo "exit $?"; tail -1 "$out/sobel-check.txt"; } > "$out/check.log"
cat "$out/check.log"
bench/device-run.sh bench "$out"
