#!/bin/bash
# Session 37, run 4: the elements' contexts without profiling. Session 36's
# plugin (build/oldgst), this build (queues untimed), and this build with
# GST_CL_PROFILING=1 (timed, as before), in turns: the same bytes, the
# queued chain and the chain alone (bench_pipeline --touch), three rounds,
# 1080p and 4K, GRAY8 and NV12; bench.py's chain goal line as committed
# (its pipelines run under libclprof, which times every queue).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run4.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
venv() {
  case $1 in
    old) echo "GST_PLUGIN_PATH=$PWD/build/oldgst" ;;
    new) echo "GST_PLUGIN_PATH=$PWD/build" ;;
    timed) echo "GST_PLUGIN_PATH=$PWD/build GST_CL_PROFILING=1" ;;
  esac
}
echo "=== 1. same bytes $(date +%T)"
for fmt in GRAY8 NV12; do
  for mid in "$CHAIN" "queue ! $CHAIN ! queue"; do
    for v in old new timed; do
      sum=$(env $(venv $v) timeout 60 gst-launch-1.0 -q \
        videotestsrc num-buffers=200 pattern=ball ! video/x-raw,format=$fmt,width=1920,height=1080 \
        ! $mid ! fdsink fd=1 2>/dev/null | md5sum)
      echo "$fmt $v ${mid:0:5} $sum"
    done
  done
done
for v in new timed; do
  env $(venv $v) GST_DEBUG=cl:4 gst-launch-1.0 -q videotestsrc num-buffers=2 ! clblur device=gpu ! fakesink 2>&1 |
    grep -o "created context on.*" | sort -u
done
echo "=== 2. bench_pipeline --touch $(date +%T)"
for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8 3840x2160:NV12; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2 3; do
    for mid in "queue ! $CHAIN ! queue" "$CHAIN"; do
      for v in old new timed; do
        r=$(bp "$(venv $v)" --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "$mid")
        echo "$size $fmt round=$round $v ${mid:0:5} $r"
      done
    done
  done
done
echo "=== 3. bench.py chain goal line $(date +%T)"
GST_PLUGIN_PATH=$PWD/build timeout 150 python3 bench/bench.py --devices gpu --sizes 1080p,4K --kinds ours,floor \
  --items blur+sobel+histeq --reps 3 --out "$out/chain" 2>&1 | grep "3-element"
(cd "$out" && tar czf chain.tgz chain && rm -rf chain)
echo "=== done $(date +%T)"
