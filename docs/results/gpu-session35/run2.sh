#!/bin/bash
# Session 35, device run 2: the transfer queues where the device sets the
# pace. Run 1 showed the pipelines fed by benchsrc's copy bound by that copy
# (identity alone 0.2 ms a 1080p GRAY8 frame, the chain's device work 0.14),
# so here benchsrc --touch writes one byte a page: every frame is still
# written by the CPU and uploaded, but the host's copy is gone.
#  1. bench_pipeline --touch under libclprof, GST_CL_TRANSFER_QUEUES 2 and 0
#     in turns, two rounds, 1080p GRAY8 and NV12, 4K GRAY8: the chain alone
#     and between two queues, beside identity the same way;
#  2. the device's timeline of the queued chain, modes 2 and 0 (1080p GRAY8);
#  3. bench.py's chain goal line (the default, mode 2; no --touch).
# (The first attempt of this run, with three rounds, mode 1 and 4K NV12,
# lost most of its calls to a hang of bench_pipeline's own: the sink sent
# the source EOS from its thread while the source waited for a pool buffer
# only the sink's thread frees. bench_pipeline now stops the source by a
# flag; this is the run after that fix.)
# rm -rf build && ln -s build-dev build && . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out/tl"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
{
  echo "=== 1. bench_pipeline --touch, modes in turns ($(date +%T))"
  for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
    size=${sf%:*} fmt=${sf#*:}
    {
      for round in 1 2; do
        for q in 2 0; do
          GST_CL_TRANSFER_QUEUES=$q LD_PRELOAD=build/bench/libclprof.so timeout 30 \
            build/bench/bench_pipeline --touch --format $fmt --width ${size%x*} --height ${size#*x} \
            --frames 3000 --warmup 20 --seconds 0.5 \
            identity "queue ! identity ! queue" "$CHAIN" "queue ! $CHAIN ! queue" |
            sed "s/^/$size $fmt round=$round queues=$q /"
        done
      done
    }
  done
  echo "=== 2. timelines ($(date +%T))"
  for q in 2 0; do
    GST_CL_TRANSFER_QUEUES=$q CLPROF_TIMELINE=$out/tl/q$q.txt LD_PRELOAD=build/bench/libclprof.so \
      timeout 60 build/bench/bench_pipeline --touch --format GRAY8 --width 1920 --height 1080 \
      --frames 400 --warmup 20 "queue ! $CHAIN ! queue" | sed "s/^/timeline queues=$q /"
  done
  echo "=== 3. bench.py chain goal, mode 2 ($(date +%T))"
  timeout 120 python3 bench/bench.py --devices gpu --sizes 1080p,4K --kinds ours,floor \
    --items blur+sobel+histeq --reps 3 --out "$out/chain-q2" 2>&1 | grep "3-element"
  echo "=== done ($(date +%T))"
} > "$out/run2.log" 2>&1
(cd "$out" && tar czf extra.tgz tl chain-q2 && rm -rf tl chain-q2)
grep -E "^===|3-element|^timeline" "$out/run2.log" | cut -c1-200
