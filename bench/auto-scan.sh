#!/bin/bash
# Where does a GPU load from other processes make the CPU device the better
# one? For each frame size and number of tools/gpu-load processes, runs the
# auto-timeline pipeline pinned to the GPU and pinned to the CPU device for
# SECONDS each while the load runs, and prints their mean frames per second
# side by side. Picks the configuration for bench/auto-timeline.sh.
#   bench/auto-scan.sh OUT [SECONDS=6]
# Environment: SIZES ("640x480 1280x720 1920x1080"), LOADERS_LIST ("0 1 4"),
# TIMELINE_FORMAT, TIMELINE_CHAIN (as bench/auto_timeline), LOAD_ARGS;
# LOAD_DEVICE, PIN_GPU, PIN_CPU (gpu, gpu, cpu): a dry run without a GPU
# can name PoCL devices instead.
set -eu
out=${1:?usage: auto-scan.sh OUT [SECONDS]}
seconds=${2:-6}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=${GST_CL_CACHE_DIR:-/tmp/clcache}
export GST_DEBUG=${GST_DEBUG:-cl*:1}

mean_fps() {   # the CSV's fps column without the first second
  awk -F, 'NR > 5 { s += $2; n++ } END { if (n) printf "%.1f", s / n; else printf "nan" }' "$1"
}

printf "%-10s %-8s %10s %10s %8s\n" size loaders gpu_fps cpu_fps cpu/gpu
for size in ${SIZES:-640x480 1280x720 1920x1080}; do
  w=${size%x*} h=${size#*x}
  for loaders in ${LOADERS_LIST:-0 1 4}; do
    pids=
    for l in $(seq 1 "$loaders"); do
      build/tools/gpu-load --kernel tools/gpu-load.cl --device "${LOAD_DEVICE:-gpu}" \
          --seconds 3600 ${LOAD_ARGS:-} > /dev/null 2>> "$out/load.log" &
      pids="$pids $!"
    done
    [ "$loaders" = 0 ] || sleep 2   # calibration, then steady load
    for dev in gpu cpu; do
      pin=$([ $dev = gpu ] && echo "${PIN_GPU:-gpu}" || echo "${PIN_CPU:-cpu}")
      timeout $((seconds + 60)) build/bench/auto_timeline "$pin" "$seconds" \
          "$w" "$h" "$out/$size-$loaders-$dev.csv" /dev/null \
          2> "$out/$size-$loaders-$dev.log" || cat "$out/$size-$loaders-$dev.log"
    done
    [ -z "$pids" ] || kill $pids 2> /dev/null || true
    wait $pids 2> /dev/null || true
    g=$(mean_fps "$out/$size-$loaders-gpu.csv")
    c=$(mean_fps "$out/$size-$loaders-cpu.csv")
    printf "%-10s %-8s %10s %10s %8s\n" "$size" "$loaders" "$g" "$c" \
        "$(awk -v g="$g" -v c="$c" 'BEGIN { if (g > 0) printf "%.2f", c / g }')"
  done
done | tee "$out/scan.txt"
