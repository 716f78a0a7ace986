#!/bin/bash
# Session 35, device run 1: the transfer queues (GST_CL_TRANSFER_QUEUES:
# 0 = every transfer on the one queue, as before; 1 = uploads on a queue of
# their own; 2 = uploads and downloads each on their own, the default).
#  1. the same bytes out of the 3-element chain in every mode, with and
#     without queue elements (threads), GRAY8 and NV12 at 1080p;
#  2. the staged element tests on PoCL 5.0 here (GST_CL_STAGING=1);
#  3. bench_pipeline under libclprof, the modes in turns, three rounds:
#     the chain alone and between two queues, beside identity the same way;
#  4. bench.py's chain goal line in modes 0 and 2;
#  5. the device's timeline of the queued chain, modes 0 and 2.
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out/tl"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
{
  echo "=== 1. bytes out ($(date +%T))"
  for fmt in GRAY8 NV12; do
    for threads in no yes; do
      for q in 0 1 2; do
        if [ $threads = yes ]; then mid="queue ! $CHAIN ! queue"; else mid="$CHAIN"; fi
        sum=$(GST_CL_TRANSFER_QUEUES=$q gst-launch-1.0 -q videotestsrc num-buffers=200 pattern=ball \
          ! video/x-raw,format=$fmt,width=1920,height=1080 ! $mid ! fdsink fd=1 | md5sum)
        echo "$fmt threads=$threads queues=$q $sum"
      done
    done
  done
  GST_DEBUG=cl:4 gst-launch-1.0 -q videotestsrc num-buffers=2 ! clblur device=gpu ! fakesink 2>&1 |
    grep -o "created context on.*" | sort -u
  echo "=== 2. staged element tests on PoCL ($(date +%T))"
  for t in clblur clsobel clhisteq cloptflow; do
    GST_CL_STAGING=1 timeout 120 build/tests/check_$t 2>&1 | grep -E "Checks|:F:|:E:"
  done
  echo "=== 3. bench_pipeline, modes in turns ($(date +%T))"
  for size in 1920x1080 3840x2160; do
    for fmt in GRAY8 NV12; do
      for round in 1 2 3; do
        for q in 2 1 0; do
          GST_CL_TRANSFER_QUEUES=$q LD_PRELOAD=build/bench/libclprof.so timeout 60 \
            build/bench/bench_pipeline --format $fmt --width ${size%x*} --height ${size#*x} \
            --frames 3000 --warmup 20 --seconds 1 \
            identity "queue ! identity ! queue" "$CHAIN" "queue ! $CHAIN ! queue" |
            sed "s/^/$size $fmt round=$round queues=$q /"
        done
      done
    done
  done
  echo "=== 4. bench.py chain goal, modes 2 and 0 ($(date +%T))"
  for q in 2 0; do
    GST_CL_TRANSFER_QUEUES=$q timeout 100 python3 bench/bench.py --devices gpu --sizes 1080p,4K \
      --kinds ours,floor --items blur+sobel+histeq --reps 3 --out "$out/chain-q$q" 2>&1 |
      grep "3-element" | sed "s/^/queues=$q /"
  done
  echo "=== 5. timelines ($(date +%T))"
  for q in 2 0; do
    GST_CL_TRANSFER_QUEUES=$q CLPROF_TIMELINE=$out/tl/q$q.txt LD_PRELOAD=build/bench/libclprof.so \
      timeout 60 build/bench/bench_pipeline --format GRAY8 --width 1920 --height 1080 \
      --frames 400 --warmup 20 "queue ! $CHAIN ! queue" | sed "s/^/timeline queues=$q /"
  done
  echo "=== done ($(date +%T))"
} > "$out/run1.log" 2>&1
(cd "$out" && tar czf extra.tgz tl chain-q* && rm -rf tl chain-q*)
grep -E "^(===|GRAY8|NV12|created)|Checks|:F:|queues=. (3-|timeline)" "$out/run1.log" | cut -c1-300
