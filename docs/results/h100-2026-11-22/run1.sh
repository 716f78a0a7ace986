#!/bin/bash
# device run 1 (session 4): back-to-back floors, histeq two-pass floor, chain parts, PoCL 5 histeq check
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; mkdir -p $O/r1; R=$O/r1
step() { echo "=== $1 ($(date +%T))"; }
{ step cllimits; .device/tools/cllimits 1920 1080 1; .device/tools/cllimits 3840 2160 1; nvidia-smi -L; } > $R/cllimits.txt 2>&1
{ for t in auto 16 8 32; do
    step "tile $t"
    if [ $t = auto ]; then unset GST_CL_BLUR_TILE; else export GST_CL_BLUR_TILE=$t; fi
    timeout 60 build/bench/bench_blur_frames 1920 1080 1.1 5 100 gpu
    timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 100 gpu
  done; unset GST_CL_BLUR_TILE; } > $R/blur-b2b.txt 2>&1
step "blur b2b done" ; tail -3 $R/blur-b2b.txt
{ step histeq1080; timeout 120 build/bench/bench_histeq 1920 1080 100; step histeq4k; timeout 120 build/bench/bench_histeq 3840 2160 50; } > $R/histeq.txt 2>&1
step "histeq done"
{ step chain; timeout 200 python3 bench/bench.py --items clblur,clsobel,clhisteq,blur+sobel,blur+sobel+histeq --sizes 1080p,4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.3 --out $R/chain; } > $R/chain.txt 2>&1
step "chain done"
for m in default cbs loopvec; do
  step "pocl5 histeq checker, POCL_WORK_GROUP_METHOD=$m"
  if [ $m = default ]; then unset POCL_WORK_GROUP_METHOD; else export POCL_WORK_GROUP_METHOD=$m; fi
  POCL_CACHE_DIR=/tmp/pc-$m timeout 150 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|temporal" | head -20
  echo "exit ${PIPESTATUS[0]}"
done > $R/pocl5-histeq.txt 2>&1
unset POCL_WORK_GROUP_METHOD
cd $O && tar czf r1.tgz r1 && rm -rf r1
