#!/bin/bash
# Session 38, run 4: the change as committed. device=auto's queues untimed,
# its latency from a 4-byte probe on a timed queue of its own, an
# element's frame timed at most once a millisecond (latency-interval-ms=1).
# 1. which queues each build makes;
# 2. bench_pipeline --touch, queued chain and chain alone, 640x480 NV12,
#    1080p GRAY8 and NV12, two rounds in turns: device=auto with session
#    37's plugin (build/oldgst: every queue timed, a marker every frame),
#    with this one, this one with GST_CL_PROFILING=1, this one with the
#    watch off (kernel-time=false), and device=gpu;
# 3. the auto timeline under four loaders (MODES=auto), 1080p and 640x480:
#    the per-window latency on the idle GPU and the switches.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run4.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache
AUTO="clblur sigma=1.1 kernel-size=5 ! clsobel kernel-size=3 mode=magnitude ! clhisteq"
GPU="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
venv() {
  case $1 in
    old-auto) echo "GST_PLUGIN_PATH=$PWD/build/oldgst" ;;
    auto|gpu) echo "GST_PLUGIN_PATH=$PWD/build" ;;
    auto-timed) echo "GST_PLUGIN_PATH=$PWD/build GST_CL_PROFILING=1" ;;
    auto-off) echo "GST_PLUGIN_PATH=$PWD/build GST_CL_AUTO=kernel-time=false" ;;
  esac
}
chain() { case $1 in gpu) echo "$GPU" ;; *) echo "$AUTO" ;; esac; }
V="old-auto auto auto-timed auto-off gpu"

echo "=== 1. which queues $(date +%T)"
for v in old-auto auto auto-timed; do
  env $(venv $v) GST_DEBUG=cl:4 timeout 60 gst-launch-1.0 -q videotestsrc num-buffers=30 ! \
    video/x-raw,width=640,height=480 ! clblur ! fakesink 2>&1 | grep -o "created context on.*" | sort | uniq -c | sed "s/^/$v /"
done

echo "=== 2. bench_pipeline --touch $(date +%T)"
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

echo "=== 3. auto timelines, four loaders $(date +%T)"
for size in 1920x1080 640x480; do
  GST_PLUGIN_PATH=$PWD/build SIZE=$size LOADERS=4 MODES=auto timeout 150 bench/auto-timeline.sh "$out/tl-$size" 24 6 10 || echo "timeline exit $?"
  awk -F, 'NR>1 && NR<=34 {printf "  %s %s %s busy %s ms/frame %s\n", $1, $2, $3, $5, $6}' "$out/tl-$size/auto.csv"
done
(cd "$out" && tar czf timelines.tgz tl-* && rm -rf tl-*)
echo "=== done $(date +%T)"
