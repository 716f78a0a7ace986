#!/bin/bash
# Session 16, device run 6: c407ff6 (build-dev/), bench.py's
# kernel / floor at 4K for clsobel and clblur, six runs in a row, to see
# how often clsobel 4K GRAY8 stays under 1.5x on an H200.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
B=build-dev
nvidia-smi -L > "$out/ratios.log"
for i in 1 2 3 4 5 6; do
  echo "=== bench.py $B run $i"
  GST_PLUGIN_PATH=$PWD/$B timeout 60 python3 bench/bench.py --build-dir $B --items clsobel,clblur \
    --sizes 4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 \
    --seconds 0.2 --budget 45 --out "$out/r$i" 2>&1 | grep -E "GPU: kernel"
done >> "$out/ratios.log"
rm -rf "$out"/r*/
cat "$out/ratios.log"
