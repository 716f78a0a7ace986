#!/bin/bash
# session 5, device run 15 (review): Sobel with two load paths (inner, the rest), against run 14's three; checker
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r15; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
s() { for sz in "1920 1080" "3840 2160"; do timeout 60 $1 $sz 200 tiled gpu 2>&1 | grep -E " y .*magnitude|rror"; done; }
{ for pass in 1 2; do step "sobel pass $pass PREV (three)"; s .devbuild/bsk.prev; step "sobel pass $pass NEW (two)"; s build/bench/bench_sobel_kernels; done; } > $R/bench.txt 2>&1
{ step "sobel checker GPU tiled"; KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_sobel_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; } > $R/check.txt 2>&1
cd $O && tar czf s5r15.tgz s5r15 && rm -rf s5r15
