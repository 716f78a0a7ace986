#!/bin/bash
# Session 37, run 7: this session's plugin on the GPU under faults
# (tools/faults-gpu.sh, fixed device and device=auto) and the clblur and
# clhisteq element tests there.
out=${1:?output folder}
mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache
{
  echo "=== 1. faults $(date +%T)"
  AUTO_GPU=0.0 timeout 200 tools/faults-gpu.sh gpu > "$out/faults.txt" 2>&1
  echo "faults-gpu.sh exit $?"
  grep -v 'GStreamer-WARNING\|^$' "$out/faults.txt" | cut -c1-220
  echo "=== 2. element tests $(date +%T)"
  for t in clblur clhisteq; do
    GST_PLUGIN_PATH=$PWD/build timeout 150 build/tests/check_$t > "$out/check_$t.txt" 2>&1
    echo "check_$t exit $?: $(grep -E 'Checks' "$out/check_$t.txt")"
    grep ':F:\|:E:' "$out/check_$t.txt" | head -5
  done
  echo "=== done $(date +%T)"
} 2>&1 | tee "$out/run7.log"
