#!/bin/bash
# (ab.sh: ROUNDS then NAME:BUILD_DIR:ENV per configuration; prints ours ms, our kernel ms, cv2 ms and cv2/ours)
# usage: ab.sh ROUNDS "NAME:BUILD:ENV..." ...  per config, round and size: ours ms, kernel ms, cv2 ms
rounds=$1; shift
for r in $(seq $rounds); do
  for cfg in "$@"; do
    IFS=: read name build envs <<< "$cfg"
    env $envs POCL_AFFINITY=1 GST_PLUGIN_PATH=$build /usr/bin/python3 bench/bench.py --build-dir $build --sizes ${SIZES:-480p} --formats ${FORMATS:-GRAY8} --items ${ITEM:-clblur} --kinds ours,cv --devices cpu --reps 3 2>&1 |
      awk -v n="$name" '/ms per frame/ {sz=$1" "$2} /^  ours/ {o=$5; k=$7} /^  cv/ {if (!(sz in done)) {done[sz]=1; printf "%-5s %-12s ours %s kernel %s cv %s ratio %.2f\n", n, sz, o, k, $4, $4/o}}'
  done
done
