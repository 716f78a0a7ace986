#!/bin/bash
# Session 38, run 2: what device=auto's latency watch costs, and how its
# clocks agree. Variants (this build; EXPERIMENT knobs, not kept):
#   gpu          device=gpu (no watch), the reference
#   auto-host    every frame tracked, untimed queues, host clock (run 1)
#   auto-kern    main queue timed, transfer queues untimed, a marker a
#                frame, device clock (GST_CL_X_AUTO_TIMING=kernels)
#   auto-host-1ms / auto-kern-1ms: an element's frames tracked at most
#                once a millisecond (GST_CL_X_AUTO_TRACK_US=1000)
#   auto-off     no watch (GST_CL_AUTO=kernel-time=false)
# 1. bench_pipeline --touch, queued chain and chain alone, 640x480 NV12,
#    1080p GRAY8 and NV12, two rounds in turns;
# 2. both clocks over the same frames (auto-kern, GST_DEBUG=cl:4);
# 3. the auto timeline at 1080p under four loaders, where the GPU stays
#    slightly ahead (session of 2026-11-22: 99 against 93 fps): auto-host
#    and auto-kern (MODES=auto).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run2.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build
AUTO="clblur sigma=1.1 kernel-size=5 ! clsobel kernel-size=3 mode=magnitude ! clhisteq"
GPU="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
venv() {
  case $1 in
    gpu|auto-host) echo "X=1" ;;
    auto-kern) echo "GST_CL_X_AUTO_TIMING=kernels" ;;
    auto-host-1ms) echo "GST_CL_X_AUTO_TRACK_US=1000" ;;
    auto-kern-1ms) echo "GST_CL_X_AUTO_TIMING=kernels GST_CL_X_AUTO_TRACK_US=1000" ;;
    auto-off) echo "GST_CL_AUTO=kernel-time=false" ;;
  esac
}
chain() { case $1 in gpu) echo "$GPU" ;; *) echo "$AUTO" ;; esac; }
V="gpu auto-host auto-kern auto-host-1ms auto-kern-1ms auto-off"

echo "=== 1. bench_pipeline --touch $(date +%T)"
for sf in 640x480:NV12 1920x1080:GRAY8 1920x1080:NV12; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2; do
    for q in queued alone; do
      for v in $V; do
        c=$(chain $v)
        [ $q = queued ] && mid="queue ! $c ! queue" || mid="$c"
        r=$(bp "$(venv $v)" --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.0 "$mid")
        echo "$size $fmt round=$round $q $v $r"
      done
    done
  done
done

echo "=== 2. both clocks $(date +%T)"
for sf in 640x480:NV12 1920x1080:GRAY8; do
  size=${sf%:*} fmt=${sf#*:}
  for q in queued alone; do
    [ $q = queued ] && mid="queue ! $AUTO ! queue" || mid="$AUTO"
    for v in auto-kern auto-kern-1ms; do
      env $(venv $v) GST_DEBUG=cl:4 GST_DEBUG_NO_COLOR=1 timeout 60 build/bench/bench_pipeline --touch --warmup 200 \
        --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.0 "$mid" 2>&1 |
        grep -o "latency over.*" | sed "s/^/$size $fmt $q $v: /"
    done
  done
done

echo "=== 3. auto timeline 1080p, four loaders $(date +%T)"
for v in auto-host auto-kern; do
  env $(venv $v) SIZE=1920x1080 LOADERS=4 MODES=auto timeout 150 bench/auto-timeline.sh "$out/tl-1080p-$v" 24 6 10 || echo "timeline exit $?"
done
(cd "$out" && tar czf timelines.tgz tl-* && rm -rf tl-*)
echo "=== done $(date +%T)"
