#!/bin/bash
# Session 13, device run 7 (H100): taller tiles with the row-at-a-time
# shuffle path (build/: rowwise.patch applied) against the committed code
# (build-old/: HEAD), GST_CL_SOBEL_TILE = 16:32x4 (default), 32:32x4,
# 32:32x8, 64:32x8; the GPU checker on the tall tile; bench.py for the
# default and 32:32x4. . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ nvidia-smi -L
  for t in 32:32x4; do
    echo "=== sobel checker, tiled, GPU, rowwise, TILE=$t ($(date +%T))"
    GST_CL_SOBEL_TILE=$t KERNELCHECK_DEVICES=gpu timeout 90 build/tests/check_sobel_kernels tiled > "$out/check-$t.txt" 2>&1
    echo "exit $?"; tail -1 "$out/check-$t.txt"; grep -m3 FAIL "$out/check-$t.txt"
  done; } > "$out/check.log" 2>&1
cat "$out/check.log"
{
for pass in 1 2; do
  for t in 16:32x4 32:32x4 32:32x8 64:32x8; do
    for b in build build-old; do
      echo "=== $b TILE=$t pass $pass"
      GST_CL_SOBEL_TILE=$t timeout 60 $b/bench/bench_sobel_kernels 3840 2160 300 tiled gpu
      GST_CL_SOBEL_TILE=$t timeout 60 $b/bench/bench_sobel_kernels 1920 1080 300 tiled gpu
    done
  done
done
} > "$out/sobel.log" 2>&1
awk '/^===/{v=$0; sub(/ pass [0-9]+$/,"",v); sub(/^=== /,"",v); next} /^sobel [0-9]+x/{size=$2} / y +tiled /{ if ($(NF-6)==3 || $(NF-6)==7) {k=v" | "size" "$(NF-6)" "$(NF-5); a[k]=a[k]" "$(NF-4); f[k]=f[k]" "$(NF-2)}} END{for(k in a) print k": "a[k]"   floor"f[k]}' "$out/sobel.log" | sort
for i in 1 2; do
  for c in "build 16:32x4" "build 32:32x4" "build-old 16:32x4"; do
    set -- $c
    echo "=== bench.py $1 TILE=$2 run $i"
    GST_CL_SOBEL_TILE=$2 GST_PLUGIN_PATH=$PWD/$1 timeout 70 python3 bench/bench.py --build-dir $1 --items clsobel \
      --sizes 4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
      --seconds 0.2 --budget 35 --out "$out/b-$1-${2%%:*}-$i" 2>&1 | grep -E "GPU: kernel"
  done
done > "$out/ratios.log"
cat "$out/ratios.log"
(cd "$out" && tar czf b.tgz b-* && rm -rf b-*/)
