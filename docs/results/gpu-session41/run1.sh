#!/bin/bash
# Session 41, run 1: where a fresh start on NVIDIA spends its time. Each
# element alone and the 3-element chain, one 1080p NV12 frame, device=gpu:
# every cache in a fresh folder ("empty"); then the plugin's program cache
# emptied but NVIDIA's compute cache kept ("front end": OpenCL C to PTX
# only); then both kept ("filled"). The plugin logs each program's build
# time and kernel count (GST_DEBUG=cl:4, "built ..."). Last, the kernels
# ptxas compiled for each program (-cl-nv-verbose).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run1.log") 2>&1
TIMEFORMAT=%R
export GST_PLUGIN_PATH=$PWD/build GST_REGISTRY=/tmp/registry-new.bin
gst-inspect-1.0 clblur > /dev/null 2>&1
run_one() { # fragment
  timeout 200 gst-launch-1.0 -q videotestsrc num-buffers=2 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! $1 ! fakesink
}
for frag in "clblur device=gpu" "clsobel device=gpu" "clhisteq device=gpu" \
    "cloptflow device=gpu" \
    "clblur device=gpu ! clsobel device=gpu ! clhisteq device=gpu"; do
  caches=$(mktemp -d)
  export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl \
    CUDA_CACHE_PATH=$caches/cuda
  mkdir -p $GST_CL_CACHE_DIR $POCL_CACHE_DIR $CUDA_CACHE_PATH
  for what in empty "front end" filled; do
    [ "$what" = "front end" ] && rm -rf $GST_CL_CACHE_DIR/*
    s=$( { time GST_DEBUG=cl:4 run_one "$frag" > /tmp/one.txt 2>&1; } 2>&1 )
    echo "[$frag] $what: $s s"
    grep -o "built .*" /tmp/one.txt | sed 's/^/    /'
    grep -i "error\|warn" /tmp/one.txt | head -3
  done
  echo "    caches: plugin $(du -sh $GST_CL_CACHE_DIR | cut -f1), cuda $(du -sh $CUDA_CACHE_PATH | cut -f1)"
  rm -rf "$caches"
done
echo "=== the kernels ptxas compiled, chain and cloptflow"
caches=$(mktemp -d)
export GST_CL_CACHE_DIR=$caches/gst CUDA_CACHE_PATH=$caches/cuda
GST_CL_BUILD_OPTIONS=-cl-nv-verbose GST_DEBUG=cl:5 run_one \
  "clblur device=gpu ! clsobel device=gpu ! clhisteq device=gpu ! cloptflow device=gpu" \
  > /tmp/v.txt 2>&1
grep -o "build log of [a-z]*\|Compiling entry function '[a-z_0-9]*'\|Used [0-9]* registers.*" /tmp/v.txt
rm -rf "$caches"
echo "=== done $(date +%T)"
