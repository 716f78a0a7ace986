#!/bin/bash
# Session 37, run 5: bench.py's chain goal line with its pipelines timed
# outside libclprof (kernel times from a shorter pass under it), twice;
# the chain on PoCL (device=cpu), session 36's plugin and this one in turns;
# the queued GPU chain, three more rounds in turns.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run5.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|,"cpu-skylake.*\|frame-copies.*//'; }
venv() {
  case $1 in
    old) echo "GST_PLUGIN_PATH=$PWD/build/oldgst" ;;
    new) echo "GST_PLUGIN_PATH=$PWD/build" ;;
  esac
}
echo "=== 1. bench.py chain goal line $(date +%T)"
for pass in 1 2; do
  GST_PLUGIN_PATH=$PWD/build timeout 200 python3 bench/bench.py --devices gpu --sizes 1080p,4K --kinds ours,floor \
    --items blur+sobel+histeq --reps 3 --out "$out/chain$pass" 2>&1 | grep "3-element"
done
echo "=== 2. PoCL $(date +%T)"
for sf in 1920x1080:GRAY8 3840x2160:GRAY8; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2; do
    for mid in "queue ! ${CHAIN//device=gpu/device=cpu} ! queue" "${CHAIN//device=gpu/device=cpu}"; do
      for v in old new; do
        r=$(bp "$(venv $v)" --touch --format $fmt --width ${size%x*} --height ${size#*x} --frames 5000 --seconds 1.0 "$mid")
        echo "$size $fmt round=$round $v ${mid:0:5} $r"
      done
    done
  done
done
echo "=== 3. the queued GPU chain $(date +%T)"
for sf in 1920x1080:GRAY8 1920x1080:NV12; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2 3; do
    for v in old new; do
      r=$(bp "$(venv $v)" --touch --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "queue ! $CHAIN ! queue")
      echo "$size $fmt round=$round $v queue $r"
    done
  done
done
(cd "$out" && tar czf chain.tgz chain1 chain2 && rm -rf chain1 chain2)
echo "=== done $(date +%T)"
