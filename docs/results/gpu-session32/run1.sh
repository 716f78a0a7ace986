#!/bin/bash
# Session 32, device run 1: the CLAHE apply's int/float conversions by float
# adds and bit operations (small_uint_to_float, floor_parts,
# rne_to_uchar_sat) instead of conversion instructions. Against 3a55963
# (build-base). The histeq checker on the GPU (every path; path one with
# every waiter giving up); the conversions left in the PTX of the CLAHE
# kernels and their registers (ptxas); bench.py clhisteq-clahe in turns
# (base, dev), three passes; bench_histeq CLAHE lines, one pass each.
# . .device/env.sh && bash THIS "$OUT/r1"
out=${1:-/tmp/run1}; mkdir -p "$out"
chk () {  # name, binary, options, env...
  local n=$1 bin=$2 o=$3; shift 3
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/$bin > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all check_histeq_kernels ""
  chk one-giveup check_histeq_kernels "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one
  chk clahe-two check_histeq_kernels "" HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_ONE=0
  for b in base dev; do
    echo "=== ptxas and PTX conversions, $b"
    d=/tmp/clcache-ptx-$b; rm -rf $d; mkdir -p $d
    GST_CL_CACHE_DIR=$d GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_clahe_one_c1|histeq_apply_clahe_c1)" | grep -E "entry|registers|spill" | cut -c1-160
    d=/tmp/clcache-ptx2-$b; rm -rf $d; mkdir -p $d
    GST_CL_CACHE_DIR=$d timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu > /dev/null 2>&1
    for f in $d/*; do
      for k in histeq_clahe_one_c1 histeq_apply_clahe_c1; do
        awk -v k="$k" '/\.entry /{on = index($0, k "(") > 0} on' "$f" > /tmp/ptx-$k.txt
        [ -s /tmp/ptx-$k.txt ] && echo "$k: $(grep -c 'cvt\.' /tmp/ptx-$k.txt) cvt lines: $(grep -o 'cvt\.[a-z0-9.]*' /tmp/ptx-$k.txt | sort | uniq -c | tr '\n' ' ')"
      done
    done
  done
  for pass in 1 2 3; do
    for b in base dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "^  ours |^  floor|GPU: kernel"
    done
  done
  for b in base dev; do
    for sz in "1920 1080 200" "3840 2160 100"; do
      echo "=== $b bench_histeq $sz ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 90 build-$b/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8 .*clahe"
    done
  done
  rm -f "$out"/bench-*/bench.json
  echo "=== end ($(date +%T))"
} > "$out/run1.out" 2>&1
