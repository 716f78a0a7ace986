#!/bin/bash
# session 5, device run 9: saturating conversion in store4 against run 8's binary
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r9; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
b() { for sz in "1920 1080" "3840 2160"; do timeout 60 $1 $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; }
{ for pass in 1 2 3; do step "pass $pass PREV"; b .devbuild/bbf.prev; step "pass $pass NEW"; b build/bench/bench_blur_frames; done; } > $R/blur.txt 2>&1
{ for o in 1 0; do step "blur checker GPU tiled vfirst=$o"; GST_CL_BLUR_VFIRST=$o KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; echo "exit ${PIPESTATUS[0]}"; done; } > $R/check.txt 2>&1
step "all done"
cd $O && tar czf s5r9.tgz s5r9 && rm -rf s5r9
