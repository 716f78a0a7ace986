#!/bin/bash
# Session 38, run 5: run 4's build with the policy's fix (on the CPU, the
# GPU's time under a load that is still there is at least what it
# measured under it: no return on the time-slice model alone). The auto
# timeline (MODES=auto) under four loaders at 1080p and 640x480, where run
# 4 flapped every 1.5 s, and under one loader at 1080p.
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run5.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache GST_PLUGIN_PATH=$PWD/build
for sl in 1920x1080:4 640x480:4 1920x1080:1; do
  size=${sl%:*} loaders=${sl#*:}
  echo "=== $size, $loaders loaders $(date +%T)"
  SIZE=$size LOADERS=$loaders MODES=auto timeout 100 bench/auto-timeline.sh "$out/tl-$size-$loaders" 22 5 10 2>&1 | grep -v "^stats:" || echo "timeline exit $?"
  awk -F, 'NR>1 {printf "  %s %s %s busy %s ms/frame %s\n", $1, $2, $3, $5, $6}' "$out/tl-$size-$loaders/auto.csv" | awk 'NR % 4 == 1'
done
(cd "$out" && tar czf timelines.tgz tl-* && rm -rf tl-*)
echo "=== done $(date +%T)"
