#!/bin/bash
# Session 27, device run 5: is the LUT maker's step slow because its code
# is cold? build-trace (trace.diff) with -DWARM_TWICE=1: the maker runs
# frame_lut_group () twice, the stamps of the second (its Newton steps:
# maker_newton to maker_lut) against one run (timing only).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run5}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2; do
    for v in plain "-DWARM_TWICE=1"; do
      o="-DEQ_TRACE=1"; [ "$v" != plain ] && o="$o $v"
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass [$v] stamps bench_histeq $sz ($(date +%T))"
        EQ_TRACE=1 GST_CL_CACHE_DIR="/tmp/clcache-${v// /_}" GST_CL_BUILD_OPTIONS="$o" timeout 90 \
          build-trace/bench/bench_histeq $sz gpu 2>&1 | grep -E -A1 "GRAY8 .*global.*fused|rror" | grep -v "^--"
      done
    done
  done
} > "$out/run5.out" 2>&1
