#!/bin/bash
# Session 15, device run 5: the final tree (build-dev/, 5fb1d10) on the
# GPU: both checkers with the default settings, with the neighbours'
# sums through local memory (GST_CL_WARP_XCHG=0, the half tile's
# local-memory exchange with PTX arithmetic), and the blur with another
# tile shape (8 rows an item); one kernel timing of each.
# . .device/env.sh && bash THIS "$OUT"
# (as run, the checker logs were named after the setting itself; names
# with = and : did not come back from the device, so check.log holds
# their summary lines)
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache KERNELCHECK_DEVICES=gpu
B=build-dev
{ echo "=== machine"; nvidia-smi -L
  for setting in "" GST_CL_WARP_XCHG=0 GST_CL_BLUR_TILE=32:32x4; do
    for k in blur sobel; do
      [ "$k" = sobel ] && [ "${setting#GST_CL_BLUR}" != "$setting" ] && continue
      echo "=== $k checker, tiled, GPU, ${setting:-defaults} ($(date +%T))"
      f="$out/$k-check-$(echo "${setting:-defaults}" | tr '=:' '--').txt"
      env $setting timeout 150 $B/tests/check_${k}_kernels tiled > "$f" 2>&1
      echo "exit $?"; grep -m1 -o "tiled ([^)]*)" "$f"
      tail -1 "$f"; grep -m5 FAIL "$f"
    done
  done
  echo "=== kernels"
  timeout 60 $B/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu | grep -E "GRAY8|NV12"
  timeout 60 $B/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +3 magn"
} > "$out/check.log" 2>&1
cat "$out/check.log"
