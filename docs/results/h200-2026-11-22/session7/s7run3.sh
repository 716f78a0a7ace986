#!/bin/bash
# session 7, device run 3: blur_fixed_rows against the column-strip bands in a pipeline on the Xeon (PoCL 5.0), 2 pinned cores and all 16, alternating
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s7r3; mkdir -p $R
P2="env POCL_CPU_MAX_CU_COUNT=2 POCL_MAX_PTHREAD_COUNT=2 OPENCV_FOR_THREADS_NUM=2 taskset -c 0,1"
for i in 1 2 3 4 5 6; do
  for rows in 1 0; do
    GST_CL_BLUR_FIXED_ROWS=$rows timeout 40 $P2 python3 bench/bench.py --devices cpu --sizes 1080p --formats GRAY8,NV12 --items clblur --kinds ours --reps 3 --seconds 0.3 --out $R/p2-rows$rows-$i > /dev/null 2>&1
  done
done
for i in 1 2 3; do
  for rows in 1 0; do
    GST_CL_BLUR_FIXED_ROWS=$rows timeout 40 python3 bench/bench.py --devices cpu --sizes 1080p,4K --formats GRAY8,NV12 --items clblur --kinds ours --reps 3 --seconds 0.3 --out $R/p16-rows$rows-$i > /dev/null 2>&1
  done
done
python3 - $R > $R/summary.txt <<'PY'
import glob, json, os, statistics, sys
res = {}
for f in glob.glob(sys.argv[1] + "/*/bench.json"):
    tag = os.path.basename(os.path.dirname(f)).rsplit("-", 1)[0]
    for r in json.load(open(f))["rows"]:
        if r.get("kind") == "ours" and "ms" in r:
            res.setdefault((tag, r["size"], r["format"]), []).append((r["ms"], r.get("kernel_ms") or 0))
for k, v in sorted(res.items()):
    print(*k, "n=%d" % len(v), "ms median %.3f best %.3f" % (statistics.median(a for a, b in v), min(a for a, b in v)),
          "kernel median %.3f best %.3f" % (statistics.median(b for a, b in v), min(b for a, b in v)))
PY
cd $O && tar czf s7r3.tgz s7r3 && rm -rf s7r3
