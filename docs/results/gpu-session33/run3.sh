#!/bin/bash
# Session 33, device run 3: the kept form (16-byte LUT copy, the tile's map
# under its frame add, the LUT published from the group's own words; no
# knobs) against 3c05f84 (build-base), and CHUNK_TX 1 again without a
# branch per chunk (run 2's form lost 1080p to divergent warps): the
# chunk's first tile column, then per pixel whether it is past the next
# centre. Checker (dev, and dev with CHUNK_TX 1 on every path and with
# every waiter giving up); ptxas; bench_histeq 1080p and 4K; bench.py
# clhisteq-clahe in turns, two passes.
# . .device/env.sh && bash THIS "$OUT/r3"
out=${1:-/tmp/run3}; mkdir -p "$out"
declare -A opt=([base]="" [dev]="" [devC]="-DCHUNK_TX=1")
declare -A bld=([base]=base [dev]=dev [devC]=dev)
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 150 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk devC "-DCHUNK_TX=1"
  chk devC-giveup "-DCHUNK_TX=1 -DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one,fused
  chk dev "" HISTEQ_CHECK_PATHS=one,fused
  for v in base devC; do
    echo "=== ptxas $v"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${opt[$v]}" timeout 60 build-${bld[$v]}/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A6 "Compiling entry function '(histeq_clahe_one_c1|histeq_apply_clahe_c1)'" | grep -E "entry|registers|spill" | cut -c1-120
  done
  for v in base dev devC; do
    for sz in "1920 1080 200" "3840 2160 100"; do
      echo "=== bench_histeq $v $sz ($(date +%T))"
      GST_CL_BUILD_OPTIONS="${opt[$v]}" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 60 build-${bld[$v]}/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8  noise clahe"
    done
  done
  for pass in 1 2; do
    for v in base dev devC; do
      echo "=== bench.py $v pass $pass ($(date +%T))"
      GST_CL_BUILD_OPTIONS="${opt[$v]}" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 100 python3 bench/bench.py --build-dir build-${bld[$v]} --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench-$v-$pass" > /dev/null 2>&1
      awk -F, '$7=="ours"{printf "%s/%s %.4f  ", $3,$6,$13}' "$out/bench-$v-$pass/bench.csv"; echo
      rm -f "$out/bench-$v-$pass/bench.json"
    done
  done
  echo "=== end ($(date +%T))"
} > "$out/run3.out" 2>&1
