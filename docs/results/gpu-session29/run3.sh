#!/bin/bash
# Session 29, device run 3: histeq_clahe_one_c1's registers (ptxas through
# -cl-nv-verbose) with its band's first chunks loaded before the wait in
# registers (CLAHE_PRE 0 / 1 / 2 / 4) or in local memory (CLAHE_LPRE 1 / 2),
# the checker for the variants kept, and bench.py clhisteq-clahe in turns
# against two launches (GST_CL_HISTEQ_CLAHE_ONE=0).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
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
    grep -A3 "Compiling entry function 'histeq_clahe_one_c1'\|Compiling entry function 'histeq_hist_lut_c1'" | grep -i "registers\|spill\|Compiling" | head -8
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
  for o in "" "-DCLAHE_PRE=1" "-DCLAHE_PRE=2" "-DCLAHE_PRE=4" "-DCLAHE_LPRE=1" "-DCLAHE_LPRE=2"; do regs "$o"; done
  chk lpre2 "-DCLAHE_LPRE=2" HISTEQ_CHECK_PATHS=one
  chk lpre2-giveup "-DCLAHE_LPRE=2 -DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  for pass in 1 2; do
    bp two "" GST_CL_HISTEQ_CLAHE_ONE=0
    bp pre0 ""
    bp pre1 "-DCLAHE_PRE=1"
    bp pre2 "-DCLAHE_PRE=2"
    bp lpre1 "-DCLAHE_LPRE=1"
    bp lpre2 "-DCLAHE_LPRE=2"
  done
} > "$out/run3.out" 2>&1
