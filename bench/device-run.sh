#!/bin/bash
# Everything measured on the GPU machine in one go (see docs/PERFORMANCE.md).
# From the checkout root there, after building here:
#   . .device/env.sh && bench/device-run.sh "$OUT"
# Writes logs into the given folder; each step is bounded in time.
out=${1:-/tmp/device-run}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
step() { echo "=== $1"; }
{
step "machine"; nproc; grep -m1 "model name" /proc/cpuinfo; nvidia-smi -L 2>/dev/null
step "clinfo"; clinfo -l
step "gst-inspect"; gst-inspect-1.0 clblur | sed -n '1,12p'
step "floors 1080p and 4K (cllimits)"
.device/tools/cllimits 1920 1080 1; .device/tools/cllimits 3840 2160 1
step "kernel times 1080p 5x5, 9x9; 4K 5x5"
build/bench/bench_kernels 1920 1080 1.1 50 "" 5
build/bench/bench_kernels 1920 1080 1.1 50
build/bench/bench_kernels 3840 2160 1.1 50 "" 5
} > "$out/bench.log" 2>&1
step "kernel checker (every device, every variant)" >> "$out/check.log"
timeout 300 build/tests/check_blur_kernels >> "$out/check.log" 2>&1; echo "exit $?" >> "$out/check.log"
{
step "element tests (device=auto picks the GPU)"
timeout 200 build/tests/check_clblur; echo "exit $?"
step "pipeline through the GPU: host waits and transfers (cltrace)"
for dev in gpu cpu; do
  CLTRACE_OUT=$out/trace-$dev.txt LD_PRELOAD=".device/tools/cltrace.so libOpenCL.so.1" \
    gst-launch-1.0 -q videotestsrc num-buffers=300 ! video/x-raw,format=NV12,width=1920,height=1080 \
    ! clblur device=$dev ! clblur device=$dev ! filesink location=/dev/null; echo "$dev exit $?"
  grep -v ' 0$' "$out/trace-$dev.txt" | tr '\n' ' '; echo
done
} > "$out/elements.log" 2>&1
if command -v python3 >/dev/null; then
  timeout 240 python3 bench/bench_blur.py --build-dir build --quick > "$out/peers.log" 2>&1
fi
tail -5 "$out/check.log"; grep -E "exit|Checks" "$out/elements.log"
