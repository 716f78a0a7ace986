#!/bin/bash
# Session 29, device run 5: the committed tree (CLAHE in one launch up to
# 1920x1088, two launches above): ptxas, the checker (paths one and fused;
# path one with every waiter giving up), bench.py clhisteq-clahe with two
# launches (GST_CL_HISTEQ_CLAHE_ONE=0) and the default in turns, and
# bench_histeq's spans at 1080p.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 100 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m6 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, env...
  local n=$1; shift
  echo "=== bench.py $n pass $pass ($(date +%T)) $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-$n "$@" timeout 60 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s %s kernel_ms %s\n", $1, $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
{ echo "=== machine"; nvidia-smi -L
  echo "=== ptxas"
  GST_DEBUG=cl:5 GST_CL_CACHE_DIR=/tmp/clcache-regs GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 640 480 2 gpu 2>&1 |
    grep -A3 "Compiling entry function 'histeq_clahe_one_c1'" | grep -i "registers\|spill" | head -4
  chk paths "" HISTEQ_CHECK_PATHS=one,fused
  chk one-giveup "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  for pass in 1 2; do
    bp two GST_CL_HISTEQ_CLAHE_ONE=0
    bp default
  done
  for one in 0 2; do
    echo "=== bench_histeq 1080p CLAHE_ONE=$one"
    GST_CL_HISTEQ_CLAHE_ONE=$one GST_CL_CACHE_DIR=/tmp/clcache-$one timeout 40 build-dev/bench/bench_histeq 1920 1080 100 gpu 2>&1 | grep "GRAY8.*clahe.*fused\|floors" | head -6
  done
} > "$out/run5.out" 2>&1
