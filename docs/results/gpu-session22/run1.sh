#!/bin/bash
# Session 22, device run 1: where the one-launch GPU kernel's time goes.
# plant-bin/bench_trace: bench_histeq of this tree with globaltimer stamps
# (inline PTX, ns) at each step of histeq_equalize_(keep_)c1, written by
# every group's item 0 into the partial-histogram buffer, which that
# kernel does not use past its first 256 words (not kept: timing only).
# - bench_histeq as committed, then the traced build without and with
#   EQ_TRACE (the stamps' own cost), 480p, 1080p and 4K.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
    echo "=== dev bench_histeq $sz"
    timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
    echo "=== trace build, no stamps read, $sz"
    timeout 60 plant-bin/bench_trace $sz gpu 2>&1 | grep -E "GRAY8.*fused|error|rror"
    echo "=== trace build, EQ_TRACE, $sz"
    EQ_TRACE=1 timeout 90 plant-bin/bench_trace $sz gpu 2>&1 | grep -E -A2 "GRAY8.*fused|rror" | grep -v "^  -> "
  done
} > "$out/run1.out" 2>&1
