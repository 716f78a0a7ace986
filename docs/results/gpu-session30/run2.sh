#!/bin/bash
# Session 30, device run 2: bench/floor.cl's new floors (HIST 1: the frame
# read, clhisteq's local-atomic histogram, the grid-wide wait, the write;
# HIST 2: as many local atomics with no bank shared) beside the read+write
# and read/wait/write floors, bench_floor three passes at every size; then
# bench.py clhisteq with the floors, two passes (bench.py's new rows); then
# test_bench_tools.py (its GPU checks of the new fields).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2 3; do
    echo "=== bench_floor pass $pass ($(date +%T))"
    timeout 120 build-dev/bench/bench_floor 200 307200 460800 2073600 3110400 8294400 12441600 2>&1 |
      python3 -c '
import json, sys
for l in sys.stdin:
    try: r = json.loads(l)
    except Exception: print(l.rstrip()); continue
    if "bytes" not in r or r["type"] != "GPU": continue
    print("  %9d rw %.4f read %.4f wait %.4f hist_wait %.4f atom_wait %.4f giveups %s/%s/%s chunks %s" % (
        r["bytes"], r["rw_kernel_ms"], r["read_kernel_ms"], r.get("sync_kernel_ms", -1),
        r.get("hist_sync_kernel_ms", -1), r.get("atom_sync_kernel_ms", -1), r.get("sync_giveups"),
        r.get("hist_sync_giveups"), r.get("atom_sync_giveups"), r.get("sync_chunks")))'
  done
  for pass in 1 2; do
    echo "=== bench.py clhisteq pass $pass ($(date +%T))"
    GST_CL_CACHE_DIR=/tmp/clcache-b timeout 90 python3 bench/bench.py --build-dir build-dev --devices gpu \
      --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/b$pass" > "$out/bench$pass.txt" 2>&1
    echo "exit $?"
    awk -F, '$7=="ours"||$7=="floor"{printf "  %s %s %s %s kernel_ms %s\n", $1, $8, $3, $6, $13}' "$out/b$pass/bench.csv"
  done
  echo "=== test_bench_tools ($(date +%T))"
  GST_PLUGIN_PATH=build-dev timeout 300 python3 bench/test_bench_tools.py build-dev 2>&1 | tail -15
  echo "exit ${PIPESTATUS[0]}"
} > "$out/run2.out" 2>&1
