#!/bin/bash
# Session 20, device run 1: clhisteq's one GPU launch a frame
# (histeq_equalize_c1) and the fused kernel's 16-byte histogram loads,
# against the base (cf2344d, build-base). The histeq checker on the GPU
# (every path, the new "one" included), then bench_histeq taking turns:
# base, new with the apply in its own launch (GST_CL_HISTEQ_ONE_LAUNCH=0),
# new in one launch with 1, 2 and 4 groups a compute unit; then bench.py
# (clhisteq and the 3-element chain against the floor), new with
# ONE_LAUNCH 0 and 1 in turn.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run1}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > "$out/check-histeq.txt" 2>&1
  echo "exit $?"; tail -1 "$out/check-histeq.txt"; grep -m5 FAIL "$out/check-histeq.txt"
  grep " one hist" "$out/check-histeq.txt" | head -20
} 2>&1 | tee "$out/check.log"
cfgs="base:build-base:x dev-two:build-dev:GST_CL_HISTEQ_ONE_LAUNCH=0 dev-one1:build-dev:GST_CL_HISTEQ_EQ_GROUPS=1 dev-one2:build-dev:GST_CL_HISTEQ_EQ_GROUPS=2 dev-one4:build-dev:GST_CL_HISTEQ_EQ_GROUPS=4"
for pass in 1 2; do
  for c in $cfgs; do
    IFS=: read name b env <<< "$c"
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass $name bench_histeq $sz"
      env $env timeout 60 $b/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
    done
  done
done 2>&1 | tee "$out/kernels.log"
for c in two one two one; do
  e=$([ $c = one ] && echo 1 || echo 0)
  echo "=== bench.py GPU, ONE_LAUNCH=$e ($(date +%T))"
  GST_CL_HISTEQ_ONE_LAUNCH=$e GST_PLUGIN_PATH=$PWD/build-dev timeout 150 python3 bench/bench.py --build-dir build-dev \
    --devices gpu --sizes 480p,1080p,4K --items clhisteq,blur+sobel+histeq \
    --kinds ours,floor --reps 2 --out "$out/bench-$c" > "$out/bench-$c-$(date +%s).log" 2>&1
  echo "exit $?"
done 2>&1 | tee "$out/bench.log"
for f in "$out"/bench-*.log; do
  echo "== $f"; grep -E "^  ours " "$f" | awk '{print $2, "kernel", $(NF-3), "k/floor", $(NF-2)}'
done | tee -a "$out/bench.log"
cat "$out/check.log" "$out/kernels.log" "$out/bench.log" > "$out/run1.out"
