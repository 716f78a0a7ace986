#!/bin/bash
# session 7, device run 2: the histeq checker on PoCL 5.0 (Xeon) with session 6's build and with this one: is the fused-path temporal failure of run 1 new?
O=${OUT:-/tmp/out}; R=$O/s7r2; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
for b in build6 build; do
  { step "histeq checker CPU, .devbuild/$b"; GST_PLUGIN_PATH=$PWD/.devbuild/$b GST_CL_CACHE_DIR=/tmp/clcache-$b KERNELCHECK_DEVICES=cpu timeout 120 .devbuild/$b/tests/check_histeq_kernels > $R/histeq-cpu-$b.log 2>&1; echo "rc $?"; grep -E "FAIL|passed" $R/histeq-cpu-$b.log | cut -c1-300 | tail -8; } >> $R/check.txt 2>&1
done
cd $O && tar czf s7r2.tgz s7r2 && rm -rf s7r2
