#!/bin/bash
# Session 39, run 1: session 38's last commit (f70cc64) on the H200.
# 1. bench_pipeline --touch, the chain queued and alone, 640x480 NV12,
#    1080p GRAY8 and NV12, two rounds in turns: device=auto, auto with the
#    watch off (kernel-time=false), auto and device=gpu with clhisteq
#    smoothing=1 (no temporal state, so no per-frame checkpoint copy under
#    auto), and device=gpu. Where does auto's gap to gpu come from?
# 2. the auto timeline (MODES=auto) under four loaders at 1080p and
#    640x480 and one loader at 1080p: session 38's probe pair (before and
#    after the work) and the GPU's loaded time scaled by the time slices'
#    share, which session 38 could not run on the GPU.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run1.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build
chain() {
  local dev=$1 smooth=$2
  echo "clblur $dev sigma=1.1 kernel-size=5 ! clsobel $dev kernel-size=3 mode=magnitude ! clhisteq $dev smoothing=$smooth"
}
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
variant() {
  case $1 in
    auto) echo "X=1|$(chain "" 8)" ;;
    auto-off) echo "GST_CL_AUTO=kernel-time=false|$(chain "" 8)" ;;
    auto-s1) echo "X=1|$(chain "" 1)" ;;
    gpu) echo "X=1|$(chain device=gpu 8)" ;;
    gpu-s1) echo "X=1|$(chain device=gpu 1)" ;;
  esac
}
V="auto auto-off auto-s1 gpu gpu-s1"

echo "=== 1. bench_pipeline --touch $(date +%T)"
for sf in 640x480:NV12 1920x1080:GRAY8 1920x1080:NV12; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2; do
    for q in queued alone; do
      for v in $V; do
        spec=$(variant $v)
        e=${spec%%|*} c=${spec#*|}
        [ $q = queued ] && mid="queue ! $c ! queue" || mid="$c"
        r=$(bp "$e" --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.0 "$mid")
        echo "$size $fmt round=$round $q $v $r"
      done
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
