#!/bin/bash
# Session 16, device run 2: where clsobel's 4K time goes, by ablation
# (temporary switches; the ABL_ ones give wrong output and are timed only):
# ABL_NOSQRT no square root; ABL_NOCVT the float bits packed instead of
# cvt.rni.sat.u8.f32; ABL_NOSHFL no warp shuffles. OUT_H2 (a candidate,
# checked): +1024, two floats to a half pair, min, one byte permute.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
B=${B:-build-dev}
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_sobel_kernels tiled, -DOUT_H2=1"
  GST_CL_BUILD_OPTIONS="-DOUT_H2=1" KERNELCHECK_DEVICES=gpu timeout 120 $B/tests/check_sobel_kernels tiled 2>&1 | tail -1
} > "$out/check.log" 2>&1
cat "$out/check.log"
opts=("" "-DOUT_H2=1" "-DABL_NOSQRT=1" "-DABL_NOCVT=1" "-DABL_NOSHFL=1" "-DABL_NOSQRT=1 -DABL_NOCVT=1")
for pass in 1 2 3; do
  for o in "${opts[@]}"; do
    echo "=== pass $pass options '$o'"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 $B/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|y +tiled +3 x"
  done
done 2>&1 | tee "$out/kernels.log"
