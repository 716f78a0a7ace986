#!/bin/bash
# Session 33, device run 1: where CLAHE's time goes. Probes by -D (probe.diff,
# not kept): PROBE 1 every group returns after its slice's histogram is
# added and counted; 2 after the tiles' LUTs (the cut's wait included with
# smoothing), before the apply's wait; 3 the one-launch apply's wait and LUT
# copy, no chunks; 4 the apply's lookups replaced by the pixel's own value
# (same arithmetic, no loads). Candidate ALUT_VEC 1: the one-launch band's
# LUT rows copied by 16-byte volatile loads (were 4-byte: 4 trips to L2 in
# a row at 1080p). bench_histeq (old and fused, per step) at 1080p and 4K
# for each, two passes; checker for ALUT_VEC (paths one, fused); bench.py
# clhisteq-clahe default against ALUT_VEC, three passes.
# . .device/env.sh && bash THIS "$OUT/r1"
out=${1:-/tmp/run1}; mkdir -p "$out"
declare -A opt=([d]="" [p1]="-DPROBE=1" [p2]="-DPROBE=2" [p3]="-DPROBE=3" [p4]="-DPROBE=4" [v]="-DALUT_VEC=1" [vp3]="-DALUT_VEC=1 -DPROBE=3")
{ echo "=== machine"; nvidia-smi -L
  echo "=== check v ($(date +%T))"
  GST_CL_CACHE_DIR=/tmp/clcache-chk-v GST_CL_BUILD_OPTIONS="${opt[v]}" KERNELCHECK_DEVICES=gpu HISTEQ_CHECK_PATHS=one,fused timeout 100 build-dev/tests/check_histeq_kernels > /tmp/check-v.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-v.txt; grep -m4 FAIL /tmp/check-v.txt | cut -c1-250
  for pass in 1 2; do
    for v in d p1 p2 p3 p4 v vp3; do
      for sz in "1920 1080 200" "3840 2160 100"; do
        echo "=== bench_histeq $v '${opt[$v]}' $sz pass $pass ($(date +%T))"
        GST_CL_BUILD_OPTIONS="${opt[$v]}" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 90 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8 .*clahe"
      done
    done
  done
  for pass in 1 2 3; do
    for v in d v; do
      echo "=== bench.py $v pass $pass ($(date +%T))"
      GST_CL_BUILD_OPTIONS="${opt[$v]}" GST_CL_CACHE_DIR=/tmp/clcache-$v timeout 100 python3 bench/bench.py --build-dir build-dev --devices gpu \
        --sizes 480p,1080p,4K --items clhisteq-clahe --kinds ours,floor --reps 2 --out "$out/bench-$v-$pass" > /dev/null 2>&1
      awk -F, '$7=="ours"{printf "%s/%s %.4f (floor %.4f)  ", $3,$6,$13,$16}' "$out/bench-$v-$pass/bench.csv"; echo
      rm -rf "$out/bench-$v-$pass"
    done
  done
  echo "=== end ($(date +%T))"
} > "$out/run1.out" 2>&1
