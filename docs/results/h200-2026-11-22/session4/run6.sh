#!/bin/bash
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/r6; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step "histeq checker GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed" | head; echo "exit ${PIPESTATUS[0]}"
  for pt in 0 1; do step "histeq checker PoCL 5, PAR_TAIL=$pt"; GST_CL_HISTEQ_PAR_TAIL=$pt KERNELCHECK_DEVICES=cpu POCL_CACHE_DIR=/tmp/pc timeout 150 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|temporal" | head; echo "exit ${PIPESTATUS[0]}"; done
  step "element tests clhisteq on both devices"; timeout 100 build/tests/check_clhisteq 2>&1 | grep -E "Checks|:F:|:E:" | head; echo "exit ${PIPESTATUS[0]}"
} > $R/check.txt 2>&1
step done
cd $O && tar czf r6.tgz r6 && rm -rf r6
