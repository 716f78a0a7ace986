#!/bin/bash
# device=auto under a GPU load from another process, for real (GPU machine):
# the same pipeline three times, device=auto, device=gpu and device=cpu,
# each for SECONDS while tools/gpu-load saturates the GPU from LOAD_AT for
# LOAD_FOR seconds. Writes OUT/{auto,gpu,cpu}.csv (throughput and device
# every 0.25 s), OUT/*-events.csv (switch messages), OUT/load-*.txt (load
# on/off times, same clock). Plot: bench/plot_auto_timeline.py OUT PNG.
#   bench/auto-timeline.sh OUT [SECONDS=30] [LOAD_AT=8] [LOAD_FOR=12]
# Environment: SIZE (1920x1080), LOAD_DEVICE (gpu), PIN_GPU (gpu) and
# PIN_CPU (cpu): a dry run without a GPU can name PoCL devices instead;
# LOAD_ARGS: more tools/gpu-load options (e.g. "--launch-ms 50");
# LOADERS: how many gpu-load processes (1; the first one's times count);
# TIMELINE_FORMAT, TIMELINE_CHAIN: the pipeline (build/bench/auto_timeline);
# SKIP_WARMUP=1: no warm-up run first; MODES: which of "auto gpu cpu" to
# run (all three); GST_CL_AUTO, GST_CL_AUTO_SOURCES pass through
# (docs/AUTO.md has the forced runs).
set -eu
out=${1:?usage: auto-timeline.sh OUT [SECONDS] [LOAD_AT] [LOAD_FOR]}
seconds=${2:-30}
load_at=${3:-8}
load_for=${4:-12}
py=${PYTHON:-python3}     # only for the summary (csv module)
size=${SIZE:-1920x1080}
w=${size%x*} h=${size#*x}
mkdir -p "$out"
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=${GST_CL_CACHE_DIR:-/tmp/clcache}
export GST_DEBUG=${GST_DEBUG:-cl*:2}
test -x build/tools/gpu-load -a -x build/bench/auto_timeline ||
  { echo "build first (ninja -C build)"; exit 1; }

{ echo "# $(date -u)"; nproc; nvidia-smi -L 2>/dev/null || true; clinfo -l; } \
    > "$out/machine.txt" 2>&1
# Warm the program caches of both devices (auto builds both at start).
# SKIP_WARMUP=1 (with fresh POCL_CACHE_DIR and GST_CL_CACHE_DIR): a fresh
# machine, where the first switch used to stall while PoCL compiled.
if [ -z "${SKIP_WARMUP:-}" ]; then
  timeout 120 build/bench/auto_timeline auto 2 "$w" "$h" "$out/warmup.csv" \
      "$out/warmup-events.csv"
fi

for mode in ${MODES:-auto gpu cpu}; do
  case $mode in gpu) dev=${PIN_GPU:-gpu};; cpu) dev=${PIN_CPU:-cpu};; *) dev=auto;; esac
  echo "=== device=$dev ($(date +%T))"
  loads=
  for l in $(seq 1 "${LOADERS:-1}"); do
    suffix=$([ "$l" = 1 ] && echo "" || echo "-$l")
    build/tools/gpu-load --kernel tools/gpu-load.cl \
        --device "${LOAD_DEVICE:-gpu}" --delay "$load_at" --seconds "$load_for" \
        ${LOAD_ARGS:-} \
        > "$out/load-$mode$suffix.txt" 2> "$out/load-$mode$suffix.log" &
    loads="$loads $!"
  done
  # Starts with the load's delay: the load's clock and ours are the same.
  timeout $((seconds + 60)) build/bench/auto_timeline "$dev" "$seconds" \
      "$w" "$h" "$out/$mode.csv" "$out/$mode-events.csv" 2> "$out/$mode.log" ||
    { cat "$out/$mode.log"; exit 1; }
  grep '^stats:' "$out/$mode.log" || true
  wait $loads
  cat "$out/load-$mode.txt"
done
"$py" - "$out" ${MODES:-auto gpu cpu} <<'PY'
import csv, sys
out, modes = sys.argv[1], sys.argv[2:]
for mode in modes:
    rows = list(csv.DictReader(open(f"{out}/{mode}.csv")))
    load = dict(l.split() for l in open(f"{out}/load-{mode}.txt"))
    on, off = float(load["load-on"]), float(load["load-off"])
    def mean(sel):
        v = [float(r["fps"]) for r in rows if sel(float(r["time"]))]
        return sum(v) / len(v) if v else float("nan")
    print(f"{mode:5s} fps before {mean(lambda t: t < on):8.1f}  "
          f"under load {mean(lambda t: on <= t < off):8.1f}  "
          f"after {mean(lambda t: t >= off + 3):8.1f}")
    last = rows[-1]
    print(f"      frame copies {last.get('frame_copies')}, wrapped inputs "
          f"{last.get('wrapped_inputs')} (context the chain ended on), "
          f"load sampling on the streaming thread "
          f"{last.get('inline_sample_ms')} ms")
if "auto" not in modes:
    sys.exit(0)
# device=auto while it ran on the CPU device against device=cpu under the
# same load: they should match (the H200 run had 60-70 against ~90).
auto = list(csv.DictReader(open(f"{out}/auto.csv")))
on_cpu = [float(r["fps"]) for r in auto[1:] if r["device"] == "cpu"]
pinned = whole = []
if "cpu" in modes:
    cpu = list(csv.DictReader(open(f"{out}/cpu.csv")))
    lc = dict(l.split() for l in open(f"{out}/load-cpu.txt"))
    pinned = [float(r["fps"]) for r in cpu if float(lc["load-on"]) <=
              float(r["time"]) < float(lc["load-off"])]
    whole = [float(r["fps"]) for r in cpu[1:]]
if on_cpu and pinned:
    print(f"auto on the CPU device {sum(on_cpu) / len(on_cpu):.1f} fps "
          f"({len(on_cpu)} samples), device=cpu under the load "
          f"{sum(pinned) / len(pinned):.1f} fps, whole run "
          f"{sum(whole) / len(whole):.1f} fps")
elif not on_cpu:
    print("auto never ran on the CPU device")
ev = list(csv.DictReader(open(f"{out}/auto-events.csv")))
load = dict(l.split() for l in open(f"{out}/load-auto.txt"))
on, off = float(load["load-on"]), float(load["load-off"])
for e in ev:
    t = float(e["time"])
    rel = f"{t - on:+.2f} s from load-on" if t < off else \
        f"{t - off:+.2f} s from load-off"
    print(f"switch to {e['to']:9s} ({e['reason']}) {rel}; busy {e['busy']}, "
          f"{e['ms_per_frame']} ms/frame, cpu {e['cpu_ms']} ms (warm-up "
          f"estimate {e['estimate_ms']}), target warmed {e['warmed']}; "
          f"{e['detail']} [{e['sources']}]")
PY
