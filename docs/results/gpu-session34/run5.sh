#!/bin/bash
# Session 34, device run 5: the 3-element chain's transfer bound with the
# output's own size (an NV12 chain hands the sink GRAY8: bench_pipeline now
# reports what reached the sink, and bench.py scales the download floor by
# it), three passes; then clhisteq and CLAHE against their floors, three
# passes (how often the 1.5x line is met when the floor moves).
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
{
  for pass in 1 2 3; do
    echo "=== pass $pass: chains ($(date +%T))"
    timeout 150 python3 bench/bench.py --devices gpu --sizes 1080p,4K --kinds ours,floor \
        --items blur+sobel,blur+sobel+histeq --reps 3 --out "$out/chain$pass" 2>&1 |
      sed -n '/^## Headline/,/^  best CPU/p;/3-element/p'
    echo "=== pass $pass: clhisteq ($(date +%T))"
    timeout 150 python3 bench/bench.py --devices gpu --sizes 1080p,4K --kinds ours,floor \
        --items clhisteq,clhisteq-clahe --reps 3 --out "$out/histeq$pass" 2>&1 |
      grep "kernel <= 1.5x"
  done
} > "$out/run5.log" 2>&1
cat "$out/run5.log"
