#!/bin/bash
# Session 34, device run 4: the host's share of a GPU pipeline's frame.
# run3.sh's timelines, now with the host's clock (libclprof.so writes each
# enqueue call's return and each host wait), and the host's wait for the
# frame polled for up to GST_CL_WAIT_SPIN_US before it blocks (0: not at
# all, the default), in turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
prof=$PWD/build/bench/libclprof.so
blur="clblur device=gpu sigma=1.1 kernel-size=5"   # bench.py's fragments
chain="$blur ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
one () {   # W H FORMAT NAME PIPELINE
  local t="$out/tl.tsv"
  echo "=== $4 spin=${GST_CL_WAIT_SPIN_US:-0} ($1x$2 $3)"
  CLPROF_TIMELINE=$t LD_PRELOAD=$prof timeout 60 build/bench/bench_pipeline \
      --width "$1" --height "$2" --format "$3" --frames 400 --seconds 0.3 "$5" 2>/dev/null |
    grep -o '"frames":[0-9]*,"ms":[0-9.]*'
  [ "$4" = identity ] || python3 bench/timeline_gaps.py "$t" --skip 40 | tail -2
  rm -f "$t"
}
{
  for pass in 1 2; do
    for spin in 0 1000; do
      export GST_CL_WAIT_SPIN_US=$spin
      for size in "1920 1080 GRAY8" "1920 1080 NV12" "3840 2160 GRAY8"; do
        one $size chain "$chain"
        one $size blur "$blur"
        one $size identity identity
      done
    done
  done
} > "$out/run4.log" 2>&1
cat "$out/run4.log"
