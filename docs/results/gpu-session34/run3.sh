#!/bin/bash
# Session 34, device run 3: where the GPU sits idle in a pipeline. Each
# pipeline runs alone under libclprof.so with CLPROF_TIMELINE, and
# bench/timeline_gaps.py splits the idle time before each command into
# "host late" (queued after the device went idle) and "start" (the device
# had it). The 3-element chain and clblur alone, 1080p and 4K, GRAY8 and
# NV12; then the chain between two queues (source, chain and sink each in
# their own thread).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
prof=$PWD/build/bench/libclprof.so
blur="clblur device=gpu sigma=1.1 kernel-size=5"   # bench.py's fragments
chain="$blur ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
one () {   # W H FORMAT NAME PIPELINE
  local t="$out/tl-$4-$1x$2-$3.tsv"
  echo "=== $5 ($1x$2 $3)"
  CLPROF_TIMELINE=$t LD_PRELOAD=$prof timeout 60 build/bench/bench_pipeline \
      --width "$1" --height "$2" --format "$3" --frames 400 --seconds 0.3 "$5" |
    sed 's/"stats".*"prof"/"prof"/' | cut -c1-400
  python3 bench/timeline_gaps.py "$t" --skip 40
  rm -f "$t"
}
{
  for size in "1920 1080" "3840 2160"; do
    for f in GRAY8 NV12; do
      one $size $f chain "$chain"
      one $size $f blur "$blur"
      one $size $f identity "identity"
    done
  done
  for f in GRAY8 NV12; do
    one 3840 2160 $f queued "queue ! $chain ! queue"
    one 3840 2160 $f queued-identity "queue ! identity ! queue"
  done
  echo "=== floors"
  timeout 120 build/bench/bench_floor 200 2073600 3110400 8294400 12441600 2>&1 | grep -i nvidia
} > "$out/run3.log" 2>&1
cat "$out/run3.log"
