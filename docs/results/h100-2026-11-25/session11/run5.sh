#!/bin/bash
# Session 11, device run 5: how much the 4K kernel/floor ratios move from
# one bench.py run to the next with the same code (three runs in one call),
# and the floor alone, measured again and again.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
for i in 1 2 3; do
  echo "=== bench.py run $i ($(date +%T))"
  timeout 100 python3 bench/bench.py --items clblur,clsobel --sizes 4K,1080p --formats GRAY8,NV12 \
    --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --budget 80 --out "$out/b$i" 2>&1 |
    grep -E "GPU: kernel"
done > "$out/ratios.log"
for i in 1 2 3 4 5 6; do
  build/bench/bench_floor 200 $((3840 * 2160)) $((3840 * 2160 * 3 / 2)) 2>&1 | grep -i nvidia
done > "$out/floors.log"
(cd "$out" && tar czf b.tgz b1 b2 b3 && rm -rf b1 b2 b3)
cat "$out/ratios.log" "$out/floors.log"
