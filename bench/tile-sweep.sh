#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Sweeps the tiled blur's tile height and work-group shape (the
# GST_CL_BLUR_TILE tuning knob) at 1080p and 4K, GRAY8, NV12 and I420: per
# setting, the kernel time per frame (planes one launch each and all in one
# launch) and kernel/floor, on the GPU; then clsobel's (GST_CL_SOBEL_TILE).
# The settings apply to the tiles in the order the device uses (vertical
# first where it fits); GST_CL_BLUR_VFIRST=0 / GST_CL_SOBEL_VFIRST=0 sweep
# the horizontal-first ones.
# A report, never a test. BLUR_TILE_SETTINGS / SOBEL_TILE_SETTINGS replace
# the lists of settings.
# Usage: bench/tile-sweep.sh [BUILD_DIR [ITERATIONS [DEVICES]]]
#   e.g. on the GPU machine: . .device/env.sh && bench/tile-sweep.sh build
# Prints one line per (setting, size, format, path); the summary at the end
# lists the fastest setting per size and format.
build=${1:-build}
iters=${2:-50}
devices=${3:-gpu}
settings=${BLUR_TILE_SETTINGS:-"auto 8 16 32 64 8:32x4 16:32x4 16:32x16 32:32x16 64:32x16 8:64x4 16:64x4 32:64x4 16:64x8 32:64x8 4:32x4 8:32x8"}
out=$(mktemp)
for s in $settings; do
  for size in "1920 1080" "3840 2160"; do
    if [ "$s" = auto ]; then
      env -u GST_CL_BLUR_TILE "$build/bench/bench_blur_frames" $size 1.1 5 "$iters" "$devices"
    else
      GST_CL_BLUR_TILE=$s "$build/bench/bench_blur_frames" $size 1.1 5 "$iters" "$devices"
    fi | awk -v s="$s" -v size="${size% *}" '
      /^blur frames/ { next } /^device/ { next }
      { printf "%-10s %-5s %s\n", s, size, $0 }'
  done
done | tee "$out"
echo
echo "fastest setting per size, format and path (kernel ms, k/floor):"
# columns from the end: wg tiles ratio floor kernel path format
awk '{
  key = sprintf ("%-5s %-6s %-10s", $2, $(NF-6), $(NF-5)); ms = $(NF-4) + 0;
  if (!(key in best) || ms < best[key]) {
    best[key] = ms; who[key] = $1; ratio[key] = $(NF-2)
  }
} END {
  for (k in best) printf "  %s  %-10s %8.4f ms  %s\n", k, who[k], best[k], ratio[k]
}' "$out" | sort
rm -f "$out"

# clsobel's tiled kernel: GST_CL_SOBEL_TILE = ROWS[:WXxWY] (default 16:16x16)
ssettings=${SOBEL_TILE_SETTINGS:-"auto 8:16x8 32:16x16 32:16x8 64:16x16 16:32x8 32:32x8 64:32x8 32:32x4 64:32x4 16:8x16 32:64x4 64:64x4"}
echo
echo "clsobel tiled (GRAY8 in, GRAY8 out, ksize 3/5/7, magnitude and x):"
for s in $ssettings; do
  for size in "1920 1080" "3840 2160"; do
    if [ "$s" = auto ]; then
      env -u GST_CL_SOBEL_TILE "$build/bench/bench_sobel_kernels" $size "$iters" tiled "$devices"
    else
      GST_CL_SOBEL_TILE=$s "$build/bench/bench_sobel_kernels" $size "$iters" tiled "$devices"
    fi | awk -v s="$s" -v size="${size% *}" '$0 ~ / y .*tiled/ { printf "%-10s %-5s %s\n", s, size, $0 }'
  done
done | tee "$out"
echo
echo "clsobel: fastest setting per size, ksize and mode (kernel ms, k/floor):"
awk '{
  for (i = NF; i > 0; i--) if ($i ~ /^[0-9.]+x$/) break;
  key = sprintf ("%-5s k%s %-9s", $2, $(i-5), $(i-4)); ms = $(i-3) + 0;
  if (!(key in best) || ms < best[key]) { best[key] = ms; who[key] = $1; ratio[key] = $i }
} END {
  for (k in best) printf "  %s  %-10s %8.4f ms  %s\n", k, who[k], best[k], ratio[k]
}' "$out" | sort
rm -f "$out"
