#!/bin/bash
# Session 26, device run 1: the dependency floors of bench/floor.cl beside
# clhisteq. bench_floor three times (480p, 1080p, 4K, GRAY8 and NV12
# bytes), then bench.py clhisteq and clhisteq-clahe with the floors, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2 3; do
    echo "=== bench_floor pass $pass ($(date +%T))"
    timeout 120 build-dev/bench/bench_floor 50 307200 460800 2073600 3110400 8294400 12441600 2>&1
  done
  echo "=== bench-tools"
  GST_PLUGIN_PATH=$PWD/build-dev/gst timeout 300 python3 bench/test_bench_tools.py build-dev 2>&1 | grep -E "^(ok|FAIL|not ok)|failure" | grep -v "^ok" ; echo "exit ${PIPESTATUS[0]}"
  for pass in 1 2; do
    echo "=== bench.py pass $pass ($(date +%T))"
    timeout 400 python3 bench/bench.py --build-dir build-dev --devices gpu --sizes 480p,1080p,4K \
      --items clhisteq,clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench$pass" 2>&1 | \
      grep -vE "^# .*pipelines x"
  done
} > "$out/run1.out" 2>&1
