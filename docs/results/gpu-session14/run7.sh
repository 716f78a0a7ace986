#!/bin/bash
# Session 14, device run 7: which conversions bound the tiles now. The same
# build (8eb60fc plus two temporary switches) with GST_CL_BUILD_OPTIONS:
# -DIN_MAGIC=1 bytes to floats by bit operations and a float add instead of
# cvt.rn.f32.u8; -DOUT_MAGIC=1 (clsobel) floats to bytes by clamp and an add
# of 2^23 instead of cvt.rni.sat.u8.f32. Kernel times taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for o in "-DOUT_MAGIC=1 -DIN_MAGIC=1" ; do
    echo "=== checkers with $o"
    GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu timeout 120 build/tests/check_sobel_kernels tiled 2>&1 | tail -1
    GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu timeout 120 build/tests/check_blur_kernels tiled 2>&1 | tail -1
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
for pass in 1 2 3; do
  for o in "" "-DOUT_MAGIC=1" "-DIN_MAGIC=1" "-DOUT_MAGIC=1 -DIN_MAGIC=1"; do
    echo "=== pass $pass options '$o'"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|y +tiled +3 x"
    case "$o" in *OUT*) ;; *) GST_CL_BUILD_OPTIONS="$o" timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu | grep -E "GRAY8|one-launch";; esac
  done
done 2>&1 | tee "$out/kernels.log"
