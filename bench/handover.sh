#!/bin/bash
# What a hand-over between devices costs: clblur ! clsobel with the two
# elements on the same device or on different ones (GPU and CPU), at 1080p,
# frames from memory (imagefreeze repeats one frame). Prints ms per frame
# and, through cltrace, the host waits and transfers per frame.
#   . .device/env.sh && bench/handover.sh [FRAMES]
# Needs GST_PLUGIN_PATH on the build folder and CLTRACE (path of cltrace.so,
# default .device/tools/cltrace.so) to count OpenCL calls.
frames=${1:-1000}
trace=${CLTRACE:-.device/tools/cltrace.so}
tmp=$(mktemp -d)
# Wall time of one pipeline run with $1 frames, in seconds.
timed() {  # frames format blur-device sobel-device [env...]
  local n=$1 f=$2 d1=$3 d2=$4; shift 4
  local t0=$(date +%s.%N)
  env "$@" gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=snow \
      ! video/x-raw,format=$f,width=1920,height=1080 \
      ! imagefreeze num-buffers=$n ! clblur device=$d1 ! clsobel device=$d2 \
      ! fakesink > /dev/null 2>&1 || echo "  (exit $?)" >&2
  local t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
# Per-frame cost without the start-up: (t(N) - t(20)) / (N - 20).
run() {  # format blur-device sobel-device
  timed 20 "$@" > /dev/null        # warm-up: program cache, driver start
  local short=$(timed 20 "$@") long=$(timed $frames "$@" \
      CLTRACE_OUT=$tmp/t LD_PRELOAD="$trace libOpenCL.so.1")
  awk -v a="$short" -v b="$long" -v n="$frames" -v f="$1" -v d1="$2" -v d2="$3" \
      'BEGIN { printf "%-6s clblur %-4s ! clsobel %-4s %8.3f ms/frame", f, d1, d2, (b - a) * 1000 / (n - 20) }'
  awk -v n="$frames" '$2 != 0 && $1 ~ /^(finish|wait_for_events|blocking_map|nonblocking_map|blocking_read|nonblocking_read|blocking_write|nonblocking_write|read_bytes|write_bytes|copy_buffer)$/ { printf "  %s %.2f", $1, $2 / n } END { print "" }' "$tmp/t" 2>/dev/null || echo
}
echo "# $(date -u +%F) $(nproc) cores; $frames frames 1920x1080; marginal wall time per frame (start-up subtracted); per-frame OpenCL calls from cltrace"
for fmt in GRAY8 NV12; do
  for pair in "gpu gpu" "cpu cpu" "cpu gpu" "gpu cpu"; do
    run $fmt $pair
  done
done
rm -rf "$tmp"
