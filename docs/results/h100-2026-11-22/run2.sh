#!/bin/bash
# device run 2 (session 4): slide vs tiled; clhisteq parallel tail; checkers on NVIDIA; PoCL 5 histeq
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/r2; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
exec 2>&1
{ step "blur checker on the GPU (all variants incl. slide)"
  KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels 2>&1 | grep -vi "warning" | tail -25; echo "exit ${PIPESTATUS[0]}"; } > $R/blur-check.txt 2>&1
step "blur check done"; tail -2 $R/blur-check.txt
{ for v in tiled slide; do for sz in "1920 1080" "3840 2160"; do
    step "variant $v $sz"; GST_CL_BLUR_VARIANT=$v timeout 60 build/bench/bench_blur_frames $sz 1.1 5 100 gpu 2>&1 | grep -v WARNING | grep -v "^$"; done; done
  for k in 4 16 4:64x2 8:64x2 8:32x8 16:32x8 8:128x1; do for sz in "1920 1080" "3840 2160"; do
    step "slide $k $sz"; GST_CL_BLUR_VARIANT=slide GST_CL_BLUR_SLIDE=$k timeout 60 build/bench/bench_blur_frames $sz 1.1 5 100 gpu 2>&1 | grep -E "GRAY8|NV12 .*one|I420 .*one|variant"; done; done
} > $R/blur-slide.txt 2>&1
step "blur bench done"
{ for i in 1 2; do step "histeq checker GPU run $i"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|temporal|FAILED" | head -20; echo "exit ${PIPESTATUS[0]}"; done; } > $R/histeq-check.txt 2>&1
{ for pt in 0 1; do for sz in "1920 1080 100" "3840 2160 50"; do step "bench_histeq PAR_TAIL=$pt $sz"; GST_CL_HISTEQ_PAR_TAIL=$pt timeout 60 build/bench/bench_histeq $sz gpu 2>&1 | grep -v WARNING | grep -v "^$"; done; done; } > $R/histeq-bench.txt 2>&1
step "histeq done"
{ step "PoCL 5 histeq checker (CPU)"; KERNELCHECK_DEVICES=cpu POCL_CACHE_DIR=/tmp/pc-default timeout 150 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|temporal" | head -20; echo "exit ${PIPESTATUS[0]}"; } > $R/pocl5-histeq.txt 2>&1
step "pocl5 done"
{ for v in tiled slide; do step "bench.py blur/chain variant $v"; GST_CL_BLUR_VARIANT=$v timeout 100 python3 bench/bench.py --items clblur,clhisteq,blur+sobel+histeq --sizes 1080p,4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --out $R/pipe-$v 2>&1 | sed -n '/^## Headline/,/best CPU peer/p'; done; } > $R/pipe.txt 2>&1
step "all done"
cd $O && tar czf r2.tgz r2 && rm -rf r2
