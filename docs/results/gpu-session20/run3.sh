#!/bin/bash
# Session 20, device run 3: run 2's bench_histeq turns again, on the same
# warm H200 (run 2 wrote more files than came back, and its kernels.log
# was among those left out). Everything into one file.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
cfgs="base:build-base:BENCH_BASE=1 dev-two:build-dev:GST_CL_HISTEQ_ONE_LAUNCH=0 dev-one1:build-dev:GST_CL_HISTEQ_EQ_GROUPS=1 dev-one2:build-dev:GST_CL_HISTEQ_EQ_GROUPS=2 dev-one4:build-dev:GST_CL_HISTEQ_EQ_GROUPS=4 nopub:plant-bin:x"
for pass in 1 2; do
  for c in $cfgs; do
    IFS=: read name b env <<< "$c"
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass $name bench_histeq $sz"
      if [ $b = plant-bin ]; then bin=plant-bin/bench_no_publish; [ $pass = 1 ] || continue
      else bin=$b/bench/bench_histeq; fi
      env ${env/#x/BENCH_PLANT=1} timeout 60 $bin $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
    done
  done
done > "$out/run3.out" 2>&1
