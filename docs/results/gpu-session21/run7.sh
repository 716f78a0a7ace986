#!/bin/bash
# Session 21, device run 7: is run 6's 4K difference (0.001 ms) the flag's
# publication, which now waits for its atomic's old value in both kernels?
# bench_histeq at 4K (and 1080p), four passes in turns: c3cc142
# (build-base), the tree (build-dev), and plant-bin/bench_noret (the tree
# with the kernel without kept chunks publishing as c3cc142 did).
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run7}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2 3 4; do
    for b in base dev noret; do
      bin=build-$b/bench/bench_histeq
      [ $b = noret ] && bin=plant-bin/bench_noret
      for sz in "1920 1080 100" "3840 2160 60"; do
        echo "=== pass $pass $b bench_histeq $sz"
        timeout 60 $bin $sz gpu 2>&1 | grep -E "floors|GRAY8.*global.*fused"
      done
    done
  done
} > "$out/run7.out" 2>&1
