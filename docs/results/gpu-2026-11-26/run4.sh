#!/bin/bash
# Session 13, device run 4: registers of clsobel's and clblur's GPU kernels
# (NVIDIA's -cl-nv-verbose build log, at GST_DEBUG=cl:5), and clsobel's
# vertical-first tiles a row at a time (-DROWWISE=1: each row's sums down,
# its shuffles and its store before the next row's, so that one row's sums
# are live at once) against all rows' sums first (=0, the committed order):
# the GPU checker, kernel times taking turns, bench.py's ratios taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for e in 0 1; do
    echo "=== registers, ROWWISE=$e"
    GST_CL_CACHE_DIR=/tmp/nocache-$e GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-DROWWISE=$e -cl-nv-verbose" \
      timeout 60 build/bench/bench_sobel_kernels 3840 2160 5 tiled gpu 2>&1 |
      grep -E "building sobel|ptxas info *: (Compiling|Used)" | sed 's/.*building sobel \[\(-cl-std=CL1.2 -DK=[0-9]* -DMODE=[0-9]*\).*/== \1/' | cut -c1-120
  done
  echo "=== registers, blur (bench_blur_frames 4K)"
  GST_CL_CACHE_DIR=/tmp/nocache-b GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" \
    timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 5 gpu 2>&1 |
    grep -E "ptxas info *: (Compiling|Used)" | cut -c1-120
  for e in 1; do
    echo "=== sobel checker, tiled, GPU, ROWWISE=$e ($(date +%T))"
    GST_CL_BUILD_OPTIONS="-DROWWISE=$e" KERNELCHECK_DEVICES=gpu timeout 90 \
      build/tests/check_sobel_kernels tiled > "$out/sobel-check-$e.txt" 2>&1
    echo "exit $?"; tail -1 "$out/sobel-check-$e.txt"; grep -m5 FAIL "$out/sobel-check-$e.txt"
  done; } > "$out/check.log" 2>&1
cat "$out/check.log"
{
for pass in 1 2 3; do
  for e in 1 0; do
    echo "=== ROWWISE=$e pass $pass"
    GST_CL_BUILD_OPTIONS="-DROWWISE=$e" timeout 60 build/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    GST_CL_BUILD_OPTIONS="-DROWWISE=$e" timeout 60 build/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
} > "$out/sobel.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|y +tiled +3 x|rgba +tiled +3 magn" "$out/sobel.log" | cut -c1-110
for i in 1 2; do
  for e in 1 0; do
    echo "=== bench.py ROWWISE=$e run $i"
    GST_CL_BUILD_OPTIONS="-DROWWISE=$e" timeout 80 python3 bench/bench.py --items clsobel --sizes 4K,1080p \
      --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 60 \
      --out "$out/b$e-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz b1-* b0-* && rm -rf b1-* b0-*)
