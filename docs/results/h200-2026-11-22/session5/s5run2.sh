#!/bin/bash
# session 5, device run 2: staged loads hoisted (tiled) and vertical-first with loads first, against run 1's binary
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r2; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
b() { for sz in "1920 1080" "3840 2160"; do timeout 60 $1 $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; }
{ for pass in 1 2 3; do
    for vf in 0 1; do export GST_CL_BLUR_VFIRST=$vf; unset GST_CL_BLUR_TILE
      step "pass $pass vfirst $vf PREV"; b .devbuild/bbf.prev
      step "pass $pass vfirst $vf NEW"; b build/bench/bench_blur_frames
    done
    export GST_CL_BLUR_VFIRST=0 GST_CL_BLUR_TILE=16; step "pass $pass vfirst 0 tile 16 NEW"; b build/bench/bench_blur_frames
    export GST_CL_BLUR_VFIRST=1 GST_CL_BLUR_TILE=64; step "pass $pass vfirst 1 tile 64 NEW"; b build/bench/bench_blur_frames
  done; unset GST_CL_BLUR_TILE GST_CL_BLUR_VFIRST; } > $R/blur.txt 2>&1
step "bench done"
{ for vf in 0 1; do step "checker GPU tiled vfirst $vf"; GST_CL_BLUR_VFIRST=$vf KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels tiled 2>&1 | grep -v "^$" | cut -c1-300 | tail -3; echo "exit ${PIPESTATUS[0]}"; done; } > $R/check.txt 2>&1
step "all done"
cd $O && tar czf s5r2.tgz s5r2 && rm -rf s5r2
