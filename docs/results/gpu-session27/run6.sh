#!/bin/bash
# Session 27, device run 6: the LUT maker's first Newton step stamped
# phase by phase (trace.diff as updated for this run: 16 words a group;
# m_flg_start = frame_lut_group ()'s start, m_terms0 .. m_div0 = the
# first step's terms, barrier, tree tops, barrier, sums and division,
# m_newton_end = after the third), plain and with -DNATIVE_DIV=1.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run6}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2; do
    for v in plain "-DNATIVE_DIV=1"; do
      o="-DEQ_TRACE=1"; [ "$v" != plain ] && o="$o $v"
      for sz in "1920 1080 200" "640 480 200"; do
        echo "=== pass $pass [$v] stamps bench_histeq $sz ($(date +%T))"
        EQ_TRACE=1 GST_CL_CACHE_DIR="/tmp/clcache-${v// /_}" GST_CL_BUILD_OPTIONS="$o" timeout 90 \
          build-trace/bench/bench_histeq $sz gpu 2>&1 | grep -E -A1 "GRAY8 .*global.*fused|rror" | grep -A1 "smooth=8"
      done
    done
  done
} > "$out/run6.out" 2>&1
