#!/bin/bash
# Session 22, device run 2: the frame's histogram added into copies (rows
# of ghist, a group's by its slice: GST_CL_HISTEQ_EQ_GCOPIES, 1 is the old
# single row), and, for histeq_equalize_c1 (4K), each group applying its
# own slice instead of claiming bands (-DEQ_OWN_SLICES=1, not the default
# yet). build-base: ee9f458; build-dev: this tree.
# - the histeq checker on the GPU (every path), and path one with own
#   slices, with 1 and 8 groups a CU, and with every waiter giving up;
# - bench_histeq GRAY8 one launch: base, then dev with 1, 4, 8, 16 copies,
#   and 8 copies with own slices; twice;
# - the traced build (plant-bin/bench_trace, stamps as run 1) of this tree:
#   8 copies, and 8 copies with own slices.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{ echo "=== machine"; nvidia-smi -L
  echo "=== check_histeq_kernels, GPU ($(date +%T))"
  KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-histeq.txt 2>&1
  echo "exit $?"; tail -1 /tmp/check-histeq.txt; grep -m5 FAIL /tmp/check-histeq.txt
  for v in "1|" "8|" "2|-DEQG_MAX_POLLS=0" "8|-DEQG_MAX_POLLS=0"; do
    g=${v%%|*}; o=${v#*|}
    echo "=== check path one, own slices, EQ_GROUPS=$g $o"
    GST_CL_BUILD_OPTIONS="-DEQ_OWN_SLICES=1 $o" GST_CL_HISTEQ_EQ_GROUPS=$g HISTEQ_CHECK_PATHS=one KERNELCHECK_DEVICES=gpu timeout 200 build-dev/tests/check_histeq_kernels > /tmp/check-g.txt 2>&1
    echo "exit $?"; tail -1 /tmp/check-g.txt; grep -m3 FAIL /tmp/check-g.txt
  done
  for pass in 1 2; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== pass $pass base $sz"
      timeout 60 build-base/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8.*fused"
      for c in 1 4 8 16; do
        echo "=== pass $pass dev copies $c, $sz"
        GST_CL_HISTEQ_EQ_GCOPIES=$c timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8.*fused"
      done
      echo "=== pass $pass dev copies 8, own slices, $sz"
      GST_CL_BUILD_OPTIONS=-DEQ_OWN_SLICES=1 timeout 60 build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "GRAY8.*fused"
    done
  done
  for o in "" "-DEQ_OWN_SLICES=1"; do
    for sz in "640 480 200" "1920 1080 100" "3840 2160 60"; do
      echo "=== trace, 8 copies $o, $sz"
      GST_CL_BUILD_OPTIONS="$o" EQ_TRACE=1 timeout 90 plant-bin/bench_trace $sz gpu 2>&1 | grep -E -A2 "GRAY8.*global.*fused|rror" | grep -v "^  -> "
    done
  done
} > "$out/run2.out" 2>&1
