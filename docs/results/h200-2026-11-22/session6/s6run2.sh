#!/bin/bash
# session 6, device run 2: checkers of the changed kernels on the GPU (blur fixed at 16 bytes, Sobel bands, histeq every path with the merged cut+LUT); PoCL on 2 pinned Xeon cores: blur fixed 16 vs 32, histeq apply 16 vs 512
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s6r2; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step machine; nproc; grep -m1 "model name" /proc/cpuinfo; nvidia-smi -L; } > $R/machine.txt 2>&1
{ step "histeq checker GPU (every path)"; KERNELCHECK_DEVICES=gpu timeout 120 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror|temporal" | cut -c1-300 | tail -8
  step "sobel checker GPU bands"; KERNELCHECK_DEVICES=gpu timeout 200 build/tests/check_sobel_kernels bands 2>&1 | grep -E "FAIL|passed|rror|ok$" | cut -c1-200 | tail -4
  step "blur checker GPU fixed (16 bytes; FXW=32 asked: GPUs stay 16)"; GST_CL_BLUR_FXW=32 KERNELCHECK_DEVICES=gpu timeout 240 build/tests/check_blur_kernels fixed 2>&1 | grep -E "FAIL|passed|rror|bytes/item" | cut -c1-120 | sort | uniq -c | sort -rn | head -4
} > $R/check-gpu.txt 2>&1
{ for w in 16 32; do step "blur kernel, PoCL pinned to 2 cores, FXW=$w"; GST_CL_BLUR_FXW=$w POCL_CPU_MAX_CU_COUNT=2 POCL_MAX_PTHREAD_COUNT=2 timeout 150 taskset -c 0,1 build/bench/bench_kernels 1920 1080 1.1 200 fixed 5 2>&1 | tail -3; done
  for w in 16 512; do step "histeq kernels, PoCL pinned to 2 cores, APPLY_W=$w"; GST_CL_HISTEQ_APPLY_W=$w POCL_CPU_MAX_CU_COUNT=2 POCL_MAX_PTHREAD_COUNT=2 timeout 100 taskset -c 0,1 build/bench/bench_histeq 1920 1080 50 cpu 2>&1 | grep -E "GRAY8 +noise global|floors"; done
} > $R/kernels-2core.txt 2>&1
step "all done" >> $R/machine.txt
cd $O && tar czf s6r2.tgz s6r2 && rm -rf s6r2
