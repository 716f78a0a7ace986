#!/bin/bash
# Session 26, device run 2: what the one-launch global kernel's time is
# made of now (timing-only builds of this tree, their output wrong):
# -DTIMING_NOATOMICS (the histogram's local atomics replaced by one plain
# add an item), -DTIMING_NOLUT (frame_lut_group () returns at once), both;
# bench_histeq GRAY8 global, in turns with the plain build, twice; then
# bench_floor once for the floors beside them.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run2}; mkdir -p "$out"
{ echo "=== machine"; nvidia-smi -L
  for pass in 1 2; do
    for v in plain "-DTIMING_NOATOMICS" "-DTIMING_NOLUT" "-DTIMING_NOATOMICS -DTIMING_NOLUT"; do
      o=$v; [ "$v" = plain ] && o=""
      for sz in "1920 1080 200" "3840 2160 100" "640 480 200"; do
        echo "=== pass $pass [$v] bench_histeq $sz ($(date +%T))"
        GST_CL_CACHE_DIR="/tmp/clcache-${v// /_}" GST_CL_BUILD_OPTIONS="$o" timeout 90 \
          build-dev/bench/bench_histeq $sz gpu 2>&1 | grep -E "floors|GRAY8 .*global.*fused"
      done
    done
  done
  echo "=== bench_floor"
  timeout 60 build-dev/bench/bench_floor 50 307200 2073600 8294400 2>&1 | grep '^{'
} > "$out/run2.out" 2>&1
