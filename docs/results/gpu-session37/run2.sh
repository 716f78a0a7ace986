#!/bin/bash
# Session 37, run 2: the same pattern from three threads, as in a pipeline
# with queues (bench/transfer_overlap.c's threads ways), beside the plugin's
# queued chain (bench_pipeline --touch) in the same call.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run2.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
CHAIN="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
for round in 1 2; do
  for bytes in 2073600 8294400; do
    echo "## round $round, $bytes bytes"
    build/bench/transfer_overlap gpu $bytes 400 2>&1 | grep -v WARNING | grep .
  done
  echo "## round $round, plugin, queued chain 1080p GRAY8: $(bp --format GRAY8 --width 1920 --height 1080 --frames 20000 --seconds 1.2 "queue ! $CHAIN ! queue")"
done
