#!/bin/bash
# Session 19, device run 6: after the review (one planes_aligned16 () for
# the kernels' two-plane alignment test; the checkers' pooled layouts from
# kernelcheck.h): the histeq and optflow checkers on the GPU.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ nvidia-smi -L
  for c in histeq optflow; do
    echo "=== check_${c}_kernels, GPU ($(date +%T))"
    KERNELCHECK_DEVICES=gpu timeout 150 build-dev/tests/check_${c}_kernels > "$out/check-$c.txt" 2>&1
    echo "exit $?"; tail -1 "$out/check-$c.txt"; grep -m5 FAIL "$out/check-$c.txt"
  done
} 2>&1 | tee "$out/check.log"
