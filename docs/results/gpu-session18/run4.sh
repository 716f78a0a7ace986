#!/bin/bash
# Session 18, device run 4: after the review (474328b: one row-span helper
# for both global applies, the LUT flag from the band claims). The histeq
# checker's CPU global paths on every device, with and without VBMI.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run4}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
for v in 1 0; do
  echo "=== histeq checker, serial-one and serial-fused, GST_CL_VBMI=$v ($(date +%T))"
  GST_CL_VBMI=$v HISTEQ_CHECK_PATHS=serial-one,serial-fused timeout 300 \
    build-dev/tests/check_histeq_kernels > "$out/histeq-check-vbmi$v.txt" 2>&1
  echo "exit $?"; tail -1 "$out/histeq-check-vbmi$v.txt"; grep -m5 FAIL "$out/histeq-check-vbmi$v.txt"
done | tee "$out/run4.log"
