#!/bin/bash
# Session 39, run 6: the session's last build (the review's fixes: the
# checkpoint buffer made at the first frame that asks, the clone's kernels
# released whatever its build did).
# 1. device=auto from empty caches (the standby built in a thread): exit
#    status, and 30 frames of the chain byte for byte against device=gpu
#    (auto stays on the GPU: no load);
# 2. bench_pipeline --touch, the queued chain, 1080p GRAY8 and 640x480
#    NV12, two rounds in turns: auto, auto with smoothing=1, device=gpu;
# 3. the auto timeline under four loaders at 1080p.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run6.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build
CHAIN="clblur sigma=1.1 kernel-size=5 ! clsobel kernel-size=3 mode=magnitude ! clhisteq"
frames() {
  local dev=$1
  timeout 300 gst-launch-1.0 -q videotestsrc num-buffers=30 pattern=ball ! \
    video/x-raw,format=NV12,width=1280,height=720 ! \
    clblur $dev sigma=1.1 kernel-size=5 ! clsobel $dev kernel-size=3 mode=magnitude ! \
    clhisteq $dev ! fdsink fd=1 | md5sum
}
echo "=== 1. cold start and frames $(date +%T)"
caches=$(mktemp -d)
export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl
mkdir -p $GST_CL_CACHE_DIR $POCL_CACHE_DIR
TIMEFORMAT=%R
t=$( { time frames "" > $out/auto.md5 2> $out/auto.err; } 2>&1 )
echo "auto cold: ${t} s, md5 $(cat $out/auto.md5), pipe status in err: $(head -c 300 $out/auto.err)"
echo "gpu: md5 $(frames device=gpu)"
echo "auto again: md5 $(frames "")"

echo "=== 2. bench_pipeline --touch $(date +%T)"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
for sf in 1920x1080:GRAY8 640x480:NV12; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2; do
    for v in auto auto-s1 gpu; do
      case $v in
        auto) c="$CHAIN" ;;
        auto-s1) c="$CHAIN smoothing=1" ;;
        gpu) c="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu" ;;
      esac
      echo "$size $fmt round=$round queued $v $(bp --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.0 "queue ! $c ! queue")"
    done
  done
done

echo "=== 3. auto timeline, four loaders, 1080p $(date +%T)"
SIZE=1920x1080 LOADERS=4 MODES=auto timeout 100 bench/auto-timeline.sh "$out/tl" 22 5 10 2>&1 | grep -v "^stats:" || echo "timeline exit $?"
(cd "$out" && tar czf timeline.tgz tl && rm -rf tl)
rm -rf "$caches"
echo "=== done $(date +%T)"
