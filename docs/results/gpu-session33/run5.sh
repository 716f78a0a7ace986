#!/bin/bash
# Session 33, device run 5: the committed build (f048d85) with its
# defaults (the local-cell apply where its groups are 2 a compute unit):
# bench.py clhisteq-clahe 480p, 1080p and 4K, then 4K with the global
# table (GST_CL_HISTEQ_CLAHE_LQ=0) and 1080p in two launches, in turns.
# . .device/env.sh && bash THIS "$OUT/r5"
out=${1:-/tmp/run5}; mkdir -p "$out"
b () {  # label, sizes, env...
  local n=$1 sz=$2; shift 2
  echo "=== bench.py $n ($(date +%T)) $*"
  env "$@" GST_CL_CACHE_DIR=/tmp/clcache timeout 60 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes $sz --items clhisteq-clahe --kinds ours --reps 2 --out "/tmp/b-$n" > /dev/null 2>&1
  awk -F, '$7=="ours"{printf "%s/%s %.4f  ", $3,$6,$13}' "/tmp/b-$n/bench.csv"; echo
}
{ echo "=== machine"; nvidia-smi -L
  b default 480p,1080p,4K X=1
  b 4K-lq0 4K GST_CL_HISTEQ_CLAHE_LQ=0
  b 4K-default 4K X=1
  b 1080p-two 1080p GST_CL_HISTEQ_CLAHE_ONE=0
  b 1080p-two-lq1 1080p GST_CL_HISTEQ_CLAHE_ONE=0 GST_CL_HISTEQ_CLAHE_LQ=1
  echo "=== end ($(date +%T))"
} > "$out/run5.out" 2>&1
