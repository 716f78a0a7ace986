#!/bin/bash
# session 7, device run 4: the review (across_row_fx, CLAHE_ROW) on both devices: the fixed blur checker (GPU: bands at 16 bytes; PoCL 5.0: rows at 32) and the histeq checker
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s7r4; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step "histeq checker GPU"; KERNELCHECK_DEVICES=gpu timeout 90 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror" | cut -c1-300 | tail -5
  step "histeq checker CPU (PoCL 5.0)"; KERNELCHECK_DEVICES=cpu timeout 90 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror" | cut -c1-200 | tail -6
  step "blur checker CPU fixed (rows)"; KERNELCHECK_DEVICES=cpu timeout 150 build/tests/check_blur_kernels fixed > $R/blur-fixed-cpu.log 2>&1; echo "rc $?"; grep -c FAIL $R/blur-fixed-cpu.log; grep -m1 "bytes/item" $R/blur-fixed-cpu.log | cut -c1-160; tail -1 $R/blur-fixed-cpu.log
  step "blur checker GPU fixed (bands)"; KERNELCHECK_DEVICES=gpu timeout 200 build/tests/check_blur_kernels fixed > $R/blur-fixed-gpu.log 2>&1; echo "rc $?"; grep -c FAIL $R/blur-fixed-gpu.log; grep -m1 "bytes/item" $R/blur-fixed-gpu.log | cut -c1-160; tail -1 $R/blur-fixed-gpu.log
  step "all done"; } > $R/check.txt 2>&1
cd $O && tar czf s7r4.tgz s7r4 && rm -rf s7r4
