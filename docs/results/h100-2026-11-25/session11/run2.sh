#!/bin/bash
# Session 11, device run 2: clsobel's loads decided once per work-item (the
# new code) against per load (OLD_LOADS=1, the previous code), each with
# edge-only and float4 exchange; a tile sweep at 4K; bench_pipeline's raw
# times on the GPU (identity beside ours, GRAY8 and NV12); bench.py's
# kernel/floor; POCL_AFFINITY on the 16-core PoCL.
# From the checkout root: . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1 ($(date +%T))"; }
{
step machine; nvidia-smi -L
for pass in 1 2; do
  for cfg in "OLD_LOADS=1 EDGES=0" "OLD_LOADS=0 EDGES=0" "OLD_LOADS=0 EDGES=1"; do
    set -- $cfg; old=${1#*=}; e=${2#*=}
    step "sobel $cfg pass $pass"
    GST_CL_BUILD_OPTIONS="-DOLD_LOADS=$old" GST_CL_SOBEL_EDGES=$e timeout 60 build/bench/bench_sobel_kernels 3840 2160 200 tiled gpu
    GST_CL_BUILD_OPTIONS="-DOLD_LOADS=$old" GST_CL_SOBEL_EDGES=$e timeout 60 build/bench/bench_sobel_kernels 1920 1080 200 tiled gpu
  done
done
for t in 16:32x4 8:32x4 32:32x4 32:32x8 16:32x2 16:64x2 16:16x8 64:32x4 16:64x4; do
  step "sobel tile $t"
  GST_CL_SOBEL_TILE=$t timeout 60 build/bench/bench_sobel_kernels 3840 2160 200 tiled gpu
  GST_CL_SOBEL_TILE=$t timeout 60 build/bench/bench_sobel_kernels 1920 1080 200 tiled gpu
done
} > "$out/sobel.log" 2>&1
{
for f in GRAY8 NV12; do
  for rep in 1 2; do
    step "bench_pipeline $f 1080p rep $rep"
    timeout 60 build/bench/bench_pipeline --format $f --width 1920 --height 1080 --frames 400 --warmup 30 --seconds 0.5 \
      identity "clblur device=gpu" "clsobel device=gpu" "clhisteq device=gpu" "clblur device=gpu ! clsobel device=gpu ! clhisteq device=gpu"
  done
done
} > "$out/pipeline.log" 2>&1
step "bench.py" > "$out/bench.log"
timeout 200 python3 bench/bench.py --items clblur,clsobel,blur+sobel+histeq --sizes 1080p,4K \
  --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 150 \
  --out "$out/benchpy" >> "$out/bench.log" 2>&1
echo "exit $?" >> "$out/bench.log"
{
for pass in 1 2; do
  for a in 0 1; do
    step "PoCL 16 cores POCL_AFFINITY=$a pass $pass"
    POCL_AFFINITY=$a timeout 60 build/bench/bench_kernels 1920 1080 1.1 300 fixed 5 2>&1 | grep -iE "pthread|cpu|fixed|floor" | head -8
    POCL_AFFINITY=$a timeout 60 build/bench/bench_histeq 1920 1080 100 cpu 2>&1 | head -12
  done
done
} > "$out/affinity.log" 2>&1
(cd "$out" && tar czf benchpy.tgz benchpy && rm -rf benchpy)
sed -n '/^## Headline/,$p' "$out/bench.log" | grep -E "GPU|^##" | head -40
