#!/bin/bash
# session 5, device run 11: Sobel without row reflection for inside items, against run 10's binary
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r11; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
s() { for sz in "1920 1080" "3840 2160"; do timeout 60 $1 $sz 200 tiled gpu 2>&1 | grep -vE "WARN|^$|scanner"; done; }
{ for pass in 1 2; do step "pass $pass PREV"; s .devbuild/bsk.prev; step "pass $pass NEW"; s build/bench/bench_sobel_kernels; done; } > $R/sobel.txt 2>&1
{ step "sobel checker GPU tiled"; KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_sobel_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; echo "exit ${PIPESTATUS[0]}"; } > $R/check.txt 2>&1
step "all done"
cd $O && tar czf s5r11.tgz s5r11 && rm -rf s5r11
