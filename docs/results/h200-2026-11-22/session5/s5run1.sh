#!/bin/bash
# session 5, device run 1: blur vertical-first tiles against tiled, checker on the GPU
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r1; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step cllimits; nvidia-smi -L; .device/tools/cllimits 1920 1080 1 | head -7; .device/tools/cllimits 3840 2160 1 | head -7; } > $R/cllimits.txt 2>&1
{ ls -la build/ build/bench | head; for pass in 1 2; do for vf in 0 1; do for t in auto 16 64; do
    [ $vf = 0 ] && [ $t = 64 ] && continue
    step "pass $pass vfirst $vf tile $t"
    export GST_CL_BLUR_VFIRST=$vf
    if [ $t = auto ]; then unset GST_CL_BLUR_TILE; else export GST_CL_BLUR_TILE=$t; fi
    timeout 60 build/bench/bench_blur_frames 1920 1080 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"
    timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"
  done; done; done; unset GST_CL_BLUR_TILE GST_CL_BLUR_VFIRST; } > $R/blur-vfirst.txt 2>&1
step "bench done"
{ step "checker GPU tiled vfirst"; GST_CL_BLUR_VFIRST=1 KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels tiled 2>&1 | grep -v "^$" | cut -c1-600 | tail -40; echo "exit ${PIPESTATUS[0]}"; } > $R/check.txt 2>&1
step "all done"
cd $O && tar czf s5r1.tgz s5r1 && rm -rf s5r1
