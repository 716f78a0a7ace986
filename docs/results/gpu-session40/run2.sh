#!/bin/bash
# Session 40, run 2: the default mode from empty caches now that PoCL
# compiles a kernel at its first launch (its programs no longer in the
# plugin's cache), so the standby's kernels are compiled by its warm-up.
# 1. clblur's checker on PoCL 5.0 (16 Xeon cores, AVX-512: the 32-byte
#    fixed-point kernel whose edge shuffles changed), both widths;
# 2. 30 frames of the chain under device=auto from empty caches (ours,
#    PoCL's, NVIDIA's compute cache), byte for byte against device=gpu;
# 3. the auto timeline at 1080p from empty caches (SKIP_WARMUP=1), four
#    loaders from 30 s for 10 s: does the move to PoCL stall?
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run2.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build
echo "=== 1. blur checker on the CPU device $(date +%T)"
for fxw in 32 16; do
  GST_CL_CACHE_DIR=$(mktemp -d) GST_CL_BLUR_FXW=$fxw KERNELCHECK_DEVICES=cpu \
    timeout 200 build/tests/check_blur_kernels fixed > /tmp/chk-$fxw.txt 2>&1
  echo "fxw $fxw exit $? $(grep -c 'FAILED' /tmp/chk-$fxw.txt) FAILED lines; $(tail -2 /tmp/chk-$fxw.txt | tr '\n' ' ')"
done
echo "=== 2. auto from empty caches $(date +%T)"
frames() {
  timeout 300 gst-launch-1.0 -q videotestsrc num-buffers=30 pattern=ball ! \
    video/x-raw,format=NV12,width=1280,height=720 ! \
    clblur $1 sigma=1.1 kernel-size=5 ! clsobel $1 kernel-size=3 mode=magnitude ! \
    clhisteq $1 ! fdsink fd=1 | md5sum
}
fresh() {
  caches=$(mktemp -d)
  export GST_CL_CACHE_DIR=$caches/gst POCL_CACHE_DIR=$caches/pocl CUDA_CACHE_PATH=$caches/cuda
  mkdir -p $GST_CL_CACHE_DIR $POCL_CACHE_DIR $CUDA_CACHE_PATH
}
fresh
TIMEFORMAT=%R
t=$( { time frames "" > $out/auto.md5 2> $out/auto.err; } 2>&1 )
echo "auto cold: ${t} s, md5 $(cat $out/auto.md5), stderr: $(head -c 300 $out/auto.err)"
echo "gpu: md5 $(frames device=gpu)"
echo "=== 3. auto timeline from empty caches, four loaders, 1080p $(date +%T)"
fresh
SKIP_WARMUP=1 SIZE=1920x1080 LOADERS=4 MODES=auto timeout 150 bench/auto-timeline.sh "$out/tl" 50 30 10 2>&1 | grep -v "^stats:" || echo "timeline exit $?"
echo "PoCL's cache after: $(du -sh $POCL_CACHE_DIR | cut -f1); the plugin's: $(ls $GST_CL_CACHE_DIR | wc -l) entries"
(cd "$out" && tar czf timeline.tgz tl && rm -rf tl)
echo "=== done $(date +%T)"
