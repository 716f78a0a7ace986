#!/bin/bash
# session 5, device run 6: Sobel vertical-first with word loads for RGB input
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r6; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
s() { for sz in "1920 1080" "3840 2160"; do timeout 60 build/bench/bench_sobel_kernels $sz 200 tiled gpu 2>&1 | grep -vE "WARN|^$|scanner"; done; }
{ for pass in 1 2; do
    step "pass $pass sobel default"; s
    step "pass $pass sobel GST_CL_SOBEL_VFIRST=0"; GST_CL_SOBEL_VFIRST=0 s
  done; } > $R/sobel.txt 2>&1
{ step "sobel checker GPU tiled"; KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_sobel_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; echo "exit ${PIPESTATUS[0]}"; } > $R/check.txt 2>&1
step "all done"
cd $O && tar czf s5r6.tgz s5r6 && rm -rf s5r6
