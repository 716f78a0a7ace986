#!/bin/bash
# device run 3 (session 4, H200): README floors vs blur back to back; clhisteq tail; chain parts
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/r3; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step cllimits; nvidia-smi -L; for i in 1 2; do .device/tools/cllimits 1920 1080 1 | head -7; .device/tools/cllimits 3840 2160 1 | head -7; done; } > $R/cllimits.txt 2>&1
{ for t in auto 16 auto 16; do step "tile $t"
    if [ $t = auto ]; then unset GST_CL_BLUR_TILE; else export GST_CL_BLUR_TILE=$t; fi
    timeout 60 build/bench/bench_blur_frames 1920 1080 1.1 5 200 gpu 2>&1 | grep -v WARNING | grep -v "^$"
    timeout 60 build/bench/bench_blur_frames 3840 2160 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch"
  done; unset GST_CL_BLUR_TILE; } > $R/blur-b2b.txt 2>&1
step "blur done"
{ step "histeq checker GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|temporal" | head; echo "exit ${PIPESTATUS[0]}"
  for pt in 1 0; do for sz in "1920 1080 100" "3840 2160 50"; do step "bench_histeq PAR_TAIL=$pt $sz"; GST_CL_HISTEQ_PAR_TAIL=$pt timeout 60 build/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|smooth|fused /"; done; done; } > $R/histeq.txt 2>&1
step "histeq done"
{ step "bench.py gpu"; timeout 230 python3 bench/bench.py --items clblur,clsobel,clhisteq,blur+sobel,blur+sobel+histeq --sizes 1080p,4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --out $R/chain; echo "exit $?"; } > $R/chain.txt 2>&1
step "all done"
cd $O && tar czf r3.tgz r3 && rm -rf r3
