#!/bin/bash
# Session 27, device run 7: the LUT maker's clock (clock64 cycles over
# globaltimer ns across its Newton steps: newton_mhz; trace.diff as for
# this run, m_div0 now in slot 9) and whether the waiters' polling slows
# it (-DPOLL_SLEEP=N: nanosleep N ns between a waiter's polls).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,pstate --format=csv
  for pass in 1 2; do
    for v in plain "-DPOLL_SLEEP=100" "-DPOLL_SLEEP=500"; do
      o="-DEQ_TRACE=1"; [ "$v" != plain ] && o="$o $v"
      for sz in "1920 1080 200" "640 480 200"; do
        echo "=== pass $pass [$v] stamps bench_histeq $sz ($(date +%T))"
        EQ_TRACE=1 GST_CL_CACHE_DIR="/tmp/clcache-${v// /_}" GST_CL_BUILD_OPTIONS="$o" timeout 90 \
          build-trace/bench/bench_histeq $sz gpu 2>&1 | grep -E -A1 "GRAY8 .*global.*fused|rror" | grep -A1 "smooth=8"
      done
    done
  done
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,pstate --format=csv
} > "$out/run7.out" 2>&1
