#!/bin/bash
# Session 30, device run 3: bench_floor's floors on frames of noise (the
# default from this run on) and on zeros (BENCH_FLOOR_ZEROS=1, as run 2
# measured), three passes; then clhisteq's one-launch kernel on noise and
# on a flat frame (bench_histeq, global mode), two passes, to set beside
# the histogram floors on the same kind of bytes.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
fl () {
  timeout 120 build-dev/bench/bench_floor 200 307200 2073600 8294400 2>&1 |
    python3 -c '
import json, sys
for l in sys.stdin:
    try: r = json.loads(l)
    except Exception: continue
    if "bytes" not in r or r["type"] != "GPU": continue
    print("  %9d rw %.4f read %.4f wait %.4f hist_wait %.4f atom_wait %.4f giveups %s/%s/%s chunks %s" % (
        r["bytes"], r["rw_kernel_ms"], r["read_kernel_ms"], r.get("sync_kernel_ms", -1),
        r.get("hist_sync_kernel_ms", -1), r.get("atom_sync_kernel_ms", -1), r.get("sync_giveups"),
        r.get("hist_sync_giveups"), r.get("atom_sync_giveups"), r.get("sync_chunks")))'
}
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2 3; do
    echo "=== bench_floor noise pass $pass ($(date +%T))"; fl
    echo "=== bench_floor zeros pass $pass ($(date +%T))"; BENCH_FLOOR_ZEROS=1 fl
  done
  for pass in 1 2; do
    for sz in "1920 1080" "3840 2160"; do
      echo "=== bench_histeq $sz pass $pass"
      GST_CL_CACHE_DIR=/tmp/clcache-h timeout 60 build-dev/bench/bench_histeq $sz 200 gpu 2>&1 | grep "GRAY8.*global.*fused\|floors" | head -6
    done
  done
} > "$out/run3.out" 2>&1
