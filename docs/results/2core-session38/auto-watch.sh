#!/bin/bash
# Session 38, here (2 vCPUs, PoCL 3.1): what device=auto's latency watch
# costs on CPU devices. Two PoCL devices (POCL_DEVICES="pthread pthread"),
# the first playing the GPU, no load source; the chain without a device
# property (auto), with the watch timing every frame, with it off, with
# GST_CL_PROFILING=1, and pinned to 0.0; bench_pipeline --touch, queued
# and alone, 640x480 NV12, ROUNDS rounds in turns.
#   docs/results/2core-session38/auto-watch.sh [ROUNDS]
rounds=${1:-3}
export POCL_DEVICES="pthread pthread" GST_CL_AUTO_DEVICES=0.0,0.1 GST_CL_AUTO_SOURCES=none
export GST_PLUGIN_PATH=$PWD/build
CHAIN="clblur sigma=1.1 kernel-size=5 ! clsobel kernel-size=3 mode=magnitude ! clhisteq"
PINNED="clblur device=0.0 sigma=1.1 kernel-size=5 ! clsobel device=0.0 kernel-size=3 mode=magnitude ! clhisteq device=0.0"
venv() {
  case $1 in
    auto|pinned) echo "X=1" ;;
    auto-every) echo "GST_CL_AUTO=latency-interval-ms=0" ;;
    auto-off) echo "GST_CL_AUTO=kernel-time=false" ;;
    auto-timed) echo "GST_CL_PROFILING=1" ;;
  esac
}
for round in $(seq 1 "$rounds"); do
  for q in queued alone; do
    for v in auto auto-every auto-off auto-timed pinned; do
      c=$CHAIN; [ $v = pinned ] && c=$PINNED
      [ $q = queued ] && mid="queue ! $c ! queue" || mid="$c"
      r=$(env $(venv $v) timeout 60 build/bench/bench_pipeline --touch --warmup 50 --format NV12 \
        --width 640 --height 480 --frames 5000 --seconds 2 "$mid" 2>&1 | grep '^{' |
        sed -E 's/.*"ms":([0-9.]+),.*/\1/')
      echo "640x480 NV12 round=$round $q $v $r"
    done
  done
done
