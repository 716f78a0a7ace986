#!/bin/bash
# session 7, device run 1: blur_fixed_rows and the CLAHE byte-shuffle apply on PoCL 5.0 (Xeon, checkers; 2 pinned cores against the peers), the GPU checkers after the kernel-source changes
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s7r1; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
P2="env POCL_CPU_MAX_CU_COUNT=2 POCL_MAX_PTHREAD_COUNT=2 OPENCV_FOR_THREADS_NUM=2 taskset -c 0,1"
{ step machine; nproc; grep -m1 "model name" /proc/cpuinfo; nvidia-smi -L; clinfo -l; } > $R/machine.txt 2>&1
{ step "blur checker CPU fixed (rows)"; KERNELCHECK_DEVICES=cpu timeout 150 build/tests/check_blur_kernels fixed > $R/blur-fixed-cpu.log 2>&1; echo "rc $?"; grep -c FAIL $R/blur-fixed-cpu.log; grep -m1 "bytes/item" $R/blur-fixed-cpu.log | cut -c1-160; tail -1 $R/blur-fixed-cpu.log
  step "histeq checker CPU"; KERNELCHECK_DEVICES=cpu timeout 90 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror" | cut -c1-300 | tail -5
  step "histeq checker GPU"; KERNELCHECK_DEVICES=gpu timeout 90 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror" | cut -c1-300 | tail -5
} > $R/check.txt 2>&1
{ for rows in 1 0 1 0; do step "blur kernel, 2 pinned cores, GST_CL_BLUR_FIXED_ROWS=$rows"; GST_CL_BLUR_FIXED_ROWS=$rows timeout 40 $P2 build/bench/bench_kernels 1920 1080 1.1 200 fixed 5 2>&1 | tail -3; done
  step "histeq kernels, 2 pinned cores"; timeout 60 $P2 build/bench/bench_histeq 1920 1080 50 cpu 2>&1 | grep -E "floors|clahe|global smooth=8"
} > $R/kernels-2core.txt 2>&1
{ step "bench.py cpu pinned to 2 cores"; timeout 170 $P2 python3 bench/bench.py --devices cpu --sizes 1080p --formats GRAY8,NV12 --items clblur,clhisteq-clahe,blur+sobel,blur+sobel+histeq --kinds ours,gst,cv --reps 3 --seconds 0.3 --out $R/bench2core; echo "exit $?"; } > $R/bench2core.txt 2>&1
{ step "blur checker GPU fixed (bands)"; KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels fixed > $R/blur-fixed-gpu.log 2>&1; echo "rc $?"; grep -c FAIL $R/blur-fixed-gpu.log; grep -c ": ok" $R/blur-fixed-gpu.log; tail -1 $R/blur-fixed-gpu.log | cut -c1-200; } > $R/check-blur-fixed-gpu.txt 2>&1
step "all done" >> $R/machine.txt
cd $O && tar czf s7r1.tgz s7r1 && rm -rf s7r1
