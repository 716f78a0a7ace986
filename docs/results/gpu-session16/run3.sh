#!/bin/bash
# Session 16, device run 3: clsobel's output bytes without cvt (temporary
# switches). OUT_U16: + 2^23, the low halves of two words by one byte
# permute, min.u16x2 with 255, one permute to 4 bytes. SQRT_FTZ:
# sqrt.approx.ftz.f32 by inline PTX. OUT_H2 and ABL_NOCVT (wrong output,
# the cost without any conversion) as in run 2, for comparison.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
B=${B:-build-dev}
{ echo "=== machine"; nvidia-smi -L
  for o in "-DOUT_U16=1" "-DSQRT_FTZ=1" "-DOUT_U16=1 -DSQRT_FTZ=1"; do
    echo "=== check_sobel_kernels tiled, $o"
    GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu timeout 120 $B/tests/check_sobel_kernels tiled 2>&1 | tail -1
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
opts=("" "-DOUT_U16=1" "-DOUT_U16=1 -DSQRT_FTZ=1" "-DSQRT_FTZ=1" "-DOUT_H2=1" "-DABL_NOCVT=1")
for pass in 1 2 3; do
  for o in "${opts[@]}"; do
    echo "=== pass $pass options '$o'"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 $B/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|y +tiled +3 x"
  done
done 2>&1 | grep -v "warning" | tee "$out/kernels.log"
