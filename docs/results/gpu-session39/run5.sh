#!/bin/bash
# Session 39, run 5: run 4's cold start of the default mode (device=auto)
# with the standby device's programs built by a clone in a thread of its
# own while the element builds for the active device, against run 4's
# plugin (build/oldgst), each with every cache empty (the plugin's
# program cache, PoCL's kernel cache; NVIDIA's compute cache disabled),
# then once more with the caches the cold run filled.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run5.log") 2>&1
TIMEFORMAT=%R
one_frame() {
  timeout 300 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! clblur ! \
    clsobel ! clhisteq ! fakesink
}
for plugin in old new; do
  export GST_PLUGIN_PATH=$PWD/build
  [ $plugin = old ] && export GST_PLUGIN_PATH=$PWD/build/oldgst
  export GST_REGISTRY=/tmp/registry-$plugin.bin
  gst-inspect-1.0 clblur > /dev/null 2>&1
  caches=$(mktemp -d)
  export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl CUDA_CACHE_DISABLE=1
  mkdir -p $GST_CL_CACHE_DIR $POCL_CACHE_DIR
  for run in cold warm; do
    s=$( { time one_frame > /dev/null 2>&1; } 2>&1 )
    echo "auto $plugin $run ${s} s"
  done
  rm -rf "$caches"
done
echo "=== done $(date +%T)"
