#!/bin/bash
# Session 28, device run 2: run 1 again with the bank copies filled from the
# group's table after the barrier that brings it in (lut-rep.diff, the
# tree build-dev held), not by each item reading 8 published words itself:
# the checker's path one with -DLUT_REP=1 (and every waiter giving up);
# bench.py clhisteq plain / -DLUT_REP=1 / -DLUT_REP=1 -DLUT_NONE=1 (timing
# only: no lookups, wrong output) in turns, twice; ptxas's counts.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
bp () {  # label, build, options
  echo "=== bench.py $1 pass $pass ($(date +%T)) $3"
  GST_CL_CACHE_DIR=/tmp/clcache-$1 GST_CL_BUILD_OPTIONS="$3" timeout 200 python3 bench/bench.py --build-dir $2 --devices gpu \
    --sizes 480p,1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/bench-$1-$pass" 2>&1 | \
    grep -E "^  ours |GPU: kernel"
}
{ echo "=== machine"; nvidia-smi -L
  chk one-rep "-DLUT_REP=1" HISTEQ_CHECK_PATHS=one
  chk one-rep-giveup "-DLUT_REP=1 -DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  echo "=== ptxas"
  GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose -DLUT_REP=1" build-dev/bench/bench_histeq 64 48 2 gpu > "$out/ptxas.log" 2>&1; grep -A4 "function .histeq_equalize" "$out/ptxas.log" | grep -E "entry|Used|spill"
  for pass in 1 2; do

    bp plain build-dev ""
    bp rep build-dev "-DLUT_REP=1"
    bp none build-dev "-DLUT_REP=1 -DLUT_NONE=1"
  done
} > "$out/run2.out" 2>&1
