#!/bin/bash
# Session 39, run 4: the default mode's cold start. Seconds from
# gst-launch-1.0's start to its end for one 1080p NV12 frame through
# clblur ! clsobel ! clhisteq, with every cache empty (the plugin's program
# cache, PoCL's kernel cache, NVIDIA's compute cache disabled), then again
# with the caches the cold run filled: device=gpu, device=cpu and the
# default (device=auto, which builds and warms the standby device before
# the first frame).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run4.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build
TIMEFORMAT=%R
one_frame() {
  local dev=$1
  [ -n "$dev" ] && dev="device=$dev"
  timeout 300 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! clblur $dev ! \
    clsobel $dev ! clhisteq $dev ! fakesink
}
# the plugin registry first, so no run pays for it
gst-inspect-1.0 clblur > /dev/null 2>&1
for mode in gpu cpu auto; do
  caches=$(mktemp -d)
  export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl CUDA_CACHE_DISABLE=1
  mkdir -p $GST_CL_CACHE_DIR $POCL_CACHE_DIR
  d=$mode; [ $mode = auto ] && d=""
  for run in cold warm warm; do
    s=$( { time one_frame "$d" > /dev/null 2>&1; } 2>&1 )
    echo "$mode $run ${s} s"
  done
  rm -rf "$caches"
done
echo "=== done $(date +%T)"
