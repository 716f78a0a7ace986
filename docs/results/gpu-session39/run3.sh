#!/bin/bash
# Session 39, run 3: clhisteq's fused GPU launches keep the smoothed state
# as it was before the frame (device=auto's checkpoint for a frame run
# again elsewhere) as they run, instead of a copy command before them
# (8.5 us a frame on the H200: bench/copy_cost.c, run 2b), with
# latency-interval-ms 10.
# 1. the kernel checker on the GPU, the fused and one-launch paths (the
#    checkpoint's bytes against the state before each odd frame; CLAHE's
#    tile waits and one-launch kernel are built on GPUs only);
# 2. bench_pipeline --touch, the queued chain, 1080p GRAY8, 640x480 NV12
#    and 1080p NV12, three rounds in turns: device=gpu, device=auto, auto
#    with the watch off, each with clhisteq smoothing=8 (the default) and
#    smoothing=1 (no state, no checkpoint);
# 3. clhisteq's kernel times (bench_histeq, checkpoint not asked for),
#    run 2's build (build/old) against this one, in turns: the kernels'
#    new argument and branch must cost nothing when unused.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run3.log") 2>&1
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
    auto) echo "X=1|$(chain "" 8)" ;;
    auto-s1) echo "X=1|$(chain "" 1)" ;;
    off) echo "GST_CL_AUTO=kernel-time=false|$(chain "" 8)" ;;
    off-s1) echo "GST_CL_AUTO=kernel-time=false|$(chain "" 1)" ;;
  esac
}
V="gpu gpu-s1 auto auto-s1 off off-s1"

echo "=== 1. check_histeq_kernels on the GPU $(date +%T)"
KERNELCHECK_DEVICES=gpu HISTEQ_CHECK_PATHS=fused,one timeout 200 \
  build/tests/check_histeq_kernels > "$out/checker.log" 2>&1
echo "exit $?"
grep -E "temporal|FAIL|checkpoint|passed|checks" "$out/checker.log" | head -40
tail -3 "$out/checker.log"

echo "=== 0. warm the program caches $(date +%T)"
for s in 8 1; do
  bp X=1 300 --format NV12 --width 640 --height 480 --frames 500 --seconds 0.2 "queue ! $(chain "" $s) ! queue"
done

echo "=== 2. bench_pipeline --touch $(date +%T)"
for sf in 1920x1080:GRAY8 640x480:NV12 1920x1080:NV12; do
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

echo "=== 3. bench_histeq, run 2's build and this one $(date +%T)"
for round in 1 2; do
  for b in old new; do
    bin=build/bench/bench_histeq
    [ $b = old ] && bin=build/old/bench_histeq
    for wh in "1920 1080" "3840 2160"; do
      echo "--- $b round $round $wh"
      timeout 100 $bin $wh 300 gpu 2>&1 | grep -v "^$"
    done
  done
done
echo "=== done $(date +%T)"
