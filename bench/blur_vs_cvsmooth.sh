#!/bin/sh
# clblur against cvsmooth (5x5 Gaussian) on the CPU device, 1080p GRAY8 and
# NV12: RUNS runs of bench/bench.py, one after another, each printing both
# in the same run, then best-of and median per build. With OTHER_PLUGIN_DIR,
# each run is followed by the same run with that plugin (e.g. main's build),
# interleaved, so both see the same machine load. A report, never a test.
#
# Usage: bench/blur_vs_cvsmooth.sh [RUNS [OTHER_PLUGIN_DIR]]
# ITEMS=clblur,clsobel,... and KINDS=ours,gst,cv (bench.py's --items and
# --kinds) measure other elements and peers the same way.
# On a bigger machine, pinned to 2 cores like the CI machine:
#   POCL_MAX_PTHREAD_COUNT=2 taskset -c 0,1 bench/blur_vs_cvsmooth.sh 5
set -eu
runs=${1:-5}
other=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for i in $(seq 1 "$runs"); do
  for who in this ${other:+other}; do
    set -- --items "${ITEMS:-clblur}" --sizes 1080p --formats GRAY8,NV12 \
        --devices cpu --kinds "${KINDS:-ours,gst}" --reps 3 --out "$out/$who-$i"
    [ "$who" = other ] && set -- "$@" --plugin-dir "$other"
    /usr/bin/python3 "$here/bench/bench.py" "$@" >/dev/null 2>&1 ||
        echo "run $i ($who) failed" >&2
  done
done

/usr/bin/python3 - "$out" <<'EOF'
import glob, json, os, statistics, sys
res = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*", "bench.json"))):
    who = os.path.basename(os.path.dirname(f)).split("-")[0]
    for r in json.load(open(f))["rows"]:
        if "ms" not in r or "+videoconvert" in r["impl"]:
            continue
        res.setdefault((r["item"], r["format"], who, r["impl"]), []).append(r["ms"])
print("ms per frame, 1080p, CPU device; peers fed another format: conversions subtracted")
print(f"{'item':18} {'format':7} {'build':6} {'element':44} {'runs':>4} {'best':>7} {'median':>7}  all")
for (item, fmt, who, impl), v in sorted(res.items()):
    print(f"{item:18} {fmt:7} {who:6} {impl[:44]:44} {len(v):4} {min(v):7.3f} "
          f"{statistics.median(v):7.3f}  " + " ".join(f"{x:.3f}" for x in v))
EOF
