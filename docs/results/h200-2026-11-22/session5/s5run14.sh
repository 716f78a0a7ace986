#!/bin/bash
# session 5, device run 14 (review): row_reach/reflect_row/rows_aligned4 refactor against run 12's binaries; checkers
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r14; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
b() { for sz in "1920 1080" "3840 2160"; do timeout 60 $1 $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; }
s() { for sz in "1920 1080" "3840 2160"; do timeout 60 $1 $sz 200 tiled gpu 2>&1 | grep -E " y .*magnitude|rror"; done; }
{ for pass in 1 2; do step "pass $pass PREV"; b .devbuild/bbf.prev; step "pass $pass NEW"; b build/bench/bench_blur_frames; done
  for pass in 1 2; do step "sobel pass $pass PREV"; s .devbuild/bsk.prev; step "sobel pass $pass NEW"; s build/bench/bench_sobel_kernels; done; } > $R/bench.txt 2>&1
{ for o in 1 0; do step "blur checker GPU tiled vfirst=$o"; GST_CL_BLUR_VFIRST=$o KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5
  step "sobel checker GPU tiled vfirst=$o"; GST_CL_SOBEL_VFIRST=$o KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_sobel_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; done; } > $R/check.txt 2>&1
step "all done"
cd $O && tar czf s5r14.tgz s5r14 && rm -rf s5r14
