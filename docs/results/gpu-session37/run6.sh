#!/bin/bash
# Session 37, run 6: the two changes apart, then everything again.
#  1. the queued 1080p chain (bench_pipeline --touch), three rounds in
#     turns: session 36's plugin (oldgst), untimed queues alone (nosubmit:
#     session 36's gstclmemory.c), and both changes (this build);
#  2. bench/device-run.sh bench: bench.py on both devices (pipelines timed
#     outside libclprof now) and PoCL scaling.
out=${1:?output folder}
mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
{
  echo "=== 1. the queued chain $(date +%T)"
  for sf in 1920x1080:GRAY8 1920x1080:NV12; do
    size=${sf%:*} fmt=${sf#*:}
    for round in 1 2 3; do
      for v in old nosubmit new; do
        case $v in
          old) e="GST_PLUGIN_PATH=$PWD/build/oldgst" ;;
          nosubmit) e="GST_PLUGIN_PATH=$PWD/build/nosubmit" ;;
          new) e="GST_PLUGIN_PATH=$PWD/build" ;;
        esac
        r=$(bp "$e" --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "queue ! $CHAIN ! queue")
        echo "$size $fmt round=$round $v $r"
      done
    done
  done
  echo "=== done $(date +%T)"
} > "$out/run6.log" 2>&1
cat "$out/run6.log"
echo "=== 2. device-run.sh bench $(date +%T)"
bench/device-run.sh bench "$out/bench"
echo "=== done $(date +%T)"
