#!/bin/bash
# session 6, device run 3: the review's merged cut+LUT argument order on the GPU (histeq checker, every path); the fixed-point blur checker on the GPU to the end
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s6r3; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step machine; nvidia-smi -L; } > $R/machine.txt 2>&1
{ step "histeq checker GPU (every path)"; KERNELCHECK_DEVICES=gpu timeout 120 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror|temporal" | cut -c1-300 | tail -8; } > $R/check-histeq-gpu.txt 2>&1
{ step "blur checker GPU fixed"; KERNELCHECK_DEVICES=gpu timeout 420 build/tests/check_blur_kernels fixed > $R/blur-fixed-gpu.log 2>&1; echo "rc $?"; grep -c FAIL $R/blur-fixed-gpu.log; grep -c ": ok" $R/blur-fixed-gpu.log; tail -2 $R/blur-fixed-gpu.log | cut -c1-200; } > $R/check-blur-fixed-gpu.txt 2>&1
step "all done" >> $R/machine.txt
cd $O && tar czf s6r3.tgz s6r3 && rm -rf s6r3
