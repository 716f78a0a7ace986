#!/bin/bash
# Session 28, device run 6: histeq_equalize_c1 (4K) with its histogram in
# 32 lane copies (-DEQ_HIST_LANES=1: bank-conflict-free increments, 32 KB
# laid over the frame step's locals) and its chunks kept 6 in registers +
# 3 in local memory (EQ_HL_REGS, EQ_HL_LKEEP) or 9 in registers, against
# the same build without (9 in local memory, 4 interleaved copies). The
# checker's path one both ways (and with every waiter giving up);
# ptxas's counts; bench.py clhisteq 4K in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, options
  echo "=== bench.py $1 pass $pass ($(date +%T)) $2"
  GST_CL_CACHE_DIR=/tmp/clcache-$1 GST_CL_BUILD_OPTIONS="$2" timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes 4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s kernel_ms %s\n", $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
L63="-DEQ_HIST_LANES=1"
L90="-DEQ_HIST_LANES=1 -DEQ_HL_REGS=9 -DEQ_HL_LKEEP=0"
{ echo "=== machine"; nvidia-smi -L
  chk one "" HISTEQ_CHECK_PATHS=one
  chk one-l63 "$L63" HISTEQ_CHECK_PATHS=one
  chk one-l63-giveup "$L63 -DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk one-l90 "$L90" HISTEQ_CHECK_PATHS=one
  for o in "$L63" "$L90"; do
    echo "=== ptxas $o"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose $o" build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -A2 "function .histeq_equalize_c1'" | grep -E "spill|Used"
  done
  for pass in 1 2; do
    bp plain ""
    bp l63 "$L63"
    bp l90 "$L90"
  done
} > "$out/run6.out" 2>&1
