#!/bin/bash
# Session 18, device run 3: after the VBMI lookups (bf56bbf). Whether the
# Xeon has AVX-512 VBMI; the histeq checker's one-launch path on every
# device with the VBMI lookups (the default where the CPU has them) and
# without (GST_CL_VBMI=0); clhisteq's pipeline time per frame on PoCL,
# VBMI against not, 2 and 16 workers, 480p, 1080p and 4K, taking turns.
# . .device/env.sh && bash THIS "$OUT"
out=${1:-/tmp/run3}; mkdir -p "$out"
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build-dev
{ echo "=== machine"; nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo
  echo "=== CPU flags: $(grep -m1 flags /proc/cpuinfo | tr ' ' '\n' | grep -c -x avx512vbmi) avx512vbmi"
  for v in 1 0; do
    echo "=== histeq checker, one-launch path, GST_CL_VBMI=$v ($(date +%T))"
    GST_CL_VBMI=$v HISTEQ_CHECK_PATHS=serial-one timeout 300 build-dev/tests/check_histeq_kernels > "$out/histeq-check-vbmi$v.txt" 2>&1
    echo "exit $?"; tail -1 "$out/histeq-check-vbmi$v.txt"; grep -m5 FAIL "$out/histeq-check-vbmi$v.txt"
  done
  for t in 2 16; do
    for size in "640 480" "1920 1080" "3840 2160"; do
      set -- $size
      for r in 1 2 3; do
        for v in 1 0; do
          echo "=== GST_CL_VBMI=$v POCL_MAX_PTHREAD_COUNT=$t $size round $r"
          GST_CL_VBMI=$v POCL_AFFINITY=1 POCL_MAX_PTHREAD_COUNT=$t \
            timeout 60 build-dev/bench/bench_pipeline --format GRAY8 --width $1 --height $2 \
            --frames 500 --warmup 10 --seconds 0.3 identity "clhisteq device=cpu" 2>&1 | cut -c1-90
        done
      done
    done
  done
} > "$out/run3.log" 2>&1
cat "$out/run3.log"
