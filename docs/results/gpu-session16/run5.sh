#!/bin/bash
# Session 16, device run 5: clsobel's tiled store by integer steps and
# sqrt.approx.ftz (build-dev/, PACK_U16 on by default on NVIDIA) against
# e8b75f1 (build-old/, a clean worktree: cvt.rni.sat.u8.f32, sqrt ()).
# The GPU checker (now exact at scale 1, delta 0) with the default and
# with GST_CL_SOBEL_PACK=0; kernel times taking turns; bench.py's ratios
# taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L; nproc
  for p in "" 0; do
    echo "=== sobel checker, tiled, GPU, GST_CL_SOBEL_PACK='$p' ($(date +%T))"
    GST_CL_SOBEL_PACK=$p KERNELCHECK_DEVICES=gpu timeout 150 build-dev/tests/check_sobel_kernels tiled > "$out/sobel-check$p.txt" 2>&1
    echo "exit $?"; tail -1 "$out/sobel-check$p.txt"; grep -c "packed bytes" "$out/sobel-check$p.txt"; grep -m5 FAIL "$out/sobel-check$p.txt"
  done
  echo "=== sobel checker, tiled, GPU, build-old with the new checker's exactness? (old checker binary)"
  KERNELCHECK_DEVICES=gpu timeout 150 build-old/tests/check_sobel_kernels tiled 2>&1 | tail -1
} > "$out/check.log" 2>&1
cat "$out/check.log"
{
for pass in 1 2 3; do
  for b in build-dev build-old; do
    echo "=== $b pass $pass"
    timeout 60 $b/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
    timeout 60 $b/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
  done
done
} > "$out/kernels.log" 2>&1
grep -E "^===|y +tiled +(3|7) magn|y +tiled +3 x|rgba +tiled +3 magn" "$out/kernels.log" | cut -c1-120
for i in 1 2 3 4; do
  for b in build-dev build-old; do
    echo "=== bench.py $b run $i"
    GST_PLUGIN_PATH=$PWD/$b timeout 80 python3 bench/bench.py --build-dir $b --items clsobel \
      --sizes 4K,1080p --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
      --seconds 0.2 --budget 60 --out "$out/$b-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
rm -rf "$out"/build-*/
