#!/bin/bash
# What a hand-over between devices costs: clblur ! clsobel with the two
# elements on the same device or on different ones (GPU and CPU), at 1080p,
# frames from memory (imagefreeze repeats one frame). Prints ms per frame
# and, through cltrace, the host waits and transfers per frame.
#   . .device/env.sh && bench/handover.sh [FRAMES]
# Needs GST_PLUGIN_PATH on the build folder and CLTRACE (path of cltrace.so,
# default .device/tools/cltrace.so) to count OpenCL calls.
frames=${1:-300}
trace=${CLTRACE:-.device/tools/cltrace.so}
tmp=$(mktemp -d)
run() {  # format blur-device sobel-device
  local desc="videotestsrc num-buffers=1 pattern=snow ! video/x-raw,format=$1,width=1920,height=1080 ! imagefreeze num-buffers=$frames ! clblur device=$2 ! clsobel device=$3 ! fakesink"
  # Warm-up run (program cache, driver start), then the timed one.
  gst-launch-1.0 -q $desc > /dev/null 2>&1
  local t0=$(date +%s.%N)
  CLTRACE_OUT=$tmp/t LD_PRELOAD="$trace libOpenCL.so.1" gst-launch-1.0 -q $desc > /dev/null 2>&1 || echo "  (exit $?)"
  local t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v n="$frames" -v f="$1" -v d1="$2" -v d2="$3" \
      'BEGIN { printf "%-6s clblur %-4s ! clsobel %-4s %8.3f ms/frame", f, d1, d2, (b - a) * 1000 / n }'
  awk -v n="$frames" '$2 != 0 && $1 ~ /^(finish|wait_for_events|blocking_map|nonblocking_map|blocking_read|nonblocking_read|blocking_write|nonblocking_write|read_bytes|write_bytes|copy_buffer)$/ { printf "  %s %.2f", $1, $2 / n } END { print "" }' "$tmp/t" 2>/dev/null || echo
}
echo "# $(date -u +%F) $(nproc) cores; $frames frames 1920x1080; wall time incl. start-up; per-frame OpenCL calls from cltrace"
for fmt in GRAY8 NV12; do
  for pair in "gpu gpu" "cpu cpu" "cpu gpu" "gpu cpu"; do
    run $fmt $pair
  done
done
rm -rf "$tmp"
