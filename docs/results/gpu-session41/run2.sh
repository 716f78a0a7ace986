#!/bin/bash
# Session 41, run 2: what NVIDIA's compiler spends on each kernel of the
# chain's programs. The options are the ones the plugin builds with on this
# machine (GST_DEBUG=cl:4 of one frame through the chain, device=gpu);
# build/bench/build_time then builds each program whole, each kernel alone
# and the kernels the element launches on this device together, with
# NVIDIA's compute cache off.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run2.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build GST_REGISTRY=/tmp/registry-new.bin
caches=$(mktemp -d)
GST_CL_CACHE_DIR=$caches/gst CUDA_CACHE_PATH=$caches/cuda GST_DEBUG=cl:4 \
  timeout 200 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
  video/x-raw,format=NV12,width=1920,height=1080 ! clblur device=gpu ! \
  clsobel device=gpu ! clhisteq device=gpu ! fakesink 2>&1 | \
  sed 's/\x1b\[[0-9;]*m//g' | grep -o "building .*" > "$out/building.txt"
rm -rf "$caches"
opts() { sed -n "$1s/^building $2 \[\(.*\)\] for .*/\1/p" "$out/building.txt"; }
n=$(grep -n "^building histeq" "$out/building.txt" | cut -d: -f1)
timeout 250 build/bench/build_time histeq "$(opts $n histeq)" gpu \
  histeq_hist_lut_c1 histeq_hist_lut_c4 histeq_equalize_c1 \
  histeq_equalize_keep_c1 histeq_clahe_one_c1 histeq_apply_clahe_lq_c1 \
  histeq_apply_global_c1 histeq_apply_global_c4 histeq_apply_clahe_c1 \
  histeq_apply_clahe_c4 histeq_copy
for n in $(grep -n "^building blur" "$out/building.txt" | cut -d: -f1); do
  timeout 100 build/bench/build_time blur "$(opts $n blur)" gpu \
    blur_tiled_c1 blur_tiled_c2 blur_tiled_c4 blur_tiled_nv12 blur_tiled_i420
done
n=$(grep -n "^building sobel" "$out/building.txt" | cut -d: -f1)
timeout 60 build/bench/build_time sobel "$(opts $n sobel)" gpu 2>&1 | head -1
echo "=== done $(date +%T)"
