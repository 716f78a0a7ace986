#!/bin/bash
# Session 16, device run 1: clsobel's output and square root on NVIDIA.
# The same build with GST_CL_BUILD_OPTIONS: -DOUT_PACK=1 (a temporary
# switch: the 4 output bytes by clamp, an add of 2^23 and byte permutes
# instead of cvt.rni.sat.u8.f32), -cl-denorms-are-zero (sqrt.approx.ftz),
# -cl-fast-relaxed-math. Checkers, then kernel times taking turns, then the
# PTX of each build.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
B=${B:-build-dev}
opts=("" "-DOUT_PACK=1" "-cl-denorms-are-zero" "-DOUT_PACK=1 -cl-denorms-are-zero" "-cl-fast-relaxed-math")
{ echo "=== machine"; nvidia-smi -L
  for o in "${opts[@]}"; do
    echo "=== check_sobel_kernels tiled, options '$o'"
    GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu timeout 120 $B/tests/check_sobel_kernels tiled 2>&1 | tail -1
  done
} > "$out/check.log" 2>&1
cat "$out/check.log"
for pass in 1 2 3; do
  for o in "${opts[@]}"; do
    echo "=== pass $pass options '$o'"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 $B/bench/bench_sobel_kernels 3840 2160 300 tiled gpu | grep -E "y +tiled +(3|7) magn|y +tiled +3 x"
    GST_CL_BUILD_OPTIONS="$o" timeout 60 $B/bench/bench_sobel_kernels 1920 1080 300 tiled gpu | grep -E "y +tiled +3 magn"
  done
done 2>&1 | tee "$out/kernels.log"
i=0
for o in "" "-DOUT_PACK=1 -cl-denorms-are-zero"; do
  d=/tmp/ptx$i; rm -rf $d; mkdir -p $d
  GST_CL_CACHE_DIR=$d GST_CL_BUILD_OPTIONS="$o" timeout 60 $B/bench/bench_sobel_kernels 3840 2160 3 tiled gpu > /dev/null 2>&1
  (cd $d && tar czf "$out/ptx$i.tgz" .)
  i=$((i+1))
done
ls -la "$out"
