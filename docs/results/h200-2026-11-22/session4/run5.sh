#!/bin/bash
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/r5; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ for i in 1 2; do step "histeq checker GPU run $i"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed" | head; echo "exit ${PIPESTATUS[0]}"; done
  for pt in 0 1; do step "histeq checker PoCL 5, PAR_TAIL=$pt"; GST_CL_HISTEQ_PAR_TAIL=$pt KERNELCHECK_DEVICES=cpu POCL_CACHE_DIR=/tmp/pc timeout 150 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|temporal" | head; echo "exit ${PIPESTATUS[0]}"; done
} > $R/check.txt 2>&1
{ for sz in "1920 1080 100" "3840 2160 50"; do step "bench_histeq $sz"; timeout 60 build/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|smooth|fused /"; done; } > $R/bench.txt 2>&1
step done
cd $O && tar czf r5.tgz r5 && rm -rf r5
