#!/bin/bash
# Session 40, run 1: the start of `clblur ! clsobel ! clhisteq` (one 1080p
# NV12 frame) in each mode, first with every cache empty (the plugin's
# program cache, PoCL's kernel cache, NVIDIA's compute cache: each in a
# fresh folder), then twice with the caches that run filled; session 39's
# plugin (build/oldgst, 5a04982: PoCL's binaries in the plugin's cache)
# in turns with this one (PoCL's programs left to PoCL's cache). Then
# test_program_cache on this machine, where 0.0 is the NVIDIA GPU: its
# programs must still be kept in the plugin's cache.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run1.log") 2>&1
TIMEFORMAT=%R
one_frame() {
  timeout 200 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! clblur device=$1 ! \
    clsobel device=$1 ! clhisteq device=$1 ! fakesink
}
for mode in cpu auto gpu; do
  for plugin in old new; do
    export GST_PLUGIN_PATH=$PWD/build
    [ $plugin = old ] && export GST_PLUGIN_PATH=$PWD/build/oldgst
    export GST_REGISTRY=/tmp/registry-$plugin.bin
    gst-inspect-1.0 clblur > /dev/null 2>&1
    caches=$(mktemp -d)
    export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl \
      CUDA_CACHE_PATH=$caches/cuda
    mkdir -p $GST_CL_CACHE_DIR $POCL_CACHE_DIR $CUDA_CACHE_PATH
    for run in cold warm warm; do
      s=$( { time one_frame $mode > /tmp/one.txt 2>&1; } 2>&1 )
      echo "$mode $plugin $run ${s} s (exit: $(tail -c 200 /tmp/one.txt | tr '\n' ' '))"
    done
    echo "$mode $plugin: entries in the plugin's cache $(ls $GST_CL_CACHE_DIR | wc -l), PoCL's cache $(du -sh $POCL_CACHE_DIR | cut -f1)"
    rm -rf "$caches"
  done
done
unset GST_CL_CACHE_DIR POCL_CACHE_DIR CUDA_CACHE_PATH
export GST_PLUGIN_PATH=$PWD/build GST_REGISTRY=/tmp/registry-new.bin
GST_CHECKS=test_program_cache timeout 300 build/tests/check_clblur 2>&1 | tail -5
echo "=== done $(date +%T)"
