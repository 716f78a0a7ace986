#!/bin/bash
# Session 32, device run 3: CLAHE with smoothing, the frame's critical path
# shortened: the tile's mean and cut_body ()'s count and distance in two
# barriers each (were 8, 6 and 6), the cut and the median's bin carried in
# the cut's flag (no store and read-back of frame_state around it), the
# tile's state read before the wait. Against 3a55963 (build-base). The
# histeq checker on the GPU (every path; paths one and fused with every
# waiter giving up, fused also in two launches); bench.py clhisteq and
# clhisteq-clahe in turns (base, dev), three passes; bench_histeq CLAHE.
# . .device/env.sh && bash THIS "$OUT/r3"
out=${1:-/tmp/run3}; mkdir -p "$out"
chk () {  # name, binary, options, env...
  local n=$1 bin=$2 o=$3; shift 3
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 200 build-dev/tests/$bin > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk all check_histeq_kernels ""
  chk giveup check_histeq_kernels "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one,fused
  chk two-giveup check_histeq_kernels "-DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=fused GST_CL_HISTEQ_CLAHE_ONE=0
  echo "=== ptxas"
  for b in base dev; do
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose" timeout 60 build-$b/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A4 "Compiling entry function '(histeq_clahe_one_c1|histeq_hist_lut_c1|histeq_equalize_keep_c1)" | grep -E "entry|registers|spill" | cut -c1-160
  done
  for pass in 1 2 3; do
    for b in base dev; do
      echo "=== bench.py $b pass $pass ($(date +%T))"
      GST_CL_CACHE_DIR=/tmp/clcache-$b timeout 200 python3 bench/bench.py --build-dir build-$b --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq,clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench-$b-$pass" 2>&1 | \
        grep -E "GPU: kernel"
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
} > "$out/run3.out" 2>&1
