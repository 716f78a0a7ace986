#!/bin/bash
# Session 30, device run 1: the one-launch kernel's histogram by lanes
# (kernels/histeq.cl, EQ_HL). ptxas for histeq_equalize_c1 and _keep_c1
# with GST_CL_HISTEQ_EQ_HL 0 (NCOPIES' layout), 16 and 32; the histeq
# checker on the GPU (every path, the default: 16), path one with every
# waiter giving up for 16 and 32; bench.py clhisteq (global) with 0, 16
# and 32 in turns, three passes; bench_histeq's 4K spans; then 4K CLAHE
# in one launch (GST_CL_HISTEQ_CLAHE_ONE=1) against two (0), in turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 150 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m6 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, items, sizes, env...
  local n=$1 it=$2 sz=$3; shift 3
  echo "=== bench.py $n $it pass $pass ($(date +%T)) $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-$n "$@" timeout 60 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes $sz --items $it --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s %s kernel_ms %s\n", $1, $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
{ echo "=== machine"; nvidia-smi -L
  for hl in 0 16 32; do
    echo "=== ptxas HL=$hl"
    GST_CL_HISTEQ_EQ_HL=$hl GST_DEBUG=cl:5 GST_CL_CACHE_DIR=/tmp/clcache-regs$hl GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-dev/bench/bench_histeq 640 480 2 gpu > /tmp/regs$hl.txt 2>&1
    for k in histeq_equalize_c1 histeq_equalize_keep_c1; do
      echo "  $k"; grep -A3 "Compiling entry function '$k'" /tmp/regs$hl.txt | grep -i "registers\|spill" | head -2
    done
  done
  chk all ""
  chk one-giveup16 "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-giveup32 "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one GST_CL_HISTEQ_EQ_HL=32
  chk one32 "" HISTEQ_CHECK_PATHS=one GST_CL_HISTEQ_EQ_HL=32
  for pass in 1 2 3; do
    for hl in 0 16 32; do
      bp hl$hl clhisteq 480p,1080p,4K GST_CL_HISTEQ_EQ_HL=$hl
    done
  done
  for hl in 0 16 32; do
    echo "=== bench_histeq 4K HL=$hl"
    GST_CL_HISTEQ_EQ_HL=$hl GST_CL_CACHE_DIR=/tmp/clcache-hl$hl timeout 40 build-dev/bench/bench_histeq 3840 2160 100 gpu 2>&1 | grep "GRAY8.*global\|floors" | head -6
  done
  for pass in 1 2; do
    for one in 0 1; do
      bp clahe$one clhisteq-clahe 4K GST_CL_HISTEQ_CLAHE_ONE=$one
    done
  done
} > "$out/run1.out" 2>&1
