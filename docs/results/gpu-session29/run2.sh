#!/bin/bash
# Session 29, device run 2: histeq_clahe_one_c1 loading CLAHE_PRE chunks of
# its band before the wait. The checker (paths one and fused; path one with
# every waiter giving up, and with CLAHE_PRE 0), then bench.py
# clhisteq-clahe in turns: two launches (GST_CL_HISTEQ_CLAHE_ONE=0), one
# launch with CLAHE_PRE 0 / 4 (default) / 8, and 3 or 4 groups a compute
# unit (GST_CL_HISTEQ_EQ_GROUPS); bench_histeq's spans.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 240 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m6 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, options, env...
  local n=$1 o=$2; shift 2
  echo "=== bench.py $n pass $pass ($(date +%T)) $o $*"
  env GST_CL_BUILD_OPTIONS="$o" GST_CL_CACHE_DIR=/tmp/clcache-$n "$@" timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s %s kernel_ms %s\n", $1, $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
{ echo "=== machine"; nvidia-smi -L
  chk paths "" HISTEQ_CHECK_PATHS=one,fused
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-pre0 "-DCLAHE_PRE=0" HISTEQ_CHECK_PATHS=one
  for pass in 1 2; do
    bp two "" GST_CL_HISTEQ_CLAHE_ONE=0
    bp pre0 "-DCLAHE_PRE=0"
    bp pre4 ""
    bp pre8 "-DCLAHE_PRE=8"
    bp g3 "" GST_CL_HISTEQ_EQ_GROUPS=3
    bp g4 "" GST_CL_HISTEQ_EQ_GROUPS=4
  done
  for one in 0 1; do
    echo "=== bench_histeq CLAHE_ONE=$one"
    for sz in "1920 1080" "3840 2160"; do
      GST_CL_HISTEQ_CLAHE_ONE=$one GST_CL_CACHE_DIR=/tmp/clcache-$one timeout 100 build-dev/bench/bench_histeq $sz 200 gpu 2>&1 | grep "GRAY8.*clahe.*fused\|floors" | head -12
    done
  done
} > "$out/run2.out" 2>&1
