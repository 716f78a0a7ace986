#!/bin/bash
# session 6, device run 1: the new CPU kernels (blur fixed 32 bytes/item, Sobel bands by shuffles) on the GPU (checkers) and on PoCL pinned to 2 cores (against the peers)
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s6r1; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step machine; nproc; grep -m1 "model name" /proc/cpuinfo; nvidia-smi -L; clinfo -l; } > $R/machine.txt 2>&1
{ for w in 16 32; do step "blur checker GPU fixed FXW=$w"; GST_CL_BLUR_FXW=$w KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_blur_kernels fixed 2>&1 | grep -E "FAIL|passed|rror|bytes/item" | cut -c1-200 | sort | uniq -c | sort -rn | head -8; done
  step "sobel checker GPU bands"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_sobel_kernels bands 2>&1 | grep -E "FAIL|passed|rror" | cut -c1-300 | tail -5
  step "histeq checker GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror" | cut -c1-300 | tail -5
} > $R/check-gpu.txt 2>&1
{ for w in 16 32; do step "blur kernel, PoCL pinned to 2 cores, FXW=$w"; GST_CL_BLUR_FXW=$w POCL_CPU_MAX_CU_COUNT=2 POCL_MAX_PTHREAD_COUNT=2 timeout 90 taskset -c 0,1 build/bench/bench_kernels 1920 1080 1.1 200 fixed 5 2>&1 | tail -3; done
  step "sobel kernel, PoCL pinned to 2 cores"; POCL_CPU_MAX_CU_COUNT=2 POCL_MAX_PTHREAD_COUNT=2 timeout 120 taskset -c 0,1 build/bench/bench_sobel_kernels 1920 1080 100 bands cpu 2>&1 | tail -11
} > $R/kernels-2core.txt 2>&1
{ step "bench.py cpu pinned to 2 cores"; POCL_MAX_PTHREAD_COUNT=2 POCL_CPU_MAX_CU_COUNT=2 OPENCV_FOR_THREADS_NUM=2 timeout 200 taskset -c 0,1 python3 bench/bench.py --devices cpu --sizes 1080p --formats GRAY8,NV12 --items clblur,clsobel,clhisteq,blur+sobel,blur+sobel+histeq --kinds ours,gst,cv,floor --reps 3 --seconds 0.3 --out $R/bench2core; echo "exit $?"; } > $R/bench2core.txt 2>&1
step "all done" >> $R/machine.txt
cd $O && tar czf s6r1.tgz s6r1 && rm -rf s6r1
