#!/bin/bash
# session 7, device run 5: what the fused histogram's temporal failure on PoCL 5.0 depends on (threads, PoCL's work-group method, the serial or group-wide frame step)
export GST_PLUGIN_PATH=$PWD/build
O=${OUT:-/tmp/out}; R=$O/s7r5; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
i=0
for cfg in "" "POCL_MAX_PTHREAD_COUNT=1" "POCL_WORK_GROUP_METHOD=cbs" "POCL_WORK_GROUP_METHOD=loopvec" "GST_CL_HISTEQ_PAR_TAIL=1" "POCL_MAX_PTHREAD_COUNT=1 POCL_WORK_GROUP_METHOD=cbs"; do
  i=$((i+1))
  { step "histeq checker CPU: ${cfg:-defaults}"; env $cfg GST_CL_CACHE_DIR=/tmp/clcache-$i KERNELCHECK_DEVICES=cpu timeout 80 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed|rror" | grep -v "^$" | cut -c1-220 | tail -4; } >> $R/check.txt 2>&1
done
step "all done" >> $R/check.txt
cd $O && tar czf s7r5.tgz s7r5 && rm -rf s7r5
