#!/bin/bash
# Session 36, device run 2: early uploads (a frame the CPU wrote is
# uploaded at its writer's unmap, in the writer's thread) against uploads
# at the kernel's map (GST_CL_EARLY_UPLOADS=0), in turns.
#  1. the same bytes: 200 frames of videotestsrc pattern=ball through the
#     3-element chain, with and without queues, GRAY8 and NV12, both modes;
#  2. bench_pipeline --touch: the queued chain and the chain alone, 1080p
#     GRAY8 and NV12, 4K GRAY8, modes in turns, two rounds;
#  3. hostprof of the queued 1080p GRAY8 chain with early uploads.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  echo "=== 1. same bytes $(date +%T)"
  for fmt in GRAY8 NV12; do
    for mid in "$CHAIN" "queue ! $CHAIN ! queue"; do
      for e in 1 0; do
        sum=$(GST_CL_EARLY_UPLOADS=$e timeout 60 gst-launch-1.0 -q videotestsrc num-buffers=200 pattern=ball \
          ! video/x-raw,format=$fmt,width=1920,height=1080 ! $mid ! fdsink fd=1 | md5sum)
        echo "$fmt early=$e ${mid:0:5} $sum"
      done
    done
  done
  GST_DEBUG=cl:4 gst-launch-1.0 -q videotestsrc num-buffers=2 ! clblur device=gpu ! fakesink 2>&1 |
    grep -o "created context on.*" | sort -u
  echo "=== 2. bench_pipeline --touch $(date +%T)"
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2; do
      for e in 1 0; do
        for mid in "queue ! $CHAIN ! queue" "$CHAIN"; do
          r=$(GST_CL_EARLY_UPLOADS=$e bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.5 "$mid")
          echo "$size $fmt round=$round early=$e ${mid:0:5} $r"
        done
      done
    done
  done
  echo "=== 3. hostprof $(date +%T)"
  HOSTPROF_OUT=$out/q-early.%p.txt LD_PRELOAD=build/bench/libhostprof.so \
    bp --format GRAY8 --width 1920 --height 1080 --frames 20000 "queue ! $CHAIN ! queue"
  big=$(ls -S "$out"/q-early.*.txt | head -1); mv "$big" "$out/q-early.txt"; rm -f "$out"/q-early.*.txt
  echo "=== done $(date +%T)"
} > "$out/run2.log" 2>&1
cat "$out/run2.log"
