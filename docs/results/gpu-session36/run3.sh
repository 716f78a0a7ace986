#!/bin/bash
# Session 36, device run 3: early downloads (the chain's last element
# queues the download right after its kernel when its consumer is not an
# OpenCL element) beside early uploads, in turns with each off:
#   EU=1 ED=1 (the defaults), EU=1 ED=0, EU=0 ED=0 (session 35's plugin).
#  1. the same bytes: 200 frames of videotestsrc pattern=ball, with and
#     without queues, GRAY8 and NV12, each mode;
#  2. bench_pipeline --touch: the queued chain and the chain alone, 1080p
#     GRAY8 and NV12, 4K GRAY8, modes in turns, two rounds;
#  3. hostprof of the queued 1080p GRAY8 chain (defaults);
#  4. bench.py's chain goal line (defaults).
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
MODES="1:1 1:0 0:0"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  echo "=== 1. same bytes $(date +%T)"
  for fmt in GRAY8 NV12; do
    for mid in "$CHAIN" "queue ! $CHAIN ! queue"; do
      for m in $MODES; do
        sum=$(GST_CL_EARLY_UPLOADS=${m%:*} GST_CL_EARLY_DOWNLOADS=${m#*:} timeout 60 gst-launch-1.0 -q \
          videotestsrc num-buffers=200 pattern=ball ! video/x-raw,format=$fmt,width=1920,height=1080 \
          ! $mid ! fdsink fd=1 2>/dev/null | md5sum)
        echo "$fmt eu:ed=$m ${mid:0:5} $sum"
      done
    done
  done
  GST_DEBUG=cl:4 gst-launch-1.0 -q videotestsrc num-buffers=2 ! clblur device=gpu ! fakesink 2>&1 |
    grep -o "created context on.*" | sort -u
  echo "=== 2. bench_pipeline --touch $(date +%T)"
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2; do
      for m in $MODES; do
        for mid in "queue ! $CHAIN ! queue" "$CHAIN"; do
          r=$(GST_CL_EARLY_UPLOADS=${m%:*} GST_CL_EARLY_DOWNLOADS=${m#*:} \
            bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.5 "$mid")
          echo "$size $fmt round=$round eu:ed=$m ${mid:0:5} $r"
        done
      done
    done
  done
  echo "=== 3. hostprof $(date +%T)"
  HOSTPROF_OUT=$out/q-early.%p.txt LD_PRELOAD=build/bench/libhostprof.so \
    bp --format GRAY8 --width 1920 --height 1080 --frames 20000 "queue ! $CHAIN ! queue"
  big=$(ls -S "$out"/q-early.*.txt | head -1); mv "$big" "$out/q-early.txt"; rm -f "$out"/q-early.*.txt
  echo "=== 4. bench.py chain goal line $(date +%T)"
  timeout 150 python3 bench/bench.py --devices gpu --sizes 1080p,4K --kinds ours,floor \
    --items blur+sobel+histeq --reps 3 --out "$out/chain" 2>&1 | grep "3-element"
  echo "=== done $(date +%T)"
} > "$out/run3.log" 2>&1
(cd "$out" && tar czf chain.tgz chain && rm -rf chain)
grep -v 'GStreamer-WARNING\|^$' "$out/run3.log"
