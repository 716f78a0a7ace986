#!/bin/bash
# Session 27, device run 4: the LUT maker's smoothing step (frame_lut_group
# after its sums: 2.4-3.1 us in run 3, against 0.6 without smoothing) by
# globaltimer stamps (build-trace: 32b4288 with trace.diff, which also
# stamps before the Newton steps), with timing-only variants: the Newton
# steps as a loop (-DNEWTON_UNROLL=0), native division (-DNATIVE_DIV=1),
# 1 and 0 Newton steps (-DNEWTON_ITERS=n; wrong output).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2; do
    for v in plain "-DNEWTON_UNROLL=0" "-DNATIVE_DIV=1" "-DNEWTON_ITERS=1" "-DNEWTON_ITERS=0"; do
      o="-DEQ_TRACE=1"; [ "$v" != plain ] && o="$o $v"
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass [$v] stamps bench_histeq $sz ($(date +%T))"
        EQ_TRACE=1 GST_CL_CACHE_DIR="/tmp/clcache-${v// /_}" GST_CL_BUILD_OPTIONS="$o" timeout 90 \
          build-trace/bench/bench_histeq $sz gpu 2>&1 | grep -E -A1 "GRAY8 .*global.*fused|rror" | grep -E -A1 "smooth=8|rror"
      done
    done
  done
} > "$out/run4.out" 2>&1
