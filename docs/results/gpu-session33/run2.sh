#!/bin/bash
# Session 33, device run 2: candidates for CLAHE's critical path, each a -D
# of the dev build (knobs.diff), on top of ALUT_VEC 1 (run 1's keeper):
# MAP_EARLY 1 each tile's clip and CDF (tile_map ()) made while its add to
# the frame's histogram is in flight, not after the cut's flag; LUT_XCHG 1
# the one-launch LUT published by exchanges of the group's own words (no
# volatile read back first); CHUNK_TX 1 the apply's tile column found once
# per 16-pixel chunk where the chunk is within one cell. Checker with all
# three (every path; one and fused with every waiter giving up); ptxas;
# bench_histeq 1080p and 4K; bench.py clhisteq-clahe, two passes each.
# . .device/env.sh && bash THIS "$OUT/r2"
out=${1:-/tmp/run2}; mkdir -p "$out"
declare -A opt=([V]="-DALUT_VEC=1" [M]="-DALUT_VEC=1 -DMAP_EARLY=1" [X]="-DALUT_VEC=1 -DLUT_XCHG=1" [C]="-DALUT_VEC=1 -DCHUNK_TX=1" [A]="-DALUT_VEC=1 -DMAP_EARLY=1 -DLUT_XCHG=1 -DCHUNK_TX=1")
chk () {  # name, options, env...
  local n=$1 o=$2; shift 2
  echo "=== check $n ($(date +%T)) $o $*"
  env GST_CL_CACHE_DIR=/tmp/clcache-chk-$n GST_CL_BUILD_OPTIONS="$o" KERNELCHECK_DEVICES=gpu "$@" timeout 150 build-dev/tests/check_histeq_kernels > /tmp/check-$n.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-$n.txt; grep -m4 FAIL /tmp/check-$n.txt | cut -c1-250
}
{ echo "=== machine"; nvidia-smi -L
  chk A "${opt[A]}"
  chk A-giveup "${opt[A]} -DEQG_MAX_POLLS=0" HISTEQ_CHECK_PATHS=one,fused
  for v in V A; do
    echo "=== ptxas $v"
    GST_CL_CACHE_DIR=$(mktemp -d) GST_DEBUG=cl:5 GST_CL_BUILD_OPTIONS="-cl-nv-verbose ${opt[$v]}" timeout 60 build-dev/bench/bench_histeq 64 48 2 gpu 2>&1 | grep -E -A6 "Compiling entry function '(histeq_clahe_one_c1|histeq_hist_lut_c1|histeq_apply_clahe_c1)'" | grep -E "entry|registers|spill" | cut -c1-120
  done
  for v in V M X C A; do
    for sz in "1920 1080 200" "3840 2160 100"; do
      echo "=== bench_histeq $v '${opt[$v]}' $sz ($(date +%T))"
      GST_CL_BUILD_OPTIONS="${opt[$v]}" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8  noise clahe"
    done
  done
  for pass in 1 2; do
    for v in V M X C A; do
      echo "=== bench.py $v pass $pass ($(date +%T))"
      GST_CL_BUILD_OPTIONS="${opt[$v]}" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 100 python3 bench/bench.py --build-dir build-dev --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours --reps 2 --out "$out/bench-$v-$pass" > /dev/null 2>&1
      awk -F, '$7=="ours"{printf "%s/%s %.4f  ", $3,$6,$13}' "$out/bench-$v-$pass/bench.csv"; echo
      rm -rf "$out/bench-$v-$pass"
    done
  done
  echo "=== end ($(date +%T))"
} > "$out/run2.out" 2>&1
