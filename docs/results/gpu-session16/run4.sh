#!/bin/bash
# Session 16, device run 4: clsobel's magnitude and output (temporary
# switches on top of OUT_U16 of run 3): SQRT_FTZ, sqrt.approx.ftz.f32;
# OUT_RSQ, n * rsqrt(n) + 2^23 as one fma (n gets 2^-20 so that n = 0
# gives 0, not NaN). ABL_NOCVT (wrong output) for the bound.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
B=${B:-build-dev}
{ echo "=== machine"; nvidia-smi -L
  for o in "-DOUT_U16=1" "-DOUT_U16=1 -DSQRT_FTZ=1" "-DOUT_U16=1 -DOUT_RSQ=1"; do
    echo "=== check_sobel_kernels tiled, $o"
    GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu timeout 120 $B/tests/check_sobel_kernels tiled 2>&1 | tail -1
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
opts=("" "-DOUT_U16=1" "-DOUT_U16=1 -DSQRT_FTZ=1" "-DOUT_U16=1 -DOUT_RSQ=1" "-DABL_NOCVT=1")
for pass in 1 2 3 4; do
  for o in "${opts[@]}"; do
    echo "=== pass $pass options '$o'"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 $B/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|y +tiled +3 x"
  done
done 2>&1 | grep -v "warning" | tee "$out/kernels.log"
