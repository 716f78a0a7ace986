#!/bin/bash
# Session 38, run 3: device=auto's latency from a marker on a timed queue
# of its own (GST_CL_X_AUTO_TIMING=probe: the marker waits for the
# frame's last command; the queues that do the work stay untimed), against
# run 2's variants. EXPERIMENT knobs, not kept:
#   gpu            device=gpu (no watch), the reference
#   auto-host-1ms  untimed, host clock, at most one frame a ms an element
#   auto-probe     probe markers, every frame
#   auto-probe-1ms probe markers, at most one frame a ms an element
#   auto-kern-1ms  main queue timed, at most one frame a ms an element
#   auto-off       no watch (GST_CL_AUTO=kernel-time=false)
# 1. bench_pipeline --touch, queued chain and chain alone, 640x480 NV12,
#    1080p GRAY8 and NV12, two rounds in turns;
# 2. both clocks over the same frames (probe variants, GST_DEBUG=cl:4);
# 3. the auto timeline at 1080p under four loaders (MODES=auto), probe and
#    probe-1ms: run 2's host clock read 0.17-5.8 ms a frame per window on
#    the idle GPU there and moved the chain before the load; the device
#    clock 0.07-0.09.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run3.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build
AUTO="clblur sigma=1.1 kernel-size=5 ! clsobel kernel-size=3 mode=magnitude ! clhisteq"
GPU="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
venv() {
  case $1 in
    gpu) echo "X=1" ;;
    auto-host-1ms) echo "GST_CL_X_AUTO_TRACK_US=1000" ;;
    auto-probe) echo "GST_CL_X_AUTO_TIMING=probe" ;;
    auto-probe-1ms) echo "GST_CL_X_AUTO_TIMING=probe GST_CL_X_AUTO_TRACK_US=1000" ;;
    auto-kern-1ms) echo "GST_CL_X_AUTO_TIMING=kernels GST_CL_X_AUTO_TRACK_US=1000" ;;
    auto-off) echo "GST_CL_AUTO=kernel-time=false" ;;
  esac
}
chain() { case $1 in gpu) echo "$GPU" ;; *) echo "$AUTO" ;; esac; }
V="gpu auto-host-1ms auto-probe auto-probe-1ms auto-kern-1ms auto-off"

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
    for v in auto-probe auto-probe-1ms; do
      env $(venv $v) GST_DEBUG=cl:4 GST_DEBUG_NO_COLOR=1 timeout 60 build/bench/bench_pipeline --touch --warmup 200 \
        --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.0 "$mid" 2>&1 |
        grep -o "latency over.*" | sed "s/^/$size $fmt $q $v: /"
    done
  done
done

echo "=== 3. auto timeline 1080p, four loaders $(date +%T)"
for v in auto-probe-1ms auto-probe; do
  env $(venv $v) SIZE=1920x1080 LOADERS=4 MODES=auto timeout 150 bench/auto-timeline.sh "$out/tl-1080p-$v" 24 6 10 || echo "timeline exit $?"
  awk -F, 'NR>1 {print "  " $1, $2, $3, $5, $6}' "$out/tl-1080p-$v/auto.csv" | head -30
done
(cd "$out" && tar czf timelines.tgz tl-* && rm -rf tl-*)
echo "=== done $(date +%T)"
