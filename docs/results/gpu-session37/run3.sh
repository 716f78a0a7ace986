#!/bin/bash
# Session 37, run 3: what serialises the plugin's queued 1080p chain.
# The probe's threaded ways one extra at a time, and the plugin's queued
# chain in turns: session 36's code (oldgst), the change (the upload's
# flush of the main queue only when its last kernel is still queued, no
# wait on one that ended), and two experiments of this build only:
# GST_CL_X_UPLOAD_NOWAIT=1 (the upload waits for nothing: a race, measured
# only) and GST_CL_X_POOL_MAX=16 (pools of 16: the frame a writer gets was
# let go longer ago). Timelines (libclprof) of the change and of nowait.
out=${1:?output folder}
mkdir -p "$out/tl"
exec > >(tee "$out/run3.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
# bp "VAR=value ..." ARGS...: the queued chain's figures under those variables
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
for round in 1 2; do
  echo "## probe round $round, 1080p"
  build/bench/transfer_overlap gpu 2073600 400 2>&1 | grep -v WARNING | grep .
done
for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2 3; do
    for v in old new nowait pool16 nowait+pool16; do
      case $v in
        old) env="GST_PLUGIN_PATH=$PWD/build/oldgst" ;;
        new) env="GST_PLUGIN_PATH=$PWD/build" ;;
        nowait) env="GST_PLUGIN_PATH=$PWD/build GST_CL_X_UPLOAD_NOWAIT=1" ;;
        pool16) env="GST_PLUGIN_PATH=$PWD/build GST_CL_X_POOL_MAX=16" ;;
        nowait+pool16) env="GST_PLUGIN_PATH=$PWD/build GST_CL_X_UPLOAD_NOWAIT=1 GST_CL_X_POOL_MAX=16" ;;
      esac
      r=$(bp "$env" --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "queue ! $CHAIN ! queue")
      echo "$size $fmt round=$round $v $r"
    done
  done
done
for v in new nowait old; do
  case $v in
    old) pp=$PWD/build/oldgst; x= ;;
    new) pp=$PWD/build; x= ;;
    nowait) pp=$PWD/build; x=1 ;;
  esac
  env GST_PLUGIN_PATH=$pp ${x:+GST_CL_X_UPLOAD_NOWAIT=1} CLPROF_TIMELINE=$out/tl/$v.txt \
    LD_PRELOAD=build/bench/libclprof.so timeout 60 build/bench/bench_pipeline --touch \
    --warmup 20 --format GRAY8 --width 1920 --height 1080 --frames 400 "queue ! $CHAIN ! queue" 2>&1 | grep '^{' | cut -c1-60
done
echo "=== done $(date +%T)"
(cd "$out" && tar czf tl.tgz tl && rm -rf tl)
