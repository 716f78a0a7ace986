#!/bin/bash
# Session 36, device run 7: do NVIDIA's spinning host waits slow the other
# threads' driver calls? GST_CL_SLEEPING_WAITS=1 makes every host wait
# sleep until an event callback instead of calling clWaitForEvents (which
# spins with sched_yield), in turns with the default, three rounds: the
# queued chain and the chain alone, 1080p GRAY8 and NV12, 4K GRAY8; then
# hostprof of the queued 1080p GRAY8 chain with sleeping waits.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  echo "=== 1. same bytes $(date +%T)"
  for s in 1 0; do
    sum=$(GST_CL_SLEEPING_WAITS=$s timeout 60 gst-launch-1.0 -q videotestsrc num-buffers=200 pattern=ball \
      ! video/x-raw,format=NV12,width=1920,height=1080 ! queue ! $CHAIN ! queue ! fdsink fd=1 2>/dev/null | md5sum)
    echo "sleeping=$s $sum"
  done
  echo "=== 2. bench_pipeline --touch $(date +%T)"
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2 3; do
      for s in 1 0; do
        for mid in "queue ! $CHAIN ! queue" "$CHAIN"; do
          r=$(GST_CL_SLEEPING_WAITS=$s bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "$mid")
          echo "$size $fmt round=$round sleeping=$s ${mid:0:5} $r"
        done
      done
    done
  done
  echo "=== 3. hostprof $(date +%T)"
  GST_CL_SLEEPING_WAITS=1 HOSTPROF_OUT=$out/q-sleep.%p.txt LD_PRELOAD=build/bench/libhostprof.so \
    bp --format GRAY8 --width 1920 --height 1080 --frames 20000 "queue ! $CHAIN ! queue"
  big=$(ls -S "$out"/q-sleep.*.txt | head -1); mv "$big" "$out/q-sleep.txt"; rm -f "$out"/q-sleep.*.txt
  echo "=== done $(date +%T)"
} > "$out/run7.log" 2>&1
cat "$out/run7.log"
