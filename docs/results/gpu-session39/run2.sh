#!/bin/bash
# Session 39, run 2: latency-interval-ms's default 10 (was 1).
# 0. one auto run with a long timeout, so PoCL's kernels are compiled
#    before anything is timed (run 1's first run hit its 60 s timeout);
# 1. bench_pipeline --touch, the queued chain, 1080p GRAY8 and 640x480
#    NV12, three rounds in turns: device=gpu and device=auto with the
#    watch off, each with clhisteq's default smoothing=8 and smoothing=1
#    (under auto, smoothing>1 copies clhisteq's state each frame, a
#    checkpoint for a fault), and auto with latency-interval-ms 1, 4, 10
#    (the new default) and 25;
# 2. the auto timeline (MODES=auto) with the new default, under four
#    loaders at 1080p and 640x480 and one loader at 1080p.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run2.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build
chain() {
  local dev=$1 smooth=$2
  echo "clblur $dev sigma=1.1 kernel-size=5 ! clsobel $dev kernel-size=3 mode=magnitude ! clhisteq $dev smoothing=$smooth"
}
bp() { local e=$1 t=$2; shift 2; env $e timeout $t build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
variant() {
  case $1 in
    gpu) echo "X=1|$(chain device=gpu 8)" ;;
    gpu-s1) echo "X=1|$(chain device=gpu 1)" ;;
    off) echo "GST_CL_AUTO=kernel-time=false|$(chain "" 8)" ;;
    off-s1) echo "GST_CL_AUTO=kernel-time=false|$(chain "" 1)" ;;
    i1) echo "GST_CL_AUTO=latency-interval-ms=1|$(chain "" 8)" ;;
    i4) echo "GST_CL_AUTO=latency-interval-ms=4|$(chain "" 8)" ;;
    i10) echo "X=1|$(chain "" 8)" ;;
    i25) echo "GST_CL_AUTO=latency-interval-ms=25|$(chain "" 8)" ;;
  esac
}
V="gpu gpu-s1 off off-s1 i1 i4 i10 i25"

echo "=== 0. warm the program caches $(date +%T)"
for s in 8 1; do
  bp X=1 300 --format NV12 --width 640 --height 480 --frames 500 --seconds 0.2 "queue ! $(chain "" $s) ! queue"
done

echo "=== 1. bench_pipeline --touch $(date +%T)"
for sf in 1920x1080:GRAY8 640x480:NV12; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2 3; do
    for v in $V; do
      spec=$(variant $v)
      e=${spec%%|*} c=${spec#*|}
      r=$(bp "$e" 60 --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.0 "queue ! $c ! queue")
      echo "$size $fmt round=$round queued $v $r"
    done
  done
done

echo "=== 2. auto timelines $(date +%T)"
for sl in 1920x1080:4 640x480:4 1920x1080:1; do
  size=${sl%:*} loaders=${sl#*:}
  echo "--- $size, $loaders loaders $(date +%T)"
  SIZE=$size LOADERS=$loaders MODES=auto timeout 100 bench/auto-timeline.sh "$out/tl-$size-$loaders" 22 5 10 2>&1 | grep -v "^stats:" || echo "timeline exit $?"
  awk -F, 'NR>1 {printf "  %s %s %s busy %s ms/frame %s\n", $1, $2, $3, $5, $6}' "$out/tl-$size-$loaders/auto.csv" | awk 'NR % 4 == 1'
done
(cd "$out" && tar czf timelines.tgz tl-* && rm -rf tl-*)
echo "=== done $(date +%T)"
