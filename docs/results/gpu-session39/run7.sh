#!/bin/bash
# Session 39, run 7: where run 4's 16 s of NVIDIA JIT go. Each element
# alone on device=gpu, one 1080p NV12 frame, the plugin's program cache
# filled first, NVIDIA's compute cache disabled (so each start JITs the
# cached PTX), then the same with the compute cache on (filled by the
# first of two runs).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run7.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build
caches=$(mktemp -d)
export GST_CL_CACHE_DIR=$caches/gst CUDA_CACHE_PATH=$caches/nv
mkdir -p $GST_CL_CACHE_DIR $CUDA_CACHE_PATH
TIMEFORMAT=%R
one() {
  timeout 120 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! $1 device=gpu ! fakesink
}
gst-inspect-1.0 clblur > /dev/null 2>&1
for e in clblur clsobel clhisteq cloptflow; do
  one $e > /dev/null 2>&1    # fills the program cache
  a=$( { time CUDA_CACHE_DISABLE=1 one $e > /dev/null 2>&1; } 2>&1 )
  one $e > /dev/null 2>&1    # fills the compute cache
  b=$( { time one $e > /dev/null 2>&1; } 2>&1 )
  echo "$e: compute cache off ${a} s, on ${b} s"
done
rm -rf "$caches"
echo "=== done $(date +%T)"
