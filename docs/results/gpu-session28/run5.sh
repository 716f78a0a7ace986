#!/bin/bash
# Session 28, device run 5: the histogram's local increments as
# atomic_add (p, 1) (-DHIST_ADD=1, hist-add.diff) against atomic_inc
# (af36648): the instructions ptxas makes of each (SASS of the one-launch
# kernels: the shared-memory atomics), the checker's path one with it,
# bench.py clhisteq in turns, twice.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
sass () {  # label, options
  local d=$(mktemp -d)
  GST_CL_CACHE_DIR=$d GST_CL_BUILD_OPTIONS="$2" build-dev/bench/bench_histeq 64 48 2 gpu > /dev/null 2>&1
  for f in $d/*; do
    if tail -c +53 "$f" | grep -q histeq_equalize_keep_c1; then
      tail -c +53 "$f" > "$out/$1.ptx"
      echo "=== ptx $1: $(grep -c 'atom.shared' "$out/$1.ptx") atom.shared, $(grep -c 'red.shared' "$out/$1.ptx") red.shared; kinds:"
      grep -oE '(atom|red)\.shared[.a-z0-9]*' "$out/$1.ptx" | sort | uniq -c
      /usr/local/cuda/bin/ptxas -arch=sm_90a "$out/$1.ptx" -o "$out/$1.cubin" && \
      for k in histeq_equalize_keep_c1 histeq_equalize_c1; do
        echo "--- sass $1 $k:"
        /usr/local/cuda/bin/cuobjdump -sass -fun $k "$out/$1.cubin" | grep -oE 'ATOMS[.A-Z0-9]*|RED[.A-Z0-9]*' | sort | uniq -c
      done
      rm -f "$out/$1.cubin"
    fi
  done
}
bp () {  # label, options
  echo "=== bench.py $1 pass $pass ($(date +%T)) $2"
  GST_CL_CACHE_DIR=/tmp/clcache-$1 GST_CL_BUILD_OPTIONS="$2" timeout 200 python3 bench/bench.py --build-dir build-dev --devices gpu \
    --sizes 1080p,4K --items clhisteq --kinds ours,floor --reps 2 --out "$out/b" > /dev/null 2>&1
  awk -F, '$7=="ours"||$8=="read+write kernel"{printf "  %s %s %s kernel_ms %s\n", $8, $3, $6, $13}' "$out/b/bench.csv"
  rm -rf "$out/b"
}
{ echo "=== machine"; nvidia-smi -L
  sass inc ""
  sass add "-DHIST_ADD=1"
  echo "=== check one-add ($(date +%T))"
  GST_CL_CACHE_DIR=/tmp/clcache-chk GST_CL_BUILD_OPTIONS="-DHIST_ADD=1" KERNELCHECK_DEVICES=gpu HISTEQ_CHECK_PATHS=one timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check.txt
  for pass in 1 2; do
    bp inc ""
    bp add "-DHIST_ADD=1"
  done
} > "$out/run5.out" 2>&1
rm -f "$out"/*.ptx
