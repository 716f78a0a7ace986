#!/bin/bash
# Session 29, device run 4: histeq_clahe_one_c1 with its band's loads two
# or four at a time (CLAHE_UNROLL) and with 3 groups a compute unit
# (GST_CL_HISTEQ_EQ_GROUPS=3; 80 registers leave room for 3 of 256
# items): ptxas, the checker, bench.py clhisteq-clahe in turns against two
# launches, and bench_histeq's spans.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 240 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m6 FAIL /tmp/check-$n.txt | cut -c1-250
}
regs () {  # options
  echo "=== ptxas $1"
  rm -rf /tmp/clcache-regs
  GST_DEBUG=cl:5 GST_CL_CACHE_DIR=/tmp/clcache-regs GST_CL_BUILD_OPTIONS="-cl-nv-verbose $1" timeout 100 build-dev/bench/bench_histeq 640 480 2 gpu 2>&1 |
    grep -A3 "Compiling entry function 'histeq_clahe_one_c1'" | grep -i "registers\|spill" | head -4
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
  for o in "-DCLAHE_UNROLL=2" "-DCLAHE_UNROLL=4"; do regs "$o"; done
  chk u2 "-DCLAHE_UNROLL=2" HISTEQ_CHECK_PATHS=one
  chk g3-u2-giveup "-DCLAHE_UNROLL=2 -DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one GST_CL_HISTEQ_EQ_GROUPS=3
  for pass in 1 2; do
    bp two "" GST_CL_HISTEQ_CLAHE_ONE=0
    bp one ""
    bp u2 "-DCLAHE_UNROLL=2"
    bp u4 "-DCLAHE_UNROLL=4"
    bp g3 "" GST_CL_HISTEQ_EQ_GROUPS=3
    bp g3u2 "-DCLAHE_UNROLL=2" GST_CL_HISTEQ_EQ_GROUPS=3
  done
} > "$out/run4.out" 2>&1
